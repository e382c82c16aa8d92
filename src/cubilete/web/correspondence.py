"""Games by correspondence (a turn clock of a day or more): the server plays a turn whose allowance ran
out even when no page of the game is open, and reminds the seat to move when a quarter of it is left.

A live clock's turn is asked for by the pages counting down to it (web/changes.py `ClockTurn`); a
correspondence game's pages are mostly closed. So while the app runs a sweeper asks the database, every
SWEEP_INTERVAL seconds times the clock scale (tests make a day last seconds), for the games that are due
(`games.clock_due`, indexed: the move that starts a turn sets it to the turn's reminder time, turn_clock.py),
in batches, and for each one
- whose deadline passed, plays the turn through the same path as the pages, `ClockTurn` (the turn it
  starts sets the next due time);
- with at most a quarter of its allowance left, calls `remind(live)` (the notifier deduplicates across
  processes), then makes the game due at its deadline;
- otherwise (a game due since migration 0010) makes it due at its reminder's time, or never (no clock).
The games that are not due are never read: a round costs what is due, not every unfinished game.
Several processes may sweep one database: the clock's turn is stored once (the second finds the game
moved on, StaleRequest or IllegalAction, and lets it be), and a due time is moved on only if no move
changed it meanwhile. A round that fails (the database is down) is logged, and the next round tries again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from datetime import datetime, timedelta

from starlette.concurrency import run_in_threadpool

from ..engine.errors import IllegalAction, InvalidRecord
from .catch_up import GameNotFound, StaleRequest
from .changes import ClockTurn
from .games import Games
from .live_game import LiveGame
from .tables import TablesOverBudget
from .turn_clock import REMIND_AT

log = logging.getLogger(__name__)

SWEEP_INTERVAL = 60.0  # seconds between rounds, times the clock scale
SHORTEST_INTERVAL = 0.2  # seconds: a test's tiny clock scale never makes the sweeper spin
SWEEP_BATCH = 200  # games listed by one query

Reminder = Callable[[LiveGame], None]


class CorrespondenceSweeper:
    """Plays the expired turns of the games by correspondence and reminds their seats to move (`sweep`)."""

    def __init__(self, games: Games, remind: Reminder) -> None:
        self.games = games
        self.remind = remind
        self.interval = max(SWEEP_INTERVAL * games.clock_scale, SHORTEST_INTERVAL)

    async def run(self) -> None:
        """Sweep now, then every interval, until cancelled; a failed round is logged and tried again."""
        while True:
            try:
                await self.sweep()
            except Exception as error:  # the database is down, say: the next round tries again
                log.warning("the correspondence sweep failed, tried again in %g s: %s", self.interval, error)
            await asyncio.sleep(self.interval)

    async def sweep(self) -> None:
        """One round over the games due now."""
        now, after = self.games.now(), ""
        while True:
            listed = await run_in_threadpool(self.games.storage.games_due, now, after, SWEEP_BATCH)
            for game_id, seen in listed:
                await self._look_at(game_id, seen)
            if len(listed) < SWEEP_BATCH:
                return
            after = listed[-1][0]

    async def _look_at(self, game_id: str, seen: datetime) -> None:
        """Play the game's turn if its deadline passed, else remind its seat to move if a quarter is left;
        then, unless the turn was played, the game is due next at its reminder or its deadline."""
        try:
            live = await self.games.find(game_id)
            with live.lock:
                deadline, started, at = live.deadline, live.turn_started, len(live.match.events)
            if deadline is None or started is None:  # no clock (before the table's first move, or none at all)
                await run_in_threadpool(self.games.storage.postpone, game_id, seen, None)
                return
            left, reminder = deadline - self.games.now(), (deadline - started[1]) / REMIND_AT
            if left <= timedelta(0):
                await self.games.change(game_id, ClockTurn(at))
                return
            if left <= reminder:
                await self._remind(live)
            due = deadline if left <= reminder else deadline - reminder
            await run_in_threadpool(self.games.storage.postpone, game_id, seen, due)
        except (StaleRequest, IllegalAction):
            pass  # another process (or a page, or the player) moved the game on first
        except (GameNotFound, InvalidRecord, TablesOverBudget) as error:  # deleted, unreadable, or no advice yet
            log.warning("correspondence game %s skipped this round: %s", game_id, error)

    async def _remind(self, live: LiveGame) -> None:
        """Remind the seat to move (in a worker thread: the reminder may use the network or the database); its
        failure is logged and never stops the round, whose expired turns matter more."""
        try:
            await run_in_threadpool(self.remind, live)
        except Exception:
            log.exception("the reminder of correspondence game %s failed", live.id)


@asynccontextmanager
async def sweeping_correspondence(games: Games, remind: Reminder) -> AsyncIterator[CorrespondenceSweeper]:
    """While the app runs, a sweeper plays the expired turns of the games by correspondence (and reminds)."""
    sweeper = CorrespondenceSweeper(games, remind)
    task = asyncio.create_task(sweeper.run())
    try:
        yield sweeper
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
