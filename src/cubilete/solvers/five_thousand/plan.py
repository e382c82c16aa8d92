"""Plan the turn in progress, for any number of players, from a valuation of the turn's ends.

A turn can end in few ways: a bank at some slot of turn points, or a bust. The
engine says what each end does to the game (`tables.turn_ends`);
a valuation says what that is worth to the player, and the turn kernel values
every decision point of the turn from there. The exact two-player solver does
the same with exact end values; the other players bring their own valuation.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable

import numpy as np

from ...engine.five_thousand import FiveThousandState
from .tables import roll_table, turn_ends
from .turn import TurnTable, turn_arrays, turn_values

EndValue = Callable[[FiveThousandState], float]
PLANS_KEPT = 64  # turn plans remembered: a plan serves one turn, a few more cost little


def plan_turn(state: FiveThousandState, end_value: EndValue) -> TurnTable:
    """The values of the turn of state.current at state's scores, with ends valued by end_value."""
    table = roll_table(state.rules)
    ends = turn_ends(state.rules, state.totals, state.current, table)
    pass_value = float(end_value(ends.passed))  # a float, as the exact solver's: one compiled kernel for both
    bank = np.array([
        np.nan if end is None else pass_value if slot >= ends.reach else end_value(end)
        for slot, end in enumerate(ends.banked)
    ])
    roll, decide, slope = turn_arrays(len(bank))
    # No bank's value depends on pass_value here, so its slope is 0; only the values are used.
    turn_values(table, pass_value, bank, np.zeros(len(bank)), ends.reach, roll, decide, slope)
    return TurnTable(state.rules, roll, bank)


class TurnPlans:
    """The plans of turns under one valuation of their ends, remembered by turn (scores and player),
    so that one is computed per turn. `valuation(start)`: the end valuation of the turn starting at
    `start`."""

    def __init__(self, valuation: Callable[[FiveThousandState], EndValue]) -> None:
        self.valuation = valuation
        self._plans: OrderedDict[tuple, TurnTable] = OrderedDict()

    def plan(self, state: FiveThousandState) -> TurnTable:
        key = (state.rules, state.totals, state.current)
        if key not in self._plans:
            self._plans[key] = plan_turn(state, self.valuation(state))
            if len(self._plans) > PLANS_KEPT:
                self._plans.popitem(last=False)
        return self._plans[key]
