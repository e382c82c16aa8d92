"""Many games of optimal solitaire play at compiled speed, for checks and benchmarks.

The engine's runner (what `cubilete simulate` uses) plays a game through the
players' Python API; this plays the same policy (the solver's tables, the same
turn kernels and tie rules as solvers.sheet.stats) entirely in Numba, in parallel over
games. Game g draws its dice from its own SplitMix64 stream seeded by (seed, g),
so results do not depend on the number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ...engine.dice_seeds import SPLITMIX_GAMMA
from ...engine.sheet_rules import SheetRules
from ..kernel_cache import njit
from .cache import solution
from .turn import (
    best_box,
    best_box_value,
    best_keeps,
    chosen_keep,
    roll_context,
    successor,
    turn_expectations,
    turn_scratch,
)

GOLDEN_GAMMA = np.uint64(SPLITMIX_GAMMA)


def simulate_optimal(rules: SheetRules, games: int, seed: int) -> np.ndarray:
    """The final totals of `games` games of optimal solitaire play."""
    solved = solution(rules)
    return _play_games(*solved.tables, solved.lattice, solved.values, games, np.uint64(seed))


@njit(parallel=True, cache=True)
def _play_games(shape, t, lat, values, games, seed):
    totals = np.empty(games, dtype=np.int64)
    for g in prange(games):
        state = np.empty(1, dtype=np.uint64)
        state[0] = seed * GOLDEN_GAMMA + np.uint64(g)
        _next_random(state)  # decorrelate neighbouring games' streams
        totals[g] = _play_game(shape, t, lat, values, state)
    return totals


@njit(cache=True)
def _play_game(shape, t, lat, values, state):
    futures, expect, best = turn_scratch(shape, lat)
    empty_keep = lat.child.shape[0] - 1
    mask, joker, upper, total = 0, 0, 0, 0
    for _ in range(shape.box_count):
        turn_expectations(shape, t, lat, values, mask, joker, upper, futures, expect, best)
        roll = _roll(lat, empty_keep, state)
        top = shape.rolls_per_turn - 1
        points, bonus = t.points, t.bonus
        box = -1
        if shape.first_roll_differs:  # a servida scored at once beats every keep (a keep wins a tie)
            best_keeps(lat, expect[top], best)  # turn_expectations raised them by first_roll_values
            box, value = best_box_value(shape, t.first_points, t.first_gain, t.face_box[roll], mask, joker, futures, roll)
            if value > best[roll]:
                points, bonus = t.first_points, t.first_bonus
            else:
                box = -1
        if box < 0:
            for n in range(top, 0, -1):
                if n < top:  # turn_expectations left the first roll's best keeps
                    best_keeps(lat, expect[n], best)
                keep = chosen_keep(lat, expect[n], best, roll)
                if keep != roll:  # holding all five rolls nothing
                    roll = _roll(lat, keep, state)
            box = best_box(shape, t, mask, joker, futures, roll)
        context = roll_context(shape, mask, joker, t.face_box[roll])
        scored = points[context, box, roll]
        mask, joker, upper, upper_bonus = successor(shape, mask, joker, upper, box, scored)
        total += scored + bonus[context, box, roll] + upper_bonus
    return total


@njit(cache=True)
def _roll(lat, keep, state):
    """The roll reached from holding `keep` by rolling the free dice one by one."""
    faces = lat.child.shape[1]
    while keep >= lat.roll_probability.shape[0]:
        keep = lat.child[keep, _next_random(state) % np.uint64(faces)]
    return keep


@njit(cache=True)
def _next_random(state):
    """SplitMix64: advance the stream in state[0] and return its next 64 random bits."""
    state[0] += GOLDEN_GAMMA
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))
