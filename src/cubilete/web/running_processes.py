"""The message version (web/wire.py) each running process of an install speaks, where all of them see it:
a Redis key per process beside the install's channels, `cubilete:INSTALL:process:NAME`, holding
{"v": 2, "release": "0.4.0", "host": "web-1", "pid": 4242} for RECORD_SECONDS. The process sets it again
every REFRESH_SECONDS while it runs (web/redis_broker.py's publishing thread) and deletes it as it stops.

Why in Redis rather than a table: only processes that share a broker exchange messages, so only they need
to agree, and the record lives where the messages travel; and Redis forgets the key of a process that died
without a word (killed, its machine lost) by its own clock, within RECORD_SECONDS, with no sweeper, no
clocks of several machines compared, and no write to the games' database every few seconds. (Keys, unlike
channels, belong to the broker URL's database number: an install's processes give the same URL.)

A process joins before it serves: it records itself, then reads the others' records, in that order, so
that of two processes started at the same moment the later to record sees the other. It does not start
(ForeignMessageVersion, its own record deleted) when a live one speaks a version neither reads
(wire.talks_with). Every later release reads these keys and fields: they never change.
"""

from __future__ import annotations

import logging
import os
import secrets
import socket
import time
from typing import Any

import orjson
import redis

from .. import __version__
from .broker import ForeignMessageVersion
from .wire import MESSAGE_VERSION, talks_with

log = logging.getLogger(__name__)
RECORD_SECONDS = 15  # a process that died stops counting this long after its last refresh
REFRESH_SECONDS = 5.0  # two refreshes may fail (Redis busy) before a running process's record lapses
SCAN_BATCH = 1000  # keys Redis looks at per SCAN round trip


def record_prefix(install: str) -> str:
    """Every process record of an install starts with this (storage/install.py gives its name)."""
    return f"cubilete:{install}:process:"


class RunningProcesses:
    """This process's record among the install's, on the broker's Redis client."""

    def __init__(self, client: redis.Redis, install: str) -> None:
        self._client = client
        self._prefix = record_prefix(install)
        self._key = f"{self._prefix}{secrets.token_hex(6)}"
        self._record = orjson.dumps(
            {"v": MESSAGE_VERSION, "release": __version__, "host": socket.gethostname(), "pid": os.getpid()}
        )
        self._refreshed = time.monotonic()
        self._failing = False  # since a refresh failed: the next that succeeds says so

    def join(self) -> None:
        """Record this process; ForeignMessageVersion (and no record left) if another live process of the
        install speaks a message version neither reads. A RedisError if Redis does not answer."""
        self._set()
        foreign = next((other for other in self._others() if not talks_with(other["v"])), None)
        if foreign is not None:
            self.leave()
            raise ForeignMessageVersion(
                "foreign_message_version", theirs=foreign["v"], release=foreign["release"], pid=foreign["pid"],
                host=foreign["host"], ours=MESSAGE_VERSION, version=__version__, seconds=RECORD_SECONDS,
            )

    def refresh_when_due(self) -> None:
        """(Often, from one thread.) Record this process again once REFRESH_SECONDS have passed."""
        if time.monotonic() - self._refreshed < REFRESH_SECONDS:
            return
        try:
            self._set()
        except redis.RedisError as error:
            if not self._failing:
                log.warning("could not record this process's message version in Redis, trying again: %s", error)
            self._failing = True
            return
        if self._failing:
            log.warning("this process's message version is recorded in Redis again")
        self._failing = False

    def seconds_to_refresh(self) -> float:
        return max(0.0, self._refreshed + REFRESH_SECONDS - time.monotonic())

    def leave(self) -> None:
        """(Stopping.) Delete this process's record; if Redis does not answer, it lapses by itself."""
        try:
            self._client.delete(self._key)
        except redis.RedisError as error:
            log.warning("could not delete this process's record in Redis (it lapses in %d s): %s", RECORD_SECONDS, error)

    def _set(self) -> None:
        self._refreshed = time.monotonic()
        self._client.set(self._key, self._record, ex=RECORD_SECONDS)

    def _others(self) -> list[dict[str, Any]]:
        """The records of the install's other live processes that can be read (a stranger's key is skipped)."""
        own = self._key.encode()
        keys = [key for key in self._client.scan_iter(match=f"{self._prefix}*", count=SCAN_BATCH) if key != own]
        records = [_readable(data) for data in self._client.mget(keys)] if keys else []
        return [record for record in records if record is not None]


def _readable(data: bytes | str | None) -> dict[str, Any] | None:
    """A record as join() reads it (None: gone since the scan, or not a record)."""
    if data is None:
        return None
    try:
        record = orjson.loads(data)
    except orjson.JSONDecodeError:
        return None
    if not isinstance(record, dict) or type(record.get("v")) is not int:
        return None
    return {"v": record["v"], **{field: str(record.get(field, "?"))[:64] for field in ("release", "host", "pid")}}
