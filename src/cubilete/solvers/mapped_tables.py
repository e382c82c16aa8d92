"""Solved tables as files every process maps read-only: the operating system keeps one copy of a table
for all the processes of an install, and a process that maps it adds only the pages it reads.

A file is a small JSON header, then each array at an offset aligned for any dtype. The header names the
format's version, the table's key (its rules and solver version) and each array's dtype, shape and offset,
with a checksum of that layout and the file's size: a file that is truncated, of another format or key, or
whose header was damaged is refused (`read` answers None), so that the table cache builds it again rather
than trust it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any, BinaryIO

import numpy as np

MAGIC = b"cubilete-table\n"
FORMAT_VERSION = 1
ALIGN = 64  # bytes: every array starts at a multiple, as any dtype (and a cache line) wants
LENGTH_BYTES = 8  # the header's length, after the magic


def write(stream: BinaryIO, key: Mapping[str, Any], arrays: Mapping[str, np.ndarray]) -> None:
    """Write these arrays under this key (rules and solver version) in the mapped format."""
    layout, offset = [], 0
    contiguous = {name: np.asarray(array, order="C") for name, array in arrays.items()}  # 0-d kept 0-d
    for name, array in contiguous.items():
        layout.append({"name": name, "dtype": array.dtype.str, "shape": list(array.shape), "offset": offset})
        offset += _aligned(array.nbytes)
    header = json.dumps(
        {"format": FORMAT_VERSION, "key": key, "arrays": layout, "data_bytes": offset, "checksum": _checksum(layout)},
        sort_keys=True,
    ).encode()
    header += b" " * (_aligned(len(MAGIC) + LENGTH_BYTES + len(header)) - len(MAGIC) - LENGTH_BYTES - len(header))
    stream.write(MAGIC + len(header).to_bytes(LENGTH_BYTES, "little") + header)
    for array in contiguous.values():
        stream.write(array.tobytes())  # a copy per array: a table is written once per install
        stream.write(b"\0" * (_aligned(array.nbytes) - array.nbytes))


def read(path: Path, key: Mapping[str, Any]) -> dict[str, np.ndarray] | None:
    """The arrays of the file, mapped read-only, or None when it is missing, truncated, of another
    format or key, or damaged."""
    try:
        with open(path, "rb") as stream:
            if stream.read(len(MAGIC)) != MAGIC:
                return None
            length = int.from_bytes(stream.read(LENGTH_BYTES), "little")
            header = json.loads(stream.read(length))
        start = len(MAGIC) + LENGTH_BYTES + length
        layout = header["arrays"]
        if (
            header["format"] != FORMAT_VERSION
            or header["key"] != json.loads(json.dumps(key))  # compared as JSON reads it back
            or header["checksum"] != _checksum(layout)
            or path.stat().st_size != start + header["data_bytes"]
        ):
            return None
        if header["data_bytes"] == 0:
            return {entry["name"]: read_only(np.zeros(entry["shape"], entry["dtype"])) for entry in layout}
        data = np.memmap(path, dtype=np.uint8, mode="r", offset=start)
        return {
            entry["name"]: _view(data, entry["offset"], np.dtype(entry["dtype"]), tuple(entry["shape"]))
            for entry in layout
        }
    except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
        return None


def file_bytes(path: Path) -> int | None:
    """The size of a table's file, None when there is none: what mapping it adds to the install."""
    try:
        return path.stat().st_size
    except OSError:
        return None


def _view(data: np.ndarray, offset: int, dtype: np.dtype[Any], shape: tuple[int, ...]) -> np.ndarray:
    count = int(np.prod(shape, dtype=np.int64))
    return np.asarray(data[offset : offset + count * dtype.itemsize]).view(dtype).reshape(shape)  # a plain array for Numba


def read_only(array: np.ndarray) -> np.ndarray:
    """The array, made read-only as a mapped one is: the same type for Numba (one compile of each kernel
    that reads it), and no write by mistake."""
    array.setflags(write=False)
    return array


def _aligned(size: int) -> int:
    return -(-size // ALIGN) * ALIGN


def _checksum(layout: list[dict[str, Any]]) -> str:
    return hashlib.sha256(json.dumps(layout, sort_keys=True).encode()).hexdigest()[:16]
