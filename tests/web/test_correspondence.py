"""Games by correspondence: a clock of days per move, whose expired turns the server plays with no page
open (web/correspondence.py), reminding the seat to move once a quarter of its allowance is left."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from cubilete.storage import Storage
from cubilete.web import create_app
from cubilete.web.correspondence import CorrespondenceSweeper

ANA = {"name": "Ana", "kind": "human"}
LUIS = {"name": "Luis", "kind": "human", "invited": True}
DAY = 86_400


def create(client, turn_clock) -> dict:
    """A game of Ana and her friend Luis, who opened his invite link."""
    response = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS], "turn_clock": turn_clock})
    assert response.status_code == 201, response.text
    created = response.json()
    friend = created["seats"][1]
    claimed = client.post(f"/api/games/{created['id']}/seats/1/claim", json={"invite": friend["invite"]})
    friend["token"] = claimed.json()["token"]
    return created


def roll(client, created, seat=0) -> dict:
    body = {"seat": seat, "token": created["seats"][seat]["token"], "action": {"type": "roll"}}
    response = client.post(f"/api/games/{created['id']}/actions", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def read(client, created) -> dict:
    return client.get(f"/api/games/{created['id']}", params={"since": 0}).json()


def later(client, seconds: float) -> None:
    """The clock's time source moves `seconds` ahead of the real time (the events keep their real times)."""
    client.app.state.services.games.now = lambda: datetime.now(UTC) + timedelta(seconds=seconds)


def sweeper(client, reminded: list[str] | None = None) -> CorrespondenceSweeper:
    """A sweeper of the app's games; each reminder is noted in `reminded` (the game's id)."""
    games = client.app.state.services.games
    return CorrespondenceSweeper(games, lambda live: (reminded if reminded is not None else []).append(live.id))


def sweep(client, swept: CorrespondenceSweeper) -> None:
    client.portal.call(swept.sweep)  # on the app's event loop, as its own sweeper runs


@pytest.mark.parametrize(("chosen", "seconds"), [("1d", DAY), ("3d", 3 * DAY), ("7d", 7 * DAY)])
def test_a_correspondence_clock_is_stored_and_answered_in_seconds(client, database, chosen, seconds):
    created = create(client, chosen)
    assert read(client, created)["clock"] is None  # no clock before the table's first move
    clock = roll(client, created)["clock"]
    assert clock["seconds"] == seconds
    started, deadline = (datetime.fromisoformat(clock[key]) for key in ("turn_started", "deadline"))
    assert deadline - started == timedelta(seconds=seconds)
    with create_engine(database).connect() as connection:
        stored = connection.execute(text("SELECT table_options FROM games WHERE id = :id"), {"id": created["id"]})
        assert json.loads(stored.scalar_one())["turn_clock"] == seconds


def test_other_allowances_are_refused(client):
    for chosen in ("2d", "1D", 86_400, "86400"):
        refused = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS], "turn_clock": chosen})
        assert refused.status_code == 422 and refused.json()["code"] == "invalid_request"
        assert "'1d', '3d' or '7d'" in refused.json()["message"]
    assert client.get("/api/open-tables").json() == []  # nothing was stored


def test_the_sweeper_plays_an_expired_turn_with_nobody_connected(client):
    created = create(client, "1d")
    at = roll(client, created)["events"]
    swept = sweeper(client)
    later(client, DAY - 60)
    sweep(client, swept)
    assert read(client, created)["events"] == at  # a minute was left
    later(client, DAY + 1)
    sweep(client, swept)
    view = read(client, created)
    assert view["current_player"] == 1 and len(view["table"]["sheets"][0]["boxes"]) == 1
    assert [step["by_clock"] for step in view["steps"]] == [False] * at + [True] * (view["events"] - at)


def test_the_seat_to_move_is_reminded_once_a_quarter_is_left_and_not_before(client):
    created = create(client, "3d")
    roll(client, created)
    reminded: list[str] = []
    swept = sweeper(client, reminded)
    later(client, 3 * DAY * 0.74)
    sweep(client, swept)
    assert reminded == []
    later(client, 3 * DAY * 0.76)
    sweep(client, swept)
    sweep(client, swept)  # once per turn
    assert reminded == [created["id"]]
    later(client, 3 * DAY + 1)
    sweep(client, swept)  # the clock plays Ana's turn: Luis's turn begins, three days from now
    assert read(client, created)["current_player"] == 1 and reminded == [created["id"]]


def test_a_failing_reminder_is_logged_and_the_round_goes_on(client, caplog):
    """A reminder that fails (a push service down) never keeps the sweeper from playing expired turns."""
    reminded, expired = create(client, "7d"), create(client, "1d")
    for created in (reminded, expired):
        roll(client, created)

    def failing(_live):
        raise OSError("the push service is down")

    later(client, 6 * DAY)  # a seventh of the first's week left, the second's day over
    sweep(client, CorrespondenceSweeper(client.app.state.services.games, failing))  # raises nothing
    assert f"the reminder of correspondence game {reminded['id']} failed" in caplog.text
    assert read(client, expired)["current_player"] == 1


