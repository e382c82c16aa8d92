"""One turn of a score-sheet game, solved given the values of the next turns (Numba kernels).

`values` holds the expected future points (bonuses included, points already
scored excluded) of every turn-start state, flattened by `state_index`. From it,
`turn_levels` fills `expect[n, k]`, the expected value of holding keep k
when n rolls remain (for n = 0 only the rolls are meaningful: the value of
scoring them now). The value of the dice r on the table with n rolls left is
the best `expect[n, k]` over the keeps k inside r, r itself included (holding
all five dice is the same as scoring them later); the turn-start value is the
mean of the first roll's values. Where the first roll scores more than a later
one (`first_roll_differs`, a servida: see `tables`), a first roll's value is also
at least what scoring it now earns with the first roll's gains (`first_roll_values`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...engine.dice import DICE_COUNT, FACES
from ..dice_lattice import DiceLattice
from ..kernel_cache import njit
from .tables import JOKER_OPEN, JOKER_ZERO, SheetTables, context_of

FACE_COUNT = len(FACES)


# Kernels take the rule set as `shape` (its numbers) and `t` (its arrays): see SheetTables.
# The small helpers take `shape` and single arrays only: Numba passes a tuple of arrays to a
# call that is not inlined at a cost of tens of nanoseconds, which the solver's inner loops
# would pay millions of times.


@njit(cache=True)
def state_index(shape, mask, joker, upper):
    return (mask * shape.joker_states + joker) * (shape.threshold + 1) + upper


@njit(cache=True)
def _joker_state(shape, mask, joker):
    if shape.joker_box < 0 or not (mask >> shape.joker_box) & 1:
        return JOKER_OPEN
    return JOKER_ZERO + (joker if shape.joker_states == 2 else 0)


@njit(cache=True)
def sheet_context(shape, mask, joker):
    """The scoring context (see `tables`) of rolls whose options ignore the face box."""
    lower_open = (mask & shape.lower_bits) != shape.lower_bits
    return context_of(_joker_state(shape, mask, joker), lower_open, False)


@njit(cache=True)
def roll_context(shape, mask, joker, face_box):
    """The scoring context of a roll whose face box (tables.face_box[roll]) is this one."""
    lower_open = (mask & shape.lower_bits) != shape.lower_bits
    face_open = face_box >= 0 and not (mask >> face_box) & 1
    return context_of(_joker_state(shape, mask, joker), lower_open, face_open)


@njit(cache=True)
def successor(shape, mask, joker, upper, box, points):
    """The next turn-start state after scoring these points in the box, and the upper bonus earned."""
    next_upper = upper
    bonus = 0
    if (shape.upper_bits >> box) & 1:
        next_upper = min(upper + points, shape.threshold)
        if upper < shape.threshold <= next_upper:
            bonus = shape.upper_bonus
    next_joker = joker
    if box == shape.joker_box and shape.joker_states == 2:
        next_joker = 1 if points > 0 else 0
    return mask | (1 << box), next_joker, next_upper, bonus


@njit(cache=True)
def next_class(shape, cindex, mask, joker, upper, box, points):
    """successor's state as a class (cindex maps a state index to its class), and the upper
    bonus earned."""
    next_mask, next_joker, next_upper, bonus = successor(shape, mask, joker, upper, box, points)
    return cindex[state_index(shape, next_mask, next_joker, next_upper)], bonus


@njit(cache=True)
def score_future(shape, values, mask, joker, upper, box, points):
    """The upper bonus earned by scoring these points in the box, plus the expected future after."""
    next_mask, next_joker, next_upper, bonus = successor(shape, mask, joker, upper, box, points)
    return bonus + values[state_index(shape, next_mask, next_joker, next_upper)]


@njit(cache=True)
def score_futures(shape, t, values, mask, joker, upper, futures):
    """futures[box, points]: score_future for each open box and each number of points it can get."""
    for box in range(shape.box_count):
        if not (mask >> box) & 1:
            for j in range(t.point_values_start[box], t.point_values_start[box + 1]):
                points = t.point_values[j]
                futures[box, points] = score_future(shape, values, mask, joker, upper, box, points)


@njit(cache=True)
def box_value(points, gain, futures, context, box, roll):
    """Scoring the roll in the open box now (points and gain: the tables' arrays): points,
    bonuses and expected future; -inf if the box is not legal."""
    scored = points[context, box, roll]
    if scored < 0:
        return -np.inf
    return gain[context, box, roll] + futures[box, scored]


@njit(cache=True)
def best_box(shape, t, mask, joker, futures, roll):
    """The box the optimal player scores the roll in (the first in sheet order on a tie)."""
    return best_box_value(shape, t.points, t.gain, t.face_box[roll], mask, joker, futures, roll)[0]


@njit(cache=True)
def best_box_value(shape, points, gain, face_box, mask, joker, futures, roll):
    """(box, value) of best_box with these points and gains (the tables' later or first-roll
    ones); face_box: the roll's (tables.face_box[roll])."""
    context = roll_context(shape, mask, joker, face_box)
    chosen, best = -1, -np.inf
    for box in range(shape.box_count):
        if not (mask >> box) & 1:
            value = box_value(points, gain, futures, context, box, roll)
            if value > best:
                chosen, best = box, value
    return chosen, best


@njit(cache=True)
def best_boxes(shape, t, mask, joker, futures, values_now, choice):
    """choice[r]: the box the optimal player scores roll r in (the first in sheet order on a
    tie), given values_now, the values of scoring now that turn_expectations put in expect[0]."""
    choice[:] = -1
    context = sheet_context(shape, mask, joker)
    for box in range(shape.box_count):
        if not (mask >> box) & 1:
            for r in range(choice.shape[0]):
                value = box_value(t.points, t.gain, futures, context, box, r)
                if choice[r] < 0 and value == values_now[r]:
                    choice[r] = box
    for r in t.face_rolls:
        if roll_context(shape, mask, joker, t.face_box[r]) != context:
            choice[r] = best_box(shape, t, mask, joker, futures, r)


@njit(cache=True)
def _score_now(shape, points, gain, face_box, face_rolls, mask, joker, futures, out):
    """out[r]: the value of the best legal box for roll r, scored now with these points and gains
    (the tables' later or first-roll ones); face_box and face_rolls: the tables'."""
    context = sheet_context(shape, mask, joker)
    rolls = face_box.shape[0]
    now = out[:rolls]
    now[:] = -np.inf
    for box in range(shape.box_count):
        if not (mask >> box) & 1:
            # box_value without its branch, the hot loop of the solver: an illegal entry has
            # points -1 (any futures column) and gain -inf, so it never wins the max
            for r in range(rolls):
                now[r] = max(now[r], gain[context, box, r] + futures[box, points[context, box, r]])
    for r in face_rolls:  # the few rolls whose context differs are redone in their own
        own = roll_context(shape, mask, joker, face_box[r])
        if own != context:
            now[r] = -np.inf
            for box in range(shape.box_count):
                if not (mask >> box) & 1:
                    now[r] = max(now[r], box_value(points, gain, futures, own, box, r))


@njit(cache=True)
def first_roll_values(shape, t, mask, joker, futures, best):
    """best[r] = max(best[r], scoring the first roll r now): best holding best_keeps of the first
    roll's level, the value of each first roll. Holding all five for later, which the level
    counts, is dominated (a first-roll bonus only adds to a lower box: see tables), so this is
    exactly the best of the first roll's legal options."""
    if shape.first_roll_differs:
        now = np.empty(t.face_box.shape[0])
        _score_now(shape, t.first_points, t.first_gain, t.face_box, t.face_rolls, mask, joker, futures, now)
        for r in range(now.shape[0]):
            best[r] = max(best[r], now[r])


@njit(cache=True)
def _average_rerolls(lat, level):
    """Keeps of fewer than five dice: the mean over the face of one more die."""
    for k in range(lat.roll_probability.shape[0], level.shape[0]):
        total = 0.0
        for f in range(FACE_COUNT):
            total += level[lat.child[k, f]]
        level[k] = total * (1.0 / FACE_COUNT)


@njit(cache=True)
def best_keeps(lat, level, best):
    """best[k]: the largest level value among the keeps inside k (k included).

    best has one more slot than there are keeps, holding -inf for the parents' padding (which
    the loop leaves at the first padded parent: a fifth faster than taking the max over it).
    """
    keeps = level.shape[0]
    best[keeps] = -np.inf
    for k in range(keeps - 1, -1, -1):
        value = level[k]
        for j in range(DICE_COUNT):
            parent = lat.parents[k, j]
            if parent == keeps:
                break
            value = max(value, best[parent])
        best[k] = value


@njit(cache=True)
def chosen_keep(lat, level, best, roll):
    """A keep inside the roll whose level value is best[roll] (best from best_keeps): the roll
    itself when it is (holding all, that is scoring later), else, walking from parent to
    parent, the first one that keeps the best value."""
    k = roll
    while level[k] != best[k]:
        for j in range(lat.parents.shape[1]):
            parent = lat.parents[k, j]
            if parent < level.shape[0] and best[parent] == best[k]:
                k = parent
                break
    return k


@njit(cache=True)
def keep_choices(lat, level, best, choice):
    """choice[k]: chosen_keep for every keep k at once (the same rule, shared along parents)."""
    for k in range(level.shape[0] - 1, -1, -1):
        if level[k] == best[k]:
            choice[k] = k
            continue
        for j in range(lat.parents.shape[1]):
            parent = lat.parents[k, j]
            if parent < level.shape[0] and best[parent] == best[k]:
                choice[k] = choice[parent]
                break


@njit(cache=True)
def turn_scratch(shape, lat):
    """The arrays turn_expectations fills: futures, expect and best."""
    keeps = lat.child.shape[0]
    futures = np.zeros((shape.box_count, shape.max_points + 1))
    return futures, np.empty((shape.rolls_per_turn, keeps)), np.empty(keeps + 1)


@njit(cache=True)
def turn_levels(shape, t, lat, values, mask, joker, upper, futures, expect, best):
    """Fill futures and expect[0 .. rolls_per_turn - 1] for this turn-start state (the arrays
    come from turn_scratch; best is scratch)."""
    rolls = lat.roll_probability.shape[0]
    score_futures(shape, t, values, mask, joker, upper, futures)
    _score_now(shape, t.points, t.gain, t.face_box, t.face_rolls, mask, joker, futures, expect[0])
    # element by element: Numba compiles a slice copy with its error messages, seconds at first use
    for r in range(rolls):
        best[r] = expect[0, r]
    for n in range(1, shape.rolls_per_turn):
        for r in range(rolls):
            expect[n, r] = best[r]
        _average_rerolls(lat, expect[n])
        if n < shape.rolls_per_turn - 1:
            best_keeps(lat, expect[n], best)


@njit(cache=True)
def turn_expectations(shape, t, lat, values, mask, joker, upper, futures, expect, best):
    """turn_levels, then return the turn-start state's value.

    best is left holding best_keeps of the first roll's level, expect[rolls_per_turn - 1],
    raised by first_roll_values.
    """
    turn_levels(shape, t, lat, values, mask, joker, upper, futures, expect, best)
    if shape.rolls_per_turn > 1:
        best_keeps(lat, expect[shape.rolls_per_turn - 1], best)
    first_roll_values(shape, t, mask, joker, futures, best)
    value = 0.0
    for r in range(lat.roll_probability.shape[0]):
        value += lat.roll_probability[r] * best[r]
    return value


def plain_tables(tables: SheetTables, lattice: DiceLattice) -> tuple[tuple[Any, ...], ...]:
    """The rule set's tables and the lattice as plain tuples, the way kernels called from Python
    for every new turn take them: (shape, t, lat). A plain tuple crosses into Numba in a third of
    the time a named one takes; the kernel rebuilds the named ones (see options.fill_new_turns)."""
    return tuple(tables.shape), tuple(tables.arrays), tuple(lattice)


@njit(cache=True)
def new_turn(shape, t, lat, values, mask, joker, upper):
    """turn_levels on fresh arrays: (futures, expect, contexts), contexts[r] being the scoring
    context of roll r in this turn (roll_context)."""
    futures, expect, best = turn_scratch(shape, lat)
    turn_levels(shape, t, lat, values, mask, joker, upper, futures, expect, best)
    contexts = np.full(t.face_box.shape[0], sheet_context(shape, mask, joker), dtype=np.int64)
    for r in t.face_rolls:  # the only rolls whose context may differ
        contexts[r] = roll_context(shape, mask, joker, t.face_box[r])
    return futures, expect, contexts


@njit(cache=True)
def roll_free_dice(lat, chance):
    """chance over held keeps -> chance[:rolls] over the rolls they become (the rest is left as is)."""
    for k in range(lat.child.shape[0] - 1, lat.roll_probability.shape[0] - 1, -1):  # fewest dice first
        if chance[k] > 0:
            for f in range(lat.child.shape[1]):
                chance[lat.child[k, f]] += chance[k] / lat.child.shape[1]


@njit(cache=True)
def carry_to_scoring(lat, expect, best, chance, rolls_left):
    """Carry chance[:rolls], the chance of each roll seen with `rolls_left` rolls left, through
    the keeps the optimal player holds (keep_choices of expect, from turn_expectations) to the
    chance of each roll it scores (chance[:rolls] on return; the rest of chance is scratch)."""
    rolls = lat.roll_probability.shape[0]
    kept = np.empty(lat.child.shape[0], dtype=np.int64)
    for n in range(rolls_left, 0, -1):
        best_keeps(lat, expect[n], best)
        keep_choices(lat, expect[n], best, kept)
        held = np.zeros(lat.child.shape[0])
        for r in range(rolls):
            held[kept[r]] += chance[r]
        roll_free_dice(lat, held)
        for r in range(rolls):
            chance[r] = held[r]
