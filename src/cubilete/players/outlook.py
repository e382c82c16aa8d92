"""Every seat's outlook at any moment of a game, the same whoever asks: its expected final total
(Penta, Generala) or its chance to win (5000), as the optimal player values them.

- Penta and Generala: the seats' sheets do not interact, so each seat's value is its own
  solitaire-optimal expected final total: its total now plus the solver's expected remaining
  score (solvers.sheet_advice.expected_value; for the seat to move, with the dice on the table).
  A full sheet is worth its total.
- 5000: with two players, the exact solver's chance to win for the seat to move, and the rest
  for the other. With more, the seat to move's chance is the strong player's plan value for this
  moment of its turn, and the other seats share the rest in proportion to the duel estimate at
  the turn's scores (solvers.five_thousand_estimate): the chances add up to 1, marked `estimate`.
  Once the game is over, the winner's chance is 1.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.five_thousand import FiveThousandState
from ..engine.games import family_of
from ..engine.sheet import SheetState
from ..solvers.five_thousand_cache import two_player_solution
from ..solvers.five_thousand_estimate import win_chances
from ..solvers.sheet_advice import expected_value
from .five_thousand import OptimalPlayer
from .five_thousand_advice import mover_value

# With more than two 5000 players a turn's plan takes milliseconds: planned once for all its steps.
_PLANNER = OptimalPlayer()
_PLANS_LOCK = threading.Lock()


@dataclass(frozen=True)
class Outlook:
    unit: str  # "points": expected final totals; "win_probability": chances to win
    estimate: bool  # True when the values are the strong player's estimates
    scores: tuple[int, ...]  # each seat's total now
    values: tuple[float, ...]  # each seat's expected final total, or chance to win

    def to_json(self) -> dict[str, Any]:
        return {
            "unit": self.unit,
            "estimate": self.estimate,
            "seats": [
                {"seat": seat, "score": score, "value": value}
                for seat, (score, value) in enumerate(zip(self.scores, self.values))
            ],
        }


def outlook(state: Any) -> Outlook:
    """Every seat's value in this state of any game (loads or solves the rule set's tables)."""
    return OUTLOOKS[family_of(state.game).id](state)


def sheet_outlook(state: SheetState) -> Outlook:
    totals = state.scores()

    def expected_total(seat: int) -> float:
        sheet = state.sheets[seat]
        if sheet.is_full:
            return float(totals[seat])
        if seat == state.current:
            return expected_value(state)
        return expected_value(SheetState.situation(state.rules, sheet))  # its next turn's start

    return Outlook("points", False, totals, tuple(expected_total(seat) for seat in range(state.num_players)))


def five_thousand_outlook(state: FiveThousandState) -> Outlook:
    seats = range(state.num_players)
    if state.is_over:
        return Outlook("win_probability", False, state.scores(), tuple(float(seat == state.winner) for seat in seats))
    with _PLANS_LOCK:  # the player remembers its plans, one per turn (apps ask from several threads)
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


# The outlook of each game family (engine/games.py family ids).
OUTLOOKS: dict[str, Callable[[Any], Outlook]] = {"sheet": sheet_outlook, "five_thousand": five_thousand_outlook}
