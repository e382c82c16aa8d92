"""Dice as multisets, and the exact chance outcomes of rolling n dice."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import cast

from .errors import InvalidDice

FACES = (1, 2, 3, 4, 5, 6)
DICE_COUNT = 5

Dice = tuple[int, ...]


def validate_dice(dice: Sequence[object], count: int | None = None) -> Dice:
    """Return the dice as a tuple of ints, or raise InvalidDice saying what is wrong."""
    values = tuple(dice)
    if count is not None and len(values) != count:
        raise InvalidDice("dice_count", expected=count, count=len(values))
    for value in values:
        if isinstance(value, bool) or not isinstance(value, int) or value not in FACES:
            raise InvalidDice("die_face", value=value)
    return cast(Dice, values)  # every value is a face: checked just above


def face_counts(dice: Iterable[int]) -> tuple[int, ...]:
    """How many dice show each face: index 0 is the count of 1s."""
    return tuple(map(tuple(dice).count, FACES))


def multiset_probability(outcome: Dice) -> Fraction:
    """Probability that n fair dice show exactly this multiset of values."""
    n = len(outcome)
    arrangements = factorial(n) // prod(factorial(c) for c in face_counts(outcome))
    return Fraction(arrangements, 6**n)


@cache
def roll_outcomes(n: int) -> tuple[tuple[Dice, Fraction], ...]:
    """Every distinct result of rolling n dice (sorted values) with its exact probability."""
    if not 0 <= n <= DICE_COUNT:
        raise InvalidDice("roll_size", most=DICE_COUNT, count=n)
    return tuple(
        (outcome, multiset_probability(outcome))
        for outcome in combinations_with_replacement(FACES, n)
    )


def is_submultiset(part: Iterable[int], whole: Iterable[int]) -> bool:
    """True when every value of part can be taken from whole (with repetition counts)."""
    return not Counter(part) - Counter(whole)
