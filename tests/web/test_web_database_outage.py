"""A PostgreSQL server that stops or freezes (SIGSTOP) under `cubilete serve`: every request is answered
within the database timeout, 503 with a code and Retry-After, in the reader's language, with the security
headers; a refused move is never stored, not even once the server runs again. Each test runs a PostgreSQL
server of its own (the postgres_cluster fixture), never the machine's shared one. SQLite's busy timeout is
the same option."""

from __future__ import annotations

import json
import signal
import sqlite3
import time
import urllib.error
import urllib.request

import pytest
from fastapi.testclient import TestClient
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cubilete.storage import Storage
from cubilete.storage.connections import DATABASE_TIMEOUT
from cubilete.translations import refusal_message
from cubilete.web import create_app

TIMEOUT = "1"  # --database-timeout: seconds
# The client's patience: a request the server does not answer by then has hung (the client waited 60 s).
CLIENT_TIMEOUT = 10
ANA = {"name": "Ana", "kind": "human"}
FRIEND = {"name": "Beto", "kind": "human", "invited": True}


def call(server, method: str, path: str, body: dict | None = None) -> tuple[int, dict, dict]:
    """The status, JSON body and headers (their names in lower case) of a request asked in Spanish."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Accept-Language": "es"}
    request = urllib.request.Request(f"{server.url}{path}", data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=CLIENT_TIMEOUT) as response:
            return response.status, json.load(response), {k.lower(): v for k, v in response.headers.items()}
    except urllib.error.HTTPError as error:
        return error.code, json.load(error), {k.lower(): v for k, v in error.headers.items()}


def new_game(server) -> dict:
    """A public game with an open seat, its first roll stored."""
    status, created, _ = call(server, "POST", "/api/games", {"game": "penta", "players": [ANA, FRIEND], "public": True})
    assert status == 201, created
    assert move(server, created, {"type": "roll"}, at=0)[0] == 200
    return created


def move(server, created: dict, action: dict, at: int) -> tuple[int, dict, dict]:
    body = {"seat": 0, "token": created["seats"][0]["token"], "action": action, "at": at}
    return call(server, "POST", f"/api/games/{created['id']}/actions", body)


def assert_refused(answer: tuple[int, dict, dict], code: str) -> None:
    status, body, headers = answer
    assert (status, body["code"]) == (503, code), body
    assert body["message"] == refusal_message("es", code, {})
    assert headers["retry-after"] == "5"
    assert headers["x-frame-options"] == "DENY" and headers["content-security-policy"].startswith("default-src")


def stored_events(cluster, game_id: str) -> int:
    import psycopg  # the postgres_cluster fixture skips the test without it

    with psycopg.connect(cluster.url, connect_timeout=5) as connection:
        return connection.execute("SELECT count(*) FROM events WHERE game_id = %s", (game_id,)).fetchone()[0]


def wait_until_served(server) -> None:
    """Until a request that reads the database is answered (the server's pool reconnects on its own)."""
    deadline = time.monotonic() + 30
    while call(server, "GET", "/api/open-tables")[0] != 200:
        assert time.monotonic() < deadline, "the server did not recover with its database"
        time.sleep(0.1)


def live_close_code(server, game_id: str) -> int:
    with connect(f"ws://127.0.0.1:{server.port}/api/games/{game_id}/live", open_timeout=CLIENT_TIMEOUT) as socket:
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=CLIENT_TIMEOUT)
    assert closed.value.rcvd is not None, "closed without a close frame"
    return closed.value.rcvd.code


def test_a_stopped_database_gets_coded_503s_and_a_refused_move_is_not_stored(postgres_cluster, start_server):
    server = start_server(postgres_cluster.url, options=("--database-timeout", TIMEOUT))
    game = new_game(server)
    postgres_cluster.stop()
    assert_refused(move(server, game, {"type": "keep", "held": [0]}, at=1), "save_failed")
    assert_refused(call(server, "POST", "/api/games", {"game": "penta", "players": [ANA]}), "new_game_not_saved")
    assert_refused(call(server, "GET", "/api/open-tables"), "database_unavailable")
    assert_refused(call(server, "GET", "/api/games/not-in-memory"), "database_unavailable")
    assert live_close_code(server, "not-in-memory") == 1013
    postgres_cluster.start()
    wait_until_served(server)
    status, view, _ = move(server, game, {"type": "keep", "held": [0]}, at=1)
    assert status == 200 and stored_events(postgres_cluster, game["id"]) == view["events"]
    # the host's audit: a failed save took three lines, and nothing said when the database was back
    log = server.log.read_text()
    failures = [line for line in log.splitlines() if "could not save a change" in line]
    assert len(failures) == 2 and "[SQL:" not in log and "Background on this error" not in log, failures
    assert "the database is back" in log.rsplit(failures[-1], 1)[1], log


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_a_frozen_database_is_answered_within_its_timeout_and_stores_nothing_refused_once_thawed(
    postgres_cluster, start_server
):
    server = start_server(postgres_cluster.url, options=("--database-timeout", TIMEOUT))
    first, second = new_game(server), new_game(server)
    postgres_cluster.signal(signal.SIGSTOP)
    try:  # each within CLIENT_TIMEOUT, the writer thread freed for the next move
        assert_refused(move(server, first, {"type": "keep", "held": [0]}, at=1), "save_failed")
        assert_refused(move(server, second, {"type": "keep", "held": [1]}, at=1), "save_failed")
        assert_refused(call(server, "POST", "/api/games", {"game": "penta", "players": [ANA]}), "new_game_not_saved")
        assert_refused(call(server, "GET", "/api/games/not-in-memory"), "database_unavailable")
    finally:
        postgres_cluster.signal(signal.SIGCONT)
    wait_until_served(server)
    status, view, _ = move(server, first, {"type": "keep", "held": [0]}, at=1)  # not stale: the refused one is gone
    assert status == 200 and stored_events(postgres_cluster, first["id"]) == view["events"]
    assert stored_events(postgres_cluster, second["id"]) == 1


