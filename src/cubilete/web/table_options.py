"""How a table was set up on the new-game form: its turn clock, whether anyone may join it, and its hints;
or, for a daily challenge's table (web/daily.py), the day it belongs to."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.errors import CubileteError
from ..engine.validation import Record, describe
from .seats import SeatRequest

HINTS_ALWAYS, HINTS_AGREED, HINTS_OFF = "always", "agreed", "off"  # TableOptions.hints
DAY = 86_400  # seconds
# The allowances of games by correspondence, as the form and the API name them: seconds per move.
CORRESPONDENCE_CLOCKS = {"1d": DAY, "3d": 3 * DAY, "7d": 7 * DAY}
STORED_OPTIONS = Record("stored table options")


class HintsOff(CubileteError):
    """The table plays without hints and win chances (a game with friends that did not allow them)."""


class DailyRefused(CubileteError):
    """What a daily challenge's table does not allow (a rematch, handing the seat to the computer): HTTP 409."""


@dataclass(frozen=True)
class DailyMark:
    """A daily challenge's table: its UTC day (YYYY-MM-DD) and whether it is its profile's ranked try."""

    date: str
    ranked: bool

    def to_json(self) -> dict[str, Any]:
        return {"date": self.date, "ranked": self.ranked}


@dataclass(frozen=True)
class TableOptions:
    """How the table was set up on the new-game form."""

    turn_clock: int = 0  # seconds per turn, 0 for none (a day or more: a game by correspondence)
    public: bool = False  # may be listed for anyone on the server to join
    # Hints and win chances: HINTS_ALWAYS (every seat on the creator's device, or bots; games stored
    # before this option too), HINTS_AGREED (the creator allowed them, and a friend takes a seat only
    # after being shown so) or HINTS_OFF (a game with friends that did not allow them).
    hints: str = HINTS_ALWAYS
    daily: DailyMark | None = None  # a daily challenge's table (hints off, never public): its day

    def to_json(self) -> dict[str, Any]:
        options = {"turn_clock": self.turn_clock, "public": self.public, "hints": self.hints}
        return options if self.daily is None else options | {"daily": self.daily.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> TableOptions:
        """Options as `to_json` stored them (games stored before an option lack it: its default); anything
        else is an InvalidRecord."""
        fields = STORED_OPTIONS.fields(data, (), ("turn_clock", "public", "hints", "daily"))
        hints = fields.get("hints", HINTS_ALWAYS)
        if hints not in (HINTS_ALWAYS, HINTS_AGREED, HINTS_OFF):
            raise STORED_OPTIONS.refuse(f"hints are {HINTS_ALWAYS}, {HINTS_AGREED} or {HINTS_OFF}, not {describe(hints)}")
        daily = None
        if fields.get("daily") is not None:
            mark = STORED_OPTIONS.fields(fields["daily"], ("date", "ranked"))
            daily = DailyMark(STORED_OPTIONS.text(mark["date"], "daily date"), STORED_OPTIONS.boolean(mark["ranked"], "ranked"))
        return cls(
            STORED_OPTIONS.integer(fields.get("turn_clock", 0), "turn_clock", 0),
            STORED_OPTIONS.boolean(fields.get("public", False), "public"), hints, daily,
        )

    @property
    def hints_on(self) -> bool:
        return self.hints != HINTS_OFF

    def check_hints(self) -> None:
        if not self.hints_on:
            raise HintsOff("hints_off")

    def check_not_daily(self, what: str) -> None:
        """Refuse `what` (a refusal code) on a daily challenge's table: its seat and its dice are the day's."""
        if self.daily is not None:
            raise DailyRefused(what)


def turn_clock_seconds(chosen: int | str) -> int:
    """The turn clock chosen on the form (seconds, or a correspondence allowance such as "3d") in seconds."""
    return CORRESPONDENCE_CLOCKS[chosen] if isinstance(chosen, str) else chosen


def form_turn_clock(seconds: int) -> int | str:
    """A stored turn clock as the new-game form chooses it (`turn_clock_seconds` undone)."""
    return next((chosen for chosen, allowance in CORRESPONDENCE_CLOCKS.items() if allowance == seconds), seconds)


def table_hints(seats: Sequence[SeatRequest], allowed: bool) -> str:
    """A new table's hints: always on without friends' seats; with them, on only if the creator allowed them."""
    if not any(seat.invited for seat in seats):
        return HINTS_ALWAYS
    return HINTS_AGREED if allowed else HINTS_OFF


PLAIN_TABLE = TableOptions()  # no clock, private, hints on
