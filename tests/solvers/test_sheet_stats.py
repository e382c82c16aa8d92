"""Exact statistics of optimal play: published figures, and a brute force on a small rule set."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from test_sheet_solver import BruteForce

from cubilete.engine.sheet_rules import GENERALA_SEED, GENERALA_TRADITIONAL, PENTA_FORCED, PENTA_FREE
from cubilete.engine.sheet_scoring import Sheet
from cubilete.solvers.sheet import cache as sheet_cache
from cubilete.solvers.sheet.stats import PERCENTILES, exact_stats, five_equal_box
from cubilete.solvers.sheet.turn import chosen_keep, keep_choices, turn_expectations, turn_scratch

# Fives and penta only, with the forced joker, the five-equal bonus and an upper bonus at 15:
# small enough for a brute force over whole games.
FIVES_AND_PENTA = replace(
    PENTA_FORCED,
    name="test-fives-and-penta",
    boxes=tuple(box for box in PENTA_FORCED.boxes if box.id in ("fives", "penta")),
    upper_bonus_threshold=15,
)


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_free_joker_published_standard_deviation_and_upper_bonus():
    stats = exact_stats(PENTA_FREE)
    assert stats.standard_deviation == pytest.approx(59.61, abs=0.005)
    assert stats.upper_bonus_probability == pytest.approx(0.681, abs=0.0005)


@pytest.mark.slow  # a whole distribution per game: the slow step runs it
@pytest.mark.parametrize("rules", [PENTA_FREE, GENERALA_SEED], ids=lambda rules: rules.game)
def test_the_distribution_agrees_with_the_solver_and_the_box_means(rules):
    stats = exact_stats(rules)
    assert stats.distribution.sum() == pytest.approx(1.0, abs=1e-12)
    assert stats.distribution.min() >= 0
    assert stats.mean == pytest.approx(sheet_cache.solution(rules).start_value, abs=1e-9)
    upper_bonus = rules.upper_bonus_points * stats.upper_bonus_probability
    assert sum(stats.box_means.values()) + upper_bonus + stats.five_equal_bonus_mean == pytest.approx(
        stats.mean, abs=1e-9
    )
    percentiles = stats.percentiles()
    assert list(percentiles) == list(PERCENTILES)
    assert list(percentiles.values()) == sorted(percentiles.values())
    assert np.cumsum(stats.distribution)[percentiles[50]] >= 0.5 > np.cumsum(stats.distribution)[percentiles[50] - 1]


def test_generala_has_no_bonus_and_reports_its_generala_box():
    stats = exact_stats(GENERALA_SEED)
    assert stats.upper_bonus_probability == 0 and stats.five_equal_bonus_mean == 0
    assert stats.five_equal_box == five_equal_box(GENERALA_SEED) == "generala"
    assert stats.five_equal_probability == pytest.approx(stats.box_means["generala"] / 50, abs=1e-12)


def test_the_choice_of_keep_is_one_rule_for_one_roll_and_for_all_rolls():
    solved = sheet_cache.solution(PENTA_FREE)
    futures, expect, best = turn_scratch(solved.tables.shape, solved.lattice)
    turn_expectations(*solved.tables, solved.lattice, solved.values, 0b1010011, 0, 9, futures, expect, best)
    choices = np.empty(best.size - 1, dtype=np.int64)
    keep_choices(solved.lattice, expect[2], best, choices)
    rolls = solved.lattice.roll_probability.size
    assert [chosen_keep(solved.lattice, expect[2], best, r) for r in range(rolls)] == list(choices[:rolls])


def test_the_whole_distribution_matches_a_brute_force_over_whole_games():
    brute = BruteForce(FIVES_AND_PENTA)
    layer = {(Sheet.empty(FIVES_AND_PENTA), 0): 1.0}
    for _ in FIVES_AND_PENTA.boxes:
        following: dict[tuple[Sheet, int], float] = {}
        for (sheet, total), p in layer.items():
            for (after, gain), q in brute.turn(sheet).outcomes().items():
                key = (after, total + gain)
                following[key] = following.get(key, 0.0) + p * q
        layer = following
    expected = np.zeros(max(total for _, total in layer) + 1)
    for (_, total), p in layer.items():
        expected[total] += p
    stats = exact_stats(FIVES_AND_PENTA)
    assert stats.mean == pytest.approx(brute.value(Sheet.empty(FIVES_AND_PENTA)), abs=1e-9)
    assert stats.distribution.size == expected.size
    assert np.abs(stats.distribution - expected).max() < 1e-12
    assert 0 < stats.upper_bonus_probability < 1 and stats.five_equal_bonus_mean > 0


def test_the_servida_rule_sets_law_has_the_solvers_optimum_for_its_mean():
    # docs/rules.md#generala-optimal-value: the first roll scores with its own points (a servida)
    stats = exact_stats(GENERALA_TRADITIONAL)
    assert stats.distribution.sum() == pytest.approx(1.0, abs=1e-12)
    assert stats.mean == pytest.approx(151.8989551830, abs=1e-9)
    assert sum(stats.box_means.values()) == pytest.approx(stats.mean, abs=1e-9)
