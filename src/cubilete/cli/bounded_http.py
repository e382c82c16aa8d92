"""uvicorn's h11 protocol bounded by ConnectionLimits (cli/connection_limits.py says why). Imported only
to serve: uvicorn takes a moment to import, which no other command should pay."""

from __future__ import annotations

import asyncio
from typing import ClassVar

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..web.clients import address_key
from .connection_limits import ConnectionLimits
from .proxies import BelievedProxies


def _answer(status: str, text: str, *headers: str) -> bytes:
    body = text.encode()
    head = [f"HTTP/1.1 {status}", "content-type: text/plain; charset=utf-8", *headers, "connection: close"]
    return "\r\n".join([*head, f"content-length: {len(body)}", "", ""]).encode() + body


TOO_MANY_CONNECTIONS = _answer(
    "503 Service Unavailable", "the server holds too many connections: try again soon", "retry-after: 5"
)
TOO_MANY_FROM_CLIENT = _answer(
    "429 Too Many Requests", "this address holds too many connections: close some and try again", "retry-after: 5"
)
HEAD_TOO_SLOW = _answer("408 Request Timeout", "the request's headers did not arrive in time")


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol, bounded by its class's `limits` (with_limits makes such a class)."""

    limits: ClassVar[ConnectionLimits] = ConnectionLimits()
    proxies: ClassVar[BelievedProxies] = BelievedProxies(None)
    _head_timer: asyncio.TimerHandle | None = None

    @classmethod
    def with_limits(cls, limits: ConnectionLimits, proxies: str | None = None) -> type[BoundedH11Protocol]:
        """The protocol bounded by `limits`; the connections of `proxies` (see cli/proxies.py) are not
        counted in their address's share."""
        return type(cls.__name__, (cls,), {"limits": limits, "proxies": BelievedProxies(proxies)})

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        refusal = TOO_MANY_CONNECTIONS if len(self.connections) > self.limits.max_connections else None  # this one counted
        if refusal is None and self._beyond_client_share():
            refusal = TOO_MANY_FROM_CLIENT
        if refusal is not None:
            transport.write(refusal)
            transport.close()
            return
        # A first request that does not start in time: closed as a connection idle after a request is
        # (uvicorn's keep-alive timeout, which `cubilete serve` sets to its idle timeout).
        self.timeout_keep_alive_task = self.loop.call_later(self.timeout_keep_alive, self.timeout_keep_alive_handler)

    def _beyond_client_share(self) -> bool:
        """Whether this connection's address holds more than its share of the server's connections (this
        one counted). The server's connections are counted each time, as uvicorn keeps them (an upgraded
        WebSocket's among them): no count of ours to keep in step, at a few microseconds per hundred."""
        share = self.limits.per_client
        if len(self.connections) <= share or self.client is None or self.client[0] in self.proxies:
            return False
        key = address_key(self.client[0])
        peers = (getattr(connection, "client", None) for connection in self.connections)  # uvicorn keeps each peer there
        held = sum(1 for peer in peers if peer is not None and address_key(peer[0]) == key)
        return held > share

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
