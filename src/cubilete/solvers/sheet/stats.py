"""Exact statistics of the optimal player's final total, by a forward pass over states.

Starting from the empty sheet with probability 1, each layer of turn-start
states (by number of filled boxes) passes its probability to the next layer
through the optimal player's turn: the rolls, the keeps it chooses, and the box
it scores. Each state carries the whole distribution of the total scored so
far, as a window [low, high] of the totals it reaches, so the last layer gives
the exact distribution of the final total (to floating-point rounding). Windows
are cut to the totals the optimal turns actually reach and trimmed to their
nonzero entries after each layer, which keeps them a few hundred points wide.

States whose upper bonus is decided share one entry, as in the solver; the
window is then what distinguishes their totals. Ties between equally good
actions, rare and without effect on the mean, are broken toward holding more
dice and toward the first box in sheet order.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import prange

from ...engine.dice import DICE_COUNT
from ...engine.sheet_rules import Pattern, SheetRules
from ..kernel_cache import njit
from .cache import solution
from .classes import state_classes, turn_outcomes

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)


@dataclass(frozen=True)
class SheetStats:
    """The exact law of the optimal player's final total for one rule set (solitaire)."""

    rules: SheetRules
    distribution: np.ndarray  # float64: probability of each final total 0, 1, 2, ...
    box_means: dict[str, float]  # mean points written in each box
    upper_bonus_probability: float
    five_equal_bonus_mean: float  # mean of the five-equal bonuses (0 without them)
    five_equal_box: str | None  # the box of five equal dice, if the rule set has one
    five_equal_probability: float | None  # chance that this box ends with points

    @property
    def mean(self) -> float:
        return float(np.dot(np.arange(self.distribution.size), self.distribution))

    @property
    def standard_deviation(self) -> float:
        totals = np.arange(self.distribution.size)
        return float(np.sqrt(np.dot((totals - self.mean) ** 2, self.distribution)))

    def percentile(self, percent: float) -> int:
        """The smallest total reached or beaten with at least this probability from below."""
        cumulative = np.cumsum(self.distribution)
        return int(np.searchsorted(cumulative, percent / 100 - 1e-12))

    def percentiles(self) -> dict[int, int]:
        return {p: self.percentile(p) for p in PERCENTILES}


def five_equal_box(rules: SheetRules) -> str | None:
    """The joker box, or else the box that needs all the dice equal (Generala's generala)."""
    if rules.joker_box is not None:
        return rules.joker_box
    return next(
        (
            box.id
            for box in rules.boxes
            if box.pattern is Pattern.OF_A_KIND and box.count == DICE_COUNT
        ),
        None,
    )


@cache
def exact_stats(rules: SheetRules) -> SheetStats:
    """Solve (or load) the rule set and run the forward pass; remembered per process."""
    solved = solution(rules)
    classes = state_classes(solved)
    windows = _Windows(classes.count)
    layer = np.ones(1)  # the empty sheet: total 0 with probability 1
    shape = solved.tables.shape
    box_mass = np.zeros((shape.box_count, shape.max_points + 1))
    extras = np.zeros(2)  # mean five-equal bonus, probability of the upper bonus
    for start, stop, next_stop in classes.layer_bounds():
        mass = _masses(layer, *windows.arrays(), start, stop)
        outcomes = turn_outcomes(solved, classes, start + np.flatnonzero(mass[start:stop] > 0))
        _next_windows(outcomes.source, outcomes.target, outcomes.gained, *windows.arrays())
        following = windows.allocate(stop, next_stop)
        order = np.argsort(outcomes.target, kind="stable")
        groups = np.flatnonzero(np.diff(outcomes.target[order], prepend=-1, append=-2))
        _shift_add(groups, order, *outcomes.arrays(), *windows.arrays(), layer, following)
        layer = windows.trim(following, stop, next_stop)
        weight = mass[outcomes.source] * outcomes.probability
        np.add.at(box_mass, (outcomes.box, outcomes.points), weight)
        extras += weight @ outcomes.bonus, weight[outcomes.upper_bonus > 0].sum()
    low, high, _ = windows.arrays()
    distribution = np.zeros(high[-1] + 1)
    distribution[low[-1] :] = layer
    return _summary(rules, distribution, box_mass, extras)


