"""Bounds on the connections `cubilete serve` holds: how many at once, how many from one client address,
how long one may wait for its first request, and how long a request's line and headers may take to arrive.

uvicorn closes a connection idle between two requests (its keep-alive timeout), but it holds one that
never sends a byte, or that sends its headers a byte at a time, for ever, and takes every connection
the system lets it: 20,000 idle connections used every file descriptor and new players were refused.
cli/bounded_http.py is uvicorn's h11 protocol with these bounds. A connection beyond the bound is
answered 503 and closed at once; one that sent nothing within the idle timeout is closed (as uvicorn
closes an idle keep-alive connection); a request head that has not arrived whole within the header
timeout is answered 408 and closed.

One address could still hold them all (a body sent a byte every few seconds, slow readers, fresh idle
connections): each address (IPv6: its /64) holds at most a share of them, and a connection beyond its
share is answered 429 and closed at once. uvicorn accepts a connection before any ASGI code runs, so the
share is counted where the connection is made, by its peer address; a believed proxy's connections
carry many clients and are not counted (the proxy bounds those, e.g. nginx's limit_conn).
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_CONNECTIONS = 1000  # under the 1024 file descriptors many systems give a process by default
CONNECTIONS_PER_CLIENT = 100  # a household behind one address: each browser opens about six, and its live sockets
IDLE_TIMEOUT = 5.0
HEADER_TIMEOUT = 10.0


@dataclass(frozen=True)
class ConnectionLimits:
    max_connections: int = MAX_CONNECTIONS
    idle_timeout: float = IDLE_TIMEOUT  # seconds without a request under way
    header_timeout: float = HEADER_TIMEOUT  # seconds from a request's first byte to the end of its headers
    per_client: int = CONNECTIONS_PER_CLIENT  # connections from one address (IPv6: one /64)
