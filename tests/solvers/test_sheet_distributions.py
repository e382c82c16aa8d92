"""Distributions of the points still to come under optimal play: brute force, the solver's
values, mid-turn situations and the table's reuse of what it computed."""

from __future__ import annotations

import numpy as np
import pytest
from test_sheet_solver import BRUTE_FORCE_CASES, BruteForce
from test_sheet_stats import FIVES_AND_PENTA

from cubilete.engine.actions import Keep, Score
from cubilete.engine.dice import DICE_COUNT, roll_outcomes
from cubilete.engine.errors import IllegalAction
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED, GENERALA_TRADITIONAL_DOUBLE, PENTA_SEED
from cubilete.engine.sheet_scoring import Sheet, sheet_from_json, sheet_total
from cubilete.solvers.sheet import cache as sheet_cache
from cubilete.solvers.sheet.advice import advise, expected_value
from cubilete.solvers.sheet.distributions import (
    DistributionTable,
    ScoreDistribution,
    distribution_table,
    option_distributions,
    remaining_distribution,
    turn_start_distribution,
)
from cubilete.solvers.sheet.turn import state_index
from cubilete.solvers.sheet.windows import MISSING

# two open boxes each (the servida ones: a first roll scoring more, docs/rules.md#generala-servida); the
# solver's slow cases (pytest.param, a named tuple: Kniffel, Yatzy) need whole 13-15 box tables
CASES = [(FIVES_AND_PENTA, {}, 0), *(case for case in BRUTE_FORCE_CASES if type(case) is tuple)]
CASE_IDS = ["fives-and-penta", "forced-joker", "free-bonus-pending", "seed-penta-0", "generala", "servida-double",
            "servida-straight"]
# Where a check needs a whole rule set's tables (the laws of every sheet, say), the quick suite keeps
# fives-and-penta (the forced joker and the upper bonus on two boxes) and generala; the others take
# seconds each and run in the slow step.
QUICK = [0, 4]
SOME_SLOW = [case if i in QUICK else pytest.param(*case, marks=pytest.mark.slow) for i, case in enumerate(CASES)]
SITUATIONS = [((5, 5, 5, 5, 5), 2), ((1, 2, 3, 4, 6), 1), ((2, 2, 3, 6, 6), 0), ((1, 1, 5, 5, 6), 2),
              ((3, 4, 5, 6, 1), 2), ((2, 2, 2, 5, 5), 2)]
PENTA_FIVE_LEFT = {"ones": 2, "twos": 4, "threes": 9, "three_of_a_kind": 17, "full_house": 25,
                   "small_straight": 30, "chance": 21, "penta": 50}


class BruteDistributions:
    """The law of the points still to come, by the brute force's own optimal turns."""

    def __init__(self, rules) -> None:
        self.brute = BruteForce(rules)
        self.known: dict[Sheet, dict[int, float]] = {}

    def turn_start(self, sheet: Sheet) -> dict[int, float]:
        if sheet.is_full:
            return {0: 1.0}
        if sheet not in self.known:
            self.known[sheet] = self.mixed(self.brute.turn(sheet).outcomes())
        return self.known[sheet]

    def seen(self, sheet: Sheet, chance: dict[tuple[int, ...], float], rolls_left: int) -> dict[int, float]:
        """From `chance` of each roll on the table with `rolls_left` rolls left."""
        return self.mixed(self.brute.turn(sheet).outcomes(chance, rolls_left))

    def mixed(self, outcomes: dict[tuple[Sheet, int], float]) -> dict[int, float]:
        law: dict[int, float] = {}
        for (after, gain), q in outcomes.items():
            for points, p in self.turn_start(after).items():
                law[points + gain] = law.get(points + gain, 0.0) + q * p
        return law


def rolled(keep: tuple[int, ...]) -> dict[tuple[int, ...], float]:
    return {tuple(sorted(keep + o)): float(p) for o, p in roll_outcomes(DICE_COUNT - len(keep))}


def assert_same_law(distribution: ScoreDistribution, law: dict[int, float]) -> None:
    support = [points for points, p in law.items() if p > 0]
    assert (distribution.low, distribution.high) == (min(support), max(support))
    expected = np.zeros(distribution.probabilities.size)
    for points, p in law.items():
        expected[points - distribution.low] += p
    # a law computed here is exact to 1e-12; one another test saved first is read back in uint32 steps of
    # 2**-31 (solvers/sheet/distributions.py): within one step, whichever test ran first
    assert np.abs(distribution.probabilities - expected).max() < 2**-31


