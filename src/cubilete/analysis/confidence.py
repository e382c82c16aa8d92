"""Confidence intervals for what simulations measure."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence

Z95 = 1.959963984540054  # the standard normal quantile of 97.5%


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion, 95% by default (sound near 0 and 1,
    unlike p ± 2 standard errors): E. B. Wilson, "Probable inference, the law of succession, and
    statistical inference", JASA 22 (1927). Ties counted as half wins make `successes` fractional:
    the same formula holds for the proportion (a tie's half-win varies less than a win, so the
    interval is, if anything, a little wide)."""
    p = successes / trials
    spread = z * math.sqrt(p * (1 - p) / trials + z**2 / (4 * trials**2))
    centre = p + z**2 / (2 * trials)
    scale = 1 + z**2 / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)


def mean_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """The mean of independent observations and its 95% interval by the normal approximation,
    mean ± z SD / sqrt(n) (sound for the many observations of a simulation; a pair of games
    with common dice is one observation)."""
    mean = statistics.fmean(values)
    spread = z * statistics.pstdev(values, mean) / math.sqrt(len(values))
    return mean, mean - spread, mean + spread
