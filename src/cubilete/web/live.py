"""A game followed live over a WebSocket: each change is pushed to every browser of the game.

The browser connects with the number of events it has seen (`since`) and receives the game
with every step since then; after that, one message per change the broker announces. It may
send `{"since": n}` at any time (after waking up) to receive the steps after n again.
Views are built in a worker thread under the game's lock, so that they are never torn.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from .broker import Broker, News
from .games import GameNotFound, Games
from .views import game_view

NOT_FOUND = 4404  # a WebSocket close code in the range left to applications
CHANGED = -1  # in a follower's queue: the game changed; a number >= 0: the browser asks from there; None: it left


async def follow_game(websocket: WebSocket, games: Games, broker: Broker, game_id: str, lang: str, since: int) -> None:
    await websocket.accept()
    try:
        await asyncio.to_thread(games.get, game_id)
    except GameNotFound:
        await websocket.close(NOT_FOUND, "no such game")
        return
    loop = asyncio.get_running_loop()
    wakes: asyncio.Queue[int | None] = asyncio.Queue()

    def changed(_news: News) -> None:  # called from the publisher's thread
        loop.call_soon_threadsafe(wakes.put_nowait, CHANGED)

    unsubscribe = broker.subscribe(game_id, changed)
    reader = asyncio.create_task(_read_requests(websocket, wakes))
    seen = max(since, 0)
    try:
        while True:
            view = await asyncio.to_thread(_view, games, game_id, lang, seen)
            await websocket.send_text(orjson.dumps(view).decode())
            seen = view["events"]
            pending = [await wakes.get()]
            while not wakes.empty():  # several changes at once: one view covers them
                pending.append(wakes.get_nowait())
            if None in pending:
                return
            seen = min([seen, *(wake for wake in pending if wake is not None and wake != CHANGED)])
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    finally:
        unsubscribe()
        reader.cancel()


def _view(games: Games, game_id: str, lang: str, since: int) -> dict[str, Any]:
    live = games.get(game_id)
    with live.lock:
        return game_view(live, lang, min(since, len(live.match.events)))


async def _read_requests(websocket: WebSocket, wakes: asyncio.Queue[int | None]) -> None:
    """The browser's requests to catch up (`{"since": n}`); None once it leaves."""
    try:
        while True:
            try:
                since = int(json.loads(await websocket.receive_text())["since"])
            except (ValueError, KeyError, TypeError):
                continue
            wakes.put_nowait(max(since, 0))
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        wakes.put_nowait(None)
