"""Ranking the daily tries, and the rollover: a challenge started is a challenge played.

A ranked try is ranked once its game is over: its review's decisions and mean loss (analysis/review.py,
through web/reviews.py), its final score, and one choice row per decision (storage/daily.py). A try whose
day ended unfinished is first played to its end by the computer's `beginner` level for the seat (the
decisions it makes count as the player's: leaving never pays), through the game's one change path
(`PlayOut`, by `Games.change`), then ranked.

A sweeper, started and stopped by the app's lifespan (`sweeping_daily`), does both: every SWEEP_INTERVAL
seconds, and at once when a daily game stored here ends (it watches the games: `DailyWatcher`). Several
processes may sweep one database: the play-out is one change of the game, so a second process's attempt
finds the game over after catching up (or its events' indexes taken) and lets it be; a try is ranked by
an update of its row while still unranked, so only one process ranks it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from typing import TYPE_CHECKING

from starlette.concurrency import run_in_threadpool

from ..engine.errors import IllegalAction, InvalidRecord
from ..players import make_player
from ..storage.daily import DailyTry, Ranking
from .catch_up import GameNotFound, StaleRequest
from .changes import Change
from .daily import PLAYER_SEAT, DailyService, canonical, position_key
from .live_game import LiveGame
from .tables import TablesOverBudget

if TYPE_CHECKING:
    from .games import Games
    from .seats import Seat

log = logging.getLogger(__name__)

SWEEP_INTERVAL = 60.0  # seconds between rounds (a game ended here wakes the sweeper at once)
SWEEP_BATCH = 100  # tries listed by one query
LEFT_TO = "beginner"  # the level that plays out a try left unfinished when its day ended


@dataclass(frozen=True)
class PlayOut(Change):
    """The computer's `LEFT_TO` level plays the seat's decisions, and the bots theirs, to the game's end."""

    seat: int

    async def ready(self, games: Games, live: LiveGame) -> None:
        await games.tables_for(live)

    def check(self, games: Games, live: LiveGame) -> None:
        if live.state.is_over:
            raise IllegalAction("game_over")

    def apply(self, live: LiveGame) -> None:
        player = make_player(LEFT_TO, live.match.rules)
        assert player is not None, "every game has a beginner level"
        live.play_out(self.seat, player)


class DailyRollover:
    """Ranks the finished tries, and plays out those whose day ended (`sweep`)."""

    def __init__(self, daily: DailyService) -> None:
        self.daily = daily
        self.games = daily.games
        self.wake = asyncio.Event()

    async def run(self) -> None:
        """Sweep now, then every interval or when woken, until cancelled; a failed round is tried again."""
        while True:
            self.wake.clear()
            try:
                await self.sweep()
            except Exception as error:  # the database is down, say: the next round tries again
                log.warning("the daily sweep failed, tried again in %g s: %s", SWEEP_INTERVAL, error)
            with suppress(TimeoutError):
                await asyncio.wait_for(self.wake.wait(), SWEEP_INTERVAL)

    async def sweep(self) -> int:
        """One round: every try due is ranked (played out first if its day ended); answers how many this
        process ranked."""
        ranked = 0
        while True:
            due = await run_in_threadpool(self.daily.store.to_rank, self.daily.today(), SWEEP_BATCH)
            done = 0
            for entry in due:
                try:
                    done += await self.rank(entry)
                except (GameNotFound, InvalidRecord, TablesOverBudget) as error:
                    log.warning("daily try %s skipped this round: %s", entry.game_id, error)
            ranked += done
            if len(due) < SWEEP_BATCH or not done:
                return ranked

    async def rank(self, entry: DailyTry) -> bool:
        """Rank the try (played out first if its day ended); False if another process did first."""
        live = await self.games.find(entry.game_id)
        computer_from = entry.computer_from
        if not live.state.is_over:
            computer_from = await run_in_threadpool(
                self.daily.store.computer_plays_from, entry.game_id, len(live.match.events)
            )
            with suppress(StaleRequest, IllegalAction):  # another process played it out first
                live = await self.games.change(entry.game_id, PlayOut(PLAYER_SEAT))
            live = await self.games.find(entry.game_id)
            if not live.state.is_over:
                return False
        await self.games.tables.ready(live.match.rules)
        ranking = await run_in_threadpool(self._ranking, live, computer_from)
        return await run_in_threadpool(self.daily.store.rank, entry.game_id, ranking, self.daily.now())

    def _ranking(self, live: LiveGame, computer_from: int | None) -> Ranking:
        """The finished game's ranking: the seat's review, score, and choices (those the player made)."""
        review = self.daily.reviews.review(live)
        seat = next(player for player in review["players"] if player["seat"] == PLAYER_SEAT)
        mine = [
            decision for decision in review["decisions"]
            if decision["seat"] == PLAYER_SEAT and (computer_from is None or decision["index"] < computer_from)
        ]
        with live.lock:
            positions = [position_key(live.history[decision["index"]]) for decision in mine]
            score = live.state.scores()[PLAYER_SEAT]
        choices = [
            (decision["index"], position, canonical(decision["chosen"])) for decision, position in zip(mine, positions)
        ]
        return Ranking(seat["decisions"], seat["mean_loss"], int(score), choices)


class DailyWatcher:
    """Wakes the sweeper when a daily game stored by this process ends (called holding the game's lock)."""

    def __init__(self, rollover: DailyRollover, loop: asyncio.AbstractEventLoop) -> None:
        self.rollover = rollover
        self.loop = loop

    def stored(self, live: LiveGame, first: int) -> None:
        if live.table.daily is not None and live.state.is_over:
            self.loop.call_soon_threadsafe(self.rollover.wake.set)

    def seats_stored(self, live: LiveGame, before: tuple[Seat, ...]) -> None:
        """A daily table's seats never change."""


@asynccontextmanager
async def sweeping_daily(daily: DailyService) -> AsyncIterator[DailyRollover]:
    """While the app runs, a sweeper ranks the daily tries and plays out those their day left unfinished."""
    rollover = DailyRollover(daily)
    watcher = DailyWatcher(rollover, asyncio.get_running_loop())
    daily.games.watchers.append(watcher)
    task = asyncio.create_task(rollover.run())
    try:
        yield rollover
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
        daily.games.watchers.remove(watcher)
