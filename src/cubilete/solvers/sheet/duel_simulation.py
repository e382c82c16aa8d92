"""Two-player games of the duel player against the optimal one at compiled speed.

The engine's runner plays DuelPlayer against OptimalPlayer (players.sheet) through the
Python API, tens of games per second at best; this plays the same games in Numba, in parallel over pairs of games. Each pair
uses one game seed twice, the duel player in seat 0 and then in seat 1. With common dice
every seat draws from its own copy of the SplitMix64 stream seeded with the game seed (the
engine's CommonSeed: die n is 1 + splitmix64(seed + (n + 1) * gamma) % 6, the free dice
rolled one by one), so the runner with CommonSeed(seed) plays exactly these games;
without, seat 1 draws from a stream of its own (independent dice).

Both seats choose as the Python API does. An option's expected final total is the one
solvers.sheet.advice computes (now + the turn arrays' value, in the same float operations); the
optimal seat takes the highest, the first in the engine's `legal_actions` order on a tie
(keeps by held values, then boxes in sheet order). The duel seat faces the law of the
optimal opponent's final total, the distribution window of its class shifted by its total
(solvers.sheet.duel.best_opponent_law for one opponent), and takes the highest chance to finish
first rounded to 12 decimals, ties going to the optimal seat's order (rank_by_chance). Rule sets
with a servida (docs/rules.md#generala-servida) are refused (UnsupportedRules): these games are
played through the engine's runner instead.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
from numba import prange

from ...engine.dice import DICE_COUNT
from ...engine.sheet_rules import SheetRules
from ..dice_lattice import keep_indices, keeps
from ..kernel_cache import njit
from .cache import solution
from .distributions import complete_table
from .duel import scored_worths
from .simulation import _roll
from .tables import refuse_first_roll_scoring
from .threshold import CHANCE_DIGITS, best_turn, bonus_levels, chance_scratch
from .turn import roll_context, state_index, successor, turn_expectations, turn_scratch

DUEL, OPTIMAL = 0, 1  # the players, as totals' last axis lists them
OTHER_STREAM = np.uint64(0xD1B54A32D192ED03)  # independent dice: seat 1's stream seed is the game seed xor this


def simulate_duel(rules: SheetRules, seeds: np.ndarray, common: bool = True) -> np.ndarray:
    """totals[pair, order, player] of the game pairs of these game seeds: order 0 seats the
    duel player first, order 1 second; player DUEL or OPTIMAL."""
    solved = solution(rules)
    refuse_first_roll_scoring(solved.tables, "the compiled duel games")
    table = complete_table(solved)
    classes, windows = table.classes, table.windows
    layer_start = np.cumsum([0] + [layer.size for layer in windows.layers])
    flat = np.concatenate(windows.layers) * windows.scale  # one array, so that the kernel can index any class
    offset = windows.offset + layer_start[classes.filled]
    bonus_values, bonus_level = bonus_levels(solved)
    return _play_pairs(
        *solved.tables, solved.lattice, solved.values, bonus_values, bonus_level, keep_order(),
        classes.index, windows.low, windows.width, offset, flat, np.asarray(seeds, dtype=np.uint64), common,
    )


def keep_order() -> np.ndarray:
    """order[roll, i]: the lattice indices of the keeps of fewer than five dice inside the
    roll, in the engine's `legal_actions` order (by held values), padded with -1."""
    index = keep_indices()
    rolls = [keep for keep in keeps() if len(keep) == DICE_COUNT]  # the lattice's first indices
    order = np.full((len(rolls), 2**DICE_COUNT - 1), -1, dtype=np.int64)
    for r, roll in enumerate(rolls):
        held = sorted({kept for size in range(DICE_COUNT) for kept in combinations(roll, size)})
        order[r, : len(held)] = [index[kept] for kept in held]
    return order


@njit(parallel=True, cache=True)
def _play_pairs(
    shape, t, lat, values, bonus_values, bonus_level, order, cindex, low, width, offset, flat, seeds, common
):
    totals = np.empty((seeds.size, 2, 2), dtype=np.int64)
    for g in prange(seeds.size):
        for duel_seat in range(2):
            seat_totals = _play_game(
                shape, t, lat, values, bonus_values, bonus_level, order, cindex, low, width, offset,
                flat, seeds[g], common, duel_seat,
            )
            totals[g, duel_seat, DUEL] = seat_totals[duel_seat]
            totals[g, duel_seat, OPTIMAL] = seat_totals[1 - duel_seat]
    return totals