@pytest.mark.parametrize("rules, filled, bonus", CASES, ids=CASE_IDS)
def test_turn_start_and_mid_turn_laws_equal_the_brute_force(rules, filled, bonus):
    sheet = sheet_from_json(rules, filled, bonus)
    brute = BruteDistributions(rules)
    start = turn_start_distribution(rules, sheet)
    assert_same_law(start, brute.turn_start(sheet))
    assert start.mean == pytest.approx(brute.brute.value(sheet), abs=1e-7)  # the saved laws' steps (above), times points
    for dice, rolls_left in SITUATIONS:
        state = SheetState.situation(rules, sheet, dice, rolls_left)
        assert_same_law(remaining_distribution(state), brute.seen(sheet, {dice: 1.0}, rolls_left))
        for action, distribution in option_distributions(state):
            if isinstance(action, Keep):
                kept = tuple(sorted(dice[i] for i in action.held))
                assert_same_law(distribution, brute.seen(sheet, rolled(kept), rolls_left - 1))
            else:
                after = state.apply(action).sheet
                gained = sheet_total(rules, after) - sheet_total(rules, sheet)
                law = {points + gained: p for points, p in brute.turn_start(after).items()}
                assert_same_law(distribution, law)


@pytest.mark.parametrize(
    "rules, filled",
    [(GENERALA_SEED, {}), (PENTA_SEED, PENTA_FIVE_LEFT), (GENERALA_TRADITIONAL_DOUBLE, {})],
    ids=["generala", "penta", "servida-double"],
)
def test_every_computed_class_sums_to_one_and_its_mean_is_the_solvers_value(rules, filled):
    solved = sheet_cache.solution(rules)
    table = DistributionTable(solved)
    table.ensure(table.class_of(sheet_from_json(rules, filled)))
    computed = np.flatnonzero(table.windows.width != MISSING)
    assert computed.size > 50
    for c in computed:
        distribution = table.distribution(c)
        assert distribution.probabilities.min() >= 0
        assert distribution.probabilities[[0, -1]].min() > 0  # the window is the exact support
        assert distribution.probabilities.sum() == pytest.approx(1, abs=1e-12)
        key = table.classes.mask[c], table.classes.joker[c], table.classes.upper[c]
        value = solved.values[state_index.py_func(solved.tables.shape, *key)]
        assert distribution.mean == pytest.approx(value, abs=1e-9)


def test_mid_turn_means_are_the_advice_values():
    rules = PENTA_SEED
    sheet = sheet_from_json(rules, PENTA_FIVE_LEFT, 100)
    now = sheet_total(rules, sheet)
    state = SheetState.situation(rules, sheet, (4, 4, 1, 6, 4), 2)
    values = {repr(option.action): option.value for option in advise(state)}
    options = option_distributions(state)
    assert [repr(action) for action, _ in options] == [repr(action) for action in state.legal_actions()]
    for action, distribution in options:
        assert now + distribution.mean == pytest.approx(values[repr(action)], abs=1e-9)
    assert now + remaining_distribution(state).mean == pytest.approx(max(values.values()), abs=1e-9)
    held = state.apply(state.keep_values((4, 4, 4)))
    assert now + remaining_distribution(held).mean == pytest.approx(expected_value(held), abs=1e-9)


def test_a_table_computes_each_class_once_and_grows_only_what_a_request_needs():
    rules = GENERALA_SEED
    table = DistributionTable(sheet_cache.solution(rules))
    late = sheet_from_json(rules, {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "trio": 20, "poker": 30,
                                   "full": 25, "long_straight": 30, "libre": 21})
    table.ensure(table.class_of(late))
    assert (table.windows.width != MISSING).sum() == 2**4
    late_law = table.distribution(table.class_of(late))
    table.ensure(table.class_of(Sheet.empty(rules)))
    assert (table.windows.width != MISSING).sum() == 2**13
    sizes = [layer.size for layer in table.windows.layers]
    table.ensure(table.class_of(sheet_from_json(rules, {"ones": 3})))
    assert [layer.size for layer in table.windows.layers] == sizes
    again = table.distribution(table.class_of(late))
    assert again.low == late_law.low and np.array_equal(again.probabilities, late_law.probabilities)


def test_the_process_keeps_one_table_per_rule_set_and_situations_without_a_choice_are_refused():
    rules = GENERALA_SEED
    solved = sheet_cache.solution(rules)
    assert distribution_table(solved) is distribution_table(solved)
    last_box = sheet_from_json(rules, {box: 0 for box in rules.box_ids[:-1]})
    over = SheetState.situation(rules, last_box, (1, 2, 3, 4, 6), 0).apply(Score(rules.box_ids[-1]))
    with pytest.raises(IllegalAction, match="game is over"):
        remaining_distribution(over)
    with pytest.raises(IllegalAction, match="rolled"):
        option_distributions(SheetState.situation(rules, Sheet.empty(rules)))
    distribution = ScoreDistribution(10, np.array([0.25, 0.0, 0.75]))
    assert (distribution.high, distribution.mean, distribution.at_least(12), distribution.at_least(3)) == (12, 11.5, 0.75, 1)
    assert distribution.shifted(5).low == 15 and distribution.standard_deviation == pytest.approx(np.sqrt(0.75))

