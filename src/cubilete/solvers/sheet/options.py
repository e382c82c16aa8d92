"""Every option of score-sheet situations as arrays: what each keep and each box is worth.

The fast path under `advice`: a situation (the seat's sheet, the dice on the
table, the rolls left) becomes one row of values filled by one compiled call per
turn from that turn's remembered tables, so ranking every option of a situation
builds no Python object per option. Many situations are ranked in one call (the
review of a game, a player weighing several positions); situations of the same
turn share its tables.

A row's slots are fixed: slot j < KEEP_SLOTS is the j-th keep of the dice, the
keeps being the distinct multisets of held values (not all five) in increasing
order of those values, as `SheetState.legal_actions` lists them; slot
KEEP_SLOTS + b is box b. Values are expected final totals of the seat to move
(see `advice`); a slot without a legal option holds -inf.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import NamedTuple

import numpy as np

from ...engine.dice import DICE_COUNT, Dice
from ...engine.errors import IllegalAction
from ...engine.sheet import SheetState
from ...engine.sheet_rules import SheetRules
from ...engine.sheet_scoring import Sheet, sheet_total
from ..dice_lattice import DiceLattice, dice_lattice, keep_indices
from ..kernel_cache import njit
from .cache import solution
from .solver import SheetSolution
from .tables import SheetArrays, SheetShape, sheet_tables, state_count, state_key
from .turn import new_turn, plain_tables

KEEP_SLOTS = 2**DICE_COUNT - 1  # five different values: every subset of the dice but all of them
TURNS_REMEMBERED = 512  # turn tables kept in memory: enough for a few concurrent games


class OptionValues(NamedTuple):
    """The options of situations, row i for situation i (slots: see the module docstring)."""

    values: np.ndarray  # float64[situation, slot]: the option's expected final total, -inf if none
    ranking: np.ndarray  # int64[situation, slot]: the legal slots best first (equal values in slot order), then -1
    counts: np.ndarray  # int64[situation]: how many legal options each situation has
    points: np.ndarray  # int64[situation, box]: the points the box would get, -1 where not legal
    bonus: np.ndarray  # int64[situation, box]: the five-equal bonus paid with them


Turn = tuple[np.ndarray, np.ndarray, np.ndarray]
"""A turn's futures[box, points], expect[rolls left, keep] and contexts[roll] (see `turn`)."""


def option_values(rules: SheetRules, states: Sequence[SheetState]) -> OptionValues:
    """The options of the seat to move in each state (all of this rule set, dice on the table)."""
    solved = solution(rules)
    turns: dict[tuple[int, int, int], list[tuple[int, int, int, int]]] = {}
    for i, state in enumerate(states):
        if state.rules is not rules and state.rules != rules:
            raise ValueError(f"a {state.rules.name} state among {rules.name} ones")
        if state.is_over:
            raise IllegalAction("game_over")
        if state.is_chance:
            raise IllegalAction("advice_needs_dice")
        key, now = position(solved, state.sheet)
        turns.setdefault(key, []).append((i, roll_index(state.dice), state.rolls_left, now))
    # one array of every situation, those of a turn together: one compiled call per turn
    situations = np.array([entry for entries in turns.values() for entry in entries], dtype=np.int64)
    options = _empty_options(len(states), solved.tables.shape.box_count)
    first = 0
    for key, entries in turns.items():
        stop = first + len(entries)
        _fill_turn(solved, key, situations, first, stop, options)
        first = stop
    return options


# The turns last advised, by solution and turn-start state, the most recent last.
_turns: OrderedDict[tuple[SheetSolution, int, int, int], Turn] = OrderedDict()
_turns_guard = threading.Lock()


def turn_options(solved: SheetSolution, mask: int, joker: int, upper: int) -> Turn:
    """A turn's tables, remembered among the last TURNS_REMEMBERED."""
    return _fill_turn(solved, (mask, joker, upper), _NO_SITUATIONS, 0, 0, _NO_OPTIONS)


def forget_turns() -> None:
    """Forget every remembered turn (benchmarks time new turns)."""
    with _turns_guard:
        _turns.clear()


def _fill_turn(
    solved: SheetSolution,
    key: tuple[int, int, int],
    situations: np.ndarray,
    first: int,
    stop: int,
    options: OptionValues,
) -> Turn:
    """Fill the options of situations[first:stop], all of the turn `key`: from the remembered
    turn, else computing it and filling them in the same compiled call (a new turn then costs
    one crossing into Numba, not two)."""
    remembered = (solved, *key)
    with _turns_guard:
        turn = _turns.get(remembered)
        if turn is not None:
            _turns.move_to_end(remembered)
    if turn is not None:
        _fill(solved.tables.arrays, turn, key[0], situations, first, stop, options)
        return turn
    turn = fill_new_turn(*_plain_tables(solved), sub_keeps(), solved.values, *key, situations, first, stop, *options)
    with _turns_guard:
        _turns[remembered] = turn
        if len(_turns) > TURNS_REMEMBERED:
            _turns.popitem(last=False)
    return turn


