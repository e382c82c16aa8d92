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
from numba import njit, prange

from ..engine.dice import DICE_COUNT
from ..engine.sheet_rules import Pattern, SheetRules
from .sheet_cache import solution
from .sheet_solver import SheetSolution, layers
from .sheet_tables import SheetTables, computed_states
from .sheet_turn import (
    best_boxes,
    best_keeps,
    keep_choices,
    roll_context,
    state_index,
    successor,
    turn_expectations,
    turn_scratch,
)

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


OUTCOME_CHUNK = 4096  # classes whose turn outcomes are computed at once, before compaction


@cache
def exact_stats(rules: SheetRules) -> SheetStats:
    """Solve (or load) the rule set and run the forward pass; remembered per process."""
    solved = solution(rules)
    classes = _Classes(solved)
    windows = _Windows(classes.count)
    layer = np.ones(1)  # the empty sheet: total 0 with probability 1
    shape = solved.tables.shape
    box_mass = np.zeros((shape.box_count, shape.max_points + 1))
    extras = np.zeros(2)  # mean five-equal bonus, probability of the upper bonus
    for start, stop, next_stop in classes.layer_bounds():
        mass = _masses(layer, *windows.arrays(), start, stop)
        outcomes = _layer_outcomes(solved, classes, start, stop, mass)
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


def _layer_outcomes(
    solved: SheetSolution, classes: _Classes, start: int, stop: int, mass: np.ndarray
) -> _Outcomes:
    """The outcomes of every reached class of a layer, computed chunk by chunk, zeros dropped."""
    bonus_values = np.unique(solved.tables.arrays.bonus)
    parts = []
    for first in range(start, stop, OUTCOME_CHUNK):
        last = min(first + OUTCOME_CHUNK, stop)
        slots = np.concatenate(([0], np.cumsum(classes.capacity[first:last])))
        chunk = _Outcomes(int(slots[-1]))
        chunk.source[:] = np.repeat(np.arange(first, last), np.diff(slots))
        _chunk_outcomes(
            *solved.tables, solved.lattice, solved.values, classes.mask, classes.joker,
            classes.upper, classes.index, bonus_values, first, last, mass, slots,
            *chunk.arrays()[1:],
        )
        parts.append(chunk.select(chunk.probability > 0))
    return _Outcomes.concatenate(parts)


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


class _Classes:
    """Every turn-start state the solver computes, numbered layer by layer from the empty sheet.

    A class is a (mask, joker state, upper total) whose upper bonus is pending, or the
    single entry (upper total = threshold) of all the totals of a mask whose bonus is
    decided; the full sheet is one class. `index[state_index]` is the class of a state.
    """

    def __init__(self, solved: SheetSolution) -> None:
        shape, t = solved.tables
        masks = np.concatenate(list(reversed(layers(solved.tables))))
        joker_states = computed_states(solved.tables)[masks] // (t.pending[masks].sum(axis=1) + 1)
        pair_mask = np.repeat(masks, joker_states)
        first_pair = np.cumsum(joker_states) - joker_states
        pair_joker = np.arange(pair_mask.size) - np.repeat(first_pair, joker_states)
        rows = t.pending[pair_mask]
        rows[:, shape.threshold] = True  # the entry of the decided totals
        pair, upper = np.nonzero(rows)
        self.mask = np.append(pair_mask[pair], (1 << shape.box_count) - 1)
        self.joker = np.append(pair_joker[pair], 0)
        self.upper = np.append(upper, shape.threshold)
        self.count = self.mask.size
        filled = np.array([bin(m).count("1") for m in self.mask])
        self.ends = [int(end) for end in np.flatnonzero(np.diff(filled)) + 1] + [self.count]
        grid = np.full(
            (1 << shape.box_count, shape.joker_states, shape.threshold + 1), -1, dtype=np.int64
        )
        pending = np.flatnonzero(self.upper < shape.threshold)
        grid[self.mask[pending], self.joker[pending], self.upper[pending]] = pending
        decided = np.flatnonzero(self.upper == shape.threshold)  # stands for every other total
        rows = self.mask[decided], self.joker[decided]
        grid[rows] = np.where(t.pending[self.mask[decided]], grid[rows], decided[:, None])
        grid[-1] = self.count - 1  # the full sheet, whatever its joker state
        self.index = grid.ravel()
        self.capacity = _outcome_capacity(solved.tables, self.mask)

    def layer_bounds(self) -> list[tuple[int, int, int]]:
        """(first class, end, end of the next layer) of every layer but the last."""
        starts = [0, *self.ends]
        return [(starts[i], starts[i + 1], starts[i + 2]) for i in range(len(self.ends) - 1)]


