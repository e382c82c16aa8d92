"""Chance outcomes are exact: they sum to 1 and match enumerating all 6^n ordered rolls."""

from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from cubilete.engine.dice import roll_outcomes, validate_dice
from cubilete.engine.errors import InvalidDice


@pytest.mark.parametrize("n", range(6))
def test_outcomes_sum_to_one_and_match_brute_force(n):
    outcomes = dict(roll_outcomes(n))
    assert sum(outcomes.values()) == 1
    brute = Counter(tuple(sorted(roll)) for roll in product(range(1, 7), repeat=n))
    assert outcomes == {dice: Fraction(count, 6**n) for dice, count in brute.items()}


def test_distinct_outcome_counts_are_the_classic_ones():
    assert [len(roll_outcomes(n)) for n in range(6)] == [1, 6, 21, 56, 126, 252]


@pytest.mark.parametrize("bad", [[0], [7], ["3"], [2.0], [True]])
def test_invalid_die_values_are_refused(bad):
    with pytest.raises(InvalidDice, match="1 to 6"):
        validate_dice(bad)


def test_wrong_number_of_dice_is_refused():
    with pytest.raises(InvalidDice, match="expected 5 dice, got 4"):
        validate_dice([1, 2, 3, 4], 5)
    with pytest.raises(InvalidDice):
        roll_outcomes(6)