def compile_advice(rules: SheetRules) -> None:
    """Compile (or load from Numba's cache) the kernels of option_values, on a table of zeros:
    nothing is loaded or solved, and nothing is remembered."""
    tables, lattice = sheet_tables(rules), dice_lattice()
    values = np.zeros(state_count(tables))
    values.setflags(write=False)  # as a solution mapped from its file: Numba types read-only arrays apart
    plain = plain_tables(tables, lattice)
    turn = fill_new_turn(*plain, sub_keeps(), values, 0, 0, 0, _NO_SITUATIONS, 0, 0, *_NO_OPTIONS)
    _fill(tables.arrays, turn, 0, _NO_SITUATIONS, 0, 0, _NO_OPTIONS)


def _empty_options(situations: int, boxes: int) -> OptionValues:
    slots = (situations, KEEP_SLOTS + boxes)
    return OptionValues(
        np.empty(slots), np.empty(slots, dtype=np.int64), np.empty(situations, dtype=np.int64),
        np.empty((situations, boxes), dtype=np.int64), np.empty((situations, boxes), dtype=np.int64),
    )


_NO_SITUATIONS = np.empty((0, 4), dtype=np.int64)
_NO_OPTIONS = _empty_options(0, 0)  # a turn's tables alone: no situation to fill


def _fill(
    arrays: SheetArrays,
    turn: Turn,
    mask: int,
    situations: np.ndarray,
    first: int,
    stop: int,
    options: OptionValues,
) -> None:
    """The options of situations[first:stop], all of this turn (see fill_options)."""
    fill_options(
        arrays.points, arrays.bonus, arrays.gain, sub_keeps(), *turn, mask, situations, first, stop, *options
    )


def roll_index(dice: Dice) -> int:
    """The lattice index of the dice on the table (see dice_lattice)."""
    return keep_indices()[tuple(sorted(dice))]


@cache
def sub_keeps() -> np.ndarray:
    """int64[roll, KEEP_SLOTS]: the lattice index of each keep slot of the roll, -1 past its keeps."""
    rolls = [keep for keep in keep_indices() if len(keep) == DICE_COUNT]
    table = np.full((len(rolls), KEEP_SLOTS), -1, dtype=np.int64)
    for roll in rolls:
        held = sorted({kept for size in range(DICE_COUNT) for kept in combinations(roll, size)})
        table[keep_indices()[roll], : len(held)] = [keep_indices()[kept] for kept in held]
    return table


@lru_cache(maxsize=TURNS_REMEMBERED)
def position(solved: SheetSolution, sheet: Sheet) -> tuple[tuple[int, int, int], int]:
    """The sheet's turn-start state for the solver, and its total now."""
    return state_key(solved.tables, solved.rules, sheet), sheet_total(solved.rules, sheet)


@lru_cache(maxsize=8)
def _plain_tables(solved: SheetSolution) -> tuple[tuple[object, ...], ...]:
    return plain_tables(solved.tables, solved.lattice)


@njit(cache=True)
def fill_new_turn(
    shape, t, lat, sub, values, mask, joker, upper, situations, first, stop,
    out_values, ranking, counts, scored, paid,
):
    """The tables of a turn not remembered (turn.new_turn), then fill_options with them: shape, t and
    lat come as plain tuples (turn.plain_tables), values is the solution's. Returns the turn."""
    shape, t, lat = SheetShape(*shape), SheetArrays(*t), DiceLattice(*lat)
    futures, expect, contexts = new_turn(shape, t, lat, values, mask, joker, upper)
    fill_options(
        t.points, t.bonus, t.gain, sub, futures, expect, contexts, mask, situations, first, stop,
        out_values, ranking, counts, scored, paid,
    )
    return futures, expect, contexts


@njit(cache=True)
def fill_options(
    points, bonus, gain, sub, futures, expect, contexts, mask, situations, first, stop,
    values, ranking, counts, scored, paid,
):
    """The rows of situations[first:stop], all of one turn, in values, ranking, counts, scored
    (OptionValues.points) and paid (OptionValues.bonus). A situation is (its row, its roll,
    rolls left, the sheet's total); futures, expect and contexts are the turn's (turn_tables)
    and mask its filled boxes; points, bonus and gain are the rule set's (SheetArrays)."""
    keep_slots = sub.shape[1]
    for s in range(first, stop):
        i, roll, rolls_left, now = situations[s, 0], situations[s, 1], situations[s, 2], float(situations[s, 3])
        values[i, :] = -np.inf
        if rolls_left > 0:
            for j in range(keep_slots):
                if sub[roll, j] >= 0:
                    values[i, j] = now + expect[rolls_left, sub[roll, j]]
        context = contexts[roll]
        for box in range(points.shape[1]):
            scored[i, box], paid[i, box] = -1, 0
            if points[context, box, roll] >= 0 and not (mask >> box) & 1:
                scored[i, box], paid[i, box] = points[context, box, roll], bonus[context, box, roll]
                # points and bonus first, then the future: the order sheet totals add them in
                values[i, keep_slots + box] = (now + gain[context, box, roll]) + futures[box, scored[i, box]]
        # insertion sort of the legal slots, best first: a slot goes after those of equal value
        count = 0
        for slot in range(values.shape[1]):
            value = values[i, slot]
            if value > -np.inf:
                place = count
                while place > 0 and values[i, ranking[i, place - 1]] < value:
                    ranking[i, place] = ranking[i, place - 1]
                    place -= 1
                ranking[i, place] = slot
                count += 1
        ranking[i, count:] = -1
        counts[i] = count
