"""The kernels compiled ahead of need are the very ones solving and advice then run, compiled by one process at a time."""

from __future__ import annotations

import pytest

from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED
from cubilete.solvers.sheet import solver as sheet_solver
from cubilete.solvers.sheet.advice import advise
from cubilete.solvers.sheet.options import fill_new_turns, fill_options
from cubilete.solvers.sheet.warmup import compile_sheet_kernels


def test_solving_and_advising_after_the_warm_up_compile_nothing_more():
    compile_sheet_kernels()
    kernels = (sheet_solver._solve_masks, fill_new_turns, fill_options)
    assert [len(kernel.signatures) for kernel in kernels] == [1, 1, 1]
    sheet_solver.solve(GENERALA_SEED)
    advise(SheetState.new(GENERALA_SEED).apply_roll((2, 2, 3, 5, 5)))  # the table solved for the session
    assert [len(kernel.signatures) for kernel in kernels] == [1, 1, 1]  # same argument types: no second compile


def test_processes_compiling_the_same_kernels_take_turns_and_a_stuck_holder_holds_no_one_past_the_bound(tmp_path):
    from filelock import FileLock, Timeout

    from cubilete.solvers import kernel_cache
    from cubilete.solvers.kernel_cache import compiling_alone

    if kernel_cache.KERNEL_CACHE is None:
        pytest.skip("no writable place caches the kernels here: nothing to take turns for")
    lock_path = kernel_cache.KERNEL_CACHE / "test-kernels.compiling.lock"
    inside = FileLock(lock_path)  # another holder: a lock of its own on the same file, as another process has
    with compiling_alone("test-kernels"):
        with pytest.raises(Timeout):
            inside.acquire(timeout=0.05)
    inside.acquire(timeout=5)  # released on the way out
    try:
        with compiling_alone("test-kernels", bound=0.05):
            entered = True  # the holder outlasted the bound: the waiter compiles for itself
    finally:
        inside.release()
    assert entered
