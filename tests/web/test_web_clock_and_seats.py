"""A game never stalls, and the lobby: the turn clock, seats handed to a bot or left, and the open
tables of public games with their claim flow (also between two server processes on one database)."""

from __future__ import annotations

import asyncio
import json
import threading
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from cubilete.storage import Storage
from cubilete.web import create_app
from cubilete.web.broker import LocalBroker
from cubilete.web.games import Games
from cubilete.web.seats import SeatRequest, SeatTaken
from cubilete.web.table_options import TableOptions
from cubilete.web.tables import TableGate

ANA = {"name": "Ana", "kind": "human"}
LUIS = {"name": "Luis", "kind": "human", "invited": True}
BOT = {"name": "Bot", "kind": "bot", "level": "optimal"}


def create(client, players=(ANA, LUIS), **extra) -> dict:
    response = client.post("/api/games", json={"game": "penta", "players": list(players), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def act(client, created, action, seat=0, token=None):
    body = {"seat": seat, "token": token or created["seats"][seat]["token"], "action": action}
    return client.post(f"/api/games/{created['id']}/actions", json=body)


def read(client, created, **params) -> dict:
    response = client.get(f"/api/games/{created['id']}", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def play_a_turn(client, created, seat) -> dict:
    """Roll once and score the seat's first open box."""
    view = act(client, created, {"type": "roll"}, seat).json()
    filled = view["table"]["sheets"][seat]["boxes"]
    box = next(box["id"] for box in view["table"]["boxes"] if box["id"] not in filled)
    response = act(client, created, {"type": "score", "box": box}, seat)
    assert response.status_code == 200, response.text
    return response.json()


def clock(client, created, at):
    return client.post(f"/api/games/{created['id']}/clock", json={"at": at})


def later(client, seconds: float) -> None:
    """The clock's time source moves `seconds` ahead of the real time (the events keep their real times)."""
    client.app.state.services.games.now = lambda: datetime.now(UTC) + timedelta(seconds=seconds)


# -- the turn clock --------------------------------------------------------------------------


def test_the_view_shows_when_the_turn_started_and_its_deadline(client):
    created = create(client, turn_clock=30)
    act(client, created, {"type": "roll"})
    view = read(client, created)
    started = datetime.fromisoformat(view["clock"]["turn_started"])
    deadline = datetime.fromisoformat(view["clock"]["deadline"])
    assert started.tzinfo is not None and deadline - started == timedelta(seconds=30)
    assert view["clock"]["seconds"] == 30
    act(client, created, {"type": "score", "box": "chance"})
    luis_turn = read(client, created)["clock"]
    assert datetime.fromisoformat(luis_turn["turn_started"]) >= started  # the turn Luis got, not the game's start
    act(client, created, {"type": "roll"}, seat=1)
    during = read(client, created)["clock"]  # Luis's own moves do not restart his clock
    assert (during["turn_started"], during["deadline"]) == (luis_turn["turn_started"], luis_turn["deadline"])
    assert read(client, create(client))["clock"] is None  # no clock by default


def test_no_clock_runs_before_the_tables_first_move(client, database):
    """Ana, still on the invite page sharing links an hour after creating the game, keeps her first
    turn: the clock starts with the table's first move, and runs from that move."""
    created = create(client, turn_clock=30)
    later(client, 3600)
    assert read(client, created)["clock"] is None
    refused = clock(client, created, 0)
    assert (refused.status_code, refused.json()["code"]) == (409, "no_turn_clock")
    with create_engine(database).begin() as connection:  # the game was created an hour ago
        connection.execute(text("UPDATE games SET created = :then"), {"then": datetime.now(UTC) - timedelta(hours=1)})
    later(client, 0)
    at = act(client, created, {"type": "roll"}).json()["events"]
    assert read(client, created)["clock"]["seconds"] == 30
    running = clock(client, created, at)  # her clock began with her roll, not with the game
    assert (running.status_code, running.json()["code"]) == (409, "clock_running")


def test_the_clock_is_refused_before_the_deadline_and_plays_the_turn_after_it(client, database):
    created = create(client, turn_clock=30)
    play_a_turn(client, created, 0)
    at = read(client, created)["events"]
    refused = clock(client, created, at)
    assert refused.status_code == 409 and refused.json()["code"] == "clock_running"
    assert 0 < refused.json()["params"]["seconds"] <= 30
    assert read(client, created)["events"] == at  # nothing played

    later(client, 31)
    view = clock(client, created, at).json()
    assert view["current_player"] == 0 and len(view["table"]["sheets"][1]["boxes"]) == 1
    luis_steps = [step for step in view["steps"] if step["index"] >= at]
    assert luis_steps and all(step["by_clock"] and step["event"]["clock"] for step in luis_steps)
    assert not any(step["by_clock"] for step in read(client, created, since=0)["steps"][:at])
    again = clock(client, created, at)  # another browser's countdown, a moment late
    assert again.status_code == 409 and again.json()["code"] == "stale_request"
    storage = Storage(database)  # the marks are stored, and kept when the game is read again
    try:
        marks = [event.get("clock") is True for event in storage.load(created["id"]).record["events"]]
        assert marks == [False] * at + [True] * len(luis_steps)
    finally:
        storage.close()
    with TestClient(create_app(database)) as second:  # a new process reads the marks back
        steps = read(second, created, since=0)["steps"]
        assert [step["by_clock"] for step in steps] == [False] * at + [True] * len(luis_steps)


def test_the_clock_plays_what_is_left_of_a_started_turn(client):
    created = create(client, turn_clock=60)
    act(client, created, {"type": "roll"})
    at = act(client, created, {"type": "keep", "held": [0]}).json()["events"]
    later(client, 61)
    view = clock(client, created, at).json()
    assert view["current_player"] == 1 and len(view["table"]["sheets"][0]["boxes"]) == 1
    assert [step["by_clock"] for step in view["steps"]] == [True] * (view["events"] - at)


def test_a_game_without_a_clock_refuses_it(client):
    created = create(client)
    later(client, 10_000)
    refused = clock(client, created, 0)
    assert refused.status_code == 409 and refused.json()["code"] == "no_turn_clock"


def test_a_spectator_may_run_the_clock_and_two_processes_store_it_once(client, database):
    created = create(client, turn_clock=30)
    at = act(client, created, {"type": "roll"}).json()["events"]
    with TestClient(create_app(database)) as other:
        for app_client in (client, other):
            later(app_client, 31)
        first = clock(client, created, at)
        second = clock(other, created, at)
    assert first.status_code == 200 and first.json()["current_player"] == 1
    assert second.status_code == 409


# -- handing a seat to a bot, leaving --------------------------------------------------------------


def test_a_player_hands_their_seat_to_a_bot_that_then_plays_it(client):
    created = create(client)
    url = f"/api/games/{created['id']}/seats/1/bot"
    assert client.post(url, json={"token": created["seats"][0]["token"]}).status_code == 403
    view = client.post(url, json={"token": created["seats"][1]["token"]}).json()
    assert view["seats"][1] == {"name": "Luis", "kind": "bot", "level": "optimal", "open": False, "left": False}
    assert view["seats_version"] == 1
    after = play_a_turn(client, created, 0)
    assert after["current_player"] == 0 and len(after["table"]["sheets"][1]["boxes"]) == 1  # the bot played
    refused = act(client, created, {"type": "roll"}, seat=1)
    assert refused.status_code == 403 and refused.json()["code"] == "bot_seat"


def test_a_player_who_leaves_on_their_turn_is_played_by_a_bot_at_once(client):
    created = create(client)
    play_a_turn(client, created, 0)
    view = client.post(
        f"/api/games/{created['id']}/seats/1/leave", json={"token": created["seats"][1]["token"]}
    ).json()
    assert view["seats"][1]["left"] and view["seats"][1]["kind"] == "bot"
    assert view["current_player"] == 0 and len(view["table"]["sheets"][1]["boxes"]) == 1


def test_seat_changes_reach_another_process_on_the_same_database(database):
    storage, broker = Storage(database), LocalBroker()  # one broker: what Redis is to two processes
    first, second = Games(storage, TableGate(), broker), Games(Storage(database), TableGate(), broker)
    live, tokens = first.create(
        "penta", None, [SeatRequest("Ana", "human"), SeatRequest("Luis", "human")], 7, "es"
    )
    assert second.get(live.id).seats[1].kind == "human"
    asyncio.run(first.hand_to_bot(live.id, 1, tokens[1], leave=True))
    seen = second.get(live.id).seats[1]
    assert seen.kind == "bot" and seen.left and second.get(live.id).seats_version == 1
    lone = Games(Storage(database), TableGate(), LocalBroker())  # a process that heard nothing loads the seats
    assert lone.get(live.id).seats[1].left


# -- open tables and joining ------------------------------------------------------------------------


def test_public_games_with_open_seats_are_listed_without_tokens(client):
    public = create(client, public=True, lang="es")
    private = create(client)
    no_friend = create(client, players=(ANA, BOT), public=True)
    listed = client.get("/api/open-tables")
    assert listed.status_code == 200
    tables = listed.json()
    assert [table["id"] for table in tables] == [public["id"]]
    assert tables[0] == {
        "id": public["id"], "game": "penta", "rules": "seed", "turn_clock": 0, "hints": "off", "players": ["Ana"],
        "open_seats": [1],
    }
    text = listed.text
    assert all(seat["token"] is None or seat["token"] not in text for seat in public["seats"] + private["seats"])
    assert no_friend["id"] not in text and "token" not in text


def test_open_tables_list_the_most_recently_played_first(client):
    older, newer = create(client, public=True), create(client, public=True)
    listed = [table["id"] for table in client.get("/api/open-tables").json()]
    assert listed == [newer["id"], older["id"]]
    act(client, older, {"type": "roll"})  # a move is stored as an event only: the list reads the newest
    listed = [table["id"] for table in client.get("/api/open-tables").json()]
    assert listed == [older["id"], newer["id"]]


def test_a_joiner_gets_a_fresh_token_for_the_open_seat_and_it_is_listed_no_more(client):
    created = create(client, public=True)
    url = f"/api/games/{created['id']}/seats/1/join"
    joined = client.post(url, json={"name": "Carla"})
    assert joined.status_code == 200, joined.text
    token = joined.json()["token"]
    assert token != created["seats"][1]["token"] and joined.json()["url"] == f"/game/{created['id']}"
    assert client.get("/api/open-tables").json() == []
    assert read(client, created)["seats"][1]["name"] == "Carla"
    again = client.post(url, json={"name": "Dani"})
    assert again.status_code == 409 and again.json()["code"] == "seat_taken"
    assert again.json()["params"]["seat"] == 1 and again.json()["detail"] == "seat 2 was taken by someone else"  # counted from 1
    play_a_turn(client, created, 0)
    assert act(client, created, {"type": "roll"}, seat=1, token=token).status_code == 200
    old_link = act(client, created, {"type": "keep", "held": []}, seat=1)  # the invite link's token is void
    assert old_link.status_code == 403


def test_a_seat_taken_under_a_new_name_reaches_the_pages_already_open(client):
    """Ana's page follows the game live when Dani takes Caro's seat from the open tables: the next push
    carries the new name and seats' version; a page reconnecting after it gets them too."""
    created = create(client, players=(ANA, {"name": "Caro", "kind": "human", "invited": True}), public=True)
    url = f"/api/games/{created['id']}/live"
    with client.websocket_connect(f"{url}?since=0") as ana:
        before = ana.receive_json()
        assert before["seats"][1]["name"] == "Caro"
        assert client.post(f"/api/games/{created['id']}/seats/1/join", json={"name": "Dani"}).status_code == 200
        pushed = ana.receive_json()
        while pushed["seats_version"] == before["seats_version"]:  # a presence push may come first
            pushed = ana.receive_json()
        assert pushed["seats"][1]["name"] == "Dani" and pushed["events"] == before["events"]
    with client.websocket_connect(f"{url}?since=0") as reconnected:
        assert reconnected.receive_json()["seats"][1]["name"] == "Dani"


def test_private_games_and_taken_seats_cannot_be_joined(client):
    private = create(client)
    refused = client.post(f"/api/games/{private['id']}/seats/1/join", json={"name": "Carla"})
    assert refused.status_code == 403 and refused.json()["code"] == "game_not_open"
    public = create(client, public=True)
    for seat in (0, 5):
        assert client.post(f"/api/games/{public['id']}/seats/{seat}/join", json={"name": "Carla"}).status_code in (
            403, 409,
        )
    assert client.post(f"/api/games/{public['id']}/seats/1/join", json={"name": ""}).status_code == 422


def test_the_invited_friend_claims_the_seat_by_opening_the_link(client):
    created = create(client, public=True)
    url = f"/api/games/{created['id']}/seats/1/claim"
    assert client.post(url, json={"token": created["seats"][0]["token"]}).status_code == 403
    assert client.post(url, json={"token": created["seats"][1]["token"]}).status_code == 200
    assert client.get("/api/open-tables").json() == []
    assert read(client, created)["seats"][1]["name"] == "Luis"
    taken = client.post(f"/api/games/{created['id']}/seats/1/join", json={"name": "Carla"})
    assert taken.status_code == 409


def test_two_processes_joining_one_seat_at_once_give_it_to_one(database):
    games = [Games(Storage(database), TableGate(), LocalBroker()) for _ in range(2)]  # they hear nothing of each other
    live, _tokens = games[0].create(
        "penta", None, [SeatRequest("Ana", "human"), SeatRequest("Beto", "human", invited=True)], None, "es",
        TableOptions(public=True),
    )
    for process in games:
        process.get(live.id)  # both have the game in memory, seat 1 open
    start, outcomes = threading.Barrier(2), []

    def join(process: Games, name: str) -> None:
        start.wait()
        try:
            outcomes.append(("joined", name, asyncio.run(process.join(live.id, 1, name))[1]))
        except SeatTaken:
            outcomes.append(("taken", name, None))

    threads = [
        threading.Thread(target=join, args=(process, name))
        for process, name in zip(games, ("Carla", "Dani"), strict=True)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcome[0] for outcome in outcomes) == ["joined", "taken"]
    winner = next(outcome for outcome in outcomes if outcome[0] == "joined")
    stored = Storage(database).load(live.id)
    assert stored.seats[1]["name"] == winner[1] and not stored.seats[1]["open"]
    fresh = Games(Storage(database), TableGate(), LocalBroker()).get(live.id)
    fresh.check_seat(1, winner[2])  # the winner's token is the one stored


def test_the_api_answers_json_for_the_seats_paths(client):
    created = create(client)
    response = client.post(f"/api/games/{created['id']}/seats/1/bot", json={"token": "not a token!"})
    assert response.status_code == 422 and json.loads(response.text)["code"]


def test_the_clock_plays_a_5000_turn_to_its_end(client):
    response = client.post("/api/games", json={"game": "5000", "players": [ANA, LUIS], "turn_clock": 30})
    created = response.json()
    at = act(client, created, {"type": "roll"}).json()["events"]
    later(client, 31)
    view = clock(client, created, at).json()
    assert view["current_player"] == 1 and view["events"] > at
    assert all(step["by_clock"] and step["seat"] == 0 for step in view["steps"])
