"""Exact solvers built on the pure rules engine.

Score-sheet games (Penta, Generala): `sheet_solver` computes the optimal expected
score of every turn-start state, `sheet_cache` keeps those tables on disk,
`sheet_advice` ranks every legal action of a situation (`sheet_options`: the
values of every option of many situations at once, as arrays), `sheet_stats` gives the
exact distribution of the optimal player's final score and `sheet_distributions` the
law of the points still to come from any situation. Importing this package
compiles nothing; the Numba kernels load on first use.
"""
