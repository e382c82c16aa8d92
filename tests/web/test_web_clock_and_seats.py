"""A game never stalls, and the lobby: the turn clock, seats handed to a bot or left, and the open
tables of public games with their claim flow (also between two server processes on one database)."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from harness import run_async
from sqlalchemy import create_engine, text

from cubilete.storage import Storage
from cubilete.web import create_app
from cubilete.web.broker import LocalBroker
from cubilete.web.games import Games
from cubilete.web.live_game import LiveGame
from cubilete.web.seat_changes import Claim, HandToBot, Join
from cubilete.web.seats import SeatRequest, SeatSecret, SeatTaken, seat_token
from cubilete.web.table_options import TableOptions
from cubilete.web.tables import TableGate

ANA = {"name": "Ana", "kind": "human"}
LUIS = {"name": "Luis", "kind": "human", "invited": True}
BOT = {"name": "Bot", "kind": "bot", "level": "optimal"}


def create(client, players=(ANA, LUIS), **extra) -> dict:
    """A new game whose friends open their invite links at once, unless it is public (their seats stay open)."""
    response = client.post("/api/games", json={"game": "penta", "players": list(players), **extra})
    assert response.status_code == 201, response.text
    return response.json() if extra.get("public") else claim_invites(client, response.json())


def claim(client, created, seat, invite):
    return client.post(f"/api/games/{created['id']}/seats/{seat}/claim", json={"invite": invite})


def claim_invites(client, created) -> dict:
    """Each friend opens their invite link: the game's answer, with the token each claim gave in its seat."""
    for seat in created["seats"]:
        if seat["invite"] is not None:
            claimed = claim(client, created, seat["seat"], seat["invite"])
            assert claimed.status_code == 200, claimed.text
            seat["token"] = claimed.json()["token"]
    return created


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
    assert view["seats"][1] == {
        "name": "Luis", "kind": "bot", "level": "optimal", "open": False, "left": False, "unclaimed": False, "profile": None,
    }
    assert view["seats_version"] == 2  # Luis claimed the seat, then handed it over
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
    live, secrets = first.create("penta", None, [SeatRequest("Ana", "human"), SeatRequest("Luis", "human")], None, "es")
    assert second.get(live.id).seats[1].kind == "human"
    run_async(first.change(live.id, HandToBot(1, secrets[1].token, leave=True)))
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
    secrets = [seat[key] for seat in public["seats"] + private["seats"] for key in ("token", "invite")]
    assert all(secret is None or secret not in text for secret in secrets)
    assert no_friend["id"] not in text and "token" not in text and "invite" not in text


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
    assert joined.json()["url"] == f"/game/{created['id']}"
    assert client.get("/api/open-tables").json() == []
    assert read(client, created)["seats"][1]["name"] == "Carla"
    again = client.post(url, json={"name": "Dani"})
    assert again.status_code == 409 and again.json()["code"] == "seat_taken"
    assert again.json()["params"]["seat"] == 1 and again.json()["detail"] == "seat 2 was taken by someone else"  # counted from 1
    play_a_turn(client, created, 0)
    assert act(client, created, {"type": "roll"}, seat=1, token=token).status_code == 200
    invite = claim(client, created, 1, created["seats"][1]["invite"])  # the invited friend comes too late
    assert invite.status_code == 409 and invite.json()["code"] == "invite_claimed"


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
    luis = created["seats"][1]
    assert luis["token"] is None and luis["link"].endswith(f"#seat=1&invite={luis['invite']}")
    assert claim(client, created, 0, luis["invite"]).json()["code"] == "wrong_invite"
    assert claim(client, created, 1, created["seats"][0]["token"]).json()["code"] == "wrong_invite"
    claimed = claim(client, created, 1, luis["invite"])
    assert claimed.status_code == 200 and claimed.json()["url"] == f"/game/{created['id']}"
    assert client.get("/api/open-tables").json() == []
    assert read(client, created)["seats"][1]["name"] == "Luis"
    taken = client.post(f"/api/games/{created['id']}/seats/1/join", json={"name": "Carla"})
    assert taken.status_code == 409
    play_a_turn(client, created, 0)
    assert act(client, created, {"type": "roll"}, seat=1, token=claimed.json()["token"]).status_code == 200


