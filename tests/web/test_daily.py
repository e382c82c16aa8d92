"""The daily challenge through the API (web/daily.py, web/daily_routes.py): the same dice for everyone on the
same choices, no hints, each try secret to its seat until the day ends, one ranked try per profile and day,
the board by mean loss, the others' choices, and the rollover of tries left unfinished."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from harness import next_action
from starlette.websockets import WebSocketDisconnect

from cubilete.cli.main import main
from cubilete.storage.daily import Ranking
from cubilete.web.daily_rollover import DailyRollover
from tests.web.test_profiles import bearer, claim_name

RANKING_SECONDS = 60  # a finished try is ranked by the sweeper (it may build Generala's table first)


def start(client, game: str, profile: dict | None = None, name: str | None = None) -> dict:
    body = None if name is None else {"name": name}
    response = client.post(f"/api/daily/{game}/start", json=body, headers=bearer(profile) if profile else {})
    assert response.status_code == 201, response.text
    return response.json()


def seat_proof(started: dict) -> dict:
    return {"X-Cubilete-Seat": f"0:{started['seats'][0]['token']}"}


def read(client, started: dict, headers: dict | None = None):
    return client.get(f"/api/games/{started['id']}", headers=headers if headers is not None else seat_proof(started))


def act(client, started: dict, view: dict, action: dict) -> dict:
    body = {"seat": 0, "token": started["seats"][0]["token"], "at": view["events"], "action": action}
    response = client.post(f"/api/games/{started['id']}/actions", json=body)
    assert response.status_code == 200, response.text
    return response.json()


def play(client, started: dict, moves: int | None = None) -> dict:
    """Play the seat by harness.next_action (roll, keep nothing, score the first box): `moves` of them, or to the end."""
    view = read(client, started).json()
    while not view["is_over"] and (moves is None or moves > 0):
        view = act(client, started, view, next_action(view))
        moves = None if moves is None else moves - 1
    return view


def tomorrow(client) -> None:
    """The games' clock moves a day ahead: today's challenges end."""
    client.app.state.services.games.now = lambda: datetime.now(UTC) + timedelta(days=1)


def board_of(client, game: str, rows: int, date: str | None = None) -> dict:
    """The day's board once it has `rows` rows (the sweeper ranks a try once its game ends)."""
    deadline = time.monotonic() + RANKING_SECONDS
    while True:
        board = client.get(f"/api/daily/{game}/board", params={"date": date} if date else {}).json()
        if len(board["rows"]) >= rows or time.monotonic() > deadline:
            return board
        time.sleep(0.1)


def test_two_profiles_meet_the_same_dice_on_the_same_choices_and_no_hint(client):
    ana, beto = claim_name(client, "Ana"), claim_name(client, "Beto")
    today = client.get("/api/daily/penta").json()
    assert today["game"] == "penta" and today["rules"] == "seed" and today["players"] == 0
    assert today["ends_at"] == f"{(datetime.fromisoformat(today['date']) + timedelta(days=1)).date()}T00:00:00Z"
    assert [seat["kind"] for seat in today["seats"]] == ["human"]
    tries = [start(client, "penta", profile) for profile in (ana, beto)]
    assert all(started["ranked"] and started["date"] == today["date"] for started in tries)
    views = [read(client, started).json() for started in tries]
    assert views[0]["daily"] == {"date": today["date"], "ranked": True, "secret": True}
    for _move in range(6):  # roll, keep nothing, keep nothing, score, roll, keep nothing
        action = next_action(views[0])
        views = [act(client, started, view, action) for started, view in zip(tries, views)]
        assert views[0]["table"]["dice"] == views[1]["table"]["dice"]
        assert views[0]["scores"] == views[1]["scores"]
    hint = client.post(f"/api/games/{tries[0]['id']}/hint", json={"seat": 0, "token": tries[0]["seats"][0]["token"]})
    assert hint.status_code == 403 and hint.json()["code"] == "hints_off"
    signed_in = client.get("/api/daily/penta", headers=bearer(ana)).json()
    assert signed_in["players"] == 2 and signed_in["streak"] == 1
    assert signed_in["mine"] == {"id": tries[0]["id"], "finished": False, "ranked": True}


def test_a_try_is_its_seat_own_until_the_day_ends(client):
    ana, beto = claim_name(client, "Ana"), claim_name(client, "Beto")
    started, betos = start(client, "penta", ana), start(client, "penta", beto)
    play(client, started, moves=1)
    game = started["id"]
    for headers in ({}, seat_proof(betos), {"X-Cubilete-Seat": "0:not-the-token"}):  # a stranger, the other profile
        for path in (f"/api/games/{game}", f"/api/games/{game}/review", f"/api/games/{game}/record"):
            refused = client.get(path, headers=headers)
            assert refused.status_code == 403 and refused.json()["code"] == "daily_secret", path
    with client.websocket_connect(f"/api/games/{game}/live") as socket:
        socket.send_json({"type": "since", "since": 0})
        with pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_json()
        assert closed.value.code == 4403
    with client.websocket_connect(f"/api/games/{game}/live") as socket:
        socket.send_json({"type": "seats", "seats": {"0": started["seats"][0]["token"]}})
        assert socket.receive_json()["type"] == "view"
    assert read(client, started).status_code == 200
    tomorrow(client)
    after = read(client, started, headers={})
    assert after.status_code == 200 and after.json()["daily"]["secret"] is False  # on the same clock as the refusal


