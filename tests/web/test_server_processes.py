"""Real `cubilete serve` processes: two on one PostgreSQL database with a Redis broker serve the same
games (a process killed under load: test_kill_under_load.py).

The PostgreSQL and Redis tests skip, saying why, when those services are unreachable (conftest.py)."""

from __future__ import annotations

import json
import os
import threading
import time
import urllib.error
import urllib.request

import pytest
from harness import Server

from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.storage import EventConflict, Storage
from cubilete.web.wire import MESSAGE_VERSION

ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}


def call(server: Server, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """The status and JSON answer of a request, refusals included."""
    try:
        return 200, server.api(method, path, body)
    except urllib.error.HTTPError as refusal:
        return refusal.code, json.load(refusal)


def act(server: Server, created: dict, action: dict, at: int, seat: int = 0) -> tuple[int, dict]:
    body = {"seat": seat, "token": created["seats"][seat]["token"], "action": action, "at": at}
    return call(server, "POST", f"/api/games/{created['id']}/actions", body)


def recorded_processes(redis_url: str, install: str) -> set[tuple[int, int]]:
    """The message version and process id each live process of the install recorded (web/running_processes.py)."""
    import redis

    from cubilete.web.running_processes import record_prefix

    with redis.Redis.from_url(redis_url) as client:
        records = [json.loads(client.get(key)) for key in client.scan_iter(match=f"{record_prefix(install)}*")]
    return {(record["v"], record["pid"]) for record in records}


def send_at_once(requests: list[tuple[Server, dict, dict, int]]) -> list[tuple[int, dict]]:
    """Send each action from its own thread, all released together."""
    answers: list[tuple[int, dict]] = [(0, {})] * len(requests)
    start = threading.Barrier(len(requests))

    def send(position: int, server: Server, created: dict, action: dict, at: int) -> None:
        start.wait()
        answers[position] = act(server, created, action, at)

    threads = [threading.Thread(target=send, args=(i, *request)) for i, request in enumerate(requests)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def eventually(read, predicate, seconds: float = 10):
    """The first read that satisfies the predicate (news from another process arrives asynchronously)."""
    deadline = time.monotonic() + seconds
    while True:
        value = read()
        if predicate(value) or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


# -- two processes, one PostgreSQL database, one Redis broker ------------------------------------------


@pytest.mark.slow  # two server processes started for it: the slow step runs it (the quick suite keeps the follower's test)
def test_a_move_accepted_by_one_process_is_seen_by_the_other(postgres_url, redis_url, start_server):
    first, second = start_server(postgres_url, redis_url), start_server(postgres_url, redis_url)
    created = first.api("POST", "/api/games", {"game": "penta", "players": [ANA], "seed": 7})
    path = f"/api/games/{created['id']}"
    assert second.api("GET", path)["events"] == 0  # now in the second process's cache

    assert act(first, created, {"type": "roll"}, at=0)[0] == 200
    seen = eventually(lambda: second.api("GET", path), lambda view: view["events"] == 1)
    assert seen == first.api("GET", path)

    status, kept = act(second, created, {"type": "keep", "held": [0]}, at=1)
    assert status == 200 and kept["events"] == 3
    match = Match(rules_for("penta"), ["Ana"], seed=7)
    match.roll()
    match.act(match.state.keep_values([match.state.dice[0]]))
    match.roll()
    assert kept["table"]["dice"] == list(match.state.dice)
    assert eventually(lambda: first.api("GET", path), lambda view: view["events"] == 3) == second.api("GET", path)


@pytest.mark.slow  # two server processes started for it: the slow step runs it (the quick suite keeps the follower's test)
def test_of_two_moves_for_the_same_moment_on_two_processes_one_is_accepted(postgres_url, redis_url, start_server):
    servers = start_server(postgres_url, redis_url), start_server(postgres_url, redis_url)
    created = servers[0].api("POST", "/api/games", {"game": "penta", "players": [ANA], "seed": 3})
    view = servers[1].api("GET", f"/api/games/{created['id']}")
    for _round in range(8):
        if view["to_roll"]:
            actions = [{"type": "roll"}] * 2
        elif view["table"]["can_reroll"]:
            actions = [{"type": "keep", "held": []}, {"type": "keep", "held": [0]}]
        else:
            options = view["table"]["options"]
            actions = [{"type": "score", "box": options[0]["box"]}, {"type": "score", "box": options[-1]["box"]}]
        answers = send_at_once(
            [(server, created, action, view["events"]) for server, action in zip(servers, actions, strict=True)]
        )
        assert sorted(status for status, _ in answers) == [200, 409], answers
        view = next(answer for status, answer in answers if status == 200)
    del view["steps"]
    for server in servers:
        read = eventually(lambda server=server: server.api("GET", f"/api/games/{created['id']}"), view.__eq__)
        assert read == view


def test_the_database_lets_one_of_two_processes_store_an_event_index(postgres_url):
    first, second = Storage(postgres_url), Storage(postgres_url)
    match = Match(rules_for("penta"), ["Ana"], seed=5)
    first.insert("raced", "en", [], match.to_json())
    outcomes: list[str] = []
    start = threading.Barrier(2)

    def store(storage: Storage, dice: list[int]) -> None:
        start.wait()
        try:
            storage.append("raced", 0, [{"roll": dice}], finished=False)
            outcomes.append("stored")
        except EventConflict:
            outcomes.append("conflict")

    threads = [
        threading.Thread(target=store, args=(storage, dice))
        for storage, dice in ((first, [1, 2, 3, 4, 5]), (second, [6, 6, 6, 6, 6]))
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["conflict", "stored"]
    assert len(first.events_since("raced", 0)) == 1
    first.close()
    second.close()


def test_a_follower_of_another_process_is_told_of_each_move(postgres_url, redis_url, start_server):
    from cubilete.storage import Storage
    from cubilete.web.broker import EventsStored
    from cubilete.web.redis_broker import RedisBroker

    server = start_server(postgres_url, redis_url)
    created = server.api("POST", "/api/games", {"game": "penta", "players": [ANA], "seed": 3})
    storage = Storage(postgres_url)
    install = storage.install.name()
    follower = RedisBroker(redis_url, install)  # as in a second process of the install, of the same messages
    storage.close()
    # both processes recorded the message version they speak, where the next to start reads it
    assert recorded_processes(redis_url, install) == {(MESSAGE_VERSION, server.process.pid), (MESSAGE_VERSION, os.getpid())}
    follower.start()
    told: list[int] = []
    heard = threading.Event()

    def listener(news: EventsStored) -> None:
        told.append(news.events)
        if news.events >= 3:
            heard.set()

    unsubscribe = follower.subscribe(created["id"], listener)
    try:
        act(server, created, {"type": "roll"}, at=0)
        act(server, created, {"type": "keep", "held": []}, at=1)
        assert heard.wait(10), told
        # the creation's own news (0 events) is published from a thread and may come after the subscription
        assert [events for events in told if events > 0] == [1, 3]
    finally:
        unsubscribe()
        follower.close()


@pytest.mark.slow  # two server processes started for it: the slow step runs it (the quick suite keeps the follower's test)
def test_two_processes_give_an_open_seat_to_one_joiner_and_share_seat_changes(postgres_url, redis_url, start_server):
    servers = start_server(postgres_url, redis_url), start_server(postgres_url, redis_url)
    beto = {"name": "Beto", "kind": "human", "invited": True}
    created = servers[0].api("POST", "/api/games", {"game": "penta", "players": [ANA, beto], "public": True})
    path = f"/api/games/{created['id']}"
    for server in servers:
        assert server.api("GET", path)["seats"][1]["open"]  # both processes hold the game, seat 1 open
    answers: list[tuple[int, dict]] = [(0, {})] * 2
    start = threading.Barrier(2)

    def join(position: int, name: str) -> None:
        start.wait()
        answers[position] = call(servers[position], "POST", f"{path}/seats/1/join", {"name": name})

    threads = [threading.Thread(target=join, args=(i, name)) for i, name in enumerate(("Carla", "Dani"))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(status for status, _ in answers) == [200, 409], answers
    winner = 0 if answers[0][0] == 200 else 1
    name = ("Carla", "Dani")[winner]
    for server in servers:
        seats = eventually(
            lambda server=server: server.api("GET", path)["seats"], lambda seats: seats[1]["name"] == name
        )
        assert seats[1]["name"] == name and not seats[1]["open"]
    assert servers[0].api("GET", "/api/open-tables") == []

    token = answers[winner][1]["token"]
    assert call(servers[winner], "POST", f"{path}/seats/1/leave", {"token": token})[0] == 200
    other = servers[1 - winner]
    seats = eventually(lambda: other.api("GET", path)["seats"], lambda seats: seats[1]["kind"] == "bot")
    assert seats[1]["left"] and seats[1]["kind"] == "bot"
    status, refused = call(other, "POST", f"{path}/actions", {"seat": 1, "token": token, "action": {"type": "roll"}})
    assert status == 403 and refused["code"] == "bot_seat"
