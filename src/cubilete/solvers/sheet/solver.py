"""Backward induction over the turn-start states of a score-sheet rule set.

States are solved by number of filled boxes, most filled first, so that every
successor is known; the masks of one layer are independent and run in
parallel, in threads (the kernel releases the GIL): as fast as Numba's parallel
loop here, without its seconds of compilation at the first solve. Upper totals
that cannot be reached are skipped, all totals whose bonus is already decided
(earned, or out of reach) share one computation, and the others are computed
several at a time (turn_block).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial

import numpy as np

from ...engine.sheet_rules import SheetRules
from ..dice_lattice import DiceLattice, dice_lattice
from ..kernel_cache import njit
from ..mapped_tables import read_only
from .tables import SheetTables, computed_states, sheet_tables, state_count
from .turn import state_index
from .turn_block import BLOCK, block_scratch, block_values

# Bump whenever a change alters the tables, so that stale caches are not loaded.
SOLVER_VERSION = "1"
CHUNKS_PER_THREAD = 4  # a layer's masks in smaller chunks than threads, so that all finish together


@dataclass(frozen=True, eq=False)  # compared and hashed by identity: one per rule set and process
class SheetSolution:
    """The expected future points of every turn-start state of a rule set."""

    rules: SheetRules
    tables: SheetTables
    lattice: DiceLattice
    values: np.ndarray  # float64[state_count], NaN for states that cannot occur

    @property
    def start_value(self) -> float:
        """The optimal expected final score of a new game."""
        return float(self.values[state_index.py_func(self.tables.shape, 0, 0, 0)])


def layers(tables: SheetTables) -> list[np.ndarray]:
    """The masks of each layer, by number of filled boxes, most filled first (the full mask excluded)."""
    box_count = tables.shape.box_count
    masks = np.arange(1 << box_count)
    filled = np.array([bin(m).count("1") for m in masks])
    return [masks[filled == n] for n in range(box_count - 1, -1, -1)]


def solve(rules: SheetRules, progress: Callable[[int], None] | None = None) -> SheetSolution:
    """Solve every state; `progress(n)` is called after each layer with the states it solved."""
    tables = sheet_tables(rules)
    lattice = dice_lattice()
    values = np.full(state_count(tables), np.nan)
    full = (1 << tables.shape.box_count) - 1
    first_full, after_full = (state_index.py_func(tables.shape, m, 0, 0) for m in (full, full + 1))
    values[first_full:after_full] = 0.0
    weights = computed_states(tables)
    threads = os.cpu_count() or 1
    known = read_only(values.view())  # read as a mapped table is, written through `values`
    solve_masks = partial(_solve_masks, *tables, lattice, known, values)  # the first call compiles, the others wait
    with ThreadPoolExecutor(threads) as pool:
        for masks in layers(tables):
            list(pool.map(solve_masks, np.array_split(masks, min(masks.size, threads * CHUNKS_PER_THREAD))))
            if progress is not None:
                progress(int(weights[masks].sum()))
    return SheetSolution(rules, tables, lattice, known)


def compile_solver(rules: SheetRules) -> None:
    """Compile (or load from Numba's cache) the solver's kernel, solving nothing."""
    tables = sheet_tables(rules)
    values = np.zeros(state_count(tables))
    _solve_masks(*tables, dice_lattice(), read_only(values.view()), values, np.empty(0, dtype=np.int64))


@njit(nogil=True, cache=True)
def _solve_masks(shape, t, lat, known, values, masks):
    for i in range(masks.shape[0]):
        _solve_mask(shape, t, lat, known, values, masks[i])


@njit(cache=True)
def _solve_mask(shape, t, lat, known, values, mask):
    """Every turn-start state of this mask, for each joker state: the pending upper totals and the
    threshold (whose value every decided total shares), BLOCK at a time (turn_block). Successors are
    read from `known` (the values, read-only), this mask's states written to `values`."""
    futures, level, best, now = block_scratch(shape, lat)
    uppers, out = np.empty(BLOCK, dtype=np.int64), np.empty(BLOCK)
    joker_filled = shape.joker_box >= 0 and (mask >> shape.joker_box) & 1
    for joker in range(shape.joker_states if joker_filled else 1):
        count = 0
        for upper in range(shape.threshold + 1):
            if t.pending[mask, upper] or upper == shape.threshold:
                uppers[count] = upper
                count += 1
                if count == BLOCK or upper == shape.threshold:  # the threshold comes last
                    uppers[count:] = uppers[0]  # a block not full computes its first total again
                    block_values(shape, t, lat, known, mask, joker, uppers, futures, level, best, now, out)
                    for i in range(count):
                        values[state_index(shape, mask, joker, uppers[i])] = out[i]
                    count = 0
        decided = values[state_index(shape, mask, joker, shape.threshold)]
        for upper in range(shape.threshold):
            if not t.pending[mask, upper]:
                values[state_index(shape, mask, joker, upper)] = decided
