"""Playing to reach a total: the chances against a brute force, the policy's law, and that
playing for the target never reaches it less often than playing for the expected total. The
policy's law (cubilete.research) is research, not the product: its check runs in the slow step."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from test_sheet_distributions import CASE_IDS, CASES, SITUATIONS

from cubilete.engine.actions import Keep, Score
from cubilete.engine.dice import DICE_COUNT, roll_outcomes
from cubilete.engine.errors import IllegalAction
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED
from cubilete.engine.sheet_scoring import Sheet, sheet_from_json, sheet_total
from cubilete.research.sheet_threshold_policy import threshold_distribution
from cubilete.solvers.sheet import cache as sheet_cache
from cubilete.solvers.sheet.distributions import option_distributions, remaining_distribution
from cubilete.solvers.sheet.threshold import ThresholdTable, rank_for_target, reach_chance, top_points


class BruteReach:
    """The best chance to score `need` points or more, by expectimax over the engine's states."""

    def __init__(self, rules) -> None:
        self.rules = rules
        self.memo: dict[tuple, float] = {}
        self.scores: dict[tuple[Sheet, tuple[int, ...], bool], list[tuple[Sheet, int]]] = {}

    def start(self, sheet: Sheet, need: int) -> float:
        if need <= 0:
            return 1.0
        if sheet.is_full:
            return 0.0
        key = ("start", sheet, need)
        if key not in self.memo:
            first = self.rules.rolls_per_turn - 1
            self.memo[key] = sum(float(p) * self.seen(sheet, roll, first, need) for roll, p in roll_outcomes(DICE_COUNT))
        return self.memo[key]

    def seen(self, sheet: Sheet, dice: tuple[int, ...], rolls_left: int, need: int) -> float:
        key = ("seen", sheet, dice, rolls_left, need)
        if key not in self.memo:
            best = max(self.start(after, need - gain) for after, gain in self.options(sheet, dice, rolls_left))
            if rolls_left:
                keeps = {tuple(sorted(c)) for size in range(DICE_COUNT) for c in combinations(dice, size)}
                best = max(best, *(self.held(sheet, keep, rolls_left, need) for keep in keeps))
            self.memo[key] = best
        return self.memo[key]

    def held(self, sheet: Sheet, keep: tuple[int, ...], rolls_left: int, need: int) -> float:
        key = ("held", sheet, keep, rolls_left, need)
        if key not in self.memo:
            self.memo[key] = sum(
                float(p) * self.seen(sheet, tuple(sorted(keep + o)), rolls_left - 1, need)
                for o, p in roll_outcomes(DICE_COUNT - len(keep))
            )
        return self.memo[key]

    def options(self, sheet: Sheet, dice: tuple[int, ...], rolls_left: int) -> list[tuple[Sheet, int]]:
        """(sheet after, points gained with every bonus) for each legal box (the first roll may score
        more: docs/rules.md#generala-servida)."""
        first = rolls_left == self.rules.rolls_per_turn - 1
        if (sheet, dice, first) not in self.scores:
            state = SheetState.situation(self.rules, sheet, dice, rolls_left)
            now = sheet_total(self.rules, sheet)
            self.scores[sheet, dice, first] = [
                (after.sheet, sheet_total(self.rules, after.sheet) - now)
                for option in state.score_options()
                for after in [state.apply(Score(option.box))]
            ]
        return self.scores[sheet, dice, first]


def targets(state: SheetState) -> list[int]:
    """Totals worth asking for: around the quartiles of optimal play, and the most possible."""
    now = sheet_total(state.rules, state.sheet)
    law = remaining_distribution(SheetState.situation(state.rules, state.sheet))
    cumulative = np.cumsum(law.probabilities)
    quartiles = {law.low + int(np.searchsorted(cumulative, q)) for q in (0.25, 0.75)}
    return sorted({now + max(q, 1) for q in quartiles} | {now + top_points(state)})


# Expected-total play's laws, when another test saved them first, are read back in uint32 steps of 2**-31,
# each entry within half a step (solvers/sheet/distributions.py): a tail of a few hundred entries within 1e-7.
SAVED_LAW_ERROR = 1e-7


@pytest.mark.parametrize("rules, filled, bonus", CASES, ids=CASE_IDS)
def test_chances_equal_the_brute_force_and_never_lose_to_expected_total_play(rules, filled, bonus):
    sheet = sheet_from_json(rules, filled, bonus)
    brute = BruteReach(rules)
    now = sheet_total(rules, sheet)
    start = SheetState.situation(rules, sheet)
    for target in targets(start):
        need = target - now
        chance = reach_chance(start, target)
        assert chance == pytest.approx(brute.start(sheet, need), abs=1e-9)
        assert chance >= remaining_distribution(start).at_least(need) - SAVED_LAW_ERROR
        for dice, rolls_left in SITUATIONS:
            state = SheetState.situation(rules, sheet, dice, rolls_left)
            laws = {repr(action): law for action, law in option_distributions(state)}
            ranked = rank_for_target(state, target)
            assert ranked[0].chance == pytest.approx(brute.seen(sheet, dice, rolls_left, need), abs=1e-9)
            assert ranked[0].chance == reach_chance(state, target)
            assert ranked[0].chance >= max(reach.chance for reach in ranked) - 1e-12  # ties: the expected total
            assert [reach.option.value for reach in ranked if reach.chance == 0] == sorted(
                (reach.option.value for reach in ranked if reach.chance == 0), reverse=True
            )
            for reach in ranked:
                action = reach.option.action
                if isinstance(action, Keep):
                    expected = brute.held(sheet, reach.option.keep, rolls_left, need)
                    after_keep = state.apply(action)
                    assert reach_chance(after_keep, target) == pytest.approx(reach.chance, abs=1e-15)
                else:
                    after = state.apply(action).sheet
                    expected = brute.start(after, target - sheet_total(rules, after))
                assert reach.chance == pytest.approx(expected, abs=1e-9), action
                assert reach.chance >= laws[repr(action)].at_least(need) - SAVED_LAW_ERROR


