"""Exact solvers built on the pure rules engine, one subpackage per game family.

`sheet/`: the score-sheet games (Penta, Generala); `five_thousand/`: 5000. Beside them, what
both families' solvers share: `table_cache` (solved tables on disk, built once per rule set and
solver version), `cache_dir` (where those files live), `kernel_cache` (where Numba keeps the
compiled kernels) and `dice_lattice` (the multisets of dice and the keeps between them). Importing
this package compiles nothing; the Numba kernels load on first use.
"""
