"""Places with shared ranks: equal totals share a place, the next place skips (docs/rules.md#places)."""

from collections.abc import Sequence


def shared_places(scores: Sequence[int]) -> tuple[int, ...]:
    """Place of each seat: 1 + how many seats scored strictly more, which is where its score
    first appears among the scores from highest to lowest."""
    descending = sorted(scores, reverse=True)
    return tuple(descending.index(score) + 1 for score in scores)
