"""Numba's setup for cubilete's kernels (solvers/kernel_cache.py), as a process sees it."""

from __future__ import annotations

import subprocess
import sys

CHILD_SECONDS = 120  # a fresh interpreter loading Numba: seconds, or a minute compiling on a new install

FREEZE_COUNT_AT_EXIT = """
import atexit, gc
atexit.register(lambda: print(gc.get_freeze_count()))  # registered first: runs after cubilete's handler
from cubilete.solvers.sheet.tables import context_of
context_of(0, True, False)  # a kernel's first call fills Numba's registries
print(gc.get_freeze_count())
"""


def test_a_process_that_called_a_kernel_exits_without_its_collector_walking_numba():
    """The interpreter's collections at exit skip the objects alive then (frozen): Numba's registries
    alone are tens of thousands of them, walked for nothing."""
    child = subprocess.run(
        [sys.executable, "-c", FREEZE_COUNT_AT_EXIT], capture_output=True, text=True, timeout=CHILD_SECONDS, check=True
    )
    before_exit, at_exit = map(int, child.stdout.split())
    assert before_exit == 0 and at_exit > 10_000
