"""A stored game the app could not have written (a row edited by hand, a bad disk) is refused alone:
`invalid_record` on its routes, a close with a code on its live socket, left out of the open tables,
while every other game is served."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from cubilete.web import create_app
from cubilete.web.live import INVALID_RECORD

ANA = {"name": "Ana", "kind": "human"}
FRIEND = {"name": "Beto", "kind": "human", "invited": True}

# Each kind of corruption, as plain SQL on the game `:id` (its first event is a roll).
CORRUPTIONS = {
    "seats that are not objects": "UPDATE games SET seats = '[1, 2]' WHERE id = :id",
    "seats that are not JSON": "UPDATE games SET seats = '[{\"name\": ' WHERE id = :id",
    "a seat of no kind": "UPDATE games SET seats = '[{\"name\": \"Ana\", \"kind\": \"ghost\"}, {\"name\": \"Beto\","
    " \"kind\": \"human\"}]' WHERE id = :id",
    "a hand-over before the first event": "UPDATE games SET seats = '[{\"name\": \"Ana\", \"kind\": \"human\"},"
    " {\"name\": \"Beto\", \"kind\": \"bot\", \"computer_from\": -1}]' WHERE id = :id",
    "rules without a name": "UPDATE games SET rules = '{\"nom\": 1}' WHERE id = :id",
    "an unknown game": "UPDATE games SET game = 'ludo' WHERE id = :id",
    "an event that is not JSON": "UPDATE events SET event = '{oops' WHERE game_id = :id",
    "an event that is no event": "UPDATE events SET event = '{\"bogus\": 1}' WHERE game_id = :id",
    "a turn clock that is not a number": "UPDATE games SET table_options = '{\"turn_clock\": \"soon\"}' WHERE id = :id",
    "options that are not JSON": "UPDATE games SET table_options = 'on' WHERE id = :id",
    "hints of no kind": "UPDATE games SET table_options = '{\"hints\": 7}' WHERE id = :id",
    "an unknown language": "UPDATE games SET lang = 'xx' WHERE id = :id",
}


def public_games(database: str, count: int) -> list[dict]:
    """Public games with an open seat whose first roll is stored (as created), made by a process that is then gone."""
    games = []
    with TestClient(create_app(database)) as client:
        for _ in range(count):
            body = {"game": "penta", "players": [ANA, FRIEND], "public": True, "lang": "es"}
            created = client.post("/api/games", json=body).json()
            roll = {"seat": 0, "token": created["seats"][0]["token"], "action": {"type": "roll"}, "at": 0}
            assert client.post(f"/api/games/{created['id']}/actions", json=roll).status_code == 200
            games.append(created)
    return games


def corrupt(database: str, game_id: str, statement: str) -> None:
    engine = create_engine(database)
    with engine.begin() as connection:
        connection.execute(text(statement), {"id": game_id})
    engine.dispose()


@pytest.mark.parametrize("statement", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_a_corrupt_game_is_refused_alone_everywhere_with_its_code(database, statement):
    good, bad = (created["id"] for created in public_games(database, 2))
    corrupt(database, bad, statement)
    with TestClient(create_app(database)) as client:  # a fresh process: the games are read from the database
        listed = client.get("/api/open-tables")
        refused = client.get(f"/api/games/{bad}", headers={"Accept-Language": "id"})
        move = {"seat": 0, "token": "x", "action": {"type": "keep", "held": [0]}, "at": 1}
        refused_move = client.post(f"/api/games/{bad}/actions", json=move, headers={"Accept-Language": "id"})
        with client.websocket_connect(f"/api/games/{bad}/live") as socket, pytest.raises(WebSocketDisconnect) as closed:
            socket.receive_text()
        served = client.get(f"/api/games/{good}")
    assert listed.status_code == 200 and good in [table["id"] for table in listed.json()]
    for answer in (refused, refused_move):
        assert answer.status_code == 400 and answer.json()["code"] == "invalid_record"
        assert answer.json()["message"].startswith("bukan ")  # Indonesian: the game's own language is unread
        assert answer.headers["x-frame-options"] == "DENY"
    assert (closed.value.code, closed.value.reason) == (INVALID_RECORD, "invalid_record")
    assert served.status_code == 200 and served.json()["events"] == 1


def test_a_corrupt_row_among_the_open_tables_is_left_out_and_the_others_listed(database):
    games = [created["id"] for created in public_games(database, 3)]
    corrupt(database, games[0], CORRUPTIONS["seats that are not objects"])
    corrupt(database, games[1], CORRUPTIONS["seats that are not JSON"])
    with TestClient(create_app(database)) as client:
        listed = client.get("/api/open-tables")
    assert listed.status_code == 200
    assert [table["id"] for table in listed.json()] == [games[2]]
    assert listed.json()[0]["players"] == ["Ana"] and listed.json()[0]["open_seats"] == [1]


def test_a_corrupt_game_among_a_players_seats_is_refused_alone_in_the_record(database):
    good, bad = public_games(database, 2)
    corrupt(database, bad["id"], CORRUPTIONS["seats that are not JSON"])
    proofs = [{"game": created["id"], "seat": 0, "token": created["seats"][0]["token"]} for created in (good, bad)]
    with TestClient(create_app(database)) as client:
        record = client.post("/api/players/record", json={"name": "Ana", "seats": proofs})
    assert record.status_code == 200
    assert [(refused["game"], refused["code"]) for refused in record.json()["refused"]] == [(bad["id"], "game_not_found")]
