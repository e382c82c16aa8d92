"""Games that never got a move are deleted once nothing changed in them for a while (default: 24 hours):
a creator who left at once, or a loop that made thousands of games, would otherwise keep them for ever.
A game with any move (a roll is one) is never deleted this way.

The server sweeps when it starts, then every SWEEP_INTERVAL seconds, in a worker thread: one query over the
unfinished games when there is nothing to delete. Each process of a shared database sweeps; deleting a
game twice deletes it once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from datetime import timedelta

from starlette.concurrency import run_in_threadpool

from ..storage import SaveFailed
from .games import Games

log = logging.getLogger(__name__)

UNPLAYED_MAX_AGE = timedelta(hours=24)
SWEEP_INTERVAL = 600.0  # seconds


@asynccontextmanager
async def sweeping_unplayed(games: Games, max_age: timedelta | None) -> AsyncIterator[None]:
    """While the app runs, games that never got a move are deleted once `max_age` old (None: never)."""
    if max_age is None:
        yield
        return
    await run_in_threadpool(sweep, games, max_age)
    task = asyncio.create_task(_sweep_periodically(games, max_age))
    try:
        yield
    finally:
        task.cancel()
        with suppress(asyncio.CancelledError):
            await task


def sweep(games: Games, max_age: timedelta) -> None:
    try:
        expired = games.expire_unplayed(max_age)
    except SaveFailed:  # the database is down: the next sweep deletes them
        return
    if expired:
        log.info("deleted %d games that never got a move in %s", expired, max_age)


async def _sweep_periodically(games: Games, max_age: timedelta) -> None:
    while True:
        await asyncio.sleep(SWEEP_INTERVAL)
        await run_in_threadpool(sweep, games, max_age)
