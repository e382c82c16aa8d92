"""The score-sheet kernels compiled before the first hint needs them.

Numba compiles a kernel at its first call: seconds at the first solve or advice of
a new install (or after an upgrade), a fraction of a second to load from its cache
later. Every rule set's tables have the same types, so compiling on one rule set's
tables of zeros readies the kernels of all; `cubilete serve` does it in the
background as it starts, while the first game is being chosen.
"""

from __future__ import annotations

from ...engine.sheet_rules import PENTA_SEED
from ..kernel_cache import compiling_alone
from .options import compile_advice
from .solver import compile_solver


def compile_sheet_kernels() -> None:
    """Compile (or load from Numba's cache) the solver's and advice's kernels; nothing is solved. Processes
    warming up together compile them once: the others load them."""
    with compiling_alone("sheet"):
        compile_advice(PENTA_SEED)
        compile_solver(PENTA_SEED)
