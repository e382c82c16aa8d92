"""Exact solvers of the score-sheet games (Penta, Generala).

`solver` computes the optimal expected score of every turn-start state, `cache` keeps those
tables on disk, `advice` ranks every legal action of a situation (`options`: the values of
every option of many situations at once, as arrays), `stats` gives the exact distribution of
the optimal player's final score and `distributions` the law of the points still to come from
any situation; `threshold` plays for a target total and `duel` for first place.
"""
