"""Bounds on the app's WebSockets: how many follow one game, how many come from one client address,
and how large a message from the browser may be. Each refusal is a close with a code and a reason.

A game's spectators could fill its bound and lock its players' own pages out: beyond the spectators'
bound, pages that prove a seat (their first message, web/live.py) still follow the game, up to a share
of their own (`GameAudiences`, counted by web/live.py, which reads the proof).

The bounds per client and on messages are a plain ASGI middleware (`SocketBounds`), so that the app
holds them wherever it runs (tests, any server); `cubilete serve` also has uvicorn refuse a larger
message before reading it. A client is counted by its address (clients.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .clients import client_key
from .security import MAX_BODY_BYTES

TOO_MANY = 4429  # a WebSocket close code in the range left to applications, after HTTP's 429
MESSAGE_TOO_BIG = 1009  # the standard code, which uvicorn's own bound sends too
SOCKETS_PER_GAME = 100  # spectators' pages (and seats' pages, while there is room)
SEAT_PAGES_PER_GAME = 20  # beyond them, pages proving a seat: a game has six seats, each on a few devices
SOCKETS_PER_CLIENT = 30


@dataclass(frozen=True)
class SocketLimits:
    per_game: int = SOCKETS_PER_GAME
    seat_pages: int = SEAT_PAGES_PER_GAME
    per_client: int = SOCKETS_PER_CLIENT
    max_message: int = MAX_BODY_BYTES  # bytes, as a request body


class GameAudiences:
    """The pages following each game in this process: up to `per_game` of any kind, then up to
    `seat_pages` more that prove a seat. Used from the event loop's thread only."""

    def __init__(self, limits: SocketLimits | None = None) -> None:
        self.limits = limits or SocketLimits()
        self._pages: Counter[str] = Counter()
        self._seat_pages: Counter[str] = Counter()  # those beyond per_game

    def admit(self, game_id: str, proves_seat: bool = False) -> Callable[[], None] | None:
        """Counts a page in, answering how it leaves; None when the game has no room for it."""
        if self._pages[game_id] < self.limits.per_game:
            counter = self._pages
        elif proves_seat and self._seat_pages[game_id] < self.limits.seat_pages:
            counter = self._seat_pages
        else:
            return None
        counter[game_id] += 1

        def leave() -> None:
            counter[game_id] -= 1
            if not counter[game_id]:
                del counter[game_id]

        return leave


class SocketBounds:
    def __init__(self, app: ASGIApp, limits: SocketLimits | None = None) -> None:
        self.app = app
        self.limits = limits or SocketLimits()
        self._per_client: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        client = client_key(scope)
        if self._per_client[client] >= self.limits.per_client:
            await _refuse(receive, send, "too many live connections from this address")
            return
        self._per_client[client] += 1
        try:
            await self._bounded(scope, receive, send)
        finally:
            self._per_client[client] -= 1
            if not self._per_client[client]:
                del self._per_client[client]

    async def _bounded(self, scope: Scope, receive: Receive, send: Send) -> None:
        """The app, its socket closed at the first message larger than the bound: it is told the
        browser left, and what it sends after that goes nowhere."""
        closed = False
        most = self.limits.max_message

        async def bounded_receive() -> Message:
            nonlocal closed
            message = await receive()
            if message["type"] == "websocket.receive" and _size(message) > most:
                closed = True
                reason = f"a message has at most {most // 1024} KB"
                await send({"type": "websocket.close", "code": MESSAGE_TOO_BIG, "reason": reason})
                return {"type": "websocket.disconnect", "code": MESSAGE_TOO_BIG, "reason": reason}
            return message

        async def send_while_open(message: Message) -> None:
            if not closed:
                await send(message)

        await self.app(scope, bounded_receive, send_while_open)


def _size(message: Message) -> int:
    text = message.get("text")
    if text is None:
        return len(message.get("bytes") or b"")
    return len(text.encode("utf-8", "surrogatepass"))


async def _refuse(receive: Receive, send: Send, reason: str) -> None:
    """Accepted, then closed with a code and reason: a refused handshake would tell the browser nothing."""
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": TOO_MANY, "reason": reason})
