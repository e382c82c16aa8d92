"""Places with shared ranks: equal totals share a place, the next place skips (docs/rules.md#places)."""

from collections.abc import Sequence


def shared_places(scores: Sequence[int]) -> tuple[int, ...]:
    """Place of each seat: 1 + how many seats scored strictly more."""
    return tuple(1 + sum(other > score for other in scores) for score in scores)
