"""Confidence intervals for what simulations measure."""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # the standard normal quantile of 97.5%


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion, 95% by default (sound near 0 and 1,
    unlike p ± 2 standard errors)."""
    p = successes / trials
    spread = z * math.sqrt(p * (1 - p) / trials + z**2 / (4 * trials**2))
    centre = p + z**2 / (2 * trials)
    scale = 1 + z**2 / trials
    return max(0.0, (centre - spread) / scale), min(1.0, (centre + spread) / scale)