@njit(cache=True)
def _play_game(
    shape, t, lat, values, bonus_values, bonus_level, order, cindex, low, width, offset, flat, seed,
    common, duel_seat,
):
    """The two seats' final totals of one game."""
    streams = np.empty((2, 1), dtype=np.uint64)
    streams[0, 0] = seed
    streams[1, 0] = seed if common else seed ^ OTHER_STREAM
    mask = np.zeros(2, dtype=np.int64)
    joker = np.zeros(2, dtype=np.int64)
    upper = np.zeros(2, dtype=np.int64)
    total = np.zeros(2, dtype=np.int64)
    futures, expect, best = turn_scratch(shape, lat)
    scored, chances, chance_best = chance_scratch(shape, lat, bonus_values.shape[0], 1)
    for turn in range(2 * shape.box_count):
        seat = turn % 2
        m, j, u = mask[seat], joker[seat], upper[seat]
        turn_expectations(shape, t, lat, values, m, j, u, futures, expect, best)
        duel = seat == duel_seat
        if duel:
            other = 1 - seat
            to = cindex[state_index(shape, mask[other], joker[other], upper[other])]
            beat = _beat_values(flat[offset[to] : offset[to] + width[to]])
            scored_worths(
                shape, t, m, j, u, cindex, low, width, offset, flat, 1.0, bonus_values,
                total[seat] - (low[to] + total[other]), beat, 1.0, scored[..., 0],
            )
            best_turn(shape, t, bonus_level, lat, m, j, scored, chances, chance_best)
        box, roll = _play_turn(
            shape, t, lat, order, bonus_level, m, j, total[seat], futures, expect, duel, scored, chances,
            streams[seat],
        )
        context = roll_context(shape, m, j, t.face_box[roll])
        points = t.points[context, box, roll]
        mask[seat], joker[seat], upper[seat], upper_bonus = successor(shape, m, j, u, box, points)
        total[seat] += points + t.bonus[context, box, roll] + upper_bonus
    return total


@njit(cache=True)
def _beat_values(probabilities):
    """solvers.sheet.duel.beat_values of best_opponent_law for one opponent, in its float operations:
    the law goes through its distribution function and back."""
    below = np.cumsum(probabilities)
    law = below.copy()
    law[1:] -= below[:-1]
    return np.cumsum(law) - law / 2


@njit(cache=True)
def _play_turn(shape, t, lat, order, bonus_level, mask, joker, now, futures, expect, duel, scored, chances, stream):
    """Roll and choose until a box is scored: (the box, the roll scored)."""
    roll = _roll(lat, lat.child.shape[0] - 1, stream)
    for rolls_left in range(shape.rolls_per_turn - 1, -1, -1):
        choice = _choose(
            shape, t, order, bonus_level, mask, joker, now, futures, expect, duel, scored, chances, roll,
            rolls_left,
        )
        if choice < 0:
            return -1 - choice, roll
        roll = _roll(lat, choice, stream)
    raise AssertionError("a turn ends with a box scored")


@njit(cache=True)
def _choose(shape, t, order, bonus_level, mask, joker, now, futures, expect, duel, scored, chances, roll, rolls_left):
    """The keep (its lattice index) or the box (-1 - box) the seat picks for the roll: the
    highest rounded chance for the duel (0 for all, the optimal seat), then the highest
    expected final total, then the first in legal order."""
    context = roll_context(shape, mask, joker, t.face_box[roll])
    chosen, best_key, best_value = 0, -np.inf, -np.inf
    if rolls_left > 0:
        for i in range(order.shape[1]):
            k = order[roll, i]
            if k < 0:
                break
            key = np.rint(chances[rolls_left, k, 0] * CHANCE_DIGITS) if duel else 0.0
            value = now + expect[rolls_left, k]
            if key > best_key or (key == best_key and value > best_value):
                chosen, best_key, best_value = k, key, value
    for b in range(shape.box_count):
        points = t.points[context, b, roll]
        if (mask >> b) & 1 or points < 0:
            continue
        key = np.rint(scored[b, points, bonus_level[0, context, b, roll], 0] * CHANCE_DIGITS) if duel else 0.0
        value = (now + points + t.bonus[context, b, roll]) + futures[b, points]
        if key > best_key or (key == best_key and value > best_value):
            chosen, best_key, best_value = -1 - b, key, value
    return chosen

