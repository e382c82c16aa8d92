"""What monitors and proxies ask: liveness (/healthz), readiness (/readyz: the database and the broker
answer, else a coded 503), and HEAD on every page."""

from __future__ import annotations

import shutil
import subprocess
import threading
import time

import pytest
from fastapi.testclient import TestClient
from harness import free_port

from cubilete.storage import Storage
from cubilete.web import TableGate, create_app

ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}


def answer_within(client: TestClient, path: str, status: int, seconds: float = 15):
    """The first answer to `path` with this status (readiness is asked again once a second at most)."""
    deadline = time.monotonic() + seconds
    while True:
        response = client.get(path)
        if response.status_code == status or time.monotonic() > deadline:
            return response
        time.sleep(0.05)


def test_liveness_and_readiness_answer_on_a_working_server(client):
    alive = client.get("/healthz")
    assert alive.status_code == 200 and alive.json() == {"status": "alive"}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json() == {"status": "ready"}
    for path in ("/healthz", "/readyz"):
        head = client.head(path)
        assert head.status_code == 200 and head.content == b""


def test_a_process_asked_to_stop_is_not_ready_at_once_yet_still_answers(database):
    """What a proxy's check sees in the second a stopping process still serves (cli/stopping_server.py)."""
    tables = TableGate()
    with TestClient(create_app(database, tables=tables)) as client:
        assert client.get("/readyz").status_code == 200
        tables.close()  # what SIGTERM does first
        stopping = client.get("/readyz")  # at once: not the readiness answer of the last second
        assert (stopping.status_code, stopping.json()["code"]) == (503, "server_stopping")
        assert client.get("/healthz").status_code == 200


def test_a_database_that_takes_no_writes_is_not_ready(tmp_path):
    """The host's audit: a SQLite file restored by `cp` as root was read fine by the server, which said
    ready while every save failed ("attempt to write a readonly database"). Opened read-only here (root,
    who runs the tests, may write any file), as the server's user met that file."""
    path = tmp_path / "games.sqlite3"
    with TestClient(create_app(f"sqlite:///{path}")) as client:
        assert client.get("/readyz").status_code == 200
    with TestClient(create_app(f"sqlite:///file:{path}?mode=ro&uri=true")) as client:
        refused = client.get("/readyz")
        assert (refused.status_code, refused.json()["code"]) == (503, "database_read_only"), refused.text
        assert client.post("/api/games", json={"game": "penta", "players": [ANA]}).status_code == 503


def test_every_page_answers_head_as_get_without_its_body(client):
    created = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS]}).json()
    pages = [
        "/",
        f"/game/{created['id']}",
        "/rules/penta",
        "/rules/5000",
        f"/game/{created['id']}/review",
        "/player/Ana",
    ]
    for page in pages:
        got, head = client.get(page), client.head(page)
        assert head.status_code == got.status_code == 200, page
        assert head.headers["content-type"] == got.headers["content-type"] == "text/html; charset=utf-8"
        assert head.content == b"" and got.content, page
    assert client.head("/game/nosuchgame").status_code == 404
    assert client.head("/api/games").status_code == 405  # an API route is not a page


def test_a_database_that_does_not_answer_makes_readiness_503_in_bounded_time(database, monkeypatch):
    released = threading.Event()

    def hangs(_storage: Storage) -> bool:
        released.wait(30)
        return True

    monkeypatch.setattr(Storage, "answers", hangs)
    with TestClient(create_app(database)) as client:
        try:
            refused = client.get("/readyz", headers={"Accept-Language": "es"})
            assert refused.status_code == 503
            assert refused.json()["code"] == "database_unavailable"
            assert refused.json()["message"].startswith("la base de datos de las partidas no responde")
            assert client.get("/healthz").status_code == 200  # alive all the same: no database asked
        finally:
            released.set()


@pytest.fixture
def own_redis():
    """A Redis server of the test's own, which it may stop and start again on the same port."""
    pytest.importorskip("redis", reason="redis-py is not installed (pip install -e .[servers])")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    port = free_port()
    command = ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    processes: list[subprocess.Popen] = []

    def start() -> None:
        processes.append(subprocess.Popen(command, stdout=subprocess.DEVNULL))
        wait_for_ping(f"redis://127.0.0.1:{port}/0")

    def stop() -> None:
        processes[-1].terminate()
        processes[-1].wait(10)

    start()
    yield f"redis://127.0.0.1:{port}/0", start, stop
    for process in processes:
        if process.poll() is None:
            process.terminate()
            process.wait(10)


def wait_for_ping(url: str) -> None:
    import redis

    deadline = time.monotonic() + 10
    while True:
        try:
            redis.Redis.from_url(url, socket_connect_timeout=1).ping()
            return
        except redis.ConnectionError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_a_broker_that_stops_makes_readiness_503_until_it_is_back(database, own_redis):
    url, start, stop = own_redis
    with TestClient(create_app(database, url)) as client:
        assert client.get("/readyz").status_code == 200
        stop()
        refused = answer_within(client, "/readyz", 503)
        assert refused.status_code == 503 and refused.json()["code"] == "broker_unavailable", refused.text
        assert client.get("/healthz").status_code == 200
        start()
        assert answer_within(client, "/readyz", 200).json() == {"status": "ready"}


def test_several_processes_are_ready_on_postgresql_and_redis(postgres_url, redis_url):
    with TestClient(create_app(postgres_url, redis_url)) as client:
        assert client.get("/readyz").json() == {"status": "ready"}
