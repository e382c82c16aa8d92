"""Solved tables kept in memory and on disk: every solver's table is loaded or built here.

A table is built once per key (its rules and solver version), saved in the cache
directory and loaded by later processes; a process keeps each table it has in memory.
Threads build or load each table one at a time (others' tables do not wait). Processes sharing the
cache directory build a table one at a time: the first takes a
lock file beside the table's, and the others wait for it, then load what it saved. A table that
processes map from its file (solvers/mapped_tables.py) is loaded back from the file once built, so that
its builder too holds the operating system's shared copy rather than its own.
Work in progress is reported through a `Progress` callback, never drawn here: the CLI
adapts it to a progress bar, the web app's table gate (web/tables.py) passes none.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from collections.abc import Callable, Hashable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from filelock import FileLock

from .cache_dir import cache_dir

T = TypeVar("T")

Progress = Callable[[int, int, str], None]
"""progress(done, total, label): `done` of `total` steps of the work that `label` names."""

# Tables by their key parts and cache directory. Callers pass the same few rule objects at
# every move and hashing a rule set walks all its fields, so tables are first looked up by
# the parts' identity: the entry keeps the parts (so their ids stay theirs) and the directory
# the table came from.
_tables: dict[tuple[Hashable, ...], Any] = {}
_by_identity: dict[tuple[int, ...], tuple[tuple[Hashable, ...], Path, Any]] = {}
# One load or build per table at a time: callers of the same table wait for it, others do not (a table
# loaded from disk in milliseconds must not wait behind another's build of minutes).
_building: dict[tuple[Hashable, ...], threading.Lock] = {}
_guard = threading.Lock()  # the dicts above


def table_path(name: str, key: dict[str, Any], suffix: str) -> Path:
    """The file of a table: any change to its key (rules, solver version) gives a new name."""
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]
    safe_name = re.sub(r"[^a-z0-9-]+", "_", name.lower())
    return cache_dir() / f"{safe_name}-{digest}{suffix}"


def load_or_build(
    parts: tuple[Hashable, ...],
    path: Callable[[], Path],
    load: Callable[[Path], T | None],
    build: Callable[[Progress | None], T],
    save: Callable[[T, BinaryIO], None],
    progress: Progress | None = None,
    mapped: bool = False,
) -> T:
    """The table of these key parts: from memory, else loaded from its file (`load` answers
    None for a missing, damaged or foreign file), else built (reporting to `progress`) and saved;
    a `mapped` table is loaded back from the file it was saved to (the built one when it could not be)."""
    table = _find(parts, path, load, lambda file: _build_once(file, load, build, save, progress, mapped))
    assert table is not None  # built when found nowhere
    return table


def load_saved(parts: tuple[Hashable, ...], path: Callable[[], Path], load: Callable[[Path], T | None]) -> T | None:
    """The table of these key parts from memory or from its file, as `load_or_build` finds it, or None
    when it is in neither: nothing is built."""
    return _find(parts, path, load, lambda file: None)


def in_memory(parts: tuple[Hashable, ...]) -> Any | None:
    """The table of these key parts when this process holds it, else None (nothing is loaded): the
    quick path of advice, which asks for the same table at every call. A table is a function of its
    key parts alone, so one held from any cache directory answers: the directory is not looked up
    (reading the environment for it costs more than the rest of this lookup)."""
    known = _by_identity.get(_identity(parts))
    return None if known is None else known[2]


def _identity(parts: tuple[Hashable, ...]) -> tuple[int, ...]:
    return tuple(map(id, parts))


def _find(
    parts: tuple[Hashable, ...],
    path: Callable[[], Path],
    load: Callable[[Path], T | None],
    otherwise: Callable[[Path], T | None],
) -> T | None:
    directory = cache_dir()
    known = _by_identity.get(_identity(parts))
    if known is not None and known[1] is directory:  # cache_dir gives one object per directory
        return known[2]
    key = (*parts, directory)
    with _guard:
        building = _building.setdefault(key, threading.Lock())
    with building:
        with _guard:
            table = _tables.get(key)
        if table is None:
            file = path()
            table = load(file)
            if table is None:
                table = otherwise(file)
                if table is None:
                    return None
        with _guard:
            table = _tables.setdefault(key, table)
            _by_identity[_identity(parts)] = (parts, directory, table)
        return table


def _build_once(
    file: Path,
    load: Callable[[Path], T | None],
    build: Callable[[Progress | None], T],
    save: Callable[[T, BinaryIO], None],
    progress: Progress | None,
    mapped: bool,
) -> T:
    """Build and save the table, unless another process of the install saved it while this one
    waited for its lock; a cache directory without room for the lock only costs building unlocked."""
    lock: FileLock | None = None
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
        lock = FileLock(file.with_name(f"{file.name}.lock"))
        lock.acquire()
    except OSError:
        lock = None
    try:
        table = load(file) if lock is not None else None
        if table is not None:
            return table
        built = build(progress)
        saved = load(file) if _write(file, lambda stream: save(built, stream)) and mapped else None
        return built if saved is None else saved
    finally:
        if lock is not None:
            lock.release()


def forget_loaded() -> None:
    """Drop the tables this process holds (their files stay): the next request loads again."""
    with _guard:
        _tables.clear()
        _by_identity.clear()


def _write(path: Path, write: Callable[[BinaryIO], None]) -> bool:
    """Write atomically (a temporary name, synced to the disk, then renamed), so that a concurrent
    reader never sees half a file, nor a crash leaves one; a read-only cache directory only costs
    building again next time. Whether the file was written."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(f"{path.name}.{os.getpid()}.partial")
        with open(partial, "wb") as stream:
            write(stream)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(partial, path)
        return True
    except OSError:
        return False
