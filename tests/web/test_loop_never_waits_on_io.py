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
        try:
            reader, _ = in_thread(lambda: client.get(f"/api/games/{hung['id']}"))  # catches up: its read hangs
            wait_for(reading.is_set, "read the hung game's events")
            body = {"seat": 0, "token": hung["seats"][0]["token"], "action": {"type": "keep", "held": [0]}, "at": 1}
            mover, moved = in_thread(lambda: client.post(f"/api/games/{hung['id']}/actions", json=body))
            wait_for(lambda: live.changing is not None, "began the hung game's move")

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
