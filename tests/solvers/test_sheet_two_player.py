"""Exact two-seat play on reduced sheets: against an expectimax over the engine's states
(each seat exact, optimal by the advice or duel by its ranking), against the laws of the
final totals, and exact play never worse than the duel or the optimal player. The exact two-seat
game is research (cubilete.research), not the product: these checks run in the slow step."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest
from test_sheet_distributions import CASE_IDS, CASES
from test_sheet_threshold import BruteReach

from cubilete.engine.actions import Keep
from cubilete.engine.dice import DICE_COUNT, roll_outcomes
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_scoring import Sheet, sheet_from_json, sheet_total
from cubilete.research.sheet_two_player import ReducedGame
from cubilete.solvers.sheet.advice import RankedOption, advise
from cubilete.solvers.sheet.duel import final_law, rank_for_duel

pytestmark = pytest.mark.slow  # research, not the product: its kernels compile only for these checks

# the research game refuses rule sets whose first roll scores more (research/sheet_two_player.py): the
# servida cases are the duel's (tests/solvers/test_sheet_duel.py)
RESEARCHED = [case for case, case_id in zip(CASES, CASE_IDS, strict=True) if not case_id.startswith("servida")]
RESEARCHED_IDS = [case_id for case_id in CASE_IDS if not case_id.startswith("servida")]
PLAYS = [("exact", "exact"), ("exact", "optimal"), ("optimal", "exact"), ("duel", "optimal"),
         ("optimal", "duel"), ("zero-sum", "optimal"), ("optimal", "zero-sum"), ("optimal", "optimal")]


class BruteTwoSeats:
    """The chance that seat 0 finishes first by expectimax over the engine's states: an exact
    seat takes the option best for itself, an optimal one the advice's first, a duel one
    rank_for_duel's first, a zero-sum one the advice's first among the options best for
    itself when both seats play exactly afterwards (to 12 decimals)."""

    def __init__(self, rules, plays: tuple[str, str]) -> None:
        self.rules, self.plays = rules, plays
        self.zero_sum = BruteTwoSeats(rules, ("exact", "exact")) if "zero-sum" in plays else None
        self.boxes = BruteReach(rules)  # for its legal boxes of a roll
        self.start = cache(self._start)
        self.seen = cache(self._seen)
        self.held = cache(self._held)

    def _start(self, sheets: tuple[Sheet, Sheet], seat: int) -> float:
        if all(sheet.is_full for sheet in sheets):
            lead = sheet_total(self.rules, sheets[0]) - sheet_total(self.rules, sheets[1])
            return 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0
        first = self.rules.rolls_per_turn - 1
        return sum(float(p) * self.seen(sheets, seat, roll, first) for roll, p in roll_outcomes(DICE_COUNT))

    def after(self, sheets: tuple[Sheet, Sheet], seat: int, after: Sheet) -> float:
        sheets = (after, sheets[1]) if seat == 0 else (sheets[0], after)
        return self.start(sheets, seat if sheets[1 - seat].is_full else 1 - seat)

    def _seen(self, sheets: tuple[Sheet, Sheet], seat: int, dice: tuple[int, ...], rolls_left: int) -> float:
        play = self.plays[seat]
        if play == "exact":
            own = [self.after(sheets, seat, after) for after, _ in self.boxes.options(sheets[seat], dice, rolls_left)]
            if rolls_left:
                keeps = {tuple(sorted(c)) for size in range(DICE_COUNT) for c in combinations(dice, size)}
                own += [self.held(sheets, seat, keep, rolls_left) for keep in keeps]
            return max(own) if seat == 0 else min(own)
        state = SheetState(self.rules, sheets, seat, dice, (), rolls_left, False)
        if play == "optimal":
            action = advise(state)[0].action
        elif play == "duel":
            action = rank_for_duel(state)[0].option.action
        else:
            action = max(advise(state), key=lambda option: round(self.own_zero_sum(state, option) * 1e12)).action
        if isinstance(action, Keep):
            return self.held(sheets, seat, tuple(sorted(dice[i] for i in action.held)), rolls_left)
        return self.after(sheets, seat, state.apply(action).sheets[seat])

    def own_zero_sum(self, state: SheetState, option: RankedOption) -> float:
        """The chance of the seat to move after this option, both seats exact afterwards."""
        assert self.zero_sum is not None
        sheets, seat = (state.sheets[0], state.sheets[1]), state.current
        if option.keep is not None:
            chance = self.zero_sum.held(sheets, seat, option.keep, state.rolls_left)
        else:
            chance = self.zero_sum.after(sheets, seat, state.apply(option.action).sheets[seat])
        return chance if seat == 0 else 1 - chance

    def _held(self, sheets: tuple[Sheet, Sheet], seat: int, keep: tuple[int, ...], rolls_left: int) -> float:
        return sum(
            float(p) * self.seen(sheets, seat, tuple(sorted(keep + o)), rolls_left - 1)
            for o, p in roll_outcomes(DICE_COUNT - len(keep))
        )


def scored(rules, sheet: Sheet, dice: tuple[int, ...]) -> Sheet:
    """The sheet after the advice's box for these dice (no rolls left)."""
    state = SheetState.situation(rules, sheet, dice, 0)
    return state.apply(advise(state)[0].action).sheets[0]


