"""Addresses a friend's device can reach: the server's LAN addresses, and the base of invite links."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import psutil

WILDCARDS = ("0.0.0.0", "::", "")


def is_loopback(host: str) -> bool:
    host = host.strip("[]")
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_addresses() -> list[str]:
    """The machine's IPv4 then IPv6 addresses other devices may reach (no loopback, no link-local)."""
    found: list[str] = []
    for addresses in psutil.net_if_addrs().values():
        for address in addresses:
            if address.family not in (socket.AF_INET, socket.AF_INET6):
                continue
            try:
                ip = ipaddress.ip_address(address.address.split("%")[0])
            except ValueError:
                continue
            if not (ip.is_loopback or ip.is_link_local or ip.is_multicast or ip.is_unspecified):
                found.append(str(ip))
    return sorted(set(found), key=lambda text: (":" in text, text))


def http_url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


@dataclass(frozen=True)
class LinkBase:
    """Where links point: `--public-url` if given, else the address the creator browses, unless that
    is this machine's loopback while the server also listens on the LAN: then a LAN address."""

    public_url: str | None = None
    listen_host: str = "127.0.0.1"

    @property
    def this_device_only(self) -> bool:
        """Whether no other device can open the links: the server listens on loopback, with no public URL."""
        return self.public_url is None and is_loopback(self.listen_host)

    def for_request(self, scheme: str, host_header: str | None, port: int | None) -> str:
        if self.public_url:
            return self.public_url.rstrip("/")
        authority = host_header or f"{self.listen_host}:{port or 80}"
        parts = urlsplit(f"//{authority}")
        hostname, request_port = parts.hostname or "", parts.port
        if is_loopback(hostname) and self.listen_host in WILDCARDS:
            lan = lan_addresses()
            if lan:
                return http_url(lan[0], request_port or port or 80)
        return f"{scheme}://{authority}"
