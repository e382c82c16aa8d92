"""Issue 34, item 12: `cubilete serve` does not join the install's processes whose messages it neither reads
nor is read by (web/wire.py): it says so in one line, in the CLI's language, with exit status 2. Each
process keeps a record of its message version in Redis, beside the install's channels, with an expiry it
refreshes while it runs (web/running_processes.py): a process one version apart may run beside it (a rolling
upgrade), and a process that died stops counting once its record lapses. Two real processes of the same
version on PostgreSQL and Redis: tests/web/test_server_processes.py (the follower's test)."""

from __future__ import annotations

import json
import secrets
import time

import pytest
from test_cli_serve_start import assert_refused_in_one_line, serve

from cubilete import __version__
from cubilete.storage import Storage
from cubilete.web.broker import ForeignMessageVersion
from cubilete.web.open_broker import open_broker
from cubilete.web.running_processes import RECORD_SECONDS, record_prefix
from cubilete.web.wire import MESSAGE_VERSION

UNREADABLE = MESSAGE_VERSION + 2  # a release two message versions on: neither process reads the other's


@pytest.fixture
def redis_client(redis_url):
    import redis

    with redis.Redis.from_url(redis_url) as client:
        yield client


def record_a_process(client, install: str, version: int, lasting_ms: int = RECORD_SECONDS * 1000) -> str:
    """The record a live process of another release, speaking messages `version`, keeps for the install."""
    key = f"{record_prefix(install)}elsewhere"
    client.set(key, json.dumps({"v": version, "release": "9.9.0", "host": "web-2", "pid": 4242}), px=lasting_ms)
    return key


def records_of(client, install: str) -> dict[str, dict]:
    """Each live process's record of the install, by its key."""
    keys = client.scan_iter(match=f"{record_prefix(install)}*")
    return {key.decode(): json.loads(client.get(key)) for key in keys}


def until(holds, seconds: float = 5) -> bool:
    """Whether `holds()` comes true within `seconds` (Redis and the broker's thread act on their own clock)."""
    deadline = time.monotonic() + seconds
    while not holds():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def install_of(database: str) -> str:
    storage = Storage(database)
    try:
        return storage.install.name()
    finally:
        storage.close()


@pytest.mark.parametrize("database_fixture", ["database", "postgres_url"])
def test_serve_refuses_in_one_line_beside_a_live_process_whose_messages_neither_reads(
    database_fixture, request, redis_url, redis_client
):
    database = request.getfixturevalue(database_fixture)  # SQLite (the default) or PostgreSQL: the install's name
    install = install_of(database)
    elsewhere = record_a_process(redis_client, install, UNREADABLE)
    done = serve("--database", database, "--broker", redis_url, env={"LANG": "C.UTF-8", "LC_ALL": ""})
    assert_refused_in_one_line(
        done, f"another cubilete process of this install speaks messages v{UNREADABLE} (cubilete 9.9.0, process"
        f" 4242 on web-2)", f"(messages v{MESSAGE_VERSION}, cubilete {__version__})", "stop it first", "upgrade",
    )
    assert list(records_of(redis_client, install)) == [elsewhere]  # the refused process left no record


def test_the_refusal_speaks_the_cli_language(database, redis_url, redis_client):
    install = install_of(database)
    record_a_process(redis_client, install, UNREADABLE)
    done = serve("--database", database, "--broker", redis_url, env={"LANG": "es_AR.UTF-8", "LC_ALL": ""})
    assert_refused_in_one_line(
        done, f"otro proceso de cubilete de esta instalación usa los mensajes v{UNREADABLE}", "detenlo primero"
    )


@pytest.mark.parametrize(
    ("version", "joins"),
    [(MESSAGE_VERSION - 2, False), (MESSAGE_VERSION - 1, True), (MESSAGE_VERSION, True),
     (MESSAGE_VERSION + 1, True), (UNREADABLE, False)],
)
def test_a_process_joins_those_one_message_version_apart_at_most(version, joins, redis_url, redis_client):
    install = secrets.token_hex(8)
    elsewhere = record_a_process(redis_client, install, version)
    if joins:  # a rolling upgrade: one of the two reads the other's messages
        open_broker(redis_url, install).close()
    else:
        with pytest.raises(ForeignMessageVersion) as refused:
            open_broker(redis_url, install)
        assert refused.value.params["theirs"] == version
    assert list(records_of(redis_client, install)) == [elsewhere]  # stopped or refused, it left no record


def test_a_record_past_its_expiry_does_not_block(redis_url, redis_client):
    install = secrets.token_hex(8)
    elsewhere = record_a_process(redis_client, install, UNREADABLE, lasting_ms=50)  # its process died 15 s ago
    assert until(lambda: not redis_client.exists(elsewhere))  # Redis forgets it by its own clock
    open_broker(redis_url, install).close()


def test_a_running_process_keeps_its_record_fresh_and_deletes_it_as_it_stops(redis_url, redis_client, monkeypatch):
    monkeypatch.setattr("cubilete.web.running_processes.REFRESH_SECONDS", 0.05)
    install = secrets.token_hex(8)
    broker = open_broker(redis_url, install)
    try:
        [(key, record)] = records_of(redis_client, install).items()
        assert (record["v"], record["release"]) == (MESSAGE_VERSION, __version__)
        assert 0 < redis_client.pttl(key) <= RECORD_SECONDS * 1000  # one that dies stops counting by then
        redis_client.pexpire(key, 2000)  # as if its expiry drew near
        broker.start()
        assert until(lambda: redis_client.pttl(key) > 2000)  # refreshed while it runs
    finally:
        broker.close()
    assert records_of(redis_client, install) == {}
