"""The threshold policy's play, and the exact law of the points it scores.

The policy (solvers.sheet.threshold) maximises the chance to reach a target; among options whose
chances agree to 12 decimals it takes the best expected total. From a situation, a
forward pass follows it layer by layer over (class, points still needed): a turn from
class c with need q ends in outcomes (class c', points gained g) with need q - g. Once
the need is met (q - g <= 0) or out of reach (above top(c')), every option has the same
chance and the policy plays as the optimal player, whose law from c' solvers.sheet.distributions
knows: those ends are mixed into the result, shifted by the points gained since the start.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from ..engine.sheet import SheetState
from ..solvers.dice_lattice import keep_indices
from ..solvers.kernel_cache import njit
from ..solvers.sheet.distributions import ScoreDistribution, distribution_table, mix_group
from ..solvers.sheet.tables import refuse_first_roll_scoring
from ..solvers.sheet.threshold import CHANCE_DIGITS, ThresholdTable, chance_scratch, check_target, turn_chances
from ..solvers.sheet.turn import next_class, roll_context, roll_free_dice, turn_expectations, turn_scratch


def threshold_distribution(state: SheetState, target: int) -> ScoreDistribution:
    """The law of the points the seat to move still scores, playing for `target` from here."""
    table, c, need = check_target(state, target)
    solved, classes = table.solved, table.classes
    refuse_first_roll_scoring(solved.tables, "the threshold policy's law")
    rolls, keeps = solved.lattice.roll_probability.size, solved.lattice.child.shape[0]
    chance, level = np.zeros(keeps), state.rolls_left
    if state.is_chance and not state.held and state.rolls_left == state.rules.rolls_per_turn:
        chance[:rolls], level = solved.lattice.roll_probability, state.rolls_left - 1
    elif state.is_chance:
        chance[keep_indices()[tuple(sorted(state.dice[i] for i in state.held))]] = 1.0
        roll_free_dice(solved.lattice, chance)
        level = state.rolls_left - 1
    else:
        chance[keep_indices()[tuple(sorted(state.dice))]] = 1.0
    ends = []
    sources, needs, masses = np.array([c]), np.array([need]), np.ones(1)
    for _ in range(int(classes.filled[c]), table.last_layer):
        if not sources.size:
            break
        outcome_need, reached, gained, weight = _outcomes(table, sources, needs, masses, chance, level)
        left = outcome_need - gained
        ended = (left <= 0) | (left > table.top[reached])
        ends.append((reached[ended], need - left[ended], weight[ended]))
        sources, needs, masses = _gathered(reached[~ended], left[~ended], weight[~ended])
        chance[:] = 0.0
        chance[:rolls], level = solved.lattice.roll_probability, state.rules.rolls_per_turn - 1
    return _mixed(table, *(np.concatenate(parts) for parts in zip(*ends, strict=True)))


def _outcomes(
    table: ThresholdTable, sources: np.ndarray, needs: np.ndarray, masses: np.ndarray,
    chance: np.ndarray, level: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The turns of the policy from each source class (with its needs, each with a mass):
    (need, class reached, points gained, mass times probability) for every outcome."""
    solved, classes = table.solved, table.classes
    starts = np.flatnonzero(np.diff(sources, prepend=-1))
    groups = np.append(starts, sources.size)
    capacity = classes.capacity[sources[starts]] * np.diff(groups)
    slots = np.concatenate(([0], np.cumsum(capacity)))
    size = int(slots[-1])
    out_need, target = np.zeros(size, np.int64), np.zeros(size, np.int64)
    gained, weight = np.zeros(size, np.int64), np.zeros(size)
    layer = int(classes.filled[sources[0]]) + 1
    _policy_turns(
        *table.kernel_tables(), solved.lattice, solved.values, table.windows.width,
        table.windows.offset, table.windows.layers[layer], sources[starts], groups, needs, masses,
        chance, level, slots, out_need, target, gained, weight,
    )
    kept = weight > 0
    return out_need[kept], target[kept], gained[kept], weight[kept]


