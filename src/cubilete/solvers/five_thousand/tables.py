"""5000 as arrays for the solvers, read from the engine's own transitions.

Nothing here knows a scoring rule: rolls are scored by applying every chance
outcome to an engine state, and banks are resolved by applying Bank to engine
decision points, so any rule set the engine expresses is read the same way.

Turn points are counted in steps of 50 (the engine's decision points take
multiples of 50). Slot k holds k steps; the last slot stands for every total
above the target: such a bank can change no score (scores never exceed the
target), so the engine is asked to confirm that it only passes the turn.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import cache
from typing import NamedTuple

import numpy as np

from ...engine.actions import Bank, Roll
from ...engine.dice import DICE_COUNT, Dice
from ...engine.five_thousand import FiveThousandRules, FiveThousandState, Phase

STEP = 50


class UnsupportedRules(ValueError):
    """A rule set that the 5000 solvers cannot turn into finite tables."""


def slot_count(rules: FiveThousandRules) -> int:
    """Slots 0 .. target/STEP hold exact turn points; one more slot holds 'above the target'."""
    return rules.target // STEP + 2


def slot_of(rules: FiveThousandRules, turn_points: int) -> int:
    return min(turn_points // STEP, slot_count(rules) - 1)


class RollTable(NamedTuple):
    """Rolling d dice (d = 1..5): the chance of a bust, then groups of outcomes offering the same
    set-aside choices (one choice unless the rules let the player pick the dice to keep).

    Groups of d dice are group_start[d] .. group_start[d + 1] - 1; the choices of group g are
    choice_start[g] .. choice_start[g + 1] - 1, each gaining choice_steps turn-point steps and
    leaving choice_dice dice for the next roll (5 after hot dice). A NamedTuple, so that it is
    one argument for Numba.
    """

    bust: np.ndarray  # float64[6], by dice rolled
    group_start: np.ndarray  # int64[7]
    group_prob: np.ndarray  # float64[groups]
    choice_start: np.ndarray  # int64[groups + 1]
    choice_steps: np.ndarray  # int64[choices]
    choice_dice: np.ndarray  # int64[choices]
    bust_roll: Dice  # one roll of five dice that scores nothing: how a turn is lost


def _rolling_state(rules: FiveThousandRules, dice: int) -> FiveThousandState:
    """Seat 0 holding one step of turn points, about to roll `dice` dice."""
    scores = (0,) * rules.min_players
    return FiveThousandState.decision_point(rules, scores, 0, STEP, dice).apply(Roll())


def _kept(after_roll: FiveThousandState) -> tuple[FiveThousandState, ...]:
    """The decision points a scoring roll can lead to: one, or one per allowed set-aside."""
    if after_roll.phase is Phase.SET_ASIDE:
        return tuple(after_roll.apply(action) for action in after_roll.legal_actions())
    return (after_roll,)


@cache
def roll_table(rules: FiveThousandRules) -> RollTable:
    """The roll table of a rule set (shared: its arrays must not be modified)."""
    bust = np.zeros(DICE_COUNT + 1)
    # Zero dice are never rolled: their group range is empty.
    group_start, group_prob, choice_start, choice_steps, choice_dice = [0, 0], [], [0], [], []
    bust_roll: Dice | None = None
    for dice in range(1, DICE_COUNT + 1):
        rolling = _rolling_state(rules, dice)
        groups: dict[tuple[tuple[int, int], ...], Fraction] = defaultdict(Fraction)
        for roll, probability in rolling.chance_outcomes():
            after = rolling.apply_roll(roll)
            if after.phase is Phase.ROLL:  # the turn passed: a bust
                bust[dice] += float(probability)
                if dice == DICE_COUNT and bust_roll is None:
                    bust_roll = roll
                continue
            choices = sorted({(_steps(kept.turn_points - STEP), kept.dice_left) for kept in _kept(after)})
            groups[tuple(choices)] += probability
        for group, probability in sorted(groups.items()):
            group_prob.append(float(probability))
            choice_steps += [steps for steps, _ in group]
            choice_dice += [left for _, left in group]
            choice_start.append(len(choice_steps))
        group_start.append(len(group_prob))
    if bust_roll is None:
        raise UnsupportedRules(f"rules {rules.name!r}: some roll of five dice must score nothing")
    return RollTable(
        bust,
        np.array(group_start, dtype=np.int64),
        np.array(group_prob),
        np.array(choice_start, dtype=np.int64),
        np.array(choice_steps, dtype=np.int64),
        np.array(choice_dice, dtype=np.int64),
        bust_roll,
    )


def _steps(points: int) -> int:
    if points <= 0 or points % STEP:
        raise UnsupportedRules(f"a scoring roll gains a positive multiple of {STEP} points, not {points}")
    return points // STEP


@dataclass(frozen=True)
class TurnEnds:
    """How one turn (these scores, this seat to move) can end, as engine states.

    banked[k] is the state after banking with k steps of turn points, None where the rules
    forbid it (slot 0 is never a decision point). passed is the state after a bust. `reach` is
    the first slot from which every end is `passed`: from there on, the turn's value is the
    value of passing.
    """

    banked: tuple[FiveThousandState | None, ...]
    passed: FiveThousandState
    reach: int


def turn_ends(
    rules: FiveThousandRules, scores: Sequence[int], to_move: int, table: RollTable
) -> TurnEnds:
    slots = slot_count(rules)
    banked: list[FiveThousandState | None] = [None]
    # One slot further than the table: two totals above the target, one of each parity,
    # to check that banking above the target does nothing but pass the turn.
    first = FiveThousandState.decision_point(rules, scores, to_move, STEP, DICE_COUNT)
    for slot in range(1, slots + 1):
        # The same decision point with other turn points; validated once, for speed.
        point = replace(first, turn_points=slot * STEP)
        banked.append(None if point.must_roll_reason() else point.apply(Bank()))
    passed = first.apply(Roll()).apply_roll(table.bust_roll)
    reach = 1 + max(
        (slot for slot, end in enumerate(banked) if end is not None and not same_end(end, passed)),
        default=0,
    )
    if reach >= slots:
        raise UnsupportedRules(
            f"rules {rules.name!r}: banking more than the target must not change any score"
        )
    return TurnEnds(tuple(banked[:slots]), passed, reach)


def same_end(one: FiveThousandState, other: FiveThousandState) -> bool:
    """True when two ends of a turn leave the game in the same position."""
    return (one.totals, one.current, one.winner) == (other.totals, other.current, other.winner)
