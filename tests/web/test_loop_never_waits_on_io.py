"""The lock rule: no thread holds a game's lock across a database read, so the event loop, which takes
that lock to draw a view or make a move, never waits for the database. A catch-up read of one game that
hangs (PostgreSQL stopped mid-read) leaves every other game answering."""

from __future__ import annotations

import threading

import pytest
from fastapi.testclient import TestClient

from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.storage import Storage
from cubilete.web import create_app
from cubilete.web.broker import EventsStored

ANA = {"name": "Ana", "kind": "human"}
BOUND = 10  # seconds: far beyond any answer here, far below the hung read's release


def wait_for(condition, what: str) -> None:
    """Wait (bounded) until `condition()` holds."""
    done = threading.Event()
    for _ in range(BOUND * 100):
        if condition():
            return
        done.wait(0.01)
    pytest.fail(f"never {what}")


class WatchedLock:
    """A lock that says when a second thread waits for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.contended = threading.Event()

    def __enter__(self) -> None:
        if not self._lock.acquire(blocking=False):
            self.contended.set()
            self._lock.acquire()

    def __exit__(self, *_exc) -> None:
        self._lock.release()

    def locked(self) -> bool:
        return self._lock.locked()


def in_thread(call) -> tuple[threading.Thread, list]:
    answers: list = []
    thread = threading.Thread(target=lambda: answers.append(call()), daemon=True)
    thread.start()
    return thread, answers


def test_a_hung_catch_up_read_of_one_game_leaves_the_others_answering(postgres_url):
    with TestClient(create_app(postgres_url)) as client:
        games = client.app.state.services.games
        hung = client.post("/api/games", json={"game": "penta", "players": [ANA], "seed": 7}).json()
        other = client.post("/api/games", json={"game": "penta", "players": [ANA], "seed": 8}).json()
        # Another process stores the hung game's first roll and says so on the broker.
        match = Match(rules_for("penta"), ["Ana"], seed=7)
        match.roll()
        elsewhere = Storage(postgres_url)
        elsewhere.append(hung["id"], 0, [match.events[0].to_json()], False)
        elsewhere.close()
        live = games.in_memory(hung["id"])
        live.hear(EventsStored(1))

        reading, release = threading.Event(), threading.Event()
        read_events = games.storage.events_since

        def events_since(game_id: str, first: int):  # the database stops answering for the hung game
            if game_id == hung["id"]:
                reading.set()
                release.wait(60)
            return read_events(game_id, first)

        games.storage.events_since = events_since
        live.catching_up = WatchedLock()  # a move that comes meanwhile waits for the catch-up, in a worker thread
        try:
            reader, _ = in_thread(lambda: client.get(f"/api/games/{hung['id']}"))  # catches up: its read hangs
            wait_for(reading.is_set, "read the hung game's events")
            body = {"seat": 0, "token": hung["seats"][0]["token"], "action": {"type": "keep", "held": [0]}, "at": 1}
            mover, moved = in_thread(lambda: client.post(f"/api/games/{hung['id']}/actions", json=body))
            wait_for(lambda: live.changing is not None or live.catching_up.contended.is_set(), "begun the hung game's move")

            other_reader, read = in_thread(lambda: client.get(f"/api/games/{other['id']}"))
            other_reader.join(BOUND)
            assert read and read[0].status_code == 200, "the other game did not answer while one game's read hung"
            assert read[0].json()["events"] == 0
        finally:
            release.set()
        for thread in (reader, mover):
            thread.join(BOUND)
        assert moved[0].status_code == 200, moved[0].text
        assert moved[0].json()["events"] == 3  # caught up with the roll, then the keep and its roll


def test_a_reader_that_comes_while_a_catch_up_reads_waits_for_it_and_draws_what_it_applied(postgres_url):
    """The catch-up's news is taken as its read begins: a second reader (a page drawing its view) that came
    meanwhile and did not wait drew the copy from before, and was never told again (the slow step's
    two-process browser tests: a follower on the other process missed a move)."""
    with TestClient(create_app(postgres_url)) as client:
        games = client.app.state.services.games
        created = client.post("/api/games", json={"game": "penta", "players": [ANA], "seed": 7}).json()
        match = Match(rules_for("penta"), ["Ana"], seed=7)
        match.roll()
        elsewhere = Storage(postgres_url)
        elsewhere.append(created["id"], 0, [match.events[0].to_json()], False)  # another process's move
        elsewhere.close()
        live = games.in_memory(created["id"])
        live.hear(EventsStored(1))

        reading, release = threading.Event(), threading.Event()
        read_events = games.storage.events_since

        def events_since(game_id: str, first: int):
            reading.set()
            release.wait(60)
            return read_events(game_id, first)

        games.storage.events_since = events_since
        try:
            first, _ = in_thread(lambda: games.get(created["id"]))
            wait_for(reading.is_set, "begun the first reader's catch-up")
            second, drawn = in_thread(lambda: len(games.get(created["id"]).match.events))
            second.join(0.5)
            assert second.is_alive(), "the second reader did not wait for the catch-up under way"
        finally:
            release.set()
        for thread in (first, second):
            thread.join(BOUND)
        assert drawn == [1]
