"""Where Numba keeps the compiled kernels, so that a process loads them rather than compiling them again
(a minute and more): the first writable of the directory the host names ($NUMBA_CACHE_DIR), beside the
sources (Numba's own choice, for a checkout or a user's install) and the cache directory (`cache_dir`,
a service's $CACHE_DIRECTORY). Numba refuses to compile a cached kernel when it finds no writable
place, failing the import: when no directory is writable, the kernels compile in each process instead
(`njit` drops caching), and a warning says so.

Every kernel module imports `njit` from here, so that the choice is made before the first kernel is
decorated."""

from __future__ import annotations

import atexit
import gc
import logging
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numba
from numba.core import config

from .cache_dir import cache_dir

NUMBA_CACHE_ENV = "NUMBA_CACHE_DIR"
# How long a process waits for another compiling the same kernels before compiling them itself: a first
# compile takes 10-30 s on two cores; a holder stuck past this no longer holds the others back.
COMPILE_WAIT_SECONDS = 120
BESIDE_SOURCES = Path(__file__).resolve().parent / "__pycache__"  # as Numba's own, beside each module


def kernel_cache_candidates() -> Iterator[Path]:
    """Where the kernels may be cached, in order of preference (the cache directory is only looked
    up when the others are not writable)."""
    named = os.environ.get(NUMBA_CACHE_ENV)
    if named:
        yield Path(named)
    yield BESIDE_SOURCES
    yield cache_dir() / "numba"


def first_writable(directories: Iterable[Path]) -> Path | None:
    """The first directory that can be made and written to (as Numba checks it), else None."""
    for directory in directories:
        try:
            directory.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=directory):
                return directory
        except OSError:
            continue
    return None


def _choose() -> Path | None:
    chosen = first_writable(kernel_cache_candidates())
    if chosen is None:
        logging.getLogger(__name__).warning(
            "compiled kernels are not cached (no writable directory: set NUMBA_CACHE_DIR or CUBILETE_CACHE_DIR);"
            " each process compiles them again, taking a minute and more"
        )
    elif chosen != BESIDE_SOURCES:
        os.environ[NUMBA_CACHE_ENV] = str(chosen)  # the compiler reads its configuration again from here
        config.reload_config()
    return chosen


KERNEL_CACHE = _choose()

# At exit the interpreter's collections walk every object still alive, though nothing is left to reclaim:
# in a process that called a kernel, a hundred thousand of them are Numba's (its typing and target
# registries, filled at the first call). Frozen first, they are skipped: such a process exits about
# 0.13 s sooner (benchmarks/solver.py, the whole process). Handlers run last registered first, so the ones
# registered after this import (the caller's) run before it.
atexit.register(gc.freeze)


def kernel_cache_description() -> str:
    if KERNEL_CACHE is None:
        return "not cached"
    if KERNEL_CACHE == BESIDE_SOURCES:
        return f"beside the sources in {BESIDE_SOURCES.parent}"
    return str(KERNEL_CACHE)


def njit(*args: Any, **options: Any) -> Any:
    """numba.njit, caching the kernel only where a directory takes it."""
    if KERNEL_CACHE is None:
        options["cache"] = False
    return numba.njit(*args, **options)


@contextmanager
def compiling_alone(kernels: str, bound: float = COMPILE_WAIT_SECONDS) -> Iterator[None]:
    """One process at a time compiles these kernels; the others wait for it, then load what it cached.

    Processes started together on a new install (a server's processes, its warm-up and its first
    hint) would otherwise each spend the same CPU seconds compiling the same kernels at once. The
    lock is the operating system's (released if its holder dies); past `bound` the waiter compiles."""
    if KERNEL_CACHE is None:  # nothing is cached: waiting would save nothing
        yield
        return
    # here: filelock imports asyncio, 30 ms of every process that only loads cached kernels
    from filelock import FileLock, Timeout

    lock = FileLock(KERNEL_CACHE / f"{kernels}.compiling.lock")
    try:
        lock.acquire(timeout=bound)
    except Timeout:
        yield
        return
    try:
        yield
    finally:
        lock.release()
