"""How a table was set up on the new-game form: its turn clock, whether anyone may join it, and its hints."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.errors import CubileteError
from .seats import SeatRequest

HINTS_ALWAYS, HINTS_AGREED, HINTS_OFF = "always", "agreed", "off"  # TableOptions.hints


class HintsOff(CubileteError):
    """The table plays without hints and win chances (a game with friends that did not allow them)."""


@dataclass(frozen=True)
class TableOptions:
    """How the table was set up on the new-game form."""

    turn_clock: int = 0  # seconds per turn, 0 for none
    public: bool = False  # may be listed for anyone on the server to join
    # Hints and win chances: HINTS_ALWAYS (every seat on the creator's device, or bots; games stored
    # before this option too), HINTS_AGREED (the creator allowed them, and a friend takes a seat only
    # after being shown so) or HINTS_OFF (a game with friends that did not allow them).
    hints: str = HINTS_ALWAYS

    def to_json(self) -> dict[str, Any]:
        return {"turn_clock": self.turn_clock, "public": self.public, "hints": self.hints}

    @property
    def hints_on(self) -> bool:
        return self.hints != HINTS_OFF

    def check_hints(self) -> None:
        if not self.hints_on:
            raise HintsOff("hints_off")


def table_hints(seats: Sequence[SeatRequest], allowed: bool) -> str:
    """A new table's hints: always on without friends' seats; with them, on only if the creator allowed them."""
    if not any(seat.invited for seat in seats):
        return HINTS_ALWAYS
    return HINTS_AGREED if allowed else HINTS_OFF


PLAIN_TABLE = TableOptions()  # no clock, private, hints on