def test_a_locked_sqlite_database_refuses_a_move_after_its_busy_timeout_and_stores_nothing(database):
    with TestClient(create_app(database, database_timeout=0.2)) as client:
        created = client.post("/api/games", json={"game": "penta", "players": [ANA], "lang": "es"}).json()
        token = created["seats"][0]["token"]
        actions = f"/api/games/{created['id']}/actions"
        assert client.post(actions, json={"seat": 0, "token": token, "action": {"type": "roll"}, "at": 0}).is_success
        keep = {"seat": 0, "token": token, "action": {"type": "keep", "held": [0]}, "at": 1}
        other_process = sqlite3.connect(database.removeprefix("sqlite:///"))
        other_process.execute("BEGIN IMMEDIATE")  # holds the write lock past the busy timeout
        refused = client.post(actions, json=keep)
        other_process.rollback()
        other_process.close()
        accepted = client.post(actions, json=keep)
    assert_refused((refused.status_code, refused.json(), dict(refused.headers)), "save_failed")
    with sqlite3.connect(database.removeprefix("sqlite:///")) as reader:
        stored = reader.execute("SELECT count(*) FROM events WHERE game_id = ?", (created["id"],)).fetchone()[0]
    assert accepted.status_code == 200 and stored == accepted.json()["events"]


def test_serve_gives_the_database_timeout_and_its_default(capsys):
    from cubilete.cli.main import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "--database-timeout SECONDS" in help_text and f"(default: {DATABASE_TIMEOUT:g})" in help_text


def test_postgresql_connections_carry_the_timeouts_and_keep_the_hosts_own_options(postgres_url):
    storage = Storage(postgres_url, timeout=1.5)
    with storage.engine.connect() as connection:
        shown = [connection.exec_driver_sql(f"SHOW {name}").scalar() for name in ("statement_timeout", "lock_timeout")]
        search_path = connection.exec_driver_sql("SHOW search_path").scalar()
    storage.close()
    assert shown == ["1500ms", "1500ms"] and search_path.startswith("cubilete_test_")  # the URL's ?options=


def test_a_pooled_connection_is_tried_without_a_round_trip_until_its_server_ends_it(postgres_url):
    """A pooled connection between two uses has nothing to read: taking it from the pool sends nothing (its
    backend's last statement is still the ROLLBACK that ended its first use, not a SELECT 1). Once the
    server has ended it, the try says so and the pool opens another."""
    import psycopg

    storage = Storage(postgres_url, timeout=1.5)
    try:
        with storage.engine.connect() as connection:
            backend = connection.exec_driver_sql("SELECT pg_backend_pid()").scalar()
        with psycopg.connect(postgres_url.replace("+psycopg", "").split("?")[0], autocommit=True) as admin:

            def last_statement() -> str:
                return admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s", (backend,)).fetchone()[0]

            with storage.engine.connect() as connection:
                assert last_statement() == "ROLLBACK"  # no SELECT 1 went before this use
                assert connection.exec_driver_sql("SELECT pg_backend_pid()").scalar() == backend
            # waits (5 s at most) until the backend has ended: its goodbye is then on the socket
            assert admin.execute("SELECT pg_terminate_backend(%s, 5000)", (backend,)).fetchone()[0]
        with storage.engine.connect() as connection:
            assert connection.exec_driver_sql("SELECT pg_backend_pid()").scalar() != backend
    finally:
        storage.close()


def test_after_postgresql_restarts_the_first_request_is_served(postgres_cluster):
    """The pool's connections died with the server: each is tried before use, and a dead one replaced."""
    from fastapi.testclient import TestClient

    from cubilete.web import create_app

    with TestClient(create_app(postgres_cluster.url)) as client:
        assert client.get("/api/open-tables").status_code == 200  # the pool holds a connection now
        postgres_cluster.stop()
        postgres_cluster.start()
        answer = client.get("/api/open-tables")
    assert answer.status_code == 200, answer.text
