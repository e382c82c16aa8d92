"""Backward induction over the turn-start states of a score-sheet rule set.

States are solved by number of filled boxes, most filled first, so that every
successor is known; the masks of one layer are independent and run in
parallel. Upper totals that cannot be reached are skipped, and all totals whose
bonus is already decided (earned, or out of reach) share one computation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from numba import njit, prange

from ..engine.sheet_rules import SheetRules
from .dice_lattice import DiceLattice, dice_lattice
from .sheet_tables import SheetTables, computed_states, sheet_tables, state_count
from .sheet_turn import state_index, turn_expectations, turn_scratch

# Bump whenever a change alters the tables, so that stale caches are not loaded.
SOLVER_VERSION = "1"


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
        return float(self.values[state_index.py_func(self.tables, 0, 0, 0)])


def layers(tables: SheetTables) -> list[np.ndarray]:
    """The masks of each layer, by number of filled boxes, most filled first (the full mask excluded)."""
    masks = np.arange(1 << tables.box_count)
    filled = np.array([bin(m).count("1") for m in masks])
    return [masks[filled == n] for n in range(tables.box_count - 1, -1, -1)]


def solve(rules: SheetRules, progress: Callable[[int], None] | None = None) -> SheetSolution:
    """Solve every state; `progress(n)` is called after each layer with the states it solved."""
    tables = sheet_tables(rules)
    lattice = dice_lattice()
    values = np.full(state_count(tables), np.nan)
    full = (1 << tables.box_count) - 1
    values[state_index(tables, full, 0, 0) : state_index(tables, full + 1, 0, 0)] = 0.0
    weights = computed_states(tables)
    for masks in layers(tables):
        _solve_layer(tables, lattice, values, masks)
        if progress is not None:
            progress(int(weights[masks].sum()))
    return SheetSolution(rules, tables, lattice, values)


@njit(parallel=True, cache=True)
def _solve_layer(t, lat, values, masks):
    for i in prange(masks.shape[0]):
        mask = masks[i]
        futures, expect, best = turn_scratch(t, lat)
        joker_states = t.joker_states if t.joker_box >= 0 and (mask >> t.joker_box) & 1 else 1
        for joker in range(joker_states):
            decided = turn_expectations(
                t, lat, values, mask, joker, t.threshold, futures, expect, best
            )
            for upper in range(t.threshold + 1):
                if t.pending[mask, upper]:
                    value = turn_expectations(
                        t, lat, values, mask, joker, upper, futures, expect, best
                    )
                else:
                    value = decided
                values[state_index(t, mask, joker, upper)] = value
