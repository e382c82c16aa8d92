"""Exact solvers of 5000.

`exact` solves the two-player game (the chance to win of the player to move), `cache` keeps its
tables on disk, `turn` values one turn from what its ends are worth, `plan` plans a turn for any
number of players from a valuation of its ends, `estimate` estimates the chances to win of three
to six players from the exact two-player values, `optimal` gives the values the optimal player
plays a turn by, and `advice` ranks every option of a situation by the mover's chance to win.
"""
