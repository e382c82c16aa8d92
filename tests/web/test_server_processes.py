"""Real `cubilete serve` processes: two on one PostgreSQL database with a Redis broker serve the same
games, and a process killed with SIGKILL under load loses no acknowledged move.

The PostgreSQL and Redis tests skip, saying why, when those services are unreachable
(CUBILETE_TEST_POSTGRES and CUBILETE_TEST_REDIS name others than the local ones)."""

from __future__ import annotations

import json
import os
import random
import secrets
import threading
import time
import urllib.error
import urllib.request
from urllib.parse import quote

import pytest
from harness import Server, free_port

from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.web.storage import EventConflict, Storage

POSTGRES = os.environ.get("CUBILETE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("CUBILETE_TEST_REDIS", "redis://127.0.0.1:6379/0")
ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}


@pytest.fixture
def postgres_url():
    """A URL whose tables live in a schema of their own, dropped afterwards."""
    psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e .[servers])")
    try:
        admin = psycopg.connect(POSTGRES, connect_timeout=3, autocommit=True)
    except psycopg.OperationalError as error:
        pytest.skip(f"PostgreSQL is not reachable at {POSTGRES}: {error}")
    schema = f"cubilete_test_{secrets.token_hex(6)}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield POSTGRES.replace("postgresql://", "postgresql+psycopg://", 1) + "?options=" + quote(
            f"-csearch_path={schema}"
        )
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


@pytest.fixture
def redis_url():
    redis = pytest.importorskip("redis", reason="redis-py is not installed (pip install -e .[servers])")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        pytest.skip(f"Redis is not reachable at {REDIS}: {error}")
    return REDIS


@pytest.fixture
def start_server(tmp_path):
    servers = []

    def start(database: str, broker: str | None = None) -> Server:
        server = Server(database, free_port(), tmp_path / f"server{len(servers)}.log", broker).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


def call(server: Server, method: str, path: str, body: dict | None = None) -> tuple[int, dict]:
    """The status and JSON answer of a request, refusals included."""
    try:
        return 200, server.api(method, path, body)
    except urllib.error.HTTPError as refusal:
        return refusal.code, json.load(refusal)


def act(server: Server, created: dict, action: dict, at: int, seat: int = 0) -> tuple[int, dict]:
    body = {"seat": seat, "token": created["seats"][seat]["token"], "action": action, "at": at}
    return call(server, "POST", f"/api/games/{created['id']}/actions", body)


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


def test_a_move_accepted_by_one_process_is_seen_by_the_other(postgres_url, redis_url, start_server):
    first, second = start_server(postgres_url, redis_url), start_server(postgres_url, redis_url)
    created = first.api("POST", "/api/games", {"game": "penta", "players": [ANA, LUIS], "seed": 7})
    path = f"/api/games/{created['id']}"
    assert second.api("GET", path)["events"] == 0  # now in the second process's cache

    assert act(first, created, {"type": "roll"}, at=0)[0] == 200
    seen = eventually(lambda: second.api("GET", path), lambda view: view["events"] == 1)
    assert seen == first.api("GET", path)

    status, kept = act(second, created, {"type": "keep", "held": [0]}, at=1)
    assert status == 200 and kept["events"] == 3
    match = Match(rules_for("penta"), ["Ana", "Luis"], seed=7)
    match.roll()
    match.act(match.state.keep_values([match.state.dice[0]]))
    match.roll()
    assert kept["table"]["dice"] == list(match.state.dice)
    assert eventually(lambda: first.api("GET", path), lambda view: view["events"] == 3) == second.api("GET", path)


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
            [(server, created, action, view["events"]) for server, action in zip(servers, actions)]
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
    from cubilete.web.redis_broker import RedisBroker

    server = start_server(postgres_url, redis_url)
    created = server.api("POST", "/api/games", {"game": "penta", "players": [ANA], "seed": 3})
    follower = RedisBroker(redis_url)  # as in a second process
    told: list[int] = []
    heard = threading.Event()

    def listener(events: int) -> None:
        told.append(events)
        if events >= 3:
            heard.set()

    unsubscribe = follower.subscribe(created["id"], listener)
    try:
        act(server, created, {"type": "roll"}, at=0)
        act(server, created, {"type": "keep", "held": []}, at=1)
        assert heard.wait(10), told
        assert told == [1, 3]
    finally:
        unsubscribe()
        follower.close()


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


# -- SIGKILL under load ------------------------------------------------------------------------


def any_legal_action(view: dict) -> dict:
    if view["to_roll"]:
        return {"type": "roll"}
    if view["table"]["can_reroll"]:
        return {"type": "keep", "held": []}
    return {"type": "score", "box": view["table"]["options"][0]["box"]}


def play_until_stopped(server: Server, created: dict, seed: int, acknowledged: list[tuple[int, list[int]]]) -> str:
    """Random legal play; every acknowledged move's event count and dice go to `acknowledged`."""
    choose = random.Random(seed)
    view = server.api("GET", f"/api/games/{created['id']}")
    while not view["is_over"]:
        if view["to_roll"]:
            action = {"type": "roll"}
        elif view["table"]["can_reroll"] and choose.random() < 0.5:
            action = {"type": "keep", "held": sorted(choose.sample(range(5), choose.randint(0, 4)))}
        else:
            action = {"type": "score", "box": choose.choice(view["table"]["options"])["box"]}
        try:
            status, view = act(server, created, action, at=view["events"])
        except OSError:  # the server is gone
            return "stopped"
        assert status == 200, view
        acknowledged.append((view["events"], view["table"]["dice"]))
    return "finished"


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_killed_process_loses_no_acknowledged_move(kind, tmp_path, start_server, request):
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}" if kind == "sqlite" else request.getfixturevalue("postgres_url")
    server = start_server(database)
    games = [
        server.api("POST", "/api/games", {"game": "penta", "players": [ANA], "seed": seed}) for seed in range(6)
    ]
    acknowledged: list[list[tuple[int, list[int]]]] = [[] for _ in games]
    endings: list[str] = []
    players = [
        threading.Thread(target=lambda i=i: endings.append(play_until_stopped(server, games[i], i, acknowledged[i])))
        for i in range(len(games))
    ]
    for player in players:
        player.start()
    eventually(lambda: sum(map(len, acknowledged)), lambda count: count >= 60, seconds=60)
    server.process.kill()  # SIGKILL: no shutdown, no flush
    for player in players:
        player.join()
    assert endings == ["stopped"] * len(games)  # killed in the middle of every game

    server.start()
    for created, moves in zip(games, acknowledged):
        view = server.api("GET", f"/api/games/{created['id']}?since=0")
        assert moves and view["events"] >= moves[-1][0]
        for events, dice in moves:
            assert view["steps"][events - 1]["table"]["dice"] == dice
        assert act(server, created, any_legal_action(view), at=view["events"])[0] == 200
