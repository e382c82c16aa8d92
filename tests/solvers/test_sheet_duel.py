"""Playing to finish first: the opponents' law, the chances of every option against a brute
force over the engine's states, and the duel player against the optimal one."""

from __future__ import annotations

from functools import cache
from itertools import combinations, product

import numpy as np
import pytest
from test_sheet_distributions import CASE_IDS, CASES, SITUATIONS
from test_sheet_threshold import BruteReach

from cubilete.engine.actions import Keep, Score
from cubilete.engine.dice import DICE_COUNT, roll_outcomes
from cubilete.engine.errors import IllegalAction
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED, GENERALA_TRADITIONAL
from cubilete.engine.sheet_scoring import Sheet, sheet_from_json
from cubilete.players import make_player
from cubilete.solvers.sheet.advice import advise
from cubilete.solvers.sheet.distributions import ScoreDistribution
from cubilete.solvers.sheet.duel import (
    best_opponent_law,
    duel_chance,
    final_law,
    final_laws,
    first_place_chances,
    first_seat_chances,
    rank_for_duel,
)


class BruteDuel:
    """The duel's chances by expectimax over one turn of the engine's states: a sheet after the
    turn is worth, over its final total y (its law under optimal play) and the opponents' best
    total x, the chance of y > x plus half the chance of y = x."""

    def __init__(self, rules, sheet: Sheet, others: ScoreDistribution) -> None:
        self.rules, self.sheet, self.others = rules, sheet, others
        self.reach = BruteReach(rules)  # for its legal boxes of a roll
        self.seen = cache(self._seen)
        self.held = cache(self._held)

    def worth(self, after: Sheet) -> float:
        mine = final_law(self.rules, after)
        return sum(
            float(p) * float(q) * (1.0 if y > x else 0.5 if y == x else 0.0)
            for y, p in zip(range(mine.low, mine.high + 1), mine.probabilities)
            for x, q in zip(range(self.others.low, self.others.high + 1), self.others.probabilities)
        )

    def _seen(self, dice: tuple[int, ...], rolls_left: int) -> float:
        best = max(self.worth(after) for after, _ in self.reach.options(self.sheet, dice, rolls_left))
        if rolls_left:
            keeps = {tuple(sorted(c)) for size in range(DICE_COUNT) for c in combinations(dice, size)}
            best = max(best, *(self.held(keep, rolls_left) for keep in keeps))
        return best

    def _held(self, keep: tuple[int, ...], rolls_left: int) -> float:
        return sum(
            float(p) * self.seen(tuple(sorted(keep + o)), rolls_left - 1)
            for o, p in roll_outcomes(DICE_COUNT - len(keep))
        )

    def start(self) -> float:
        first = self.rules.rolls_per_turn - 1
        return sum(float(p) * self.seen(roll, first) for roll, p in roll_outcomes(DICE_COUNT))


# the servida cases (the last two) win at once with two seats: their own brute force below
# generala in the quick suite; fives-and-penta's laws (the joker and the upper bonus) take 10 s more
@pytest.mark.parametrize(
    "rules, filled, bonus",
    [case if case_id == "generala" else pytest.param(*case, marks=pytest.mark.slow)
     for case_id, case in zip(CASE_IDS[:-2], CASES[:-2], strict=True)],
    ids=CASE_IDS[:-2],
)
def test_every_options_chance_to_finish_first_equals_the_brute_force(rules, filled, bonus):
    # the duel's laws, once saved, are uint32 multiples of 2**-31 (solvers/sheet/distributions.py): whether
    # another test saved them first or not, a chance summed over them may move by about 1e-9
    near = 1e-8
    sheet = sheet_from_json(rules, filled, bonus)
    for opponent in opponents(rules, sheet):
        brute = BruteDuel(rules, sheet, final_law(rules, opponent))
        start = SheetState(rules, (sheet, opponent), 0)
        assert duel_chance(start) == pytest.approx(brute.start(), abs=near)
        for dice, rolls_left in SITUATIONS:
            state = SheetState.situation(rules, sheet, dice, rolls_left)
            state = SheetState(rules, (sheet, opponent), 0, state.dice, (), rolls_left, False)
            ranked = rank_for_duel(state)
            assert ranked[0].chance == pytest.approx(brute.seen(tuple(sorted(dice)), rolls_left), abs=near)
            assert ranked[0].chance >= max(option.chance for option in ranked) - 1e-12  # ties: the expected total
            for option in ranked:
                action = option.option.action
                if isinstance(action, Keep):
                    expected = brute.held(option.option.keep, rolls_left)
                    assert duel_chance(state.apply(action)) == pytest.approx(option.chance, abs=1e-15)
                else:
                    expected = brute.worth(state.apply(action).sheets[0])
                assert option.chance == pytest.approx(expected, abs=near), action


