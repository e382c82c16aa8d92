"""Every seat's outlook at any moment of a game, the same whoever asks: its chance to finish first
(or, alone, its expected final total) as the computer players value them.

- Penta and Generala alone: the expected final total under solitaire-optimal play, the total now
  plus the solver's expected remaining score (solvers.sheet.advice.expected_value, with the dice
  on the table). A full sheet is worth its total.
- Penta and Generala with two or more seats: the seat to move's chance to finish first playing
  the duel (solvers.sheet.duel.duel_chance, a shared first place counting half), the rest for the
  other seat; with more seats, the others share the rest in proportion to their chances of
  finishing first if every seat's final total followed its law under optimal play
  (solvers.sheet.duel.first_place_chances), marked `estimate`. Each seat's expected final total is kept
  beside its chance (`expected`). Once the game is over, the winners share 1.
- 5000: with two players, the exact solver's chance to win for the seat to move, and the rest
  for the other. With more, the seat to move's chance is the strong player's plan value for this
  moment of its turn, and the other seats share the rest in proportion to the duel estimate at
  the turn's scores (solvers.five_thousand.estimate): the chances add up to 1, marked `estimate`.
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
from ..solvers.five_thousand.advice import mover_value
from ..solvers.five_thousand.cache import two_player_solution
from ..solvers.five_thousand.estimate import win_chances
from ..solvers.five_thousand.optimal import OptimalValues
from ..solvers.sheet.advice import expected_value
from ..solvers.sheet.duel import duel_chance, final_laws, first_place_chances

# With more than two 5000 players a turn's plan takes milliseconds: planned once for all its steps.
_PLANNER = OptimalValues()
_PLANS_LOCK = threading.Lock()


@dataclass(frozen=True)
class Outlook:
    unit: str  # "points": expected final totals; "win_probability": chances to win (finish first)
    estimate: bool  # True when the values are the strong player's estimates
    scores: tuple[int, ...]  # each seat's total now
    values: tuple[float, ...]  # each seat's expected final total, or chance to win
    expected: tuple[float, ...] | None = None  # beside chances: each seat's expected final total

    def to_json(self) -> dict[str, Any]:
        seats = [
            {"seat": seat, "score": score, "value": value}
            for seat, (score, value) in enumerate(zip(self.scores, self.values))
        ]
        if self.expected is not None:
            for seat, expected in zip(seats, self.expected):
                seat["expected"] = expected
        return {"unit": self.unit, "estimate": self.estimate, "seats": seats}


def outlook(state: Any) -> Outlook:
    """Every seat's value in this state of any game (loads or solves the rule set's tables)."""
    return OUTLOOKS[family_of(state.game).id](state)


def outlook_level(game: str, num_players: int) -> str:
    """The player level whose tables the outlook of such a game needs (players.prepare)."""
    return OUTLOOK_LEVELS[family_of(game).id](num_players)


def sheet_outlook(state: SheetState) -> Outlook:
    totals = state.scores()

    def expected_total(seat: int) -> float:
        sheet = state.sheets[seat]
        if sheet.is_full:
            return float(totals[seat])
        if seat == state.current:
            return expected_value(state)
        return expected_value(SheetState.situation(state.rules, sheet))  # its next turn's start

    expected = tuple(expected_total(seat) for seat in range(state.num_players))
    if state.num_players == 1:
        return Outlook("points", False, totals, expected)
    first = first_place_chances(final_laws(state))
    if state.is_over:
        return Outlook("win_probability", False, totals, first, expected)
    mover = duel_chance(state)
    rest = sum(chance for seat, chance in enumerate(first) if seat != state.current)
    # the others share what the mover leaves (equal shares if their laws give them nothing at all)
    shares = [chance / rest if rest > 0 else 1.0 / (state.num_players - 1) for chance in first]
    values = tuple(mover if seat == state.current else (1.0 - mover) * shares[seat] for seat in range(state.num_players))
    return Outlook("win_probability", state.num_players > 2, totals, values, expected)


def five_thousand_outlook(state: FiveThousandState) -> Outlook:
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


# The outlook of each game family (engine/games.py family ids).
OUTLOOKS: dict[str, Callable[[Any], Outlook]] = {"sheet": sheet_outlook, "five_thousand": five_thousand_outlook}

# The level whose tables each family's outlook needs, by number of seats: the sheet games' chances
# to finish first are the duel's.
OUTLOOK_LEVELS: dict[str, Callable[[int], str]] = {
    "sheet": lambda seats: "duel" if seats > 1 else "optimal",
    "five_thousand": lambda seats: "optimal",
}
