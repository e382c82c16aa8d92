"""The analysis of 5000: its review walk and its outlook, in chances to win.

Review. A seat's value is its chance to win: exact with two players (the two-player table), the
opponent's mistakes raising it (`others`); with more, the strong player's estimate (the review says
`estimate`), which gives no value to a seat that is not moving, so `others` is None and luck is
the rest: final - start - skill (dice and opponents together).

Outlook. With two players, the exact solver's chance to win for the seat to move, and the rest for
the other. With more, the seat to move's chance is the strong player's plan value for this moment
of its turn, and the other seats share the rest in proportion to the duel estimate at the turn's
scores (solvers.five_thousand.estimate): the chances add up to 1, marked `estimate`. Once the game
is over, the winner's chance is 1.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

from ..engine.actions import Action
from ..engine.five_thousand import FiveThousandState
from ..engine.runner import Match
from ..solvers.five_thousand.advice import action_value, mover_value, rank_five_thousand
from ..solvers.five_thousand.cache import two_player_solution
from ..solvers.five_thousand.estimate import win_chances
from ..solvers.five_thousand.optimal import OptimalValues
from .findings import Outlook, Review
from .walk import Tally, Walk

# With more than two players a turn's plan takes milliseconds: the outlook plans once for all its steps.
_PLANNER = OptimalValues()
_PLANS_LOCK = threading.Lock()


class FiveThousandWalk(Walk[FiveThousandState]):
    """Each seat's chance to win, exact with two players, estimated with more."""

    unit = "win_probability"

    def __init__(self, initial: FiveThousandState, reviewed: Sequence[int]) -> None:
        super().__init__(reviewed)
        self.values = OptimalValues()
        self.solution = two_player_solution(initial.rules)
        self.exact = initial.num_players == 2
        self.estimate = not self.exact
        self.seats = initial.num_players
        start = self.chances(initial)
        self.tallies = {seat: Tally(start[seat], start[seat]) for seat in reviewed}

    def chances(self, state: FiveThousandState) -> tuple[float, ...]:
        """Every seat's chance to win. With more than two players, exact only at the end: the
        mover's is its plan's value, the other seats' the estimate at their scores."""
        if state.is_over:
            return tuple(float(seat == state.winner) for seat in range(self.seats))
        table, _ = self.values.turn_table(state)
        mover = mover_value(state, table)
        if self.exact:
            return tuple(mover if seat == state.current else 1.0 - mover for seat in range(2))
        estimate = win_chances(self.solution, state)
        return tuple(mover if seat == state.current else estimate[seat] for seat in range(self.seats))

    def rolled(self, before: FiveThousandState, after: FiveThousandState) -> None:
        if not self.exact:
            return  # luck is the rest (module docstring)
        now = self.chances(after)
        for seat, tally in self.tallies.items():
            tally.luck += now[seat] - tally.value
            tally.value = now[seat]

    def acted(
        self, index: int, state: FiveThousandState, action: Action, after: FiveThousandState, chosen_by_seat: bool
    ) -> None:
        mover = state.current
        if mover in self.tallies:

            def values() -> tuple[float, float, Action, int]:
                advice = rank_five_thousand(state, self.values)
                # valued by its effect: a set-aside may name other positions of the same dice
                chosen = action_value(state, self.values.turn_table(state)[0], action)
                return chosen, advice.value, advice.options[0].action, len(advice.options)

            self.decide(index, mover, state.last_roll, action, values, chosen_by_seat)
        if not self.exact:
            return
        now = self.chances(after)
        for seat, tally in self.tallies.items():
            if seat != mover:
                tally.others += now[seat] - tally.value
            tally.value = now[seat]

    def result(self, match: Match, state: FiveThousandState) -> Review:
        rules = match.rules
        final = self.chances(state)
        players = self.seat_reviews(match, lambda seat: final[seat], others=self.exact)
        return Review(rules.game, rules.name, self.unit, self.estimate, state.is_over, players,
                      tuple(self.decisions))


loss_unit = FiveThousandWalk.unit


def walk(initial: FiveThousandState, reviewed: Sequence[int]) -> FiveThousandWalk:
    return FiveThousandWalk(initial, reviewed)


def outlook(state: FiveThousandState) -> Outlook:
    seats = range(state.num_players)
    if state.is_over:
        return Outlook("win_probability", False, state.scores(), tuple(float(seat == state.winner) for seat in seats))
    with _PLANS_LOCK:  # the values remember their plans, one per turn (apps ask from several threads)
        table, exact = _PLANNER.turn_table(state)
    mover = mover_value(state, table)
    if exact:
        others = [1.0 - mover if seat != state.current else 0.0 for seat in seats]
    else:
        estimate = win_chances(two_player_solution(state.rules), state)
        rest = sum(chance for seat, chance in enumerate(estimate) if seat != state.current)
        if rest > 0:
            others = [(1.0 - mover) * chance / rest for chance in estimate]
        else:  # the estimate gives the others nothing at all (underflow): an equal share each
            others = [(1.0 - mover) / (state.num_players - 1)] * state.num_players
    values = tuple(mover if seat == state.current else others[seat] for seat in seats)
    return Outlook("win_probability", not exact, state.scores(), values)


def outlook_level(num_players: int) -> str:
    return "optimal"