class _Outcomes:
    """Turn outcomes, one slot each: the class it starts from and the class it leads to, the
    box scored, its points, the five-equal bonus, the upper bonus earned, the total gained and
    the probability."""

    # Compact types: a layer of Penta has a few million outcomes.
    FIELDS = {
        "source": np.int32,
        "target": np.int32,
        "box": np.int8,
        "points": np.int16,
        "bonus": np.int16,
        "upper_bonus": np.int16,
        "gained": np.int16,
        "probability": np.float64,
    }
    # The arrays __init__ makes from FIELDS, named for the type checker.
    source: np.ndarray
    target: np.ndarray
    box: np.ndarray
    points: np.ndarray
    bonus: np.ndarray
    upper_bonus: np.ndarray
    gained: np.ndarray
    probability: np.ndarray

    def __init__(self, size: int) -> None:
        for name, dtype in self.FIELDS.items():
            setattr(self, name, np.zeros(size, dtype=dtype))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return tuple(getattr(self, name) for name in self.FIELDS)

    def select(self, keep: np.ndarray) -> _Outcomes:
        chosen = _Outcomes(0)
        for name in self.FIELDS:
            setattr(chosen, name, getattr(self, name)[keep])
        return chosen

    @classmethod
    def concatenate(cls, parts: list[_Outcomes]) -> _Outcomes:
        joined = cls(0)
        for name in cls.FIELDS:
            setattr(joined, name, np.concatenate([getattr(part, name) for part in parts]))
        return joined


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


def _outcome_capacity(tables: SheetTables, mask: np.ndarray) -> np.ndarray:
    """The most distinct (box, points, bonus) outcomes a turn from each class can have."""
    points, bonus = tables.arrays.points, tables.arrays.bonus
    per_box = np.array(
        [
            len({(p, b) for p, b in zip(points[:, box].ravel(), bonus[:, box].ravel(), strict=True) if p >= 0})
            for box in range(tables.shape.box_count)
        ]
    )
    open_boxes = (mask[:, None] >> np.arange(tables.shape.box_count)) & 1 == 0
    return open_boxes.astype(np.int64) @ per_box


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
def _chunk_outcomes(
    shape, t, lat, values, cmask, cjoker, cupper, cindex, bonus_values, first, last, mass, slots,
    target, box, points, bonus, upper_bonus, gained, probability,
):
    for i in prange(last - first):
        c = first + i
        if mass[c] > 0:
            _turn_outcomes(
                shape, t, lat, values, cmask[c], cjoker[c], cupper[c], cindex, bonus_values, slots[i],
                target, box, points, bonus, upper_bonus, gained, probability,
            )


@njit(cache=True)
def _turn_outcomes(
    shape, t, lat, values, mask, joker, upper, cindex, bonus_values, slot,
    target, box, points, bonus, upper_bonus, gained, probability,
):
    """Write the outcomes of the optimal turn from this state into slots from `slot` on."""
    futures, expect, best = turn_scratch(shape, lat)
    turn_expectations(shape, t, lat, values, mask, joker, upper, futures, expect, best)
    rolls = lat.roll_probability.shape[0]
    keeps = lat.child.shape[0]
    chance = np.zeros(keeps)
    chance[:rolls] = lat.roll_probability
    held = np.empty(keeps)
    kept = np.empty(keeps, dtype=np.int64)
    for n in range(shape.rolls_per_turn - 1, 0, -1):  # the roll seen with n rolls left
        best_keeps(lat, expect[n], best)
        keep_choices(lat, expect[n], best, kept)
        held[:] = 0.0
        for r in range(rolls):
            held[kept[r]] += chance[r]
        for k in range(keeps - 1, rolls - 1, -1):  # fewest dice first: roll the free ones
            if held[k] > 0:
                for f in range(lat.child.shape[1]):
                    held[lat.child[k, f]] += held[k] / lat.child.shape[1]
        chance[:rolls] = held[:rolls]
    choice = np.empty(rolls, dtype=np.int64)
    best_boxes(shape, t, mask, joker, futures, expect[0], choice)
    scored = np.zeros((shape.box_count, shape.max_points + 1, bonus_values.shape[0]))
    for r in range(rolls):
        b = choice[r]
        context = roll_context(shape, mask, joker, t.face_box[r])
        level = 0
        while bonus_values[level] != t.bonus[context, b, r]:
            level += 1
        scored[b, t.points[context, b, r], level] += chance[r]
    for b in range(shape.box_count):
        if (mask >> b) & 1:
            continue
        for j in range(t.point_values_start[b], t.point_values_start[b + 1]):
            p = t.point_values[j]
            next_mask, next_joker, next_upper, earned = successor(shape, mask, joker, upper, b, p)
            for level in range(bonus_values.shape[0]):
                if scored[b, p, level] > 0:
                    target[slot] = cindex[state_index(shape, next_mask, next_joker, next_upper)]
                    box[slot], points[slot], bonus[slot] = b, p, bonus_values[level]
                    upper_bonus[slot], probability[slot] = earned, scored[b, p, level]
                    gained[slot] = p + bonus_values[level] + earned
                    slot += 1


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
