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
    new: list[tuple[tuple[int, int, int], list[Turn]]] = []
    known: list[tuple[tuple[int, int, int], list[Turn]]] = []
    for key in turns:
        slot = _turn_slot(solved, *key)
        (known if slot else new).append((key, slot))
    # one array of every situation, those of a turn together, the new turns' first: one compiled
    # call for all the new turns, then one per remembered turn
    situations = np.array([entry for key, _ in (*new, *known) for entry in turns[key]], dtype=np.int64)
    options = _empty_options(len(states), solved.tables.shape.box_count)
    first = 0
    if new:
        runs = []
        for key, _ in new:
            first += len(turns[key])
            runs.append((*key, first))
        _new_turns(solved, new, runs, situations, options)
    for key, slot in known:
        stop = first + len(turns[key])
        _fill(solved.tables.arrays, slot[0], key[0], situations, first, stop, options)
        first = stop
    return options


@lru_cache(maxsize=TURNS_REMEMBERED)
def _turn_slot(solved: SheetSolution, mask: int, joker: int, upper: int) -> list[Turn]:
    """Where a turn's tables are remembered: empty until they are computed (functools' LRU in C is
    faster than any kept by hand, and evicts a slot with its turn)."""
    return []


def turn_options(solved: SheetSolution, mask: int, joker: int, upper: int) -> Turn:
    """A turn's tables, remembered among the last TURNS_REMEMBERED."""
    slot = _turn_slot(solved, mask, joker, upper)
    if not slot:
        _new_turns(solved, [((mask, joker, upper), slot)], [(mask, joker, upper, 0)], _NO_SITUATIONS, _NO_OPTIONS)
    return slot[0]


def forget_turns() -> None:
    """Forget every remembered turn (benchmarks time new turns)."""
    _turn_slot.cache_clear()


def _new_turns(
    solved: SheetSolution,
    slots: list[tuple[tuple[int, int, int], list[Turn]]],
    runs: list[tuple[int, int, int, int]],
    situations: np.ndarray,
    options: OptionValues,
) -> None:
    """Compute the turns of these slots and fill the options of their situations in one compiled
    call (runs: see fill_new_turns), and remember each turn in its slot."""
    computed = fill_new_turns(
        *_plain_tables(solved), sub_keeps(), solved.values, np.array(runs, dtype=np.int64), situations, *options
    )
    for (_, slot), turn in zip(slots, computed, strict=True):
        slot[:] = [turn]  # in one step: another thread may read the slot as it is filled


def compile_advice(rules: SheetRules) -> None:
    """Compile (or load from Numba's cache) the kernels of option_values, on a table of zeros:
    nothing is loaded or solved, and nothing is remembered."""
    tables, lattice = sheet_tables(rules), dice_lattice()
    values = np.zeros(state_count(tables))
    values.setflags(write=False)  # as a solution mapped from its file: Numba types read-only arrays apart
    runs = np.zeros((1, 4), dtype=np.int64)
    [turn] = fill_new_turns(*plain_tables(tables, lattice), sub_keeps(), values, runs, _NO_SITUATIONS, *_NO_OPTIONS)
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
        arrays.points, arrays.bonus, arrays.gain, arrays.first_points, arrays.first_bonus, arrays.first_gain,
        sub_keeps(), *turn, mask, situations, first, stop, *options,
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
def fill_new_turns(shape, t, lat, sub, values, runs, situations, out_values, ranking, counts, scored, paid):
    """The tables of turns not remembered (turn.new_turn), each followed by fill_options of its
    situations: runs[j] is (mask, joker, upper, stop), turn j's situations ending at row stop, the
    previous turn's stop (0 for the first) being its first. shape, t and lat come as plain tuples
    (turn.plain_tables), values is the solution's. Returns the turns, in order."""
    shape, t, lat = SheetShape(*shape), SheetArrays(*t), DiceLattice(*lat)
    turns = []
    first = np.int64(0)  # typed as the rows Python passes fill_options, which then compiles once, not twice
    for j in range(runs.shape[0]):
        mask, joker, upper, stop = runs[j, 0], runs[j, 1], runs[j, 2], runs[j, 3]
        futures, expect, contexts = new_turn(shape, t, lat, values, mask, joker, upper)
        fill_options(
            t.points, t.bonus, t.gain, t.first_points, t.first_bonus, t.first_gain, sub, futures, expect,
            contexts, mask, situations, first, stop, out_values, ranking, counts, scored, paid,
        )
        turns.append((futures, expect, contexts))
        first = stop
    return turns


@njit(cache=True)
def fill_options(
    later_points, later_bonus, later_gain, first_points, first_bonus, first_gain, sub, futures, expect, contexts,
    mask, situations, first, stop, values, ranking, counts, scored, paid,
):
    """The rows of situations[first:stop], all of one turn, in values, ranking, counts, scored
    (OptionValues.points) and paid (OptionValues.bonus). A situation is (its row, its roll,
    rolls left, the sheet's total); futures, expect and contexts are the turn's (turn_tables)
    and mask its filled boxes; the points, bonus and gain of later rolls and of the turn's first
    roll are the rule set's (SheetArrays)."""
    keep_slots = sub.shape[1]
    for s in range(first, stop):
        i, roll, rolls_left, now = situations[s, 0], situations[s, 1], situations[s, 2], float(situations[s, 3])
        points, bonus, gain = later_points, later_bonus, later_gain
        if rolls_left == expect.shape[0] - 1:  # the turn's first roll (docs/rules.md#generala-servida)
            points, bonus, gain = first_points, first_bonus, first_gain
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
