"""Win chances of 5000 games of three to six players, estimated from the exact two-player values.

Exact solving is out of reach with more players (the state is every seat's
score). The estimate sees the game as duels: each seat against each other
seat, valued by the exact two-player table, the seat that comes first in turn
order moving first. A seat wins the game if it wins all its duels; its strength
is the product of its duel chances, and the chances are the normalised
strengths.

The duels of one seat are not independent (all of them go well when the seat
rolls well), so the plain product is overconfident. Each product is tempered by
the exponent (players - 1) ** -0.4, fitted by log loss on the turn starts of
casual self-play (2000 games of 3 players, 1500 of 4, 1000 of 5, 800 of 6; the
best exponents were about 0.75, 0.65, 0.6 and 0.55). With two players the
exponent is 1 and the estimate is exactly the two-player value.
"""

from __future__ import annotations

import math

from ...engine.five_thousand import FiveThousandState
from .exact import SCORE_STEP, TwoPlayerSolution

TEMPERING = -0.4
LEAST_CHANCE = 1e-300  # a duel the table calls lost outright still leaves a finite logarithm


def duel_exponent(players: int) -> float:
    return (players - 1) ** TEMPERING


def win_chances(solution: TwoPlayerSolution, state: FiveThousandState) -> tuple[float, ...]:
    """Each seat's estimated chance to win, at the start of a turn or at the end of the game."""
    seats = state.num_players
    if state.winner is not None:
        return tuple(float(seat == state.winner) for seat in range(seats))
    start = solution.start
    score = [total // SCORE_STEP for total in state.totals]
    # Seats in the order they play from now on: the first of a duel's two seats moves first.
    order = [(state.current + k) % seats for k in range(seats)]
    log_strength = []
    for i, seat in enumerate(order):
        chances = [
            start[score[seat], score[other]] if i < j else 1.0 - start[score[other], score[seat]]
            for j, other in enumerate(order)
            if j != i
        ]
        log_strength.append(duel_exponent(seats) * sum(math.log(max(chance, LEAST_CHANCE)) for chance in chances))
    # Normalise in logs: with six seats a product of small chances could underflow.
    top = max(log_strength)
    strength = [math.exp(value - top) for value in log_strength]
    total = sum(strength)
    result = [0.0] * seats
    for seat, value in zip(order, strength, strict=True):
        result[seat] = value / total
    return tuple(result)
