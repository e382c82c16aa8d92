"""Exact two-seat play on a reduced score-sheet game (a few open boxes each), and the exact
chance to finish first of fixed policies on it.

Two seats start from given sheets at the start of seat 0's turn and take turns until both
sheets are full (a seat whose opponent is done plays on alone). What matters of a position
is (class of seat 0, class of seat 1, d = total of seat 0 minus total of seat 1, seat to
move); T[s](a, b)(d) is the chance that seat 0 finishes first (a tie counting half) with
seat s to move from the start of its turn. It is found backward, most turns played first,
as one window of leads per class pair: d < -top(a) loses and d > top(b) wins whatever
happens (top: the most points a class can still score, solvers.sheet.threshold), so each pair keeps
-top(a) .. top(b), the columns of best_turn.

Each seat plays one of three ways:
- EXACT maximises its own chance to finish first (best_turn over the windows of the next
  turn). Both seats EXACT is the zero-sum game's value; EXACT against OPTIMAL is the best
  reply to the optimal player, the most any play can win against it.
- OPTIMAL is the expected-total player: its turn's outcomes (solvers.sheet.classes.turn_outcomes)
  do not depend on the other seat, so they are mixed over the windows.
- DUEL is solvers.sheet.duel's player: its worth of scoring an outcome is the chance to finish first
  when both seats play optimally afterwards, which is T of OPTIMAL against OPTIMAL after
  the turn (both laws independent, the order of the turns does not matter). Its turn is
  carried lead by lead through the choices rank_by_chance makes: the highest chance to 12
  decimals, then the best expected total, then the engine's order (keeps by their values,
  then boxes in sheet order).
- ZERO_SUM ranks its options the same way by T of EXACT against EXACT: it plays the zero-sum
  game's strategy whatever the other seat does (against OPTIMAL it is not the best reply).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
from numba import prange

from ..engine.dice import DICE_COUNT
from ..engine.sheet_rules import SheetRules
from ..engine.sheet_scoring import Sheet, sheet_total
from ..solvers.dice_lattice import keep_indices, keeps
from ..solvers.kernel_cache import njit
from ..solvers.sheet.cache import solution
from ..solvers.sheet.classes import StateClasses, state_classes, turn_outcomes
from ..solvers.sheet.solver import SheetSolution
from ..solvers.sheet.tables import SheetTables, refuse_first_roll_scoring
from ..solvers.sheet.threshold import (
    CHANCE_DIGITS,
    best_turn,
    bonus_levels,
    chance_buffers,
    chance_views,
    threshold_table,
)
from ..solvers.sheet.turn import next_class, roll_context, roll_free_dice, successor, turn_levels, turn_scratch

EXACT, OPTIMAL, DUEL, ZERO_SUM = 0, 1, 2, 3
PLAYS = {"exact": EXACT, "optimal": OPTIMAL, "duel": DUEL, "zero-sum": ZERO_SUM}
GUIDES = {DUEL: ("optimal", "optimal"), ZERO_SUM: ("exact", "exact")}  # the chances a ranked player reads
CHUNKS = 64  # a level's turns are dealt to this many chunks, each with its scratch memory


@dataclass(frozen=True, eq=False)
class ReducedGame:
    """The two sheets, seat 0 to move, and every (class pair, seat to move) a game from
    them can reach; `chance` solves it for a way of play of each seat."""

    rules: SheetRules
    sheets: tuple[Sheet, Sheet]

    def __post_init__(self) -> None:
        if self.sheets[0].is_full:
            raise ValueError("seat 0 moves first: its sheet must have an open box")

    @cached_property
    def _solved(self) -> SheetSolution:
        solved = solution(self.rules)
        refuse_first_roll_scoring(solved.tables, "the exact two-seat games")  # nor their instant wins
        return solved

    @cached_property
    def _classes(self) -> StateClasses:
        return state_classes(self._solved)

    @cached_property
    def _layout(self) -> _Layout:
        return _Layout(self._solved, self._classes, self.sheets)

    @property
    def lead(self) -> int:
        """Seat 0's total minus seat 1's at the start."""
        return sheet_total(self.rules, self.sheets[0]) - sheet_total(self.rules, self.sheets[1])

    def chance(self, plays: tuple[str, str]) -> float:
        """The chance that seat 0 finishes first (a tie counting half), seat s playing plays[s]
        ("exact", "optimal" or "duel")."""
        tables = self._tables(plays)
        layout = self._layout
        return float(_value(layout.arrays(), tables, 0, layout.start_pair, self.lead))

    def _tables(self, plays: tuple[str, str]) -> np.ndarray:
        """T[seat to move, window entry] for these plays (see the module's docstring)."""
        if plays == ("optimal", "optimal"):
            return self._optimal_tables
        if plays == ("exact", "exact"):
            return self._zero_sum_tables
        guides = np.zeros((2, 2, self._layout.size))
        for seat, play in enumerate(plays):
            if PLAYS[play] in GUIDES:
                guides[seat] = self._tables(GUIDES[PLAYS[play]])
        return self._solve(np.array([PLAYS[play] for play in plays]), guides)

    @cached_property
    def _optimal_tables(self) -> np.ndarray:
        return self._solve(np.array([OPTIMAL, OPTIMAL]), np.zeros((2, 2, 0)))

    @cached_property
    def _zero_sum_tables(self) -> np.ndarray:
        return self._solve(np.array([EXACT, EXACT]), np.zeros((2, 2, 0)))

    def _solve(self, kinds: np.ndarray, guides: np.ndarray) -> np.ndarray:
        layout, solved = self._layout, self._solved
        tables = np.zeros((2, layout.size))
        bonus_values, bonus_level = bonus_levels(solved)
        for level in reversed(layout.levels):
            pairs, movers = level
            _level_turns(
                *solved.tables, solved.lattice, solved.values, bonus_values, bonus_level,
                self._classes.mask, self._classes.joker, self._classes.upper, self._classes.index,
                layout.arrays(), layout.outcomes, layout.sub_keeps, kinds, guides, pairs, movers, tables,
            )
        return tables


class _Layout:
    """The class pairs a game from the two sheets reaches, their windows and the optimal
    player's turn outcomes from every class either seat reaches."""

    def __init__(self, solved: SheetSolution, classes: StateClasses, sheets: tuple[Sheet, Sheet]) -> None:
        threshold = threshold_table(solved)
        starts = [threshold.class_of(sheet) for sheet in sheets]
        reached = [self._reached(solved.tables, classes, c) for c in starts]
        for c in starts:
            threshold.ensure(c, 0)  # top of every class after it
        self.full = classes.count - 1
        every = np.unique(np.concatenate([np.concatenate(layers) for layers in reached]))
        self.local = np.full(classes.count, -1, dtype=np.int64)
        self.local[every] = np.arange(every.size)
        self.top = threshold.top[every]
        open_boxes = [len(layers) - 1 for layers in reached]
        pair_of = np.full((every.size, every.size), -1, dtype=np.int64)
        self.levels = []
        done, mover = [0, 0], 0
        while done != open_boxes:
            a, b = np.meshgrid(reached[0][done[0]], reached[1][done[1]], indexing="ij")
            la, lb = self.local[a.ravel()], self.local[b.ravel()]
            new = pair_of[la, lb] < 0
            pair_of[la[new], lb[new]] = np.arange(new.sum()) + int((pair_of >= 0).sum())
            pairs = pair_of[la, lb]
            self.levels.append((pairs, np.full(pairs.size, mover, dtype=np.int64)))
            done[mover] += 1
            other = 1 - mover
            if done[other] < open_boxes[other]:
                mover = other
        count = int((pair_of >= 0).sum())
        self.pair_a = np.zeros(count, dtype=np.int64)
        self.pair_b = np.zeros(count, dtype=np.int64)
        la, lb = np.nonzero(pair_of >= 0)
        self.pair_a[pair_of[la, lb]], self.pair_b[pair_of[la, lb]] = every[la], every[lb]
        self.pair_of = pair_of
        width = self.top[self.local[self.pair_a]] + self.top[self.local[self.pair_b]] + 1
        self.low = -self.top[self.local[self.pair_a]]
        self.width = width
        self.offset = np.cumsum(width) - width
        self.size = int(width.sum())
        self.start_pair = int(pair_of[self.local[starts[0]], self.local[starts[1]]])
        sources = every[every != self.full]
        found = turn_outcomes(solved, classes, sources)
        first = np.searchsorted(found.source, sources)
        out_start = np.full(every.size + 1, 0, dtype=np.int64)
        out_start[self.local[sources]] = first
        out_start[self.local[self.full]] = found.source.size  # the full sheet has no turn
        out_start[-1] = found.source.size
        self.outcomes = (out_start, found.target.astype(np.int64), found.gained.astype(np.int64), found.probability)
        self.sub_keeps = _sub_keeps()

    @staticmethod
    def _reached(tables: SheetTables, classes: StateClasses, start: int) -> list[np.ndarray]:
        """The classes reached from `start` after 0, 1, ... turns (every score a box allows)."""
        shape, t = tables
        layers = [np.array([start])]
        while int(classes.filled[layers[-1][0]]) < shape.box_count:
            after = set()
            for c in layers[-1]:
                mask, joker, upper = int(classes.mask[c]), int(classes.joker[c]), int(classes.upper[c])
                for box in range(shape.box_count):
                    if (mask >> box) & 1:
                        continue
                    for p in t.point_values[t.point_values_start[box] : t.point_values_start[box + 1]]:
                        state = successor.py_func(shape, mask, joker, upper, box, int(p))[:3]
                        after.add(classes.of(tables, *state))
            layers.append(np.array(sorted(after)))
        return layers

    def arrays(self) -> tuple:
        """What the kernels read of the layout."""
        return (self.local, self.pair_of, self.pair_a, self.pair_b, self.low, self.width, self.offset, self.full)


def _sub_keeps() -> np.ndarray:
    """sub_keeps[roll]: the lattice indices of the keeps a roll allows (fewer than five dice),
    in the engine's order (by their values), padded with -1."""
    every = keeps()
    index = keep_indices()
    rolls = [keep for keep in every if len(keep) == DICE_COUNT]
    table = np.full((len(rolls), 2**DICE_COUNT), -1, dtype=np.int64)
    for r, roll in enumerate(rolls):
        subs = sorted({tuple(roll[i] for i in range(DICE_COUNT) if (bits >> i) & 1) for bits in range(2**DICE_COUNT - 1)})
        table[r, : len(subs)] = [index[sub] for sub in subs]
    return table


@njit(cache=True)
def _value(layout, tables, mover, pair, lead):
    """T[mover](pair) at this lead: 0 below its window, 1 above."""
    local, pair_of, pair_a, pair_b, low, width, offset, full = layout
    j = lead - low[pair]
    if j < 0:
        return 0.0
    if j >= width[pair]:
        return 1.0
    return tables[mover, offset[pair] + j]


@njit(cache=True)
def _after(layout, tables, seat, a, b, lead):
    """The chance of seat 0 at the start of the next turn once `seat` has played to classes
    a (seat 0), b (seat 1) and this lead: the other seat moves next unless it is done."""
    local, pair_of, pair_a, pair_b, low, width, offset, full = layout
    other_done = (b if seat == 0 else a) == full
    own_done = (a if seat == 0 else b) == full
    if other_done and own_done:
        return 1.0 if lead > 0 else (0.5 if lead == 0 else 0.0)
    pair = pair_of[local[a], local[b]]
    return _value(layout, tables, seat if other_done else 1 - seat, pair, lead)


@njit(cache=True)
def _worth(layout, tables, seat, a, b, lead):
    """_after as the chance of `seat` itself."""
    chance = _after(layout, tables, seat, a, b, lead)
    return chance if seat == 0 else 1.0 - chance


@njit(parallel=True, cache=True)
def _level_turns(
    shape, t, lat, values, bonus_values, bonus_level, cmask, cjoker, cupper, cindex, layout,
    outcomes, sub_keeps, kinds, guides, pairs, movers, tables,
):
    """T[mover](pair) of one level's turns (the next level's known), dealt to chunks."""
    local, pair_of, pair_a, pair_b, low, width, offset, full = layout
    chunks = min(pairs.size, CHUNKS)
    for chunk in prange(chunks):
        most = 1
        for i in range(chunk, pairs.size, chunks):
            most = max(most, width[pairs[i]])
        buffers = chance_buffers(shape, lat, bonus_values.shape[0], most)
        for i in range(chunk, pairs.size, chunks):
            pair, seat = pairs[i], movers[i]
            kind = kinds[seat]
            out = tables[seat, offset[pair] : offset[pair] + width[pair]]
            if kind == OPTIMAL:
                _optimal_turn(layout, outcomes, tables, seat, pair, out)
                continue
            scored, expect, best = chance_views(buffers, shape, lat, bonus_values.shape[0], width[pair])
            own = tables if kind == EXACT else guides[seat]
            _fill_scored(shape, t, bonus_values, cmask, cjoker, cupper, cindex, layout, own, seat, pair, scored)
            c = pair_a[pair] if seat == 0 else pair_b[pair]
            best_turn(shape, t, bonus_level, lat, cmask[c], cjoker[c], scored, expect, best)
            if kind == EXACT:
                for j in range(out.size):
                    mean = 0.0
                    for r in range(lat.roll_probability.shape[0]):
                        mean += lat.roll_probability[r] * best[r, j]
                    out[j] = mean if seat == 0 else 1.0 - mean
            else:
                _ranked_turn(
                    shape, t, lat, values, bonus_values, bonus_level, cmask, cjoker, cupper, cindex,
                    layout, sub_keeps, tables, seat, pair, scored, expect, out,
                )


@njit(cache=True)
def _optimal_turn(layout, outcomes, tables, seat, pair, out):
    """The optimal player's turn: its outcomes mixed over the windows after them."""
    local, pair_of, pair_a, pair_b, low, width, offset, full = layout
    out_start, target, gained, probability = outcomes
    a, b = pair_a[pair], pair_b[pair]
    c = a if seat == 0 else b
    sign = 1 if seat == 0 else -1
    out[:] = 0.0
    for s in range(out_start[local[c]], out_start[local[c] + 1]):
        na, nb = (target[s], b) if seat == 0 else (a, target[s])
        for j in range(out.size):
            out[j] += probability[s] * _after(layout, tables, seat, na, nb, low[pair] + j + sign * gained[s])


@njit(cache=True)
def _fill_scored(shape, t, bonus_values, cmask, cjoker, cupper, cindex, layout, tables, seat, pair, scored):
    """scored[box, points, bonus level, lead]: the mover's chance after scoring those."""
    local, pair_of, pair_a, pair_b, low, width, offset, full = layout
    a, b = pair_a[pair], pair_b[pair]
    c = a if seat == 0 else b
    sign = 1 if seat == 0 else -1
    mask, joker, upper = cmask[c], cjoker[c], cupper[c]
    for box in range(shape.box_count):
        if (mask >> box) & 1:
            continue
        for jp in range(t.point_values_start[box], t.point_values_start[box + 1]):
            p = t.point_values[jp]
            to, earned = next_class(shape, cindex, mask, joker, upper, box, p)
            na, nb = (to, b) if seat == 0 else (a, to)
            for level in range(bonus_values.shape[0]):
                gained = p + bonus_values[level] + earned
                for j in range(width[pair]):
                    scored[box, p, level, j] = _worth(layout, tables, seat, na, nb, low[pair] + j + sign * gained)


@njit(cache=True)
def _ranked_turn(
    shape, t, lat, values, bonus_values, bonus_level, cmask, cjoker, cupper, cindex, layout,
    sub_keeps, tables, seat, pair, scored, expect, out,
):
    """The turn of a player that ranks options by a chance (the duel, the zero-sum player),
    lead by lead: the chance of each roll carried through the option it ranks first
    (scored, expect: its chances from best_turn) to the outcome it scores, whose worth is
    read in `tables`."""
    local, pair_of, pair_a, pair_b, low, width, offset, full = layout
    a, b = pair_a[pair], pair_b[pair]
    c = a if seat == 0 else b
    sign = 1 if seat == 0 else -1
    mask, joker, upper = cmask[c], cjoker[c], cupper[c]
    futures, values_expect, scratch = turn_scratch(shape, lat)
    turn_levels(shape, t, lat, values, mask, joker, upper, futures, values_expect, scratch)
    rolls = lat.roll_probability.shape[0]
    chance = np.empty(lat.child.shape[0])
    held = np.empty(lat.child.shape[0])
    for j in range(out.size):
        lead = low[pair] + j
        chance[:rolls] = lat.roll_probability
        total = 0.0
        for n in range(shape.rolls_per_turn - 1, -1, -1):
            held[:] = 0.0
            for r in range(rolls):
                if chance[r] == 0.0:
                    continue
                best_rank, best_value, keep, box = -1.0, -np.inf, -1, -1
                if n > 0:
                    for i in range(sub_keeps.shape[1]):
                        k = sub_keeps[r, i]
                        if k < 0:
                            break
                        rank = np.round(expect[n, k, j] * CHANCE_DIGITS)
                        value = values_expect[n, k]
                        if rank > best_rank or (rank == best_rank and value > best_value):
                            best_rank, best_value, keep = rank, value, k
                context = roll_context(shape, mask, joker, t.face_box[r])
                for bx in range(shape.box_count):
                    p = t.points[context, bx, r]
                    if (mask >> bx) & 1 or p < 0:
                        continue
                    rank = np.round(scored[bx, p, bonus_level[0, context, bx, r], j] * CHANCE_DIGITS)
                    value = t.gain[context, bx, r] + futures[bx, p]
                    if rank > best_rank or (rank == best_rank and value > best_value):
                        best_rank, best_value, keep, box = rank, value, -1, bx
                if box < 0:
                    held[keep] += chance[r]
                    continue
                p = t.points[context, box, r]
                to, earned = next_class(shape, cindex, mask, joker, upper, box, p)
                na, nb = (to, b) if seat == 0 else (a, to)
                gained = p + t.bonus[context, box, r] + earned
                total += chance[r] * _after(layout, tables, seat, na, nb, lead + sign * gained)
            if n > 0:
                roll_free_dice(lat, held)
                chance[:rolls] = held[:rolls]
        out[j] = total
