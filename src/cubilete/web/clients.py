"""Who a request or a WebSocket comes from, as the app's per-client bounds count it: the one place that
decides a client's key (the live sockets' bound in socket_limits.py, the request rates in rate_limits.py,
the connections' share in cli/bounded_http.py).

The key is the connection's peer address as the server gives it (`cubilete serve --public-url` has
uvicorn take it from a local proxy's X-Forwarded-For). IPv6 clients are counted by their /64 network,
which one host usually holds whole."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Mapping
from typing import Any


def client_key(scope: Mapping[str, Any]) -> str:
    """The address a connection's client is counted by: its IPv4 address, its IPv6 /64 network."""
    client = scope.get("client")
    return address_key(client[0] if client else "")


@functools.lru_cache(maxsize=4096)  # the connections' bound counts every connection's peer at each new one
def address_key(host: str) -> str:
    """The key of a peer address: the IPv4 address, the IPv6 /64 network (or the host as given, if it is
    no address: a test client, a Unix socket)."""
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)
