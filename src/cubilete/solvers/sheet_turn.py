"""One turn of a score-sheet game, solved given the values of the next turns (Numba kernels).

`values` holds the expected future points (bonuses included, points already
scored excluded) of every turn-start state, flattened by `state_index`. From it,
`turn_expectations` fills `expect[n, k]`, the expected value of holding keep k
when n rolls remain (for n = 0 only the rolls are meaningful: the value of
scoring them now). The value of the dice r on the table with n rolls left is
the best `expect[n, k]` over the keeps k inside r, r itself included (holding
all five dice is the same as scoring them later); the turn-start value is the
mean of the first roll's values.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..engine.dice import DICE_COUNT, FACES
from .sheet_tables import JOKER_OPEN, JOKER_ZERO

FACE_COUNT = len(FACES)


@njit(cache=True)
def state_index(t, mask, joker, upper):
    return (mask * t.joker_states + joker) * (t.threshold + 1) + upper


@njit(cache=True)
def sheet_context(t, mask, joker):
    """The scoring context (see sheet_tables) of rolls whose options ignore the face box."""
    if t.joker_box < 0 or not (mask >> t.joker_box) & 1:
        joker_state = JOKER_OPEN
    else:
        joker_state = JOKER_ZERO + (joker if t.joker_states == 2 else 0)
    lower_open = (mask & t.lower_bits) != t.lower_bits
    return joker_state * 4 + lower_open * 2


@njit(cache=True)
def roll_context(t, mask, joker, roll):
    """The scoring context of this roll on a sheet in this state."""
    face = t.face_box[roll]
    return sheet_context(t, mask, joker) + (face >= 0 and not (mask >> face) & 1)


@njit(cache=True)
def score_future(t, values, mask, joker, upper, box, points):
    """The upper bonus earned by scoring these points in the box, plus the expected future after."""
    next_upper = upper
    bonus = 0.0
    if t.upper[box]:
        next_upper = min(upper + points, t.threshold)
        if upper < t.threshold <= next_upper:
            bonus = t.upper_bonus
    next_joker = joker
    if box == t.joker_box and t.joker_states == 2:
        next_joker = 1 if points > 0 else 0
    return bonus + values[state_index(t, mask | (1 << box), next_joker, next_upper)]


@njit(cache=True)
def score_value(t, values, mask, joker, upper, box, roll, context):
    """Everything scoring the roll in the box earns now, plus the expected future after it."""
    points = t.points[context, box, roll]
    return t.gain[context, box, roll] + score_future(t, values, mask, joker, upper, box, points)


@njit(cache=True)
def _score_now(t, values, mask, joker, upper, out):
    """out[r]: the value of the best legal box for roll r."""
    out[:] = -np.inf
    future = np.zeros(t.points.max() + 1)  # by points scored, for one box
    context = sheet_context(t, mask, joker)
    for box in range(t.box_count):
        if not (mask >> box) & 1:
            for j in range(t.point_values_start[box], t.point_values_start[box + 1]):
                points = t.point_values[j]
                future[points] = score_future(t, values, mask, joker, upper, box, points)
            for r in range(out.shape[0]):
                points = t.points[context, box, r]
                if points >= 0:
                    out[r] = max(out[r], t.gain[context, box, r] + future[points])
    for r in t.face_rolls:  # the few rolls whose context differs are redone in their own
        if roll_context(t, mask, joker, r) != context:
            out[r] = -np.inf
            for box in range(t.box_count):
                if not (mask >> box) & 1 and t.points[context + 1, box, r] >= 0:
                    value = score_value(t, values, mask, joker, upper, box, r, context + 1)
                    out[r] = max(out[r], value)


@njit(cache=True)
def _average_rerolls(lat, level):
    """Keeps of fewer than five dice: the mean over the face of one more die."""
    for k in range(lat.roll_probability.shape[0], level.shape[0]):
        total = 0.0
        for f in range(FACE_COUNT):
            total += level[lat.child[k, f]]
        level[k] = total * (1.0 / FACE_COUNT)


@njit(cache=True)
def _best_keeps(lat, level, best):
    """best[k]: the largest level value among the keeps inside k (k included).

    best has one more slot than there are keeps, holding -inf for the parents' padding.
    """
    best[level.shape[0]] = -np.inf
    for k in range(level.shape[0] - 1, -1, -1):
        value = level[k]
        for j in range(DICE_COUNT):
            value = max(value, best[lat.parents[k, j]])
        best[k] = value


@njit(cache=True)
def turn_expectations(t, lat, values, mask, joker, upper, expect, best):
    """Fill expect[0 .. rolls_per_turn - 1] for this turn-start state; return its value."""
    rolls = lat.roll_probability.shape[0]
    _score_now(t, values, mask, joker, upper, expect[0])
    best[:rolls] = expect[0, :rolls]
    for n in range(1, t.rolls_per_turn):
        expect[n, :rolls] = best[:rolls]
        _average_rerolls(lat, expect[n])
        _best_keeps(lat, expect[n], best)
    value = 0.0
    for r in range(rolls):
        value += lat.roll_probability[r] * best[r]
    return value
