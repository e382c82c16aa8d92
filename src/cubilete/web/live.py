"""A game followed live over a WebSocket: each change is pushed to every browser of the game.

The browser connects with the number of events it has seen (`since`) and receives the game
with every step since then; after that, one message per change the broker announces. It may
send `{"since": n}` at any time (after waking up) to receive the steps after n again; anything
else closes the socket with BAD_REQUEST and a reason. A game that is not there, cannot be read, or
whose database fails closes the socket with a code of its own and the refusal's code as reason.
Views are built in a worker thread under the game's lock, so that they are never torn.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import suppress
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from ..engine.errors import InvalidRecord
from ..storage import DATABASE_FAILURES
from .broker import Broker, News
from .games import GameNotFound, Games
from .views import game_view

NOT_FOUND = 4404  # a WebSocket close code in the range left to applications
BAD_REQUEST = 4400
INVALID_RECORD = 4422  # the stored game cannot be read (its reason: the refusal's code)
TRY_AGAIN_LATER = 1013  # the database failed (its reason: database_unavailable)
_CLOSES = (  # a refusal of the game: the socket's close code and reason
    (GameNotFound, NOT_FOUND, "no such game"),
    (InvalidRecord, INVALID_RECORD, "invalid_record"),
    (DATABASE_FAILURES, TRY_AGAIN_LATER, "database_unavailable"),
)
CHANGED = -1  # in a follower's queue: the game changed; a number >= 0: the browser asks from there; None: it left


class BadRequest(Exception):
    """In a follower's queue: the browser sent something that is not a catch-up request."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Wake = int | BadRequest | None


async def follow_game(websocket: WebSocket, games: Games, broker: Broker, game_id: str, lang: str, since: int) -> None:
    await websocket.accept()
    try:
        await asyncio.to_thread(games.get, game_id)
        await _push_changes(websocket, games, broker, game_id, lang, since)
    except (GameNotFound, InvalidRecord, *DATABASE_FAILURES) as refused:
        code, reason = next((code, reason) for kinds, code, reason in _CLOSES if isinstance(refused, kinds))
        with suppress(WebSocketDisconnect, RuntimeError, OSError):  # unless the browser left meanwhile
            await websocket.close(code, reason)


async def _push_changes(websocket: WebSocket, games: Games, broker: Broker, game_id: str, lang: str, since: int) -> None:
    """A view of the game now, then one per change the broker announces or catch-up the browser asks for."""
    loop = asyncio.get_running_loop()
    wakes: asyncio.Queue[Wake] = asyncio.Queue()

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
            refused = next((wake for wake in pending if isinstance(wake, BadRequest)), None)
            if refused is not None:
                await websocket.close(BAD_REQUEST, refused.reason)
                return
            if None in pending:
                return
            seen = min([seen, *(wake for wake in pending if isinstance(wake, int) and wake != CHANGED)])
    except (WebSocketDisconnect, RuntimeError, OSError):
        return
    finally:
        unsubscribe()
        reader.cancel()


def _view(games: Games, game_id: str, lang: str, since: int) -> dict[str, Any]:
    live = games.get(game_id)
    with live.lock:
        return game_view(live, lang, min(since, len(live.match.events)))


async def _read_requests(websocket: WebSocket, wakes: asyncio.Queue[Wake]) -> None:
    """The browser's requests to catch up (`{"since": n}`); a BadRequest for anything else, then None
    (as once it leaves)."""
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            try:
                wakes.put_nowait(catch_up_since(message.get("text")))
            except BadRequest as refusal:
                wakes.put_nowait(refusal)
                break
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass
    finally:
        wakes.put_nowait(None)


def catch_up_since(text: str | None) -> int:
    """The number of events a catch-up request (`{"since": n}`, JSON text) asks from, at least 0."""
    if text is None:
        raise BadRequest('not text: send {"since": n} as JSON text')
    try:
        request = json.loads(text, parse_constant=_not_a_number)
    except RecursionError:
        raise BadRequest("nested too deeply") from None
    except ValueError:
        raise BadRequest("not JSON") from None
    since = request.get("since") if isinstance(request, dict) else None
    if type(since) is not int:  # not a float (1e400 is infinite), nor a boolean
        raise BadRequest('not {"since": n} with n a whole number')
    return max(since, 0)


def _not_a_number(constant: str) -> Any:
    raise ValueError(f"{constant} is not JSON")
