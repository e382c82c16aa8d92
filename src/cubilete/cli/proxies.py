"""Which proxies `cubilete serve` believes: uvicorn reads the X-Forwarded-Proto and X-Forwarded-For
headers of a request only when it comes from one of them, and then takes the scheme (https, for the
links it answers) and the client's address (for the bounds per client) from those headers."""

from __future__ import annotations

import argparse
import ipaddress
from typing import Any

# With --public-url and no --forwarded-allow-ips: a proxy on this machine, as before the option existed.
LOCAL_PROXY = "127.0.0.1,::1"


def trusted_proxies(text: str) -> str:
    """--forwarded-allow-ips: addresses and networks separated by commas, or * for any."""
    items = [item.strip() for item in text.split(",")]
    if items == ["*"]:
        return "*"
    for item in items:
        try:  # as uvicorn reads them: a network's host bits are zero
            ipaddress.ip_network(item) if "/" in item else ipaddress.ip_address(item)
        except ValueError:
            raise argparse.ArgumentTypeError(
                f"IP addresses or networks separated by commas (or * for any proxy), not {item!r}"
            ) from None
    return ",".join(items)


def believed_proxies(forwarded_allow_ips: str | None, public_url: str | None) -> str | None:
    """The proxies whose headers are read: those named, else this machine's behind --public-url, else none."""
    if forwarded_allow_ips is None and public_url is not None:
        return LOCAL_PROXY
    return forwarded_allow_ips


def proxy_settings(proxies: str | None) -> dict[str, Any]:
    """uvicorn's settings to read forwarded headers from `proxies` only (none: never)."""
    if proxies is None:
        return {"proxy_headers": False}
    return {"proxy_headers": True, "forwarded_allow_ips": proxies}


class BelievedProxies:
    """Whether a peer address is one of the believed proxies (whose connections carry many clients)."""

    def __init__(self, proxies: str | None) -> None:
        self.any = proxies == "*"
        items = [] if proxies is None or self.any else proxies.split(",")
        self._networks = [ipaddress.ip_network(item, strict=False) for item in items]

    def __contains__(self, host: str) -> bool:
        if self.any:
            return True
        try:
            address = ipaddress.ip_address(host)
        except ValueError:
            return False
        return any(address in network for network in self._networks)