def test_an_invite_is_claimed_once_and_its_creator_cannot_act_for_the_friend(client):
    body = {"game": "penta", "players": [ANA, LUIS], "lang": "es"}
    created = client.post("/api/games", json=body).json()
    ana, luis = created["seats"]
    assert luis["token"] is None and luis["invite"] not in str(ana)  # the creator gets no token of Luis's
    play_a_turn(client, created, 0)
    unclaimed = act(client, created, {"type": "roll"}, seat=1, token=ana["token"])
    assert unclaimed.status_code == 403 and unclaimed.json()["code"] == "seat_unclaimed"
    first = claim(client, created, 1, luis["invite"])
    second = claim(client, created, 1, luis["invite"])
    assert first.status_code == 200 and second.status_code == 409
    assert second.json()["code"] == "invite_claimed" and "token" not in second.text
    assert second.json()["message"] == "el puesto 2 (Luis) ya está ocupado: este enlace de invitación ya se usó"
    token = first.json()["token"]
    assert token not in json.dumps(created)
    for creators in (ana["token"], luis["invite"]):  # nothing the creator holds acts for Luis
        refused = act(client, created, {"type": "roll"}, seat=1, token=creators)
        assert refused.status_code == 403 and refused.json()["code"] == "wrong_token"
        leave = client.post(f"/api/games/{created['id']}/seats/1/leave", json={"token": creators})
        assert leave.status_code == 403
    assert act(client, created, {"type": "roll"}, seat=1, token=token).status_code == 200


def two_processes(database: str, public: bool) -> tuple[list[Games], LiveGame, list[SeatSecret]]:
    """Two processes on one database that hear nothing of each other, both holding a new game whose seat 1
    is Beto's (a friend's: open to anyone if `public`); and the game's seat secrets."""
    games = [Games(Storage(database), TableGate(), LocalBroker()) for _ in range(2)]
    live, secrets = games[0].create(
        "penta", None, [SeatRequest("Ana", "human"), SeatRequest("Beto", "human", invited=True)], None, "es",
        TableOptions(public=public),
    )
    for process in games:
        process.get(live.id)
    return games, live, secrets


def at_once(*attempts: Callable[[], str]) -> list[str | None]:
    """Run the attempts in threads released together: each one's token, or None if the seat was taken."""
    start, tokens = threading.Barrier(len(attempts)), [None] * len(attempts)

    def run(position: int, attempt: Callable[[], str]) -> None:
        start.wait()
        try:
            tokens[position] = attempt()
        except SeatTaken:
            pass

    threads = [threading.Thread(target=run, args=item) for item in enumerate(attempts)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return tokens


def seat_taken(process: Games, game_id: str, change: Join | Claim) -> str:
    """The seat's token once the process stored `change` (a join or a claim)."""
    run_async(process.change(game_id, change))
    return change.token


def test_two_processes_joining_one_seat_at_once_give_it_to_one(database):
    games, live, _secrets = two_processes(database, public=True)
    names = ("Carla", "Dani")
    tokens = at_once(
        *(lambda process=process, name=name: seat_taken(process, live.id, Join(1, name, seat_token(None, live.id, 1)))
          for process, name in zip(games, names, strict=True))
    )
    assert sorted(token is None for token in tokens) == [False, True]
    winner = next(index for index, token in enumerate(tokens) if token)
    stored = Storage(database).load(live.id)
    assert stored.seats[1]["name"] == names[winner] and not stored.seats[1]["open"]
    fresh = Games(Storage(database), TableGate(), LocalBroker()).get(live.id)
    fresh.check_seat(1, tokens[winner])  # the winner's token is the one stored


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_two_processes_claiming_one_invite_at_once_give_the_seat_to_one(kind, database, request):
    url = database if kind == "sqlite" else request.getfixturevalue("postgres_url")
    games, live, secrets = two_processes(url, public=False)
    invite = secrets[1].invite
    assert invite is not None and secrets[1].token is None
    tokens = at_once(
        *(lambda process=process: seat_taken(process, live.id, Claim(1, invite, seat_token(None, live.id, 1))) for process in games)
    )
    assert sorted(token is None for token in tokens) == [False, True]
    winner = next(token for token in tokens if token)
    fresh = Games(Storage(url), TableGate(), LocalBroker())
    fresh.get(live.id).check_seat(1, winner)  # the winner's token is the one stored
    with pytest.raises(SeatTaken):
        seat_taken(fresh, live.id, Claim(1, invite, seat_token(None, live.id, 1)))
    for process in (*games, fresh):
        process.close()


def test_the_api_answers_json_for_the_seats_paths(client):
    created = create(client)
    response = client.post(f"/api/games/{created['id']}/seats/1/bot", json={"token": "not a token!"})
    assert response.status_code == 422 and json.loads(response.text)["code"]


def test_the_clock_plays_a_5000_turn_to_its_end(client):
    response = client.post("/api/games", json={"game": "5000", "players": [ANA, LUIS], "turn_clock": 30})
    created = response.json()
    rolled = act(client, created, {"type": "roll"}).json()
    # the seat whose turn runs out: Ana's, or Luis's if her roll scored nothing (the dice are the server's)
    at, seat = rolled["events"], rolled["current_player"]
    later(client, 31)
    view = clock(client, created, at).json()
    assert view["current_player"] == 1 - seat and view["events"] > at
    assert all(step["by_clock"] and step["seat"] == seat for step in view["steps"])
