"""The broker a server process uses: Redis when several processes share the games, else its own."""

from __future__ import annotations

from .broker import Broker, LocalBroker


def open_broker(url: str | None, install: str) -> Broker:
    """The broker at `url` (redis://...), its channels the install's (`install`: storage/install.py), or the
    in-process one when there is none. ForeignMessageVersion (web/running_processes.py) if a live process
    of the install speaks messages this one neither reads nor is read by."""
    if url is None:
        return LocalBroker()
    from .redis_broker import RedisBroker  # Redis is an optional dependency (cubilete[servers])

    return RedisBroker(url, install)