def opponents(rules, sheet: Sheet) -> list[Sheet]:
    """Opponents' sheets: the same, one box more filled (with five sixes), and full."""
    sheets = [sheet]
    for dice in ((6, 6, 6, 6, 6), (1, 1, 2, 3, 5)):
        state = SheetState.situation(rules, sheets[-1], dice, 0)
        sheets.append(state.apply(advise(state)[0].action).sheets[0])
    return sheets


def test_the_best_opponents_law_is_the_law_of_the_largest_of_independent_totals():
    rules = GENERALA_SEED
    boxes = [box.id for box in rules.boxes]
    sheets = (
        sheet_from_json(rules, {}),
        sheet_from_json(rules, dict.fromkeys(boxes[:10], 0)),
        sheet_from_json(rules, dict.fromkeys(boxes[:11], 0) | {"ones": 4}),
    )
    law = best_opponent_law(rules, sheets, 0)
    a, b = final_law(rules, sheets[1]), final_law(rules, sheets[2])
    brute: dict[int, float] = {}
    for x, p in zip(range(a.low, a.high + 1), a.probabilities):
        for y, q in zip(range(b.low, b.high + 1), b.probabilities):
            brute[max(x, y)] = brute.get(max(x, y), 0.0) + p * q
    assert law is not None and law.probabilities.sum() == pytest.approx(1, abs=1e-12)
    for total, p in brute.items():
        assert law.probabilities[total - law.low] == pytest.approx(p, abs=1e-12)
    assert best_opponent_law(rules, sheets[:1], 0) is None


def test_the_best_opponents_sub_law_counts_an_opponent_whose_totals_all_lie_below_anothers():
    """Three seats of Generala traditional: seat 1 can end at 5 points at most, seat 2 at 190 at least; the
    best of them is seat 2's total, times the chance that neither wins at once (seat 1's sub-law's mass)."""
    rules = GENERALA_TRADITIONAL
    boxes = [box.id for box in rules.boxes if box.id != "ones"]
    high = {"twos": 10, "threes": 15, "fours": 20, "fives": 25, "sixes": 30, "straight": 20, "full": 30, "poker": 40}
    sheets = (
        sheet_from_json(rules, {}),
        sheet_from_json(rules, dict.fromkeys(boxes, 0)),
        sheet_from_json(rules, dict.fromkeys(boxes, 0) | high),
    )
    low, top = final_law(rules, sheets[1], True), final_law(rules, sheets[2], True)
    assert low.high < top.low
    law = best_opponent_law(rules, sheets, 0)
    assert law is not None and law.low == top.low
    expected = top.probabilities * low.probabilities.sum()
    assert law.probabilities[: expected.size] == pytest.approx(expected, abs=1e-15)
    # one turn each, no servida in either (the saved laws round each chance to 2^-31)
    assert law.probabilities.sum() == pytest.approx((1 - 6 / 7776) ** 2, abs=1e-9)


def test_first_place_chances_share_a_tie_among_the_tied_totals_and_add_up_to_one():
    laws = (
        ScoreDistribution(3, np.array([0.2, 0.5, 0.3])),
        ScoreDistribution(4, np.array([0.6, 0.4])),
        ScoreDistribution(2, np.array([0.1, 0.1, 0.3, 0.5])),
    )
    brute = [0.0] * len(laws)
    for totals in product(*(zip(range(law.low, law.high + 1), law.probabilities) for law in laws)):
        chance = float(np.prod([p for _, p in totals]))
        top = max(total for total, _ in totals)
        firsts = [seat for seat, (total, _) in enumerate(totals) if total == top]
        for seat in firsts:
            brute[seat] += chance / len(firsts)
    assert first_place_chances(laws) == pytest.approx(brute, abs=1e-12)
    assert sum(first_place_chances(laws)) == pytest.approx(1, abs=1e-12)
    assert first_place_chances(laws[1:2] * 2) == pytest.approx((0.5, 0.5), abs=1e-12)


def test_final_laws_follow_the_seat_to_move_within_its_turn_and_the_others_from_their_next():
    rules = GENERALA_SEED
    state = SheetState.new(rules, 2).apply_roll((6, 6, 6, 1, 2))
    mover, other = final_laws(state)
    # the laws, once saved, are whole multiples of 2**-31 (solvers/sheet/distributions.py): a mean over a
    # few hundred totals moves by 1e-7 at most, where the law computed in the process agrees to 1e-9
    assert mover.mean == pytest.approx(advise(state)[0].value, abs=1e-6)
    assert other.mean == pytest.approx(final_law(rules, state.sheets[1]).mean, abs=1e-12)