def test_live_clocks_games_without_a_clock_and_finished_games_are_not_swept(client, database):
    live_clock, no_clock, by_post, finished, corrupt = (create(client, chosen) for chosen in (30, 0, "7d", "1d", "1d"))
    for created in (live_clock, by_post, finished):
        roll(client, created)
    with create_engine(database).begin() as connection:
        connection.execute(text("UPDATE games SET finished = true WHERE id = :id"), {"id": finished["id"]})
        connection.execute(
            text('UPDATE games SET table_options = \'{"turn_clock": "soon"}\' WHERE id = :id'), {"id": corrupt["id"]}
        )
    storage = client.app.state.services.games.storage
    a_week_on = datetime.now(UTC) + timedelta(days=8)
    assert [game_id for game_id, _ in storage.games_due(a_week_on, "", 10)] == [by_post["id"]]
    assert storage.games_due(a_week_on, by_post["id"], 10) == []
    later(client, 31)
    sweep(client, sweeper(client))
    assert read(client, live_clock)["events"] == 1  # a page of the game asks for a live clock's turn


def test_a_round_reads_only_the_games_due(client):
    """The audit's cost: every unfinished correspondence game was loaded every minute (17 s of CPU a minute
    at 12,000). Now a round reads none of the games whose reminder is not due, and each due game once a
    turn for its reminder, once for its deadline."""
    games = [create(client, "7d") for _ in range(3)]
    for created in games:
        roll(client, created)
    swept = sweeper(client)
    looked: list[str] = []
    find = swept.games.find

    async def counted(game_id):
        looked.append(game_id)
        return await find(game_id)

    swept.games.find = counted
    for hours in (1, 24, 5 * 24):  # the reminders are due after 5¼ days
        later(client, hours * 3600)
        sweep(client, swept)
    assert looked == []
    later(client, 6 * DAY)
    sweep(client, swept)
    sweep(client, swept)  # reminded and due at the deadline: not read again
    assert sorted(looked) == sorted(created["id"] for created in games)


def test_two_processes_sweeping_store_the_clocks_turn_once(client, database):
    created = create(client, "1d")
    at = roll(client, created)["events"]
    with TestClient(create_app(database)) as other:
        for process in (client, other):
            assert read(process, created)["events"] == at  # each holds the game at Ana's roll
            later(process, DAY + 1)
        sweep(client, sweeper(client))
        sweep(other, sweeper(other))  # finds the turn played by the first: lets it be
        assert read(other, created)["events"] == read(client, created)["events"]
    storage = Storage(database)
    try:
        marks = [event.get("clock") is True for event in storage.load(created["id"]).record["events"]]
    finally:
        storage.close()
    assert marks == [False] * at + [True] * (len(marks) - at) and len(marks) > at
    assert read(client, created)["current_player"] == 1


def test_a_failed_round_is_logged_and_tried_again_by_the_running_sweeper(client, caplog):
    """The database out of reach for a while (here: the listing's engine points nowhere): each round fails
    and is logged, the task lives on, and the first round after plays the turn."""
    created = create(client, "1d")
    roll(client, created)
    swept = sweeper(client)
    swept.interval = 0.05
    storage = swept.games.storage
    engine, storage.engine = storage.engine, create_engine("sqlite:////nonexistent/dir/games.sqlite3")
    later(client, DAY + 1)
    running = client.portal.start_task_soon(swept.run)
    try:
        wait_for(client, lambda: "correspondence sweep failed" in caplog.text)
        storage.engine = engine
        wait_for(client, lambda: read(client, created)["current_player"] == 1)
    finally:
        storage.engine = engine
        running.cancel()


def test_the_app_sweeps_by_itself_at_its_clock_scale(database):
    """With CUBILETE_CLOCK_SCALE's hook, a day lasts half a second: the app's own sweeper plays the turn."""
    with TestClient(create_app(database, clock_scale=0.5 / DAY)) as client:
        created = create(client, "1d")
        roll(client, created)
        wait_for(client, lambda: read(client, created)["current_player"] == 1)


def wait_for(client, condition, seconds: float = 10.0) -> None:
    """Wait (letting the app's event loop run) until `condition()` holds."""
    give_up = datetime.now(UTC) + timedelta(seconds=seconds)
    while not condition():
        assert datetime.now(UTC) < give_up, "the condition never held"
        client.portal.call(asyncio.sleep, 0.02)


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_due_games_are_stored_listed_and_moved_on_on_both_databases(request, tmp_path, kind):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}" if kind == "sqlite" else request.getfixturevalue("postgres_url")
    storage = Storage(url)
    record = {"format": 2, "game": "penta", "rules": {"name": "seed"}, "players": 2, "dice": {"key": "k"}, "events": []}
    roll = [{"roll": [1, 2, 3, 4, 5]}]
    try:
        for game_id in "abcd":
            storage.insert(game_id, "en", [{"name": "Ana", "kind": "human"}], record, {"turn_clock": DAY})
        stored = {game_id: storage.append(game_id, 0, roll, False, timedelta(hours=hours))
                  for game_id, hours in (("a", 18), ("b", 18), ("c", 30))}
        storage.append("d", 0, roll, True, timedelta(hours=1))  # over: never due
        tomorrow = stored["a"] + timedelta(days=1)
        due = storage.games_due(tomorrow, "", 1)
        assert due == [("a", stored["a"] + timedelta(hours=18))]
        assert [game_id for game_id, _ in storage.games_due(tomorrow, "a", 10)] == ["b"]
        storage.postpone("a", due[0][1], tomorrow + timedelta(hours=1))
        storage.postpone("b", stored["a"], None)  # not the due time seen: a move set another meanwhile
        assert [game_id for game_id, _ in storage.games_due(tomorrow, "", 10)] == ["b"]
    finally:
        storage.close()
