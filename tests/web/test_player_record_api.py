"""A player's record (POST /api/players/record, the page /player/{name}): the figures of the
finished games a browser proves it holds seats in, under the player's name; refused proofs with
their translated codes; nothing about a game the browser did not prove; the reviews summarised
once per (game, seat) and stored, on SQLite and PostgreSQL."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient
from harness import chosen_seed
from sqlalchemy import create_engine, text

from cubilete.engine.actions import action_to_json
from cubilete.players import make_player
from cubilete.web import create_app, records

ANA = {"name": "Ana", "kind": "human"}
LUIS = {"name": "Luis", "kind": "human"}
CASUAL = {"name": "Bot", "kind": "bot", "level": "casual"}


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request, tmp_path) -> str:
    if request.param == "sqlite":
        return request.getfixturevalue("database")
    return request.getfixturevalue("postgres_url")


@pytest.fixture
def client(database_url):
    with TestClient(create_app(database_url)) as client:
        yield client


def create(client, game="penta", players=(ANA, CASUAL), seed=1, **extra) -> dict:
    response = client.post("/api/games", json={"game": game, "players": list(players), **chosen_seed(players, seed), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def play(client, created, moves: int | None = None) -> dict:
    """The human seats play as the casual computer player would (its choices cost a little), until
    the game is over or after `moves` requests; answers the game's view."""
    live = client.app.state.services.games.get(created["id"])
    chooser = make_player("casual", live.match.rules)
    made = 0
    while not live.state.is_over and made != moves:
        state = live.state
        seat = state.current_player
        action = {"type": "roll"} if state.is_chance else action_to_json(chooser.choose(state))
        body = {"seat": seat, "token": created["seats"][seat]["token"], "action": action}
        response = client.post(f"/api/games/{created['id']}/actions", json=body)
        assert response.status_code == 200, response.text
        made += 1
    return client.get(f"/api/games/{created['id']}").json()


def proof(created, seat=0, token=None) -> dict:
    return {"game": created["id"], "seat": seat, "token": token or created["seats"][seat]["token"]}


def record(client, name, proofs, lang="en") -> dict:
    response = client.post(f"/api/players/record?lang={lang}", json={"name": name, "seats": proofs})
    assert response.status_code == 200, response.text
    return response.json()


def test_the_record_has_the_finished_games_of_the_name_with_their_results_and_reviews(client):
    penta = [create(client, seed=seed) for seed in (1, 2)]
    generala = create(client, game="generala", players=(ANA,))
    hot_seat = create(client, players=(ANA, LUIS), seed=3)  # both seats on this device
    unfinished = create(client, seed=4)
    views = {created["id"]: play(client, created) for created in [*penta, generala, hot_seat]}
    play(client, unfinished, moves=3)
    proofs = [proof(created) for created in [*penta, generala, hot_seat, unfinished]] + [proof(hot_seat, 1)]

    answer = record(client, " ana ", proofs)  # names compare without case or spaces around
    assert answer["name"] == "ana" and answer["refused"] == []
    assert answer["in_progress"] == 1 and answer["other_names"] == ["Luis"]
    games = answer["games"]
    assert sorted(game["id"] for game in games) == sorted(views)
    assert [game["finished"] for game in games] == sorted(game["finished"] for game in games)  # oldest first
    for game in games:
        view = views[game["id"]]
        reviewed = client.get(f"/api/games/{game['id']}/review").json()
        (player,) = [player for player in reviewed["players"] if player["seat"] == 0]
        assert game["seat"] == 0 and game["players"] == len(view["seats"])
        assert (game["score"], game["place"]) == (view["scores"][0], view["ranking"][0])
        assert game["decisions"] == player["decisions"] > 0
        assert game["mean_loss"] == pytest.approx(player["mean_loss"]) and game["unit"] == "points"
    assert any(game["total_loss"] > 0 for game in games)  # the casual choices cost something

    rows = {(row["game"], row["rules"]): row for row in answer["rule_sets"]}
    assert list(rows) == [("penta", "seed"), ("generala", "seed")]  # in the games' order
    penta_games = [game for game in games if game["game"] == "penta"]
    penta_row = rows["penta", "seed"]
    scores = [game["score"] for game in penta_games]
    assert penta_row["games"] == 3 and penta_row["with_others"] == 3
    assert penta_row["wins"] == sum(1 for game in penta_games if game["place"] == 1)
    assert penta_row["mean_score"] == pytest.approx(sum(scores) / 3) and penta_row["best_score"] == max(scores)
    decisions = sum(game["decisions"] for game in penta_games)
    assert penta_row["decisions"] == decisions
    assert penta_row["mean_loss"] == pytest.approx(sum(game["total_loss"] for game in penta_games) / decisions)
    generala_row = rows["generala", "seed"]
    assert (generala_row["games"], generala_row["with_others"], generala_row["wins"]) == (1, 0, 0)  # solo: no win
    assert generala_row["best_score"] == views[generala["id"]]["scores"][0]

    luis = record(client, "Luis", proofs)
    assert [game["id"] for game in luis["games"]] == [hot_seat["id"]] and luis["games"][0]["seat"] == 1
    assert luis["other_names"] == ["Ana"] and luis["in_progress"] == 0


