"""Win chances of 5000 games of three to six players, estimated from the exact two-player values.

Exact solving is out of reach with more players (the state is every seat's
score). The estimate sees the game as duels: each seat against each other
seat, valued by the exact two-player table, the seat that comes first in turn
order moving first. A seat wins the game if it wins all its duels; taking the
duels as independent and normalising gives every seat's chance. With two
players it is exactly the two-player value.
"""

from __future__ import annotations

from ..engine.five_thousand import FiveThousandState
from .five_thousand_exact import SCORE_STEP, TwoPlayerSolution


def win_chances(solution: TwoPlayerSolution, state: FiveThousandState) -> tuple[float, ...]:
    """Each seat's estimated chance to win, at the start of a turn or at the end of the game."""
    seats = state.num_players
    if state.winner is not None:
        return tuple(float(seat == state.winner) for seat in range(seats))
    start = solution.start
    score = [total // SCORE_STEP for total in state.totals]
    # Seats in the order they play from now on: the first of a duel's two seats moves first.
    order = [(state.current + k) % seats for k in range(seats)]
    strength = []
    for i, seat in enumerate(order):
        product = 1.0
        for j, other in enumerate(order):
            if i < j:
                product *= start[score[seat], score[other]]
            elif i > j:
                product *= 1.0 - start[score[other], score[seat]]
        strength.append(product)
    total = sum(strength)
    chances = [0.0] * seats
    for seat, value in zip(order, strength):
        chances[seat] = value / total
    return tuple(chances)
