"""A game's turn clock: the deadline of the seat to move, kept on its `LiveGame`.

No timer runs on the server: the deadline is the stored time of the event that gave the seat its turn
plus the clock. That time is known when this process stored the event; otherwise it is read from the
database, never holding the game's lock (the event loop may wait for that lock, never for the database):
`to_time` (holding the lock) says which turn's time is missing, `read` fetches it without the lock, and
`set` (holding the lock again) keeps it if the game is still at that turn.

A turn by correspondence (a clock of days) is also watched by the server's sweeper (correspondence.py):
the change that starts it stores when the sweeper must look at the game (`due_after`), its reminder's
time, and the sweeper then asks the database only for the games due."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from ..storage import Storage
from .live_game import LiveGame
from .table_options import CORRESPONDENCE_CLOCKS

REMIND_AT = 4  # a correspondence turn's reminder goes once 1/REMIND_AT of its allowance is left


class TurnClock:
    def __init__(self, storage: Storage, now: Callable[[], datetime], scale: float) -> None:
        self.storage = storage
        self.now = now  # the server's time (Games.now, which tests move on)
        self.scale = scale  # a test hook: every turn clock lasts this fraction of its seconds

    def keep(self, live: LiveGame, stored_from: int | None = None, stored_at: datetime | None = None) -> None:
        """Keep the deadline, taking the game's lock only to look and to set: for a read of a stored
        time, in a worker thread on a server database."""
        with live.lock:
            start = self.to_time(live, stored_from, stored_at)
        if start is not None:
            began = self.read(live, start)
            with live.lock:
                self.set(live, start, began)

    def to_time(self, live: LiveGame, stored_from: int | None = None, stored_at: datetime | None = None) -> int | None:
        """(Holding the game's lock.) Keep the deadline if its turn's start is known (`stored_at`, when
        the events stored from `stored_from` on include the one that started it); else answer the
        number of events at the turn's start, whose stored time must be read. No clock runs before the
        table's first move (the creator may still be sharing the invites): the first turn's runs from it."""
        start = self._start(live)
        if start is None or (live.turn_started is not None and live.turn_started[0] == start):
            return None
        if stored_at is not None and stored_from is not None and start - 1 >= stored_from:
            self.set(live, start, stored_at)
            return None
        return start

    def read(self, live: LiveGame, start: int) -> datetime:
        """(Without the game's lock.) When the turn that began at `start` events began."""
        return self.storage.turn_time(live.id, start) or self.now()

    def set(self, live: LiveGame, start: int, began: datetime) -> None:
        """(Holding the game's lock.) The turn at `start` events began at `began`, if the game is still at it."""
        if self._start(live) != start:
            return
        live.turn_started = (start, began)
        live.deadline = began + timedelta(seconds=live.table.turn_clock * self.scale)

    def due_after(self, live: LiveGame, first: int) -> timedelta | None:
        """If a turn by correspondence starts among the game's events from `first` on: how long after they
        are stored the sweeper must look at the game (when its reminder is due)."""
        start = _clock_start(live)
        if live.table.turn_clock not in CORRESPONDENCE_CLOCKS.values() or start is None or start - 1 < first:
            return None
        return timedelta(seconds=live.table.turn_clock * self.scale) * (1 - 1 / REMIND_AT)

    @staticmethod
    def _start(live: LiveGame) -> int | None:
        """(Holding the game's lock.) The events at the turn's start, or None (and no deadline) if no clock runs."""
        start = _clock_start(live)
        if start is None:
            live.turn_started = live.deadline = None
        return start


def _clock_start(live: LiveGame) -> int | None:
    """The events at the start of the turn the clock runs for, or None if no clock runs."""
    state = live.state
    if not live.table.turn_clock or state.is_over or state.num_players < 2 or not live.match.events:
        return None
    return max(live.turn_start(), 1)