def last_boxes(rules, filled, bonus) -> tuple[Sheet, Sheet]:
    """Two sheets of a case with one box open each, filled from different dice."""
    sheet = sheet_from_json(rules, filled, bonus)
    return scored(rules, sheet, (6, 6, 6, 6, 6)), scored(rules, sheet, (1, 1, 2, 3, 5))


@pytest.mark.parametrize("rules, filled, bonus", RESEARCHED, ids=RESEARCHED_IDS)
def test_every_way_of_play_equals_the_brute_force_on_the_last_box(rules, filled, bonus):
    sheets = last_boxes(rules, filled, bonus)
    game = ReducedGame(rules, sheets)
    for plays in PLAYS:
        brute = BruteTwoSeats(rules, plays)
        assert game.chance(plays) == pytest.approx(brute.start(sheets, 0), abs=1e-9), plays


@pytest.mark.slow
@pytest.mark.parametrize("rules, filled, bonus", CASES[:2], ids=CASE_IDS[:2])
def test_every_way_of_play_equals_the_brute_force_when_a_seat_plays_on_alone(rules, filled, bonus):
    """Seat 0 has one box open, seat 1 two: seat 1 plays its last turn alone."""
    one, _ = last_boxes(rules, filled, bonus)
    sheets = (one, sheet_from_json(rules, filled, bonus))
    game = ReducedGame(rules, sheets)
    for plays in PLAYS:
        brute = BruteTwoSeats(rules, plays)
        assert game.chance(plays) == pytest.approx(brute.start(sheets, 0), abs=1e-9), plays


@pytest.mark.parametrize("rules, filled, bonus", RESEARCHED, ids=RESEARCHED_IDS)
def test_exact_play_is_never_worse_than_the_duel_or_the_optimal_player(rules, filled, bonus):
    sheet = sheet_from_json(rules, filled, bonus)
    for sheets in ((sheet, sheet), (scored(rules, sheet, (4, 4, 4, 5, 5)), sheet)):
        game = ReducedGame(rules, sheets)
        chance = {plays: game.chance(plays) for plays in PLAYS}
        for seat_zero in ("duel", "zero-sum", "optimal"):
            assert chance["exact", "optimal"] >= chance[seat_zero, "optimal"] - 1e-12
        for seat_one in ("duel", "zero-sum", "optimal"):
            assert chance["optimal", "exact"] <= chance["optimal", seat_one] + 1e-12
        assert chance["optimal", "exact"] - 1e-12 <= chance["exact", "exact"] <= chance["exact", "optimal"] + 1e-12


@pytest.mark.parametrize("rules, filled, bonus", RESEARCHED, ids=RESEARCHED_IDS)
def test_two_optimal_players_finish_first_as_their_independent_final_totals_say(rules, filled, bonus):
    sheet = sheet_from_json(rules, filled, bonus)
    sheets = (sheet, scored(rules, sheet, (2, 2, 2, 3, 3)))
    first, second = (final_law(rules, sheet) for sheet in sheets)
    expected = sum(
        float(p) * float(q) * (1.0 if x > y else 0.5 if x == y else 0.0)
        for x, p in zip(range(first.low, first.high + 1), first.probabilities)
        for y, q in zip(range(second.low, second.high + 1), second.probabilities)
    )
    # final_law's laws, once saved, are uint32 multiples of 2**-31 (solvers/sheet/distributions.py): a chance
    # summed over them moves by about 1e-9 from the one the reduced game computes in float64
    assert ReducedGame(rules, sheets).chance(("optimal", "optimal")) == pytest.approx(expected, abs=1e-8)
