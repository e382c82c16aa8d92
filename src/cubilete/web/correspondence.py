"""Games by correspondence (a turn clock of a day or more): the server plays a turn whose allowance ran
out even when no page of the game is open, and reminds the seat to move when a quarter of it is left.

A live clock's turn is asked for by the pages counting down to it (web/changes.py `ClockTurn`); a
correspondence game's pages are mostly closed. So while the app runs a sweeper lists the unfinished
correspondence games (one query, in batches: the other games are never loaded) every SWEEP_INTERVAL
seconds, times the clock scale (tests make a day last seconds), and for each one
- whose deadline passed, plays the turn through the same path as the pages, `ClockTurn`;
- with at most a quarter of its allowance left, calls `remind(live)`, once per turn in this process
  (the notifier it is given deduplicates across processes).
Several processes may sweep one database: the clock's turn is stored once (the second finds the game
moved on, StaleRequest or IllegalAction, and lets it be). A round that fails (the database is down) is
logged, and the next round tries again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from datetime import timedelta

from starlette.concurrency import run_in_threadpool

from ..engine.errors import IllegalAction, InvalidRecord
from ..storage import Storage
from .catch_up import GameNotFound, StaleRequest
from .changes import ClockTurn
from .games import Games
from .live_game import LiveGame
from .table_options import CORRESPONDENCE_CLOCKS
from .tables import TablesOverBudget

log = logging.getLogger(__name__)

SWEEP_INTERVAL = 60.0  # seconds between rounds, times the clock scale
SHORTEST_INTERVAL = 0.2  # seconds: a test's tiny clock scale never makes the sweeper spin
SWEEP_BATCH = 200  # games listed by one query
REMIND_AT = 4  # the reminder goes once 1/REMIND_AT of the allowance is left

Reminder = Callable[[LiveGame], None]


class CorrespondenceSweeper:
    """Plays the expired turns of the games by correspondence and reminds their seats to move (`sweep`)."""

    def __init__(self, games: Games, remind: Reminder) -> None:
        self.games = games
        self.remind = remind
        self.interval = max(SWEEP_INTERVAL * games.clock_scale, SHORTEST_INTERVAL)
        self._reminded: set[tuple[str, int]] = set()  # (game, turn start) reminded by this process

    async def run(self) -> None:
        """Sweep now, then every interval, until cancelled; a failed round is logged and tried again."""
        while True:
            try:
                await self.sweep()
            except Exception as error:  # the database is down, say: the next round tries again
                log.warning("the correspondence sweep failed, tried again in %g s: %s", self.interval, error)
            await asyncio.sleep(self.interval)

    async def sweep(self) -> None:
        """One round over every unfinished game by correspondence."""
        due: set[tuple[str, int]] = set()  # the turns in their last quarter seen this round
        complete = False
        try:
            after = ""
            while True:
                listed = await run_in_threadpool(correspondence_games, self.games.storage, after)
                for game_id in listed:
                    await self._look_at(game_id, due)
                if len(listed) < SWEEP_BATCH:
                    break
                after = listed[-1]
            complete = True
        finally:  # turns no longer listed (played, finished) are forgotten once a round saw them all
            self._reminded = due if complete else self._reminded | due

    async def _look_at(self, game_id: str, due: set[tuple[str, int]]) -> None:
        """Play the game's turn if its deadline passed, else remind its seat to move if a quarter is left."""
        try:
            live = await self.games.find(game_id)
            with live.lock:
                deadline, started, at = live.deadline, live.turn_started, len(live.match.events)
            if deadline is None or started is None:  # no clock before the table's first move
                return
            left = deadline - self.games.now()
            if left <= timedelta(0):
                await self.games.change(game_id, ClockTurn(at))
            elif left <= (deadline - started[1]) / REMIND_AT:
                turn = (game_id, started[0])
                if turn not in self._reminded:
                    await self._remind(live)
                due.add(turn)
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


def correspondence_games(storage: Storage, after: str, limit: int = SWEEP_BATCH) -> list[str]:
    """The ids (after `after`, in order, at most `limit`) of the unfinished games with a correspondence clock."""
    return storage.games_on_clocks(CORRESPONDENCE_CLOCKS.values(), after, limit)


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
