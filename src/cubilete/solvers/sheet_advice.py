"""What every legal action of a score-sheet situation is worth to the seat to move.

Values are expected FINAL totals of that seat under optimal play from then on:
the points on its sheet, the upper bonus once earned and the five-equal bonuses
included. The first call for a rule set loads (or solves) its tables; a turn's
keep values are computed once and remembered while the turn goes on.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..engine.actions import Action, Keep, Score
from ..engine.errors import IllegalAction
from ..engine.sheet import SheetState
from ..engine.sheet_scoring import Sheet, sheet_total
from .dice_lattice import keep_indices
from .sheet_cache import solution
from .sheet_solver import SheetSolution
from .sheet_tables import state_key
from .sheet_turn import state_index, turn_tables

TURNS_REMEMBERED = 512  # turn tables kept in memory: enough for a few concurrent games


@dataclass(frozen=True)
class RankedOption:
    """One legal action and the expected final total it leads to.

    A keep has `keep` (the held values, sorted) and no box; a score has `box`,
    `points` and `bonus` (the five-equal bonus paid with it) and no keep.
    """

    action: Action
    keep: tuple[int, ...] | None
    box: str | None
    points: int | None
    bonus: int | None
    value: float
    regret: float  # the best option's value minus this one's


def advise(state: SheetState) -> tuple[RankedOption, ...]:
    """Every legal action of the seat to move, best first.

    Options of equal value keep the engine's `legal_actions` order (keeps, then
    boxes in sheet order): that is the tie rule every optimal player follows.
    """
    if state.is_over:
        raise IllegalAction("game_over")
    if state.is_chance:
        raise IllegalAction("advice_needs_dice")
    solved = solution(state.rules)
    (mask, joker, upper), now = position(solved, state.sheet)
    futures, expect = turn_arrays(solved, mask, joker, upper)
    unranked: list[tuple[float, Action, tuple[int, ...] | None, str | None, int | None, int | None]] = []
    for action in state.legal_actions():
        if isinstance(action, Keep):
            kept = tuple(sorted(state.dice[i] for i in action.held))
            value = now + float(expect[state.rolls_left, keep_indices()[kept]])
            unranked.append((value, action, kept, None, None, None))
    for option in state.score_options():
        future = futures[state.rules.box_index(option.box), option.points]
        value = now + option.points + option.bonus + float(future)
        unranked.append((value, Score(option.box), None, option.box, option.points, option.bonus))
    best = max(entry[0] for entry in unranked)
    ranked = sorted(unranked, key=lambda entry: -entry[0])
    return tuple(
        RankedOption(action, keep, box, points, bonus, value, best - value)
        for value, action, keep, box, points, bonus in ranked
    )


def expected_value(state: SheetState) -> float:
    """The expected final total of the seat to move, at any point of its turn."""
    if state.is_over:
        raise IllegalAction("game_over")
    if not state.is_chance:
        return advise(state)[0].value
    solved = solution(state.rules)
    key, now = position(solved, state.sheet)
    if not state.held and state.rolls_left == state.rules.rolls_per_turn:
        # the kernel's own code run by Python: a Numba call would spend far longer unboxing
        # the tables than this lookup takes
        return now + float(solved.values[state_index.py_func(solved.tables.shape, *key)])
    kept = tuple(sorted(state.dice[i] for i in state.held))
    _, expect = turn_arrays(solved, *key)
    return now + float(expect[state.rolls_left, keep_indices()[kept]])


@lru_cache(maxsize=TURNS_REMEMBERED)
def position(solved: SheetSolution, sheet: Sheet) -> tuple[tuple[int, int, int], int]:
    """The sheet's turn-start state for the solver, and its total now."""
    return state_key(solved.tables, solved.rules, sheet), sheet_total(solved.rules, sheet)


@lru_cache(maxsize=TURNS_REMEMBERED)
def turn_arrays(solved: SheetSolution, mask: int, joker: int, upper: int) -> tuple[np.ndarray, np.ndarray]:
    """A turn's futures[box, points] and expect[rolls left, keep] (see sheet_turn)."""
    return turn_tables(*solved.tables, solved.lattice, solved.values, mask, joker, upper)
