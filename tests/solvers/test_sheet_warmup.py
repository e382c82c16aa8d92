"""The kernels compiled ahead of need are the very ones solving and advice then run."""

from __future__ import annotations

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