@pytest.mark.slow  # research: its kernels compile only for this check
@pytest.mark.parametrize("rules, filled, bonus", CASES[:-2], ids=CASE_IDS[:-2])  # not the servida ones: refused
def test_the_threshold_policys_law_reaches_the_target_with_the_best_chance(rules, filled, bonus):
    sheet = sheet_from_json(rules, filled, bonus)
    now = sheet_total(rules, sheet)
    states = [SheetState.situation(rules, sheet)]
    states += [SheetState.situation(rules, sheet, dice, rolls_left) for dice, rolls_left in SITUATIONS]
    states.append(states[1].apply(states[1].keep_values((5, 5))))
    for target in targets(states[0]):
        for state in states:
            law = threshold_distribution(state, target)
            optimal = remaining_distribution(state)
            assert law.probabilities.sum() == pytest.approx(1, abs=1e-12) and law.probabilities.min() >= 0
            assert law.at_least(target - now) == pytest.approx(reach_chance(state, target), abs=1e-9)
            # the optimal player's law, once saved, has entries within 2**-32 of the computed ones
            # (solvers/sheet/distributions.py): its mean within 1e-7, its chances within 1e-8
            assert law.mean <= optimal.mean + 1e-7  # the expected total is the optimal player's to maximise
            assert law.at_least(target - now) >= optimal.at_least(target - now) - 1e-8


def test_on_a_longer_generala_sheet_target_play_is_no_worse_at_every_target():
    rules = GENERALA_SEED
    sheet = sheet_from_json(rules, {"ones": 3, "twos": 6, "threes": 6, "fours": 12, "trio": 20, "full": 25,
                                    "long_straight": 30, "libre": 22})
    state = SheetState.situation(rules, sheet, (6, 6, 2, 5, 6), 2)
    now = sheet_total(rules, sheet)
    optimal = remaining_distribution(state)
    gains = []
    for need in range(10, top_points(state), 15):
        chance = reach_chance(state, now + need)
        assert chance >= optimal.at_least(need) - SAVED_LAW_ERROR
        gains.append(chance - optimal.at_least(need))
    assert max(gains) > 0.01  # somewhere playing for the target is worth more than a percent


def test_a_target_must_be_above_the_total_and_within_reach():
    rules = GENERALA_SEED
    sheet = sheet_from_json(rules, {"ones": 3, "twos": 6})
    state = SheetState.situation(rules, sheet)
    top = top_points(state)
    assert top == 15 + 20 + 25 + 30 + 20 + 30 + 25 + 30 + 40 + 50 + 30  # each open box at its most
    for bad in (9, 0, 10 + top):
        with pytest.raises(IllegalAction, match=f"the target must be between 10 and {9 + top}, not {bad}"):
            reach_chance(state, bad)
    with pytest.raises(IllegalAction, match="must be an integer"):
        reach_chance(state, 100.5)
    assert reach_chance(state, 9 + top) > 0 and reach_chance(state, 10) == pytest.approx(1, abs=1e-12)
    with pytest.raises(IllegalAction, match="rolled"):
        rank_for_target(state, 100)


def test_a_table_keeps_its_chances_and_widens_only_the_windows_a_larger_need_needs():
    rules = GENERALA_SEED
    solved = sheet_cache.solution(rules)
    table = ThresholdTable(solved)
    sheet = sheet_from_json(rules, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "trio": 20,
                                    "poker": 30, "full": 25, "libre": 22})
    c = table.class_of(sheet)
    table.ensure(c, 60)
    small = table.chance(c, 60)
    sizes = [layer.size for layer in table.windows.layers]
    table.ensure(c, 40)
    assert [layer.size for layer in table.windows.layers] == sizes
    table.ensure(c, 100)
    assert table.windows.width[c] == 100 and table.chance(c, 60) == small
    fresh = ThresholdTable(solved)
    fresh.ensure(c, 100)
    assert all(fresh.chance(c, need) == table.chance(c, need) for need in range(-1, 101))
    assert table.top[c] == 30 + 30 + 40 + 50 and table.chance(c, 151) == 0
    table.ensure(c, 1000)  # nothing above the top is computed: the window stops there
    assert table.windows.width[c] == 150 and table.chance(c, 150) > 0
