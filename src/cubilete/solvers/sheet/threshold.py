"""The chance to reach a total ("beat X"), and the play that maximises it.

V(c, q) is the highest chance, from the start of a turn in class c, to score q points or
more from then on (bonuses included), over every way of playing. It is found backward
over the classes like the solver's expected values, one number per need q at once:
scoring roll r in box b gains g points (upper bonus included) and leads to class c' with
need q - g, reached when it is 0 or less; the keeps take, need by need, the best chance
over the dice they can hold. V(c, q) = 1 for q <= 0 and 0 above top(c), the most points
c can still score by any play, so a class keeps q = 1 .. min(Q, top(c)), Q being the
largest need a request asked: needs only shrink as a game goes on, and a request with a
larger need recomputes only the classes whose window is too short.

The threshold policy maximises the chance to reach the target; among options whose
chances agree to 1e-12 it takes the one the expected-total solver values most (so it
plays like the optimal player once the target is sure, or out of reach).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from numba import prange

from ...engine.errors import IllegalAction
from ...engine.sheet import SheetState
from ...engine.sheet_scoring import sheet_total
from ..dice_lattice import keep_indices
from ..kernel_cache import njit
from ..table_cache import Progress
from .advice import RankedOption, advise
from .cache import solution
from .classes import outcome_bonus_values
from .solver import SheetSolution
from .turn import next_class, roll_context
from .windows import MISSING, ClassTable

BATCH = 4096  # classes computed between two progress reports
LAYER_CHUNKS = 64  # a layer's classes are dealt to this many chunks, run in parallel
CHANCE_DIGITS = 1e12  # chances equal to 12 decimals tie: the expected total decides


@cache
def threshold_table(solved: SheetSolution) -> ThresholdTable:
    """The one table of a solution in this process (a solution is hashed by identity)."""
    return ThresholdTable(solved)


@cache
def bonus_levels(solved: SheetSolution) -> tuple[np.ndarray, np.ndarray]:
    """The five-equal bonuses a box can pay with its points (0 first), and for every entry of
    the tables' arrays [later roll 0 or first roll 1, context, box, roll] the index of its bonus
    among them."""
    arrays = solved.tables.arrays
    values = outcome_bonus_values(solved.tables)
    return values, np.searchsorted(values, np.stack((arrays.bonus, arrays.first_bonus))).astype(np.int64)


class ThresholdTable(ClassTable):
    """The windows V(c, 1 .. width) computed so far for one rule set, and top(c)."""

    def __init__(self, solved: SheetSolution) -> None:
        super().__init__(solved)
        self.top = np.full(self.classes.count, MISSING, dtype=np.int64)
        self.bonus_values, self.bonus_level = bonus_levels(solved)
        full = np.array([self.classes.count - 1])  # nothing more to score: no need is met
        self.top[full] = 0
        self.windows.extend(self.last_layer, full, np.ones(1, int), np.zeros(1, int))

    def ensure(self, c: int, need: int, progress: Progress | None = None) -> None:
        """Make V(c', q) known for every class c' that can follow c and every q <= need,
        reporting the chances computed so far to `progress`."""
        with self._lock:
            if self.top[c] != MISSING and self.windows.width[c] >= min(need, self.top[c]):
                # c was computed for a need this large, or to its top: so was every class after it
                return
            following = self.classes.following(c, self.solved.tables.shape)
            layers = range(self.last_layer - 1, int(self.classes.filled[c]) - 1, -1)
            for layer in layers:
                span = self.classes.layer(layer)
                sources = span.start + np.flatnonzero(following[span] & (self.top[span] == MISSING))
                if sources.size:
                    _tops(*self.kernel_tables(), sources)
            plan = []
            for layer in layers:
                span = self.classes.layer(layer)
                wanted = np.minimum(self.top[span], need)
                sources = span.start + np.flatnonzero(following[span] & (self.windows.width[span] < wanted))
                plan += [(layer, sources[i : i + BATCH]) for i in range(0, sources.size, BATCH)]
            total = sum(int(np.minimum(self.top[sources], need).sum()) for _, sources in plan)
            done = 0
            for layer, sources in plan:
                width = np.minimum(self.top[sources], need)
                data = self.windows.extend(layer, sources, np.ones(sources.size, int), width)
                _chance_layer(
                    *self.kernel_tables(), self.solved.lattice, sources, self.windows.width,
                    self.windows.offset, self.windows.layers[layer + 1], data,
                )
                done += int(width.sum())
                if progress is not None:
                    progress(done, total, "chances to reach the target")

    def chance(self, c: int, need: int) -> float:
        """V(c, need); ensure(c, need) must have run."""
        if need <= 0:
            return 1.0
        if need > self.top[c]:
            return 0.0
        return float(self.windows.window(c, int(self.classes.filled[c]))[need - 1])

    def turn(self, c: int, need: int) -> tuple[np.ndarray, np.ndarray]:
        """The chances of the turn from class c at this need (ensure(c, need) run):
        scored[box, points, bonus level], the chance after scoring now, and
        expect[rolls left, keep], the chance after holding a keep (see `turn`)."""
        scored, expect, best = chance_scratch(
            self.solved.tables.shape, self.solved.lattice, self.bonus_values.size, 1
        )
        turn_chances(
            *self.kernel_tables(), self.solved.lattice, c, self.windows.width, self.windows.offset,
            self.windows.layers[int(self.classes.filled[c]) + 1], need, scored, expect, best,
        )
        return scored[..., 0], expect[..., 0]

    def kernel_tables(self) -> tuple:
        """The leading arguments of the kernels: the rule set, the bonus levels, the classes, top."""
        classes = self.classes
        return (
            *self.solved.tables, self.bonus_values, self.bonus_level, classes.mask, classes.joker,
            classes.upper, classes.index, self.top,
        )


@dataclass(frozen=True)
class ReachOption:
    """A legal action, its expected final total (`advice`) and its chance to reach the target."""

    option: RankedOption
    chance: float  # playing for the target from then on


def top_points(state: SheetState) -> int:
    """The most points the seat to move can still score from the start of this turn."""
    table = threshold_table(solution(state.rules))
    c = table.class_of(state.sheet)
    table.ensure(c, 0)
    return int(table.top[c])


def check_target(
    state: SheetState, target: int, progress: Progress | None = None
) -> tuple[ThresholdTable, int, int]:
    """The table (its chances for `target` computed, reporting to `progress`), the class of
    the sheet and the points still needed; a target already reached, or out of reach of the
    sheet whatever the dice, is refused."""
    if state.is_over:
        raise IllegalAction("game_over")
    if isinstance(target, bool) or not isinstance(target, int):
        raise IllegalAction("not_an_integer", what="the target", value=repr(target))
    table = threshold_table(solution(state.rules))
    c = table.class_of(state.sheet)
    table.ensure(c, 0)
    now = sheet_total(state.rules, state.sheet)
    high = now + int(table.top[c])
    if not now < target <= high:
        raise IllegalAction("out_of_range", what="the target", low=now + 1, high=high, value=target)
    table.ensure(c, target - now, progress)
    return table, c, target - now


def reach_chance(state: SheetState, target: int) -> float:
    """The chance that the seat to move ends with `target` points or more, playing for it."""
    table, c, need = check_target(state, target)
    if not state.is_chance:
        return rank_for_target(state, target)[0].chance
    if not state.held and state.rolls_left == state.rules.rolls_per_turn:
        return table.chance(c, need)
    kept = tuple(sorted(state.dice[i] for i in state.held))
    return float(table.turn(c, need)[1][state.rolls_left, keep_indices()[kept]])


def rank_for_target(state: SheetState, target: int) -> tuple[ReachOption, ...]:
    """Every legal action of the seat to move with its chance to end with `target` points or
    more, playing for it: the threshold policy's choice first (the most likely to reach it,
    then the best expected total among chances equal to 12 decimals)."""
    table, c, need = check_target(state, target)
    if state.is_chance:
        raise IllegalAction("advice_needs_dice")
    scored, expect = table.turn(c, need)
    return rank_by_chance(state, scored, expect, table.bonus_values)


def rank_by_chance(
    state: SheetState, scored: np.ndarray, expect: np.ndarray, bonus_values: np.ndarray
) -> tuple[ReachOption, ...]:
    """Every legal action with its chance from a turn's arrays (best_turn's, one column): the
    highest chance first, options whose chances agree to 12 decimals in the advice's order
    (the best expected total first)."""
    ranked = []
    for option in advise(state):
        if option.keep is not None:
            chance = expect[state.rolls_left, keep_indices()[option.keep]]
        else:
            box, points, bonus = option.box, option.points, option.bonus
            assert box is not None and points is not None and bonus is not None  # a score
            chance = scored[state.rules.box_index(box), points, np.searchsorted(bonus_values, bonus)]
        ranked.append(ReachOption(option, float(chance)))
    return tuple(sorted(ranked, key=lambda reach: -round(reach.chance * CHANCE_DIGITS)))  # stable


@njit(cache=True)
def chance_scratch(shape, lat, bonus_levels, needs):
    """The arrays turn_chances fills, for this many needs."""
    return chance_views(chance_buffers(shape, lat, bonus_levels, needs), shape, lat, bonus_levels, needs)


@njit(cache=True)
def chance_buffers(shape, lat, bonus_levels, needs):
    """Flat memory for chance_views of up to this many needs: a kernel that turns many classes
    reuses it (a fresh array of megabytes costs its page faults every time)."""
    keeps = lat.child.shape[0]
    return (
        np.empty(shape.box_count * (shape.max_points + 1) * bonus_levels * needs),
        np.empty(shape.rolls_per_turn * keeps * needs),
        np.empty((keeps + 1) * needs),
    )


@njit(cache=True)
def chance_views(buffers, shape, lat, bonus_levels, needs):
    """The arrays turn_chances fills, for this many needs, in the buffers (contiguous)."""
    keeps = lat.child.shape[0]
    scored, expect, best = buffers
    return (
        scored[: shape.box_count * (shape.max_points + 1) * bonus_levels * needs].reshape(
            (shape.box_count, shape.max_points + 1, bonus_levels, needs)
        ),
        expect[: shape.rolls_per_turn * keeps * needs].reshape((shape.rolls_per_turn, keeps, needs)),
        best[: (keeps + 1) * needs].reshape((keeps + 1, needs)),
    )


@njit(parallel=True, cache=True)
def _tops(shape, t, bonus_values, bonus_level, cmask, cjoker, cupper, cindex, top, sources):
    """top[c] for the sources, from the tops of the classes they lead to."""
    for i in prange(sources.size):
        c = sources[i]
        mask, joker, upper = cmask[c], cjoker[c], cupper[c]
        most = 0
        for r in range(t.face_box.shape[0]):
            context = roll_context(shape, mask, joker, t.face_box[r])
            for b in range(shape.box_count):
                for points, bonus in ((t.points, t.bonus), (t.first_points, t.first_bonus)):
                    p = points[context, b, r]
                    if (mask >> b) & 1 or p < 0:
                        continue
                    to, earned = next_class(shape, cindex, mask, joker, upper, b, p)
                    most = max(most, p + bonus[context, b, r] + earned + top[to])
        top[c] = most


@njit(parallel=True, cache=True)
def _chance_layer(
    shape, t, bonus_values, bonus_level, cmask, cjoker, cupper, cindex, top, lat, sources,
    width, offset, following, data,
):
    """V(c, 1 .. width[c]) of each source into data (its layer's array) from offset[c] on;
    the sources are dealt to a few chunks, each with its own scratch memory."""
    chunks = min(sources.size, LAYER_CHUNKS)
    for chunk in prange(chunks):
        mine = sources[chunk::chunks]
        most = 0
        for c in mine:
            most = max(most, width[c])
        buffers = chance_buffers(shape, lat, bonus_values.shape[0], most)
        for c in mine:
            if width[c] == 0:
                continue
            scored, expect, best = chance_views(buffers, shape, lat, bonus_values.shape[0], width[c])
            turn_chances(  # needs from an int64 1, not a literal one: the kernel compiled for `turn` serves
                shape, t, bonus_values, bonus_level, cmask, cjoker, cupper, cindex, top, lat, c,
                width, offset, following, np.int64(1), scored, expect, best,
            )
            for j in range(width[c]):
                total = 0.0
                for r in range(lat.roll_probability.shape[0]):
                    total += lat.roll_probability[r] * best[r, j]
                data[offset[c] + j] = total


@njit(cache=True)
def turn_chances(
    shape, t, bonus_values, bonus_level, cmask, cjoker, cupper, cindex, top, lat, c,
    width, offset, following, first_need, scored, expect, best,
):
    """The turn from class c for the needs first_need, first_need + 1, ... (the last axis):
    scored[box, points, bonus level], the chance after scoring now; expect[n, keep], after
    holding the keep with n rolls to come (n = 0: the rolls scored now, at their best box);
    best: best_keeps of the first roll. `following` holds the next layer's windows."""
    mask, joker, upper = cmask[c], cjoker[c], cupper[c]
    needs = scored.shape[3]
    for b in range(shape.box_count):
        if (mask >> b) & 1:
            continue
        for jp in range(t.point_values_start[b], t.point_values_start[b + 1]):
            p = t.point_values[jp]
            to, earned = next_class(shape, cindex, mask, joker, upper, b, p)
            for level in range(bonus_values.shape[0]):
                gained = p + bonus_values[level] + earned
                for j in range(needs):
                    need = first_need + j - gained
                    if need <= 0:
                        scored[b, p, level, j] = 1.0
                    elif need > width[to]:  # above top(to): width[to] covers every smaller need
                        scored[b, p, level, j] = 0.0
                    else:
                        scored[b, p, level, j] = following[offset[to] + need - 1]
    best_turn(shape, t, bonus_level, lat, mask, joker, scored, expect, best)


@njit(cache=True)
def best_turn(shape, t, bonus_level, lat, mask, joker, scored, expect, best):
    """The turn that maximises the mean of what its outcome is worth, for each column of the
    last axis: scored[box, points, bonus level] is the worth of scoring those (chances to reach
    a total, chances to win); fills expect[n, keep], the worth of holding the keep with n rolls
    to come (n = 0: the rolls scored now, at their best box), and best: best_keeps of the
    first roll, raised where scoring it now with the first roll's points is worth more (the
    turn's worth is the mean of best over the rolls). bonus_level: threshold.bonus_levels'."""
    rolls = lat.roll_probability.shape[0]
    for r in range(rolls):
        expect[0, r][:] = -np.inf
        _raise_to_scored(shape, t.points, bonus_level[0], mask, joker, t.face_box[r], r, scored, expect[0, r])
    best[:rolls] = expect[0, :rolls]
    for n in range(1, shape.rolls_per_turn):
        expect[n, :rolls] = best[:rolls]
        for k in range(rolls, lat.child.shape[0]):  # the mean over the face of one more die
            mean = expect[n, k]
            mean[:] = 0.0
            for f in range(lat.child.shape[1]):
                _add_to(mean, expect[n, lat.child[k, f]])
            mean *= 1.0 / lat.child.shape[1]
        _best_keeps_by_need(lat, expect[n], best)
    if shape.first_roll_differs:  # docs/rules.md#generala-servida
        for r in range(rolls):
            _raise_to_scored(shape, t.first_points, bonus_level[1], mask, joker, t.face_box[r], r, scored, best[r])


@njit(cache=True)
def _raise_to_scored(shape, points, bonus_level, mask, joker, face_box, r, scored, row):
    """row: raised to the worth of scoring roll r (face_box: its) in each legal open box, with these
    points (the tables' later or first-roll ones) and bonus levels."""
    context = roll_context(shape, mask, joker, face_box)
    for b in range(shape.box_count):
        p = points[context, b, r]
        if not (mask >> b) & 1 and p >= 0:
            _raise_to(row, scored[b, p, bonus_level[context, b, r]])


@njit(cache=True, fastmath={"nnan"})  # no NaN here: the maximum vectorises
def _raise_to(row, other):
    for j in range(row.size):
        row[j] = max(row[j], other[j])


@njit(cache=True)
def _add_to(row, other):
    for j in range(row.size):
        row[j] += other[j]


@njit(cache=True)
def _best_keeps_by_need(lat, level, best):
    """best_keeps (`turn`) for every need at once: best[k] = the largest level[k'] over
    the keeps k' inside k, need by need."""
    keeps = level.shape[0]
    for k in range(keeps - 1, -1, -1):
        best[k, :] = level[k, :]
        for i in range(lat.parents.shape[1]):
            parent = lat.parents[k, i]
            if parent == keeps:  # the padding: no more parents
                break
            _raise_to(best[k], best[parent])
