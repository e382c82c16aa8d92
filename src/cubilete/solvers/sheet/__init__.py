"""Exact solvers of the score-sheet games (Penta, Generala).

`solver` computes the optimal expected score of every turn-start state, `cache` keeps those
tables on disk, `advice` ranks every legal action of a situation (`options`: the values of
every option of many situations at once, as arrays), `stats` gives the exact distribution of
the optimal player's final score and `distributions` the law of the points still to come from
any situation; `threshold` plays for a target total and `duel` for first place. `simulation` (optimal
solitaire play) and `duel_simulation` (the duel player against the optimal one, the engine
runner's very games with common dice, which `cubilete simulate` plays this way) play many
games at compiled speed.
"""
