"""Computer players of 5000, from threshold bots to the exact two-player optimum.

- "bankN" (e.g. bank300): banks whenever the rules allow it with at least N turn points, or
  when the bank wins (a bot blind to the target could never finish the game from 4800).
- casual: the one-turn expected-points player; each turn it maximises the expected
  change of its own score (the rules' must-continue, entry, gift and knock-out
  included), blind to the other players.
- strong: maximises its estimated chance to win the game: each turn is planned
  exactly (every way it can end, from the engine) and its ends are valued by the
  duel estimate of solvers.five_thousand_estimate, built on the exact two-player
  values. With two players the estimate is exact, so it plays optimally.
- optimal: with two players, reads the exact solver's table; with more, plays as
  strong (exact solving is out of reach).
- beginner: bank300.

Every bot is deterministic: the same game replays the same way. Bots that need
the two-player table load it (or solve it, once per rule set) at their first move.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Callable

from ..engine.actions import Action, Bank, Roll, SetAside
from ..engine.five_thousand import FiveThousandRules, FiveThousandState, Phase
from ..engine.runner import Player
from ..solvers.five_thousand.cache import two_player_solution
from ..solvers.five_thousand.estimate import win_chances
from ..solvers.five_thousand.plan import EndValue, plan_turn
from ..solvers.five_thousand.turn import TurnTable
from ..solvers.table_cache import Progress

LEVELS = ("beginner", "casual", "strong", "optimal")
DEFAULT_LEVEL = "optimal"  # the level a new bot seat gets
THRESHOLD_NAME = re.compile(r"bank([1-9][0-9]*)")
BEGINNER_THRESHOLD = 300
TABLE_LEVELS = ("strong", "optimal")  # the levels that play by the two-player table
PLANS_KEPT = 64  # turn plans remembered per bot: a plan serves one turn, a few more cost little


class ThresholdPlayer:
    """Banks whenever allowed with at least `threshold` turn points or when the bank wins."""

    def __init__(self, threshold: int) -> None:
        self.threshold = threshold

    def choose(self, state: FiveThousandState) -> Action:
        actions = state.legal_actions()
        if state.phase is Phase.SET_ASIDE:
            # The set-aside worth most, keeping fewest dice on a tie (more dice to roll).
            set_asides = [action for action in actions if isinstance(action, SetAside)]
            return max(set_asides, key=lambda a: (state.apply(a).turn_points, -len(a.held)))
        if Bank() in actions and (
            state.turn_points >= self.threshold or state.apply(Bank()).winner == state.current
        ):
            return Bank()
        return Roll()


class PlanningPlayer:
    """Plays each turn by its plan (solvers.five_thousand_plan) under a valuation of turn ends.

    `valuation(start)` gives the end valuation of the turn starting at `start`; plans are
    remembered by turn (scores and player), so one is computed per turn.
    """

    def __init__(self, valuation: Callable[[FiveThousandState], EndValue]) -> None:
        self.valuation = valuation
        self._plans: OrderedDict[tuple, TurnTable] = OrderedDict()

    def plan(self, state: FiveThousandState) -> TurnTable:
        key = (state.rules, state.totals, state.current)
        if key not in self._plans:
            self._plans[key] = plan_turn(state, self.valuation(state))
            if len(self._plans) > PLANS_KEPT:
                self._plans.popitem(last=False)
        return self._plans[key]

    def choose(self, state: FiveThousandState) -> Action:
        return self.plan(state).best_action(state)


def expected_points(start: FiveThousandState) -> EndValue:
    """The change of the mover's own score (a win counts the points that reached the target)."""
    seat, before = start.current, start.totals[start.current]
    return lambda end: end.totals[seat] - before


def estimated_win(start: FiveThousandState) -> EndValue:
    """The mover's chance to win the game from each end of the turn, by the duel estimate."""
    seat, solution = start.current, two_player_solution(start.rules)
    return lambda end: win_chances(solution, end)[seat]


class OptimalPlayer:
    """Exact with two players (the solver's table); the strong player with more."""

    def __init__(self) -> None:
        self.strong = PlanningPlayer(estimated_win)

    def turn_table(self, state: FiveThousandState) -> tuple[TurnTable, bool]:
        """The values this player plays the turn of `state` by, and whether they are exact."""
        if state.num_players == 2:
            return two_player_solution(state.rules).turn_table(state.totals, state.current), True
        return self.strong.plan(state), False

    def choose(self, state: FiveThousandState) -> Action:
        return self.turn_table(state)[0].best_action(state)


def prepare(level: str, rules: FiveThousandRules, progress: Progress | None = None) -> None:
    """Load (or solve, reporting to `progress`) what a level needs before play."""
    if level in TABLE_LEVELS:
        two_player_solution(rules, progress)


def make_player(level: str, rules: FiveThousandRules) -> Player[FiveThousandState] | None:
    """A player of this level (LEVELS, or bankN), or None for a name that is neither."""
    if level == "beginner":
        return ThresholdPlayer(BEGINNER_THRESHOLD)
    if level == "casual":
        return PlanningPlayer(expected_points)
    if level == "strong":
        return PlanningPlayer(estimated_win)
    if level == "optimal":
        return OptimalPlayer()
    threshold = THRESHOLD_NAME.fullmatch(level)
    return ThresholdPlayer(int(threshold.group(1))) if threshold else None