def test_one_ranked_try_a_day_and_unranked_tries_without_a_profile(client):
    ana = claim_name(client, "Ana")
    first = start(client, "generala", ana)
    again = client.post("/api/daily/generala/start", headers=bearer(ana))
    assert again.status_code == 409 and again.json()["code"] == "daily_already_started"
    mine = client.get("/api/profiles/me/seats", headers=bearer(ana)).json()
    assert {"game": first["id"], "seat": 0, "token": first["seats"][0]["token"]} in mine
    wrong = client.post("/api/daily/generala/start", json={"name": "Ana"}, headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    unranked = start(client, "generala", name="Zoe")
    assert unranked["ranked"] is False and unranked["seats"][0]["name"] == "Zoe"
    assert read(client, unranked).json()["daily"]["ranked"] is False
    handed = client.post(f"/api/games/{first['id']}/seats/0/bot", json={"token": first["seats"][0]["token"]})
    assert handed.status_code == 409 and handed.json()["code"] == "daily_seat_kept"


def test_the_board_ranks_finished_tries_by_mean_loss_and_the_others_choices(client):
    ana, beto = claim_name(client, "Ana"), claim_name(client, "Beto")
    tries = [start(client, "generala", profile) for profile in (ana, beto)]
    zoe = start(client, "generala", name="Zoe")
    for started in (*tries, zoe):
        assert play(client, started)["is_over"]
    board = board_of(client, "generala", 2)
    assert sorted(row["name"] for row in board["rows"]) == ["Ana", "Beto"]  # not Zoe's unranked try
    assert board["final"] is False and [row["rank"] for row in board["rows"]] == [1, 2]
    review = client.get(f"/api/games/{tries[0]['id']}/review", headers=seat_proof(tries[0])).json()
    ana_row = next(row for row in board["rows"] if row["name"] == "Ana")
    assert ana_row["mean_loss"] == pytest.approx(review["players"][0]["mean_loss"])
    assert ana_row["decisions"] == review["players"][0]["decisions"]
    # the same choices on the same dice: every position Ana met, Beto met and chose alike
    body = {"id": tries[0]["id"], "seat": 0, "token": tries[0]["seats"][0]["token"]}
    choices = client.post("/api/daily/generala/choices", json=body).json()
    assert choices["players"] == 2 and len(choices["decisions"]) == ana_row["decisions"]
    for decision in choices["decisions"]:
        assert decision["others"] == 2 and decision["choices"] == [{"action": decision["chosen"], "share": 1.0}]
    unfinished = start(client, "penta", ana)
    refused = client.post("/api/daily/penta/choices", json={**body, "id": unfinished["id"], "token": unfinished["seats"][0]["token"]})
    assert refused.status_code == 409 and refused.json()["code"] == "daily_not_finished"


def test_the_board_orders_by_mean_loss_then_score(client):
    storage = client.app.state.services.games.storage
    names = [claim_name(client, name) for name in ("Ana", "Beto", "Caro")]
    date = client.get("/api/daily/generala").json()["date"]
    for profile, (loss, score) in zip(names, [(0.5, 200), (0.25, 150), (0.5, 220)]):
        started = start(client, "generala", profile)
        assert storage.daily.rank(started["id"], Ranking(10, loss, score, []), datetime.now(UTC))
        assert not storage.daily.rank(started["id"], Ranking(10, 0.0, 999, []), datetime.now(UTC))  # ranked once
    rows = client.get("/api/daily/generala/board", params={"date": date}).json()["rows"]
    assert [(row["name"], row["score"]) for row in rows] == [("Beto", 150), ("Caro", 220), ("Ana", 200)]


def test_the_rollover_plays_out_an_abandoned_try_and_ranks_it(client):
    ana = claim_name(client, "Ana")
    started = start(client, "generala", ana)
    date = play(client, started, moves=2)["daily"]["date"]
    tomorrow(client)
    ranked = client.portal.call(DailyRollover(client.app.state.services.daily).sweep)
    view = read(client, started, headers={}).json()
    assert view["is_over"]
    rows = board_of(client, "generala", 1, date)["rows"]
    assert ranked <= 1 and [row["name"] for row in rows] == ["Ana"] and rows[0]["decisions"] > 1
    assert client.portal.call(DailyRollover(client.app.state.services.daily).sweep) == 0  # nothing left to do


def test_the_host_removes_a_try_from_the_board(client, database, capsys):
    ana = claim_name(client, "Ana")
    started = start(client, "generala", ana)
    assert client.app.state.services.games.storage.daily.rank(started["id"], Ranking(3, 0.5, 100, []), datetime.now(UTC))
    date = read(client, started).json()["daily"]["date"]
    words = ["admin", "daily", "remove", "--date", date, "--game", "generala", "--profile", "ana", "--database", database]
    assert main(words) == 0 and "Removed ana's generala try" in capsys.readouterr().out  # any case finds Ana
    assert client.get("/api/daily/generala/board", params={"date": date}).json()["rows"] == []
    assert main(words) == 1 and "No ana's generala try" in capsys.readouterr().out


def test_5000s_table_is_the_player_and_one_optimal_computer_seat(client):
    today = client.get("/api/daily/5000").json()
    assert [(seat["kind"], seat["level"]) for seat in today["seats"]] == [("human", None), ("bot", "optimal")]
    started = start(client, "5000", name="Zoe")
    assert [(seat["kind"], seat["token"] is None) for seat in started["seats"]] == [("human", False), ("bot", True)]
    view = read(client, started).json()
    assert [seat["level"] for seat in view["seats"]] == [None, "optimal"] and view["hints"] == "off"
    assert client.get("/api/daily/yahtzee").status_code == 400
