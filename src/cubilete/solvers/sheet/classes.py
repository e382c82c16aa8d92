"""The turn-start states the sheet solver computes, numbered as classes, and the optimal
player's turn outcomes from them.

A class is a (mask, joker state, upper total) whose upper bonus is pending, or the single
entry (upper total = threshold) of all the totals of a mask whose bonus is decided; the
full sheet is one class. Classes are numbered layer by layer from the empty sheet, so
that the classes of one number of filled boxes are consecutive. The forward pass of
`stats` and the on-demand distributions of `distributions` both walk them.

A turn's first roll may score more than a later one (a servida, `tables`): the optimal player
scores it at once when that beats every keep (a keep wins a tie, as in `advice`), with the
first roll's points. A first roll may also be left out (`first_kept` 0): the duel's laws
drop the rolls that win a game of two seats or more at once (`distributions`).
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import prange

from ..kernel_cache import njit
from .solver import SheetSolution, layers
from .tables import SheetShape, SheetTables, computed_states
from .turn import (
    best_box_value,
    best_boxes,
    best_keeps,
    carry_to_scoring,
    next_class,
    roll_context,
    state_index,
    turn_expectations,
    turn_scratch,
)

OUTCOME_CHUNK = 4096  # classes whose turn outcomes are computed at once, before compaction


class StateClasses:
    """Every turn-start state the solver computes: `index[state_index]` is the class of a state."""

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
        boxes_filled = np.array([bin(m).count("1") for m in range(1 << shape.box_count)])  # by mask
        self.filled = boxes_filled[self.mask]  # (a class at a time took Penta 0.4 s of a first duel's decision)
        self.ends = [int(end) for end in np.flatnonzero(np.diff(self.filled)) + 1] + [self.count]
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

    def of(self, tables: SheetTables, mask: int, joker: int, upper: int) -> int:
        """The class of a turn-start state (upper: the total capped at the threshold)."""
        return int(self.index[state_index.py_func(tables.shape, mask, joker, upper)])

    def following(self, c: int, shape: SheetShape) -> np.ndarray:
        """Whether each class can follow class c by some play (c included), as booleans:
        supersets of its mask, with upper totals not below its own and, once the joker box
        is filled, its joker state."""
        mask = self.mask[c]
        reach = ((self.mask & mask) == mask) & (self.upper >= self.upper[c])
        if shape.joker_box >= 0 and (mask >> shape.joker_box) & 1:
            reach &= self.joker == self.joker[c]
        return reach

    def layer(self, filled: int) -> slice:
        """The classes with this many boxes filled."""
        starts = [0, *self.ends]
        return slice(starts[filled], starts[filled + 1])

    def layer_bounds(self) -> list[tuple[int, int, int]]:
        """(first class, end, end of the next layer) of every layer but the last."""
        starts = [0, *self.ends]
        return [(starts[i], starts[i + 1], starts[i + 2]) for i in range(len(self.ends) - 1)]


@cache
def state_classes(solved: SheetSolution) -> StateClasses:
    """The classes of a solution, made once per process (a solution is hashed by identity)."""
    return StateClasses(solved)


class TurnOutcomes:
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

    def select(self, keep: np.ndarray) -> TurnOutcomes:
        chosen = TurnOutcomes(0)
        for name in self.FIELDS:
            setattr(chosen, name, getattr(self, name)[keep])
        return chosen

    @classmethod
    def concatenate(cls, parts: list[TurnOutcomes]) -> TurnOutcomes:
        joined = cls(0)
        for name in cls.FIELDS:
            setattr(joined, name, np.concatenate([getattr(part, name) for part in parts]))
        return joined


def turn_outcomes(
    solved: SheetSolution, classes: StateClasses, sources: np.ndarray, first_kept: np.ndarray | None = None
) -> TurnOutcomes:
    """The outcomes of the optimal turn from each of these classes (ascending), zeros dropped:
    the slots of one source are consecutive, in the order of `sources`. first_kept[roll]: 1 for
    the first rolls played, 0 for those left out (default: none left out)."""
    bonus_values = outcome_bonus_values(solved.tables)
    if first_kept is None:
        first_kept = np.ones(solved.lattice.roll_probability.size)
    parts = [TurnOutcomes(0)]
    for first in range(0, sources.size, OUTCOME_CHUNK):
        chunk_sources = sources[first : first + OUTCOME_CHUNK]
        slots = np.concatenate(([0], np.cumsum(classes.capacity[chunk_sources])))
        chunk = TurnOutcomes(int(slots[-1]))
        chunk.source[:] = np.repeat(chunk_sources, np.diff(slots))
        _chunk_outcomes(
            *solved.tables, solved.lattice, solved.values, classes.mask, classes.joker,
            classes.upper, classes.index, bonus_values, first_kept, chunk_sources, slots, *chunk.arrays()[1:],
        )
        parts.append(chunk.select(chunk.probability > 0))
    return TurnOutcomes.concatenate(parts)


def outcome_bonus_values(tables: SheetTables) -> np.ndarray:
    """The five-equal bonuses a box can pay, with a later roll or the first."""
    return np.unique(np.concatenate((tables.arrays.bonus.ravel(), tables.arrays.first_bonus.ravel())))


def _outcome_capacity(tables: SheetTables, mask: np.ndarray) -> np.ndarray:
    """The most distinct (box, points, bonus) outcomes a turn from each class can have."""
    points = np.concatenate((tables.arrays.points, tables.arrays.first_points), axis=2)
    bonus = np.concatenate((tables.arrays.bonus, tables.arrays.first_bonus), axis=2)
    per_box = np.array(
        [
            len({(p, b) for p, b in zip(points[:, box].ravel(), bonus[:, box].ravel(), strict=True) if p >= 0})
            for box in range(tables.shape.box_count)
        ]
    )
    open_boxes = (mask[:, None] >> np.arange(tables.shape.box_count)) & 1 == 0
    return open_boxes.astype(np.int64) @ per_box


@njit(parallel=True, cache=True)
def _chunk_outcomes(
    shape, t, lat, values, cmask, cjoker, cupper, cindex, bonus_values, first_kept, sources, slots,
    target, box, points, bonus, upper_bonus, gained, probability,
):
    rolls = lat.roll_probability.shape[0]
    for i in prange(sources.size):
        c = sources[i]
        futures, expect, best = turn_scratch(shape, lat)
        turn_expectations(shape, t, lat, values, cmask[c], cjoker[c], cupper[c], futures, expect, best)
        chance = np.zeros(lat.child.shape[0])
        chance[:rolls] = lat.roll_probability * first_kept
        first_chance = np.zeros(rolls)
        score_first_rolls(shape, t, lat, cmask[c], cjoker[c], futures, expect, best, chance, first_chance)
        carry_to_scoring(lat, expect, best, chance, shape.rolls_per_turn - 1)
        write_outcomes(
            shape, t, cmask[c], cjoker[c], cupper[c], futures, expect[0], chance, first_chance, cindex,
            bonus_values, slots[i], target, box, points, bonus, upper_bonus, gained, probability,
        )


@njit(cache=True)
def score_first_rolls(shape, t, lat, mask, joker, futures, expect, best, chance, first_chance):
    """Move to first_chance[r] the chance[r] of each first roll the optimal player scores at once,
    its first-roll points beating every keep (expect from turn_expectations; best is scratch)."""
    if not shape.first_roll_differs:
        return
    best_keeps(lat, expect[shape.rolls_per_turn - 1], best)
    for r in range(first_chance.shape[0]):
        if chance[r] > 0:
            value = best_box_value(shape, t.first_points, t.first_gain, t.face_box[r], mask, joker, futures, r)[1]
            if value > best[r]:
                first_chance[r], chance[r] = chance[r], 0.0


@njit(cache=True)
def write_outcomes(
    shape, t, mask, joker, upper, futures, values_now, chance, first_chance, cindex, bonus_values, slot,
    target, box, points, bonus, upper_bonus, gained, probability,
):
    """Write, from `slot` on, the outcomes of scoring each roll r with chance[r] in the box the
    optimal player picks (values_now: expect[0] of turn_expectations), and each first roll r
    scored at once with first_chance[r] (score_first_rolls); return the next free slot."""
    rolls = t.face_box.shape[0]
    choice = np.empty(rolls, dtype=np.int64)
    best_boxes(shape, t, mask, joker, futures, values_now, choice)
    scored = np.zeros((shape.box_count, shape.max_points + 1, bonus_values.shape[0]))
    for r in range(rolls):
        if chance[r] > 0:
            _add_scored(shape, mask, joker, t.face_box[r], t.points, t.bonus, bonus_values, choice[r], r, chance[r], scored)
        if first_chance[r] > 0:
            b = best_box_value(shape, t.first_points, t.first_gain, t.face_box[r], mask, joker, futures, r)[0]
            _add_scored(shape, mask, joker, t.face_box[r], t.first_points, t.first_bonus, bonus_values, b, r, first_chance[r], scored)
    for b in range(shape.box_count):
        if (mask >> b) & 1:
            continue
        for j in range(t.point_values_start[b], t.point_values_start[b + 1]):
            p = t.point_values[j]
            to, earned = next_class(shape, cindex, mask, joker, upper, b, p)
            for level in range(bonus_values.shape[0]):
                if scored[b, p, level] > 0:
                    target[slot] = to
                    box[slot], points[slot], bonus[slot] = b, p, bonus_values[level]
                    upper_bonus[slot], probability[slot] = earned, scored[b, p, level]
                    gained[slot] = p + bonus_values[level] + earned
                    slot += 1
    return slot


@njit(cache=True)
def _add_scored(shape, mask, joker, face_box, points, bonus, bonus_values, b, r, chance, scored):
    """scored[box, points, bonus level] += chance, roll r scored in box b with these points and bonus."""
    context = roll_context(shape, mask, joker, face_box)
    level = 0
    while bonus_values[level] != bonus[context, b, r]:
        level += 1
    scored[b, points[context, b, r], level] += chance
