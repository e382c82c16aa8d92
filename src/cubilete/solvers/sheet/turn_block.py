"""One turn's value for several upper totals of one mask and joker state at once: the solver's kernel.

The states of a mask differ only by their upper total, and so do their turns: the same rolls, keeps
and boxes, only the futures of scoring differ (turn.score_futures). So the solver computes BLOCK totals
together, the totals as the innermost axis of every array: where turn.turn_expectations does one
scalar step per total (a gather through the roll's points, a max, a mean), this does one step for
BLOCK totals, which the compiler turns into vector instructions. Each total's value is made of the
same operations in the same order as turn_expectations makes it, so the two agree to the last bit
(tests/solvers check it); turn.py keeps the one-total kernels that advice and the analyses use.
"""

from __future__ import annotations

import numpy as np

from ...engine.dice import DICE_COUNT
from ..kernel_cache import njit
from .turn import FACE_COUNT, roll_context, score_futures, sheet_context

BLOCK = 8  # totals computed together: two AVX2 vectors of float64 (a mask has 28 pending totals on average in Penta)


@njit(cache=True)
def block_scratch(shape, lat):
    """The arrays block_values fills: futures[box, points, total], level and best[keep, total], now[roll, total]."""
    keeps, rolls = lat.child.shape[0], lat.roll_probability.shape[0]
    futures = np.zeros((shape.box_count, shape.max_points + 1, BLOCK))
    return futures, np.empty((keeps, BLOCK)), np.empty((keeps + 1, BLOCK)), np.empty((rolls, BLOCK))


@njit(cache=True)
def block_values(shape, t, lat, values, mask, joker, uppers, futures, level, best, now, out):
    """out[i]: turn.turn_expectations' value of the state (mask, joker, uppers[i]), for the BLOCK totals
    in uppers (a block not full repeats one of them); the other arrays come from block_scratch."""
    for b in range(BLOCK):  # the futures of scoring, for each total: a few hundred, a small part of the turn
        score_futures(shape, t, values, mask, joker, uppers[b], futures[:, :, b])
    _block_score_now(shape, t.points, t.gain, t.face_box, t.face_rolls, mask, joker, futures, now)
    rolls = lat.roll_probability.shape[0]
    for r in range(rolls):
        for b in range(BLOCK):
            best[r, b] = now[r, b]
    for _ in range(1, shape.rolls_per_turn):  # each earlier roll: hold the best keep of the roll after
        for r in range(rolls):
            for b in range(BLOCK):
                level[r, b] = best[r, b]
        _block_average_rerolls(lat, level)
        _block_best_keeps(lat, level, best)
    if shape.first_roll_differs:  # as turn.first_roll_values
        _block_score_now(shape, t.first_points, t.first_gain, t.face_box, t.face_rolls, mask, joker, futures, now)
        for r in range(rolls):
            for b in range(BLOCK):
                best[r, b] = max(best[r, b], now[r, b])
    for b in range(BLOCK):
        out[b] = 0.0
    for r in range(rolls):
        for b in range(BLOCK):
            out[b] += lat.roll_probability[r] * best[r, b]


@njit(cache=True)
def _block_score_now(shape, points, gain, face_box, face_rolls, mask, joker, futures, now):
    """turn._score_now for each total: now[r, total], the best legal box for roll r scored now."""
    context = sheet_context(shape, mask, joker)
    rolls = face_box.shape[0]
    for r in range(rolls):
        for b in range(BLOCK):
            now[r, b] = -np.inf
    for box in range(shape.box_count):
        if not (mask >> box) & 1:
            for r in range(rolls):
                # an illegal entry has points -1 (any futures column) and gain -inf: it never wins the max
                scored, gained = points[context, box, r], gain[context, box, r]
                for b in range(BLOCK):
                    now[r, b] = max(now[r, b], gained + futures[box, scored, b])
    for r in face_rolls:  # the few rolls whose context differs are redone in their own
        own = roll_context(shape, mask, joker, face_box[r])
        if own != context:
            for b in range(BLOCK):
                now[r, b] = -np.inf
            for box in range(shape.box_count):
                scored = points[own, box, r]
                if not (mask >> box) & 1 and scored >= 0:
                    for b in range(BLOCK):
                        now[r, b] = max(now[r, b], gain[own, box, r] + futures[box, scored, b])


@njit(cache=True)
def _block_average_rerolls(lat, level):
    """turn._average_rerolls for each total, the faces added in the same order."""
    total = np.empty(BLOCK)
    for k in range(lat.roll_probability.shape[0], level.shape[0]):
        for b in range(BLOCK):
            total[b] = 0.0
        for f in range(FACE_COUNT):
            child = lat.child[k, f]
            for b in range(BLOCK):
                total[b] += level[child, b]
        for b in range(BLOCK):
            level[k, b] = total[b] * (1.0 / FACE_COUNT)


@njit(cache=True)
def _block_best_keeps(lat, level, best):
    """turn.best_keeps for each total."""
    keeps = level.shape[0]
    for b in range(BLOCK):
        best[keeps, b] = -np.inf
    for k in range(keeps - 1, -1, -1):
        for b in range(BLOCK):
            best[k, b] = level[k, b]
        for j in range(DICE_COUNT):
            parent = lat.parents[k, j]
            if parent == keeps:
                break
            for b in range(BLOCK):
                best[k, b] = max(best[k, b], best[parent, b])