def _summary(
    rules: SheetRules, distribution: np.ndarray, box_mass: np.ndarray, extras: np.ndarray
) -> SheetStats:
    points = np.arange(box_mass.shape[1])
    box = five_equal_box(rules)
    return SheetStats(
        rules=rules,
        distribution=distribution,
        box_means={b.id: float(box_mass[i] @ points) for i, b in enumerate(rules.boxes)},
        upper_bonus_probability=float(extras[1]),
        five_equal_bonus_mean=float(extras[0]),
        five_equal_box=box,
        five_equal_probability=None if box is None else float(box_mass[rules.box_index(box), 1:].sum()),
    )


class _Windows:
    """Each class's distribution of the total so far: probabilities of the totals low .. high
    (high = -1: not reached), stored from `offset` on in its layer's array."""

    def __init__(self, count: int) -> None:
        self.low = np.zeros(count, dtype=np.int64)
        self.high = np.full(count, -1, dtype=np.int64)
        self.offset = np.zeros(count, dtype=np.int64)
        self.high[0] = 0  # the empty sheet

    def arrays(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        return self.low, self.high, self.offset

    def allocate(self, start: int, stop: int) -> np.ndarray:
        """Place the windows of classes start..stop side by side; their zeroed array."""
        width = np.maximum(self.high[start:stop] - self.low[start:stop] + 1, 0)
        self.offset[start:stop] = np.cumsum(width) - width
        return np.zeros(int(width.sum()))

    def trim(self, layer: np.ndarray, start: int, stop: int) -> np.ndarray:
        """Shrink each window to its first and last nonzero probability (exact), repacked."""
        _trim_bounds(layer, self.low, self.high, self.offset, start, stop)
        old_offset = self.offset[start:stop].copy()
        old_low = self.low[start:stop].copy()
        trimmed = self.allocate(start, stop)
        _repack(layer, trimmed, self.low, self.high, self.offset, old_low, old_offset, start, stop)
        return trimmed


@njit(cache=True)
def _masses(layer, low, high, offset, start, stop):
    mass = np.zeros(stop)
    for c in range(start, stop):
        mass[c] = layer[offset[c] : offset[c] + high[c] - low[c] + 1].sum()
    return mass


@njit(cache=True)
def _next_windows(source, target, gained, low, high, offset):
    """The next layer's windows: every total some outcome can bring."""
    for i in range(target.shape[0]):
        c, to = source[i], target[i]
        least, most = low[c] + gained[i], high[c] + gained[i]
        if high[to] < 0:
            low[to], high[to] = least, most
        else:
            low[to], high[to] = min(low[to], least), max(high[to], most)


@njit(cache=True)
def _trim_bounds(layer, low, high, offset, start, stop):
    for c in range(start, stop):
        if high[c] < 0:
            continue
        first, last = offset[c], offset[c] + high[c] - low[c]
        while first <= last and layer[first] == 0:
            first += 1
        while last >= first and layer[last] == 0:
            last -= 1
        if first > last:
            high[c] = -1
        else:
            low[c], high[c] = low[c] + first - offset[c], low[c] + last - offset[c]


@njit(cache=True)
def _repack(layer, trimmed, low, high, offset, old_low, old_offset, start, stop):
    for c in range(start, stop):
        begin = old_offset[c - start] + low[c] - old_low[c - start]
        for j in range(high[c] - low[c] + 1):
            trimmed[offset[c] + j] = layer[begin + j]


@njit(parallel=True, cache=True)
def _shift_add(
    groups, order, source, target, box, points, bonus, upper_bonus, gained, probability,
    low, high, offset, layer, following,
):
    """Each target's window gets the windows of the classes leading to it, shifted by the
    total gained and weighted by the outcome's probability; targets are split among threads."""
    for g in prange(groups.size - 1):
        for i in range(groups[g], groups[g + 1]):
            slot = order[i]
            c, to = source[slot], target[slot]
            destination = offset[to] + low[c] + gained[slot] - low[to]
            for j in range(high[c] - low[c] + 1):
                following[destination + j] += probability[slot] * layer[offset[c] + j]
