"""The analysis of the score-sheet games (Penta, Generala): their review walk and their outlook.

Review. A seat's value is its expected final total under solitaire-optimal play
(solvers.sheet.advice; the seats' sheets do not interact, so each seat has its own), one `advise`
per decision. The other seats' decisions never change it: `others` is always 0. A Generala servida
that wins at once (docs/rules.md#generala-servida-wins) ends every sheet where it stands: each seat's
value becomes its total then, the change counted as luck (the dice ended the game), so that `final` is
the final total as in any finished game.

Outlook.
- Alone: the expected final total, the total now plus the solver's expected remaining score
  (solvers.sheet.advice.expected_value, with the dice on the table). A full sheet is worth its total.
- Two or more seats: the seat to move's chance to finish first playing the duel
  (solvers.sheet.duel.duel_chance, a shared first place counting half), the rest for the other
  seat; with more seats, the others share the rest in proportion to their chances of finishing
  first if every seat's final total followed its law under optimal play
  (solvers.sheet.duel.first_seat_chances, a Generala servida's instant win included), marked
  `estimate`. Each seat's expected final total is kept beside its chance (`expected`). Once the game
  is over, the winners share 1 (a seat that won at once takes it all).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.actions import Action, Keep
from ..engine.runner import Match
from ..engine.sheet import SheetState
from ..solvers.sheet.advice import RankedOption, advise, expected_value
from ..solvers.sheet.cache import solution
from ..solvers.sheet.duel import duel_chance, first_seat_chances
from .findings import Outlook, Review
from .walk import Tally, Walk


class SheetWalk(Walk[SheetState]):
    """Each reviewed seat's expected final total, one `advise` per decision."""

    def __init__(self, initial: SheetState, reviewed: Sequence[int]) -> None:
        super().__init__(reviewed)
        start = solution(initial.rules).start_value
        self.tallies = {seat: Tally(start, start) for seat in reviewed}
        self.options: tuple[RankedOption, ...] = ()  # the advice of the decision about to be made

    def rolled(self, before: SheetState, after: SheetState) -> None:
        if after.winner is not None:
            totals = [float(total) for total in after.scores()]
            for seat, ended in self.tallies.items():
                ended.luck += totals[seat] - ended.value
                ended.value = totals[seat]
            return
        tally = self.tallies.get(before.current)
        if tally is None or after.is_chance or after.is_over:
            return
        self.options = advise(after)
        tally.luck += self.options[0].value - tally.value
        tally.value = self.options[0].value

    def acted(self, index: int, state: SheetState, action: Action, after: SheetState, chosen_by_seat: bool) -> None:
        tally = self.tallies.get(state.current)
        if tally is None:
            return

        def values() -> tuple[float, float, Action, int]:
            options = self.options or advise(state)
            chosen = next(option for option in options if same_choice(state, option, action))
            return chosen.value, options[0].value, options[0].action, len(options)

        tally.value = self.decide(index, state.current, state.dice, action, values, chosen_by_seat)
        self.options = ()

    def result(self, match: Match, state: SheetState) -> Review:
        rules = match.rules
        players = self.seat_reviews(match, lambda seat: self.tallies[seat].value, others=True)
        return Review(rules.game, rules.name, self.unit, False, state.is_over, players, tuple(self.decisions))


loss_unit = SheetWalk.unit


def walk(initial: SheetState, reviewed: Sequence[int]) -> SheetWalk:
    return SheetWalk(initial, reviewed)


def same_choice(state: SheetState, option: RankedOption, action: Action) -> bool:
    """Whether the option is the action: keeps by the values held, whatever their positions."""
    if isinstance(action, Keep):
        return option.keep == tuple(sorted(state.dice[i] for i in action.held))
    return option.action == action


def outlook(state: SheetState) -> Outlook:
    totals = state.scores()

    def expected_total(seat: int) -> float:
        sheet = state.sheets[seat]
        if sheet.is_full or state.is_over:  # a game won at once leaves sheets open
            return float(totals[seat])
        if seat == state.current:
            return expected_value(state)
        return expected_value(SheetState.situation(state.rules, sheet))  # its next turn's start

    expected = tuple(expected_total(seat) for seat in range(state.num_players))
    if state.num_players == 1:
        return Outlook("points", False, totals, expected)
    first = first_seat_chances(state)
    if state.is_over:
        return Outlook("win_probability", False, totals, first, expected)
    mover = duel_chance(state)
    rest = sum(chance for seat, chance in enumerate(first) if seat != state.current)
    # the others share what the mover leaves (equal shares if their laws give them nothing at all)
    shares = [chance / rest if rest > 0 else 1.0 / (state.num_players - 1) for chance in first]
    values = tuple(mover if seat == state.current else (1.0 - mover) * shares[seat] for seat in range(state.num_players))
    return Outlook("win_probability", state.num_players > 2, totals, values, expected)


def outlook_level(num_players: int) -> str:
    # the chances to finish first are the duel's
    return "duel" if num_players > 1 else "optimal"
