"""The table's rules of human play, the same in every app (the web, the terminal app, the line mode):
what a human seat may do, and what the table does for it.

- A keep (sheet games) or a roll (5000) asks for the dice: the table rolls them at once. A roll when the
  dice are to be rolled (a turn's start) is that roll.
- After a sheet turn's last roll every action left is a box to score (`must_score`); the table then
  scores for the seat if asked (the auto-score: when the seat's countdown runs out), as the advice would.
- The advice is the optimal player's (ADVICE_LEVEL): hints, the auto-score, a turn whose clock ran out,
  a seat handed to the computer.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ..engine.actions import Action, Keep, Roll, Score
from ..engine.errors import IllegalAction
from ..engine.games import Rules
from ..engine.protocol import GameState
from ..engine.runner import Match, Player
from ..solvers.table_cache import Progress
from . import make_player, prepare

ADVICE_LEVEL = "optimal"  # the level of hints, auto-scores, clocks' turns and seats handed to the computer


def play_human(match: Match, seat: int, action: Action) -> Iterator[GameState]:
    """A human seat's action on the match, then the table's roll if it asked for the dice: the state after
    each event, as it is made. A refused action changes nothing."""
    if isinstance(action, Roll) and match.state.is_chance:
        yield match.roll()
        return
    after = match.act(action, seat)
    yield after
    if isinstance(action, (Keep, Roll)) and after.is_chance:
        yield match.roll()


def must_score(state: GameState) -> bool:
    """Whether every action left is a box to score: a sheet turn's last roll was made."""
    legal = state.legal_actions()
    return bool(legal) and all(isinstance(action, Score) for action in legal)


def auto_score(state: GameState, rules: Rules) -> Action:
    """The box the advice scores for a seat after its last roll; refused before it."""
    if not must_score(state):
        raise IllegalAction("auto_score_last_roll")
    return advisor(rules).choose(state)


def advisor(rules: Rules) -> Player[Any]:
    """The player whose choices are the advice (it also plays a turn whose clock ran out)."""
    return make_player(ADVICE_LEVEL, rules)


def prepare_advice(rules: Rules, progress: Progress | None = None) -> None:
    """Load (or build, reporting to `progress`) the tables the advice needs."""
    prepare(ADVICE_LEVEL, rules, progress)
