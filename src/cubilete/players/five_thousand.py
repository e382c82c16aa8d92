"""Computer players of 5000, from threshold bots to the exact two-player optimum.

- "bankN" (e.g. bank300): banks whenever the rules allow it with at least N turn points, or
  when the bank wins (a bot blind to the target could never finish the game from 4800).
- casual: the one-turn expected-points player; each turn it maximises the expected
  change of its own score (the rules' must-continue, entry, gift and knock-out
  included), blind to the other players.
- strong: maximises its estimated chance to win the game: each turn is planned
  exactly (every way it can end, from the engine) and its ends are valued by the
  duel estimate of solvers.five_thousand.estimate, built on the exact two-player
  values. With two players the estimate is exact, so it plays optimally.
- optimal: with two players, reads the exact solver's table; with more, plays as
  strong (exact solving is out of reach).
- beginner: bank300.

Every bot is deterministic: the same game replays the same way. Bots that need
the two-player table load it (or solve it, once per rule set) at their first move.
"""

from __future__ import annotations

import re
from collections.abc import Hashable

from ..engine.actions import Action, Bank, Roll, SetAside
from ..engine.five_thousand import FiveThousandRules, FiveThousandState, Phase
from ..engine.runner import Player
from ..solvers.five_thousand.cache import cache_path, two_player_solution
from ..solvers.five_thousand.exact import solution_bytes
from ..solvers.five_thousand.optimal import OptimalValues, estimated_win
from ..solvers.five_thousand.plan import EndValue, TurnPlans
from ..solvers.mapped_tables import file_bytes
from ..solvers.table_cache import Progress

LEVELS = ("beginner", "casual", "strong", "optimal")
DEFAULT_LEVEL = "optimal"  # the level a new bot seat gets
THRESHOLD_NAME = re.compile(r"bank([1-9][0-9]*)")
BEGINNER_THRESHOLD = 300
TABLE_LEVELS = ("strong", "optimal")  # the levels that play by the two-player table


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


class PlanningPlayer(TurnPlans):
    """Plays each turn by its plan (solvers.five_thousand.plan) under a valuation of turn ends."""

    def choose(self, state: FiveThousandState) -> Action:
        return self.plan(state).best_action(state)


def expected_points(start: FiveThousandState) -> EndValue:
    """The change of the mover's own score (a win counts the points that reached the target)."""
    seat, before = start.current, start.totals[start.current]
    return lambda end: end.totals[seat] - before


class OptimalPlayer(OptimalValues):
    """Exact with two players (the solver's table); the strong player with more."""

    def choose(self, state: FiveThousandState) -> Action:
        return self.turn_table(state)[0].best_action(state)


def prepare(level: str, rules: FiveThousandRules, progress: Progress | None = None) -> None:
    """Load (or solve, reporting to `progress`) what a level needs before play."""
    if level in TABLE_LEVELS:
        two_player_solution(rules, progress)


def table_memory(level: str, rules: FiveThousandRules) -> dict[Hashable, int]:
    """The tables a level plays by, each with the bytes it maps once prepared: its file's size once saved,
    else an estimate (the seed rules': 14.3 MB)."""
    if level not in TABLE_LEVELS:
        return {}
    return {("two-player table", rules): file_bytes(cache_path(rules)) or solution_bytes(rules)}


def quick_to_prepare(level: str, rules: FiveThousandRules) -> bool:
    """Whether the level's table, if it needs one, is saved on disk already (solving it takes seconds)."""
    return level not in TABLE_LEVELS or cache_path(rules).exists()


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
