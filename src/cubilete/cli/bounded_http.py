"""uvicorn's h11 protocol bounded by ConnectionLimits (cli/connection_limits.py says why). Imported only
to serve: uvicorn takes a moment to import, which no other command should pay."""

from __future__ import annotations

import asyncio
from typing import ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from .connection_limits import ConnectionLimits


def _answer(status: str, text: str, *headers: str) -> bytes:
    body = text.encode()
    head = [f"HTTP/1.1 {status}", "content-type: text/plain; charset=utf-8", *headers, "connection: close"]
    return "\r\n".join([*head, f"content-length: {len(body)}", "", ""]).encode() + body


TOO_MANY_CONNECTIONS = _answer(
    "503 Service Unavailable", "the server holds too many connections: try again soon", "retry-after: 5"
)
HEAD_TOO_SLOW = _answer("408 Request Timeout", "the request's headers did not arrive in time")


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, bounded by its class's `limits` (with_limits makes such a class)."""

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()
    _head_timer: asyncio.TimerHandle | None = None

    @classmethod
    def with_limits(cls, limits: ConnectionLimits) -> type[BoundedH11Protocol]:
        return type(cls.__name__, (cls,), {"limits": limits})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > self.limits.max_connections:  # this one counted
            transport.write(TOO_MANY_CONNECTIONS)
            transport.close()
            return
        # A first request that does not start in time: closed as a connection idle after a request is
        # (uvicorn's keep-alive timeout, which `cubilete serve` sets to its idle timeout).
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        # Still IDLE after bytes arrived: a request head has begun and is not whole yet.
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(self.limits.header_timeout, self._head_too_slow)
        else:
            self._stop_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_slow(self) -> None:
        self._head_timer = None
        if not self.transport.is_closing():
            self.transport.write(HEAD_TOO_SLOW)
            self.transport.close()
