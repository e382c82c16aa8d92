"""Ratings and performance of finished games (docs/ratings.md): a job, started and stopped by the app's
lifespan, takes in each game this process finished.

Told by the game service of each change this process stored (a watcher of `Games.watchers`), it only
notes a finished game, holding the game's lock; its task reviews the game's profile seats in a worker
thread (analysis/review.py, the solver's tables awaited on the event loop first), stores each one's
performance, and if two profiles or more held seats (of 2 to MOST_SEATS), updates their ratings by
their places. A daily challenge's game counts for performance only. The store takes a game in once,
whichever process asks (storage/ratings.py): a replay changes nothing.

The notes are in memory: a game that finished in a process stopped before its turn came is taken in when
a process starts (the latest MOST_CAUGHT_UP of them), as is one whose review failed (logged). Beside the
job: the ratings part of a profile's public answer.
"""

from __future__ import annotations

import asyncio
import logging
import queue
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any

from starlette.concurrency import run_in_threadpool

from ..analysis.ratings import Rating, new_rating, performance, rate_game
from ..analysis.review import review
from ..engine.errors import CubileteError
from ..storage import DatabaseError
from ..storage.ratings import RatingStore, SeatPerformance, StoredRating
from .games import Games
from .live_game import LiveGame
from .seats import Seat
from .table_options import TableOptions

log = logging.getLogger(__name__)
MOST_SEATS = 6  # a rated game has 2 to 6 seats
MOST_WAITING = 10_000  # finished games waiting for the job; beyond, new ones are dropped (logged)
MOST_CAUGHT_UP = 200  # finished games not taken in yet that a process takes in as it starts


def is_daily(table: TableOptions) -> bool:
    """A daily challenge's game: its table carries the day's mark (a game with friends is without hints too)."""
    return table.daily is not None


class RatingJob:
    def __init__(self, games: Games, store: RatingStore) -> None:
        self.games, self.store = games, store
        self._waiting: queue.Queue[LiveGame] = queue.Queue(MOST_WAITING)
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def stored(self, live: LiveGame, first: int) -> None:
        """(A watcher of Games, holding the game's lock.) Note a game that these events finished."""
        if not live.state.is_over:
            return
        try:
            self._waiting.put_nowait(live)
        except queue.Full:
            log.warning("game %s is left out of the ratings: %d games are waiting already", live.id, MOST_WAITING)
            return
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._wake.set)

    def seats_stored(self, live: LiveGame, before: tuple[Seat, ...]) -> None:
        """(A watcher of Games.) Seats changing change no rating."""

    async def run(self) -> None:
        """Take in the games left untaken by stopped processes, then each game noted, as they come, until cancelled."""
        self._loop = asyncio.get_running_loop()
        await self.catch_up()
        while True:
            while not self._waiting.empty():
                await self.take(self._waiting.get_nowait())
            await self._wake.wait()
            self._wake.clear()

    async def catch_up(self) -> None:
        try:
            untaken = await run_in_threadpool(self.store.untaken_games, MOST_CAUGHT_UP)
            for game_id in untaken:
                await self.take(await run_in_threadpool(self.games.get, game_id))
        except (CubileteError, DatabaseError) as error:
            log.warning("the finished games not taken into the ratings yet were not caught up: %s", error)

    async def take(self, live: LiveGame) -> bool:
        """Take a finished game in; whether it was (False: no profile held a seat, taken already, or it
        failed, logged). The solver's tables are awaited only for a game with a profile's seat: most games
        have none, and their review would cost a table's load or build for nothing."""
        try:
            owners = await run_in_threadpool(self.store.seat_owners, live.id)
            if not owners:
                return False
            await self.games.tables.ready(live.match.rules)
            return await run_in_threadpool(self.take_now, live, owners)
        except (CubileteError, DatabaseError) as error:
            log.warning("game %s was not taken into the ratings: %s", live.id, error)
        except Exception:
            log.exception("game %s was not taken into the ratings", live.id)
        return False

    def take_now(self, live: LiveGame, owners: dict[int, str]) -> bool:
        """(In a worker thread, the tables ready.) Review the game's profile seats (`owners`: each seat's
        profile) and store what they did."""
        handed = {index: seat.computer_from for index, seat in enumerate(live.seats) if seat.computer_from is not None}
        game, scores, places = live.match.rules.game, live.state.scores(), live.state.ranking()
        performances = [
            SeatPerformance(
                player.seat, owners[player.seat], player.mean_loss, player.decisions, scores[player.seat],
                performance(game, player.mean_loss, player.decisions),
            )
            for player in review(live.match, sorted(owners), handed).players
            if player.decisions
        ]
        best_places: dict[str, int] = {}  # a profile holding several seats is rated by its best place
        for seat, profile_id in sorted(owners.items()):
            best_places[profile_id] = min(places[seat], best_places.get(profile_id, places[seat]))
        rated = len(best_places) >= 2 and len(live.seats) <= MOST_SEATS and not is_daily(live.table)
        profiles = list(best_places)

        def rate(before: Sequence[StoredRating | None]) -> list[StoredRating]:
            ratings = [new_rating() if stored is None else Rating(*stored) for stored in before]
            after = rate_game(ratings, [best_places[profile_id] for profile_id in profiles])
            return [StoredRating(rating.mu, rating.sigma, rating.games) for rating in after]

        return self.store.take_game(live.id, game, performances, profiles if rated else [], rate if rated else None)


def rating_json(mu: float, sigma: float, games: int) -> dict[str, Any]:
    rating = Rating(mu, sigma, games)
    return {"mu": mu, "sigma": sigma, "ordinal": rating.ordinal, "games": games, "provisional": rating.provisional}


def profile_ratings(store: RatingStore, profile_id: str) -> dict[str, Any]:
    """What a profile's public answer holds of its ratings (per game played), performance and history.
    The ratings are read first: a game taken in meanwhile (one transaction) then shows in the history too."""
    ratings = store.ratings_of(profile_id)
    history = store.history_of(profile_id)
    return {
        "ratings": {game: rating_json(*rating) for game, rating in ratings.items()},
        "performance": {
            game: {"mean": mean, "games": games} for game, (mean, games) in store.performance_of(profile_id).items()
        },
        "rating_history": {
            game: [{"at": point.at.isoformat(), "game_id": point.game_id, "mu": point.mu, "sigma": point.sigma}
                   for point in points]
            for game, points in history.items()
        },
        "hidden_from_boards": store.hidden(profile_id),
    }


@asynccontextmanager
async def rating_games(job: RatingJob) -> AsyncIterator[RatingJob]:
    """While the app runs, the job takes in the games this process finishes."""
    task = asyncio.create_task(job.run())
    try:
        yield job
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task
