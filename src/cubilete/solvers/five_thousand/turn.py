"""The values of one 5000 turn by backward induction over its turn points, in Numba.

Every scoring roll adds points, so the decision points of one turn form an
acyclic graph ordered by turn points. Given what each end of the turn is worth
to the player (banking at each slot, or passing after a bust), one pass from the
highest slot down values every decision point. The pass also carries each
value's derivative by the value of passing, for the exact solver's Newton steps;
what a turn is worth as a whole depends on the rest of the game only through
those end values, which is what lets every player share this kernel.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...engine.actions import Action, Bank, Roll
from ...engine.dice import DICE_COUNT
from ...engine.five_thousand import FiveThousandRules, FiveThousandState, Phase
from ..kernel_cache import njit
from .tables import RollTable, slot_of


def turn_arrays(slots: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scratch arrays (roll, decide, slope) for turn_values: [slot, dice to roll], column 0 unused."""
    shape = (slots, DICE_COUNT + 1)
    return np.empty(shape), np.empty(shape), np.empty(shape)


@njit(cache=True)
def turn_values(table: RollTable, pass_value, bank_value, bank_slope, reach, roll, decide, slope):
    """Value every decision point of a turn; return the value of its start and that value's slope.

    roll[k, d] is the value of rolling d dice holding k slots of turn points, decide[k, d] the
    better of that and banking where banking is allowed (bank_value[k] is NaN where it is not),
    slope[k, d] the derivative of decide[k, d] by pass_value. bank_slope[k] is the derivative of
    bank_value[k] by pass_value: 1 for a bank that only passes the turn, else 0. From slot
    `reach` on every end is a pass, so every value there is pass_value. The turn starts by
    rolling five dice with no points.
    """
    last = decide.shape[0] - 1
    dice_count = decide.shape[1] - 1
    for k in range(reach, last + 1):
        for d in range(1, dice_count + 1):
            roll[k, d] = pass_value
            decide[k, d] = pass_value
            slope[k, d] = 1.0
    for k in range(min(reach, last + 1) - 1, -1, -1):
        bank = bank_value[k]
        for d in range(1, dice_count + 1):
            value = table.bust[d] * pass_value
            value_slope = table.bust[d]
            for g in range(table.group_start[d], table.group_start[d + 1]):
                best = -1.0
                best_slope = 0.0
                for c in range(table.choice_start[g], table.choice_start[g + 1]):
                    j = min(k + table.choice_steps[c], last)
                    left = table.choice_dice[c]
                    if decide[j, left] > best:
                        best = decide[j, left]
                        best_slope = slope[j, left]
                value += table.group_prob[g] * best
                value_slope += table.group_prob[g] * best_slope
            roll[k, d] = value
            if bank > value:  # false for NaN: banking is not allowed here
                decide[k, d] = bank
                slope[k, d] = bank_slope[k]
            else:
                decide[k, d] = value
                slope[k, d] = value_slope
    return decide[0, dice_count], slope[0, dice_count]


@dataclass(frozen=True)
class TurnTable:
    """What every decision point of one turn is worth to the player whose turn it is.

    roll[slot, dice] values rolling, bank[slot] values banking (NaN where the rules forbid it);
    the exact solver's values are win probabilities, other planners may use other units.
    """

    rules: FiveThousandRules
    roll: np.ndarray
    bank: np.ndarray

    def roll_value(self, turn_points: int, dice: int) -> float:
        return float(self.roll[slot_of(self.rules, turn_points), dice])

    def bank_value(self, turn_points: int) -> float:
        """NaN where the rules forbid banking these points; above the target any bank only
        passes the turn (the tables check it), so there it is worth what passing is worth."""
        if turn_points > self.rules.target:
            return float(self.roll[-1, DICE_COUNT])
        return float(self.bank[slot_of(self.rules, turn_points)])

    def decide_value(self, turn_points: int, dice: int) -> float:
        """The better of rolling and banking (where allowed)."""
        return float(np.fmax(self.roll_value(turn_points, dice), self.bank_value(turn_points)))

    def best_action(self, state: FiveThousandState) -> Action:
        """The best legal action of this turn's player in `state` (a decision of this turn)."""
        actions = state.legal_actions()
        if state.phase is Phase.SET_ASIDE:
            return max(actions, key=lambda action: self._kept_value(state.apply(action)))
        if Bank() in actions and self.bank_value(state.turn_points) > self.roll_value(
            state.turn_points, state.dice_left
        ):
            return Bank()
        return Roll()

    def _kept_value(self, kept: FiveThousandState) -> float:
        return self.decide_value(kept.turn_points, kept.dice_left)
