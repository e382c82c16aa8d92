"""A score-sheet rule set as the arrays the solver reads, every number taken from the engine.

A turn-start state is (filled boxes as a bit mask, joker state, upper total capped
at the bonus threshold). The joker state says whether the joker box holds 0 or
points; it only exists when the two differ for some roll, so rule sets without
joker and bonus do not pay for it.

What a roll may score is asked of the engine's `score_options` on a few probe
sheets, one per scoring context. The solver relies on this: the options of a
roll depend on the sheet only through which boxes are open, the joker box
(open, 0 or points), whether any lower box is open and, for five equal dice,
whether the upper box of their face is open. An open box is legal in a state
exactly when it was legal on the probe sheet of the state's context, with the
same points and bonus. tests/solvers/test_sheet_solver.py checks this against
`score_options` on many sheets of every rule set.

The turn's first roll is probed apart (the `first_` arrays): a box's first-roll bonus
(docs/rules.md#generala-servida) makes it score more then than after a rethrow.
`first_roll_differs` says whether any roll does, so that the kernels of other rule
sets skip it.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ...engine.dice import DICE_COUNT, roll_outcomes
from ...engine.sheet_rules import SheetRules
from ...engine.sheet_scoring import (
    Sheet,
    first_roll_scores_apart,
    possible_points,
    score_options,
    upper_total,
    wins_at_once,
)
from ..kernel_cache import njit

# Joker box state in a scoring context.
JOKER_OPEN = 0  # open, or the rule set has no joker box
JOKER_ZERO = 1
JOKER_POINTS = 2
CONTEXTS = 12  # joker state (3) x any lower box open (2) x five-equal face box open (2)


class UnsupportedRules(ValueError):
    """A rule set that one of the score-sheet solvers does not take."""


def refuse_first_roll_scoring(tables: SheetTables, what: str) -> None:
    """The solvers not yet taught that a first roll may score more than a later one (a servida)."""
    if tables.shape.first_roll_differs:
        raise UnsupportedRules(f"{what} do not take rule sets whose first roll scores more (a servida) yet")


@cache
def instant_win_rolls(rules: SheetRules) -> np.ndarray:
    """bool[roll]: the first rolls that win a game of two seats or more at once
    (docs/rules.md#generala-servida-wins); none in most rule sets."""
    return np.array([wins_at_once(rules, roll) for roll, _ in roll_outcomes(DICE_COUNT)], dtype=np.bool_)


class SheetShape(NamedTuple):
    """The plain numbers of a rule set (cheap for Numba to pass to small helpers)."""

    box_count: int
    upper_bits: int  # mask of the boxes that count toward the upper total
    lower_bits: int  # mask of the boxes that do not
    joker_box: int  # -1 when the rule set has none
    joker_states: int  # 2 when 0 and points in the joker box play differently, else 1
    threshold: int  # upper bonus threshold; 0 when there is no upper bonus
    upper_bonus: int
    rolls_per_turn: int
    max_points: int  # the most points any box can get
    first_roll_differs: bool  # the first roll of a turn scores differently from later ones


class SheetArrays(NamedTuple):
    """The arrays of a rule set."""

    points: np.ndarray  # int32[context, box, roll]: points when legal, -1 when not
    bonus: np.ndarray  # int32[context, box, roll]: five-equal bonus paid with those points
    gain: np.ndarray  # float64[context, box, roll]: points + bonus when legal, -inf when not
    face_box: np.ndarray  # int32[roll]: upper box of the face of five equal dice, else -1
    face_rolls: np.ndarray  # int32[...]: the rolls that have a face box
    point_values_start: np.ndarray  # int32[box + 1]: CSR offsets into point_values
    point_values: np.ndarray  # int32[...]: the distinct points each box can be given
    pending: np.ndarray  # bool[mask, upper total]: reachable totals whose bonus is undecided
    first_points: np.ndarray  # int32[context, box, roll]: points, -1 and gain for the turn's first roll
    first_bonus: np.ndarray
    first_gain: np.ndarray


class SheetTables(NamedTuple):
    """Everything the Numba kernels need about a rule set. Kernels take it unpacked, as
    (shape, arrays): Numba's parallel loops cannot take a tuple nested in a tuple."""

    shape: SheetShape
    arrays: SheetArrays


@njit(cache=True)
def context_of(joker_state, lower_open, face_open):
    """The index of a scoring context: joker box state, any lower box open, face box open."""
    return joker_state * 4 + lower_open * 2 + face_open


_context = context_of.py_func  # in plain Python: loading compiled code costs more than it saves


def state_count(tables: SheetTables) -> int:
    shape = tables.shape
    return (1 << shape.box_count) * shape.joker_states * (shape.threshold + 1)


def computed_states(tables: SheetTables) -> np.ndarray:
    """How many turn-start states the solver computes per mask: each pending total, plus one
    for all totals whose bonus is decided, for each joker state the mask can have."""
    shape = tables.shape
    joker_states = np.ones(1 << shape.box_count, dtype=np.int64)
    if shape.joker_box >= 0:
        joker_states[np.arange(joker_states.size) >> shape.joker_box & 1 == 1] = shape.joker_states
    return (tables.arrays.pending.sum(axis=1) + 1) * joker_states


def state_key(tables: SheetTables, rules: SheetRules, sheet: Sheet) -> tuple[int, int, int]:
    """(filled mask, joker state, capped upper total) of a sheet at the start of a turn."""
    shape = tables.shape
    mask, bit = 0, 1
    for points in sheet.boxes:  # a plain loop: asked at every new turn advised, twice as fast as sum()
        if points is not None:
            mask |= bit
        bit <<= 1
    joker = 0
    if shape.joker_states == 2 and sheet.boxes[shape.joker_box]:
        joker = 1
    return mask, joker, min(upper_total(rules, sheet), shape.threshold)


@cache
def sheet_tables(rules: SheetRules) -> SheetTables:
    box_count = len(rules.boxes)
    upper = [box.upper for box in rules.boxes]
    joker_box = rules.box_ids.index(rules.joker_box) if rules.joker_box is not None else -1
    face_box = np.array([_face_box(rules, roll) for roll, _ in roll_outcomes(DICE_COUNT)], np.int32)
    points, bonus = _probe_options(rules, face_box, joker_box, first_roll=False)
    first_points, first_bonus = (
        _probe_options(rules, face_box, joker_box, first_roll=True)
        if first_roll_scores_apart(rules)
        else (points, bonus)  # the same probe: half of a fresh process's tables (Penta: 35 of 70 ms)
    )
    if any(box.upper and box.first_roll_bonus for box in rules.boxes):
        # turn.turn_expectations relies on it: a first-roll bonus then only adds to a box whose
        # future ignores its points, so scoring the first roll beats holding all five for later
        raise ValueError("the solver takes first-roll bonuses on lower boxes only")
    zero = slice(_context(JOKER_ZERO, False, False), _context(JOKER_POINTS, False, False))
    holding_points = slice(_context(JOKER_POINTS, False, False), CONTEXTS)
    joker_differs = not (
        np.array_equal(points[zero], points[holding_points])
        and np.array_equal(bonus[zero], bonus[holding_points])
    )
    threshold = rules.upper_bonus_threshold or 0
    both = np.concatenate((points, first_points), axis=2)
    point_values = [np.unique(both[:, b][both[:, b] >= 0]) for b in range(box_count)]
    return SheetTables(
        shape=SheetShape(
            box_count=box_count,
            upper_bits=sum(1 << i for i in range(box_count) if upper[i]),
            lower_bits=sum(1 << i for i in range(box_count) if not upper[i]),
            joker_box=joker_box,
            joker_states=2 if joker_differs else 1,
            threshold=threshold,
            upper_bonus=rules.upper_bonus_points if rules.upper_bonus_threshold is not None else 0,
            rolls_per_turn=rules.rolls_per_turn,
            max_points=int(both.max()),
            first_roll_differs=not (np.array_equal(points, first_points) and np.array_equal(bonus, first_bonus)),
        ),
        arrays=SheetArrays(
            points=points,
            bonus=bonus,
            gain=_gain(points, bonus),
            face_box=face_box,
            face_rolls=np.flatnonzero(face_box >= 0).astype(np.int32),
            point_values_start=np.cumsum([0] + [len(v) for v in point_values], dtype=np.int32),
            point_values=np.concatenate(point_values).astype(np.int32),
            pending=_pending_upper_totals(rules, threshold),
            first_points=first_points,
            first_bonus=first_bonus,
            first_gain=_gain(first_points, first_bonus),
        ),
    )


def _gain(points: np.ndarray, bonus: np.ndarray) -> np.ndarray:
    return np.where(points >= 0, points + bonus, -np.inf)


def _face_box(rules: SheetRules, roll: tuple[int, ...]) -> int:
    if len(set(roll)) != 1:
        return -1
    return next((i for i, box in enumerate(rules.boxes) if box.upper and box.face == roll[0]), -1)


def _probe_options(
    rules: SheetRules, face_box: np.ndarray, joker_box: int, first_roll: bool
) -> tuple[np.ndarray, np.ndarray]:
    """Ask the engine what every roll scores in every box, once per scoring context, as a turn's
    first roll or a later one."""
    rolls = [roll for roll, _ in roll_outcomes(DICE_COUNT)]
    shape = (CONTEXTS, len(rules.boxes), len(rolls))
    points = np.full(shape, -1, dtype=np.int32)
    bonus = np.zeros(shape, dtype=np.int32)
    joker_values: dict[int, int | None] = {JOKER_OPEN: None}
    if joker_box >= 0:
        joker_values[JOKER_ZERO] = 0
        joker_values[JOKER_POINTS] = max(possible_points(rules, joker_box))
    lower = [i for i, box in enumerate(rules.boxes) if not box.upper and i != joker_box]
    for joker, joker_value in joker_values.items():
        for lower_open in (False, True):
            if joker == JOKER_OPEN and joker_box >= 0 and not lower_open:
                continue  # an open joker box is an open lower box
            base = [None if lower_open or i not in lower else 0 for i in range(len(rules.boxes))]
            if joker_box >= 0:
                base[joker_box] = joker_value
            for r, roll in enumerate(rolls):
                for face_open in (False, True) if face_box[r] >= 0 else (False,):
                    boxes = list(base)
                    if face_box[r] >= 0 and not face_open:
                        boxes[face_box[r]] = 0
                    context = _context(joker, lower_open, face_open)
                    for option in score_options(rules, Sheet(tuple(boxes)), roll, first_roll):
                        b = rules.box_ids.index(option.box)
                        points[context, b, r] = option.points
                        bonus[context, b, r] = option.bonus
    return points, bonus


def _pending_upper_totals(rules: SheetRules, threshold: int) -> np.ndarray:
    """pending[mask, u]: u is a reachable upper total below the threshold that can still reach it."""
    box_count = len(rules.boxes)
    upper = [i for i, box in enumerate(rules.boxes) if box.upper]
    best = {i: max(possible_points(rules, i)) for i in upper}
    by_upper_mask = {}
    for upper_mask in range(1 << len(upper)):
        filled = [b for j, b in enumerate(upper) if upper_mask >> j & 1]
        totals = {0}
        for b in filled:
            totals = {min(t + p, threshold) for t in totals for p in possible_points(rules, b)}
        still_open = sum(best[b] for b in upper if b not in filled)
        row = np.zeros(threshold + 1, dtype=np.bool_)
        for t in totals:
            row[t] = t < threshold and t + still_open >= threshold
        by_upper_mask[sum(1 << b for b in filled)] = row
    upper_bits = sum(1 << b for b in upper)
    return np.array([by_upper_mask[mask & upper_bits] for mask in range(1 << box_count)])
