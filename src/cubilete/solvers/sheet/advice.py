"""What every legal action of a score-sheet situation is worth to the seat to move.

Values are expected FINAL totals of that seat under optimal play from then on:
the points on its sheet, the upper bonus once earned and the five-equal bonuses
included. The first call for a rule set loads (or solves) its tables; a turn's
keep values are computed once and remembered while the turn goes on.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np

from ...engine.actions import Action, Score
from ...engine.errors import IllegalAction
from ...engine.sheet import SheetState, distinct_keeps
from ..dice_lattice import keep_indices, keeps
from .cache import solution
from .options import KEEP_SLOTS, option_values, position, roll_index, sub_keeps, turn_options
from .solver import SheetSolution
from .turn import state_index


class RankedOption(NamedTuple):
    """One legal action and the expected final total it leads to.

    A keep has `keep` (the held values, sorted) and no box; a score has `box`,
    `points` and `bonus` (the five-equal bonus paid with it) and no keep. A named
    tuple: advise builds dozens of them per call, three times faster than a dataclass.
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
    options = option_values(state.rules, (state,))
    values = options.values[0].tolist()
    ranked = options.ranking[0, : options.counts[0]].tolist()
    points, bonus = options.points[0].tolist(), options.bonus[0].tolist()
    best = values[ranked[0]]
    held = distinct_keeps(state.dice)
    held_values = _keep_values(roll_index(state.dice))
    scores = _scores(state.rules.box_ids)
    advice = []
    for slot in ranked:
        value = values[slot]
        if slot < KEEP_SLOTS:
            advice.append(RankedOption(held[slot], held_values[slot], None, None, None, value, best - value))
        else:
            box = slot - KEEP_SLOTS
            score = scores[box]
            advice.append(RankedOption(score, None, score.box, points[box], bonus[box], value, best - value))
    return tuple(advice)


def best_action(state: SheetState) -> Action:
    """advise(state)[0].action without ranking the other options into objects."""
    options = option_values(state.rules, (state,))
    slot = int(options.ranking[0, 0])
    if slot < KEEP_SLOTS:
        return distinct_keeps(state.dice)[slot]
    return _scores(state.rules.box_ids)[slot - KEEP_SLOTS]


def expected_value(state: SheetState) -> float:
    """The expected final total of the seat to move, at any point of its turn."""
    if state.is_over:
        raise IllegalAction("game_over")
    if not state.is_chance:
        options = option_values(state.rules, (state,))
        return float(options.values[0, options.ranking[0, 0]])
    solved = solution(state.rules)
    key, now = position(solved, state.sheet)
    if not state.held and state.rolls_left == state.rules.rolls_per_turn:
        # the kernel's own code run by Python: a Numba call would spend far longer unboxing
        # the tables than this lookup takes
        return now + float(solved.values[state_index.py_func(solved.tables.shape, *key)])
    kept = tuple(sorted(state.dice[i] for i in state.held))
    _, expect = turn_arrays(solved, *key)
    return now + float(expect[state.rolls_left, keep_indices()[kept]])


def turn_arrays(solved: SheetSolution, mask: int, joker: int, upper: int) -> tuple[np.ndarray, np.ndarray]:
    """A turn's futures[box, points] and expect[rolls left, keep] (see `turn`), remembered."""
    futures, expect, _ = turn_options(solved, mask, joker, upper)
    return futures, expect


@cache
def _keep_values(roll: int) -> list[tuple[int, ...]]:
    """The held values of each keep slot of a roll (see `options`)."""
    every_keep = keeps()
    return [every_keep[k] for k in sub_keeps()[roll].tolist() if k >= 0]


@cache  # by box names: hashing a whole rule set would cost more than building the actions
def _scores(box_ids: tuple[str, ...]) -> tuple[Score, ...]:
    """The Score action of each box (immutable, so shared by every advice)."""
    return tuple(Score(box) for box in box_ids)
