"""A traditional Generala won at once by a Generala servida (docs/rules.md#generala-servida-wins), seen
wherever a game ends: the game's view (who won, with what dice, the places), the game read again from
the database, the review, the player's record, the download and `cubilete export`, and the live bar.
The game: Ana scores her first roll, then the bot's first roll wins (played_games.won_at_once)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from played_games import won_at_once

from cubilete.cli.main import main
from cubilete.engine.runner import Match
from cubilete.web import create_app


def view_of(client, created, **params) -> dict:
    response = client.get(f"/api/games/{created['id']}", params=params)
    assert response.status_code == 200, response.text
    return response.json()


def test_the_view_names_the_seat_that_won_at_once_its_dice_and_the_places(client):
    created = won_at_once(client)
    view = view_of(client, created, since=0)
    assert view["is_over"] and view["current_player"] is None
    assert view["table"]["won_at_once"] == 1 and len(set(view["table"]["dice"])) == 1
    assert view["ranking"] == [2, 1] and view["scores"][0] > view["scores"][1] == 0  # the winner first all the same
    assert all(len(sheet["boxes"]) < len(view["table"]["boxes"]) for sheet in view["table"]["sheets"])
    *before, last = view["steps"]  # the steps a page animates: the winning roll is the last
    assert "roll" in last["event"] and last["table"]["won_at_once"] == 1
    assert all(step["table"]["won_at_once"] is None for step in before)


def test_a_game_won_at_once_reads_back_from_the_database_the_same(client, database):
    created = won_at_once(client)
    served = view_of(client, created)
    with TestClient(create_app(database)) as other:  # another process: the record replayed (Match.from_json)
        assert view_of(other, created) == served
        live = other.app.state.services.games.get(created["id"])
        assert live.history[len(live.match.events) - 1].winner is None  # older states: the events' replay
        assert live.history[len(live.match.events)] == live.state


def test_the_review_and_the_record_end_at_the_totals_with_the_winner_first(client):
    created = won_at_once(client)
    scores = view_of(client, created)["scores"]
    review = client.get(f"/api/games/{created['id']}/review").json()
    assert review["finished"]
    (ana,) = review["players"]  # the seat a person played
    assert ana["decisions"] == 1 and ana["final"] == scores[0]
    assert ana["start"] + ana["luck"] + ana["skill"] == pytest.approx(ana["final"], abs=1e-6)
    proof = {"game": created["id"], "seat": 0, "token": created["seats"][0]["token"]}
    record = client.post("/api/players/record", json={"name": "Ana", "seats": [proof]}).json()
    (game,) = record["games"]
    assert game["place"] == 2 and game["score"] == scores[0]
    assert record["rule_sets"][0]["wins"] == 0


def test_the_download_and_the_export_replay_to_the_win_and_review(client, database, tmp_path, capsys):
    created = won_at_once(client)
    downloaded = client.get(f"/api/games/{created['id']}/record")
    assert downloaded.status_code == 200
    replayed = Match.from_json(downloaded.json()["record"])
    assert replayed.state.winner == 1 and replayed.state.ranking() == (2, 1)
    capsys.readouterr()
    assert main(["export", created["id"], "--database", database, "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == downloaded.json()
    path = tmp_path / "won.json"
    path.write_bytes(downloaded.content)
    assert main(["review", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("generala (traditional), finished") and "Ana (seat 0)" in out


def test_the_live_bar_of_a_two_seat_traditional_game_answers_to_the_end(client):
    created = won_at_once(client)
    for at, winner_chance in ((1, None), (None, 1.0)):  # Ana's first roll, then the win
        answer = client.get(f"/api/games/{created['id']}/chances", params={} if at is None else {"at": at})
        assert answer.status_code == 200, answer.text
        seats = answer.json()["seats"]
        assert answer.json()["unit"] == "win_probability" and sum(seat["value"] for seat in seats) == pytest.approx(1)
        assert winner_chance is None or seats[1]["value"] == winner_chance
