"""What the optimal 5000 player plays a turn by: the mover's chance to win at every point of the turn.

With two players the values are exact (the solver's table). With more, exact solving is out of
reach: the turn is planned exactly (every way it can end, from the engine) and its ends are valued
by the duel estimate (`estimate`), built on the exact two-player values.
"""

from __future__ import annotations

from ...engine.five_thousand import FiveThousandState
from .cache import two_player_solution
from .estimate import win_chances
from .plan import EndValue, TurnPlans
from .turn import TurnTable


def estimated_win(start: FiveThousandState) -> EndValue:
    """The mover's chance to win the game from each end of the turn, by the duel estimate."""
    seat, solution = start.current, two_player_solution(start.rules)
    return lambda end: win_chances(solution, end)[seat]


class OptimalValues:
    """The turn values of the optimal player: exact with two players, estimated with more."""

    def __init__(self) -> None:
        self.estimated = TurnPlans(estimated_win)

    def turn_table(self, state: FiveThousandState) -> tuple[TurnTable, bool]:
        """The values of the turn of `state`, and whether they are exact."""
        if state.num_players == 2:
            return two_player_solution(state.rules).turn_table(state.totals, state.current), True
        return self.estimated.plan(state), False