def test_a_5000_game_is_reviewed_in_chance_to_win(client):
    created = create(client, game="5000", players=(ANA, CASUAL))
    view = play(client, created)
    (game,) = record(client, "Ana", [proof(created)])["games"]
    assert game["unit"] == "win_probability" and game["score"] == view["scores"][0]
    assert game["place"] == view["ranking"][0] and 0 <= game["mean_loss"] <= 1


def test_wrong_proofs_are_refused_translated_and_tell_nothing_of_other_games(client):
    mine = create(client)
    theirs = create(client, players=(LUIS, CASUAL), seed=2)  # another browser's game
    for created in (mine, theirs):
        play(client, created)
    proofs = [
        proof(mine, token="not-the-token"),
        proof(mine, seat=1, token="x"),  # the bot's seat: no token proves it
        {"game": mine["id"], "seat": 7, "token": "x"},
        {"game": "no-such-game", "seat": 0, "token": "x"},
        proof(theirs, token=mine["seats"][0]["token"]),  # my token, their game
    ]
    answer = record(client, "Ana", proofs, lang="es")
    assert answer["games"] == [] and answer["rule_sets"] == [] and answer["other_names"] == []
    assert answer["in_progress"] == 0
    codes = [(refusal["game"], refusal["seat"], refusal["code"]) for refusal in answer["refused"]]
    assert codes == [
        (mine["id"], 0, "wrong_token"),
        (mine["id"], 1, "bot_seat"),
        (mine["id"], 7, "seat_range"),
        ("no-such-game", 0, "game_not_found"),
        (theirs["id"], 0, "wrong_token"),
    ]
    messages = [refusal["message"] for refusal in answer["refused"]]
    assert messages[0] == "este enlace no es el del puesto 1 (Ana)"
    assert messages[3] == "no existe la partida «no-such-game»"
    assert "Luis" in messages[4]  # the seat's name, as any spectator of that game sees it, and nothing more
    assert all(set(refusal) == {"game", "seat", "code", "params", "message"} for refusal in answer["refused"])

    assert record(client, "Ana", [])["games"] == []  # no proof, no game: the server lists none
    (game,) = record(client, "Ana", [proof(mine)])["games"]
    assert game["id"] == mine["id"]  # the right token alone, and only its game


def test_a_blank_name_too_many_seats_and_malformed_proofs_are_refused(client):
    blank = client.post("/api/players/record?lang=id", json={"name": "  ", "seats": []})
    assert blank.status_code == 400 and blank.json()["code"] == "blank_name"
    assert blank.json()["message"] == "Setiap pemain perlu nama"
    many = [{"game": "g", "seat": 0, "token": "t"}] * (records.MAX_PROOFS + 1)
    too_many = client.post("/api/players/record?lang=es", json={"name": "Ana", "seats": many})
    assert too_many.status_code == 400 and too_many.json()["code"] == "record_too_many_seats"
    assert too_many.json()["params"] == {"most": records.MAX_PROOFS, "count": records.MAX_PROOFS + 1}
    malformed = client.post("/api/players/record", json={"name": "Ana", "seats": [{"game": "g", "seat": "first"}]})
    assert malformed.status_code == 422 and malformed.json()["code"] == "invalid_request"


def test_each_finished_game_is_reviewed_once_then_read_from_the_database(client, database_url, monkeypatch):
    created = create(client)
    play(client, created)
    first = record(client, "Ana", [proof(created)])

    def no_review(*_args, **_kwargs):
        raise AssertionError("the stored summary should have been read")

    monkeypatch.setattr(records, "review", no_review)
    fresh = TestClient(create_app(database_url))  # another process, or the same after a restart
    with fresh:
        assert record(fresh, "Ana", [proof(created)]) == first
    monkeypatch.undo()

    engine = create_engine(database_url.replace("postgresql://", "postgresql+psycopg://", 1))
    with engine.begin() as connection:
        rows = connection.execute(text("SELECT game_id, seat, decisions FROM seat_summaries")).all()
        assert [(row.game_id, row.seat) for row in rows] == [(created["id"], 0)]  # the bot's seat has no token
        connection.execute(text("UPDATE seat_summaries SET version = 0, decisions = 1"))
    engine.dispose()
    assert record(client, "Ana", [proof(created)]) == first  # an older summary is made again


def test_the_player_page_is_served_in_the_readers_language(client):
    page = client.get("/player/Ana%20Mar%C3%ADa", headers={"Accept-Language": "id"})
    assert page.status_code == 200 and 'lang="id"' in page.text and "/static/js/player.js" in page.text
    assert '"name": "Ana María"' in page.text