def test_alone_the_duel_ranks_like_the_expected_total_and_refuses_what_advice_refuses():
    state = SheetState.new(GENERALA_SEED).apply_roll((2, 2, 3, 5, 6))
    assert [o.option.action for o in rank_for_duel(state)] == [o.action for o in advise(state)]
    with pytest.raises(IllegalAction):
        rank_for_duel(SheetState.new(GENERALA_SEED, 2))


def test_the_duel_player_takes_its_first_ranked_option():
    state = SheetState.new(GENERALA_SEED, 2).apply_roll((6, 6, 6, 1, 2))
    assert make_player("duel", GENERALA_SEED).choose(state) == rank_for_duel(state)[0].option.action
    assert np.isfinite(duel_chance(state))


class BruteLastTurns:
    """Both seats' last turns played through the engine, seat 0 to move maximising its chance to
    finish first, seat 1 then playing optimally (the advice's first option), a Generala servida
    ending the game at once (docs/rules.md#generala-servida-wins): the duel's model, exact here."""

    def __init__(self, start: SheetState) -> None:
        self.start = start
        self.seen = cache(self._seen)
        self.held = cache(self._held)
        self.opponent: dict[int | str, float] = {}  # seat 1's final total, or "won at once"
        after = start.apply_roll((1, 2, 3, 4, 6))
        self._opponent_turn(after.apply(advise(after)[-1].action), 1.0)

    def _opponent_turn(self, state: SheetState, p: float) -> None:
        if state.is_over:
            outcome = "won at once" if state.winner == 1 else state.scores()[1]
            self.opponent[outcome] = self.opponent.get(outcome, 0.0) + p
        elif state.is_chance:
            for dice, q in state.chance_outcomes():
                self._opponent_turn(state.apply_roll(dice), p * float(q))
        else:
            self._opponent_turn(state.apply(advise(state)[0].action), p)

    def worth(self, total: int) -> float:
        return sum(q * (1.0 if total > x else 0.5) for x, q in self.opponent.items() if x != "won at once" and total >= x)

    def _seen(self, dice: tuple[int, ...], rolls_left: int) -> float:
        state = SheetState(self.start.rules, self.start.sheets, 0, dice, (), rolls_left, False)
        if rolls_left == self.start.rules.rolls_per_turn - 1:
            state = self.start.apply_roll(dice)  # the engine says whether it wins at once
            if state.is_over:
                return 1.0
        best = max(self.worth(state.apply(Score(option.box)).scores()[0]) for option in state.score_options())
        if rolls_left:
            keeps = {tuple(sorted(c)) for size in range(DICE_COUNT) for c in combinations(dice, size)}
            best = max(best, *(self.held(keep, rolls_left) for keep in keeps))
        return best

    def _held(self, keep: tuple[int, ...], rolls_left: int) -> float:
        return sum(
            float(p) * self.seen(tuple(sorted(keep + o)), rolls_left - 1)
            for o, p in roll_outcomes(DICE_COUNT - len(keep))
        )

    def value(self) -> float:
        first = self.start.rules.rolls_per_turn - 1
        return sum(float(p) * self.seen(roll, first) for roll, p in roll_outcomes(DICE_COUNT))


@pytest.mark.slow  # 15-35 s each: the engine walks every roll of both turns
@pytest.mark.parametrize("open_boxes", [("poker", "generala"), ("full", "straight")], ids=["poker-generala", "full-straight"])
def test_a_generala_servida_wins_at_once_in_the_duels_chances_as_in_a_brute_force_of_the_last_turns(open_boxes):
    rules = GENERALA_TRADITIONAL
    filled = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "straight": 20, "full": 30,
              "poker": 40, "generala": 0}
    mover = sheet_from_json(rules, {box: p for box, p in filled.items() if box != open_boxes[0]})
    opponent = sheet_from_json(rules, {box: p for box, p in filled.items() if box != open_boxes[1]})
    start = SheetState(rules, (mover, opponent), 0)
    brute = BruteLastTurns(start)
    assert brute.opponent["won at once"] == pytest.approx(6 / 7776, abs=1e-15)
    assert duel_chance(start) == pytest.approx(brute.value(), abs=1e-9)
    assert first_seat_chances(start)[0] == pytest.approx(brute.value(), abs=1e-9)  # the mover plays its best
    for dice in ((2, 2, 3, 6, 6), (4, 4, 4, 4, 2), (3, 4, 5, 6, 1)):
        state = start.apply_roll(dice)
        ranked = rank_for_duel(state)
        assert ranked[0].chance == pytest.approx(brute.seen(tuple(sorted(dice)), 2), abs=1e-9)
        assert sum(first_seat_chances(state)) == pytest.approx(1, abs=1e-9)
    assert first_seat_chances(start.apply_roll((5, 5, 5, 5, 5))) == (1.0, 0.0)
