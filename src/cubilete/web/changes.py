"""A change of a game is an object that checks and applies itself: a human seat's move (`Move`), the
bots' turns (`BotsTurn`), the turn clock's turn (`ClockTurn`), a rematch (`Rematch`); the seats'
changes are in web/seat_changes.py. A route builds one and hands it to the game service's one change
path, `Games.change(game_id, change)` (web/games.py), which calls its steps in this order:

1. `ready`, on the event loop as soon as the game is found: the refusals that need neither the game's
   lock nor the database, then the wait for the solver's tables the change's moves may need;
2. `prepare`, once the game's previous change is settled, without the game's lock: what needs the
   database (catching up with what other processes stored, storing seats or a rematch), unless
   `must_prepare` says there is nothing to do;
3. `check` (refusals, no I/O), then, after the match's checkpoint, `apply` (the change in memory),
   both holding the game's lock; in a worker thread if `in_thread` (they may wait for the solver).

The events `apply` added are then stored with the other changes of that turn of the loop, or undone
and the request refused."""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import TYPE_CHECKING, Any

from ..engine.errors import IllegalAction
from .catch_up import StaleRequest
from .live_game import LiveGame
from .seats import HUMAN

if TYPE_CHECKING:
    from .games import Games


class Change:
    """A change of a game (see the module's steps), the base of every kind: each step does nothing unless
    a kind says otherwise, but `prepare`, which catches the game up with what other processes stored."""

    def in_thread(self, live: LiveGame) -> bool:
        """Whether `prepare`, `check` and `apply` run in a worker thread: they may wait for the solver's
        tables or the database (else on the event loop, with a local database)."""
        return True

    async def ready(self, games: Games, live: LiveGame) -> None:
        """(On the event loop, before the change waits for its turn.) Refuse at once, wait for the tables."""

    def must_prepare(self, live: LiveGame) -> bool:
        """Whether `prepare` has anything to do (else the change goes on without a hop to a worker thread)."""
        return True

    def prepare(self, games: Games, live: LiveGame) -> None:
        """(Without the game's lock.) The database's part of the change, before its check."""
        games.catch_up(live, for_change=True)

    def check(self, games: Games, live: LiveGame) -> None:
        """(Holding the game's lock; no I/O.) Refuse the change, leaving the game as it is."""

    def apply(self, live: LiveGame) -> None:
        """(Holding the game's lock, after `check`.) The change in memory; an error undoes it."""


@dataclass(frozen=True)
class Move(Change):
    """A human seat's intention (an engine action's JSON, or the auto-score), then the bots' turns until a
    human is to move. `at`: the number of events the client saw (None: whatever the game is at)."""

    seat: int
    token: str
    intention: Any
    at: int | None

    def in_thread(self, live: LiveGame) -> bool:
        return live.needs_solver(self.intention)

    async def ready(self, games: Games, live: LiveGame) -> None:
        if live.needs_solver(self.intention):
            live.check_seat_to_move(self.seat, self.token)  # refused at once, before any wait for the tables
            await games.tables_for(live)

    def must_prepare(self, live: LiveGame) -> bool:
        return self.at != len(live.match.events)  # the client may have seen events stored by another process

    def check(self, games: Games, live: LiveGame) -> None:
        """The token must be the seat's, and `at` the number of events once caught up."""
        live.check_seat(self.seat, self.token)
        if self.at is not None and self.at != len(live.match.events):
            raise StaleRequest("stale_request", events=len(live.match.events), at=self.at)

    def apply(self, live: LiveGame) -> None:
        live.play_then_bots(self.seat, self.intention)


@dataclass(frozen=True)
class BotsTurn(Change):
    """A seat sets the game's bots going until a human is to move; only a human seat may (a game of bots
    alone has none, and anyone may)."""

    seat: int
    token: str

    async def ready(self, games: Games, live: LiveGame) -> None:
        if any(seat.kind == HUMAN for seat in live.seats):
            live.check_seat(self.seat, self.token)
        await games.tables_for(live)

    def apply(self, live: LiveGame) -> None:
        live.advance_bots()


@dataclass(frozen=True)
class ClockTurn(Change):
    """Any browser of the game says the turn clock ran out at `at` events: if it did (by the server's
    time), the computer plays the seat to move's turn, then the bots theirs. Refused while time is left."""

    at: int

    async def ready(self, games: Games, live: LiveGame) -> None:
        with live.lock:
            self.check(games, live)  # refused at once, before any wait for the solver's tables
        await games.tables_for(live)

    def check(self, games: Games, live: LiveGame) -> None:
        if self.at != len(live.match.events):
            raise StaleRequest("stale_request", events=len(live.match.events), at=self.at)
        if live.state.is_over:
            raise IllegalAction("game_over")
        if live.deadline is None:
            raise IllegalAction("no_turn_clock")
        left = (live.deadline - games.now()).total_seconds()
        if left > 0:
            raise IllegalAction("clock_running", seconds=ceil(left))

    def apply(self, live: LiveGame) -> None:
        if not live.bot_to_move:
            live.play_turn_for_clock()
        live.advance_bots()


@dataclass(frozen=True)
class Rematch(Change):
    """The next game with the same seats and tokens, stored by `prepare` (the game's `rematch` is then
    its id); asking twice, or in two processes, gives the same game. It adds no events to this one."""

    seat: int | None
    token: str | None

    def prepare(self, games: Games, live: LiveGame) -> None:
        if any(seat.kind == HUMAN for seat in live.seats):
            live.check_seat(self.seat if self.seat is not None else -1, self.token or "")
        live.table.check_not_daily("daily_no_rematch")
        super().prepare(games, live)
        if not live.state.is_over:
            raise IllegalAction("rematch_not_over")
        if live.rematch is None:
            started = games.start_rematch(live)
            with live.lock:
                live.rematch = started