def _gathered(target: np.ndarray, need: np.ndarray, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The masses summed by (class, need), sorted by class."""
    if not target.size:
        return target, need, weight
    pairs, where = np.unique(np.stack((target, need)), axis=1, return_inverse=True)
    return pairs[0], pairs[1], np.bincount(where.ravel(), weights=weight, minlength=pairs.shape[1])


def _mixed(table: ThresholdTable, target: np.ndarray, points: np.ndarray, weight: np.ndarray) -> ScoreDistribution:
    """The mixture of the optimal player's laws from each class reached, shifted by the points
    gained before it."""
    laws = distribution_table(table.solved)
    laws.ensure(*np.unique(target))
    (target, points), where = np.unique(np.stack((target, points)), axis=1, return_inverse=True)
    weight = np.bincount(where.ravel(), weights=weight, minlength=target.size)
    w = laws.windows
    low = int((points + w.low[target]).min())
    mixed = np.zeros(int((points + w.low[target] + w.width[target]).max()) - low)
    layer_of = laws.classes.filled[target]
    for layer in np.unique(layer_of):
        mine = np.flatnonzero(layer_of == layer)
        mix_group(
            0, mine.size, target[mine], points[mine], weight[mine], -low, w.low, w.width, w.offset,
            w.layers[layer], w.scale, mixed,
        )
    return ScoreDistribution(low, mixed)


@njit(parallel=True, cache=True)
def _policy_turns(
    shape, t, bonus_values, bonus_level, cmask, cjoker, cupper, cindex, top, lat, values, width,
    offset, following, sources, groups, needs, masses, start_chance, start_level, slots,
    out_need, target, gained, weight,
):
    """Source g plays its turn for each of its needs (groups[g] .. groups[g + 1]), from
    start_chance of the rolls seen with start_level rolls left; the outcomes of need i go to
    the slots from slots[g] + (i - groups[g]) * (its share of the slots) on."""
    for g in prange(sources.size):
        c = sources[g]
        share = (slots[g + 1] - slots[g]) // (groups[g + 1] - groups[g])
        scored, expect, best = chance_scratch(shape, lat, bonus_values.shape[0], 1)
        futures, expect_mean, best_mean = turn_scratch(shape, lat)
        turn_expectations(shape, t, lat, values, cmask[c], cjoker[c], cupper[c], futures, expect_mean, best_mean)
        for i in range(groups[g], groups[g + 1]):
            turn_chances(
                shape, t, bonus_values, bonus_level, cmask, cjoker, cupper, cindex, top, lat, c,
                width, offset, following, needs[i], scored, expect, best,
            )
            chance = start_chance.copy()
            for n in range(start_level, 0, -1):
                kept = _keeps_chosen(lat, expect[n, :, 0], expect_mean[n])
                held = np.zeros(lat.child.shape[0])
                for r in range(lat.roll_probability.shape[0]):
                    held[kept[r]] += chance[r]
                roll_free_dice(lat, held)
                chance[: lat.roll_probability.shape[0]] = held[: lat.roll_probability.shape[0]]
            slot = slots[g] + (i - groups[g]) * share
            _write_scored(
                shape, t, bonus_values, bonus_level, cmask[c], cjoker[c], cupper[c], cindex, scored,
                futures, chance, needs[i], masses[i], slot, out_need, target, gained, weight,
            )


@njit(cache=True)
def _rounded(chance):
    return np.floor(chance * CHANCE_DIGITS + 0.5)


@njit(cache=True)
def _keeps_chosen(lat, chances, values):
    """For every keep, the keep inside it (itself included) with the best chance, rounded to
    12 decimals, then the best expected total (values); on a full tie the one holding more."""
    keeps = chances.shape[0]
    best_chance, best_value = np.empty(keeps + 1), np.empty(keeps + 1)
    chosen = np.empty(keeps + 1, dtype=np.int64)
    best_chance[keeps] = best_value[keeps] = -np.inf
    for k in range(keeps - 1, -1, -1):
        top_chance, top_value, top_keep = _rounded(chances[k]), values[k], k
        for i in range(lat.parents.shape[1]):
            parent = lat.parents[k, i]
            better = best_chance[parent] > top_chance or (
                best_chance[parent] == top_chance and best_value[parent] > top_value
            )
            if better:
                top_chance, top_value, top_keep = best_chance[parent], best_value[parent], chosen[parent]
        best_chance[k], best_value[k], chosen[k] = top_chance, top_value, top_keep
    return chosen


@njit(cache=True)
def _write_scored(
    shape, t, bonus_values, bonus_level, mask, joker, upper, cindex, scored, futures, chance,
    need, mass, slot, out_need, target, gained, weight,
):
    """Score each roll in the box the policy picks (the best chance to 12 decimals, then the
    best expected total, then the first in sheet order) and write the outcomes from `slot` on."""
    by_outcome = np.zeros((shape.box_count, shape.max_points + 1, bonus_values.shape[0]))
    for r in range(t.face_box.shape[0]):
        if chance[r] == 0:
            continue
        context = roll_context(shape, mask, joker, t.face_box[r])
        chosen, top_chance, top_value = -1, -np.inf, -np.inf
        for b in range(shape.box_count):
            p = t.points[context, b, r]
            if (mask >> b) & 1 or p < 0:
                continue
            rounded = _rounded(scored[b, p, bonus_level[0, context, b, r], 0])
            value = t.gain[context, b, r] + futures[b, p]
            if rounded > top_chance or (rounded == top_chance and value > top_value):
                chosen, top_chance, top_value = b, rounded, value
        by_outcome[chosen, t.points[context, chosen, r], bonus_level[0, context, chosen, r]] += chance[r]
    for b in range(shape.box_count):
        for p in range(shape.max_points + 1):
            for level in range(bonus_values.shape[0]):
                if by_outcome[b, p, level] > 0:
                    target[slot], earned = next_class(shape, cindex, mask, joker, upper, b, p)
                    gained[slot] = p + bonus_values[level] + earned
                    out_need[slot], weight[slot] = need, mass * by_outcome[b, p, level]
                    slot += 1
