"""A finished game's record to take home (GET /api/games/{id}/record): refused while the game is on,
as its record holds the secret of its dice; once over, a download (Content-Disposition) that names no
token, replays to the same game, and `cubilete review FILE` reviews."""

from __future__ import annotations

import json

import pytest
from played_games import ANA, BOT, create, play_to_the_end

from cubilete.cli.main import main
from cubilete.engine.runner import Match


@pytest.mark.parametrize(
    "lang, message",
    [
        ("en", "the game's record can be taken once the game is over"),
        ("es", "el registro de la partida se puede descargar cuando termine"),
        ("id", "catatan permainan dapat diunduh setelah permainan selesai"),
    ],
)
def test_a_game_still_on_keeps_its_record_and_says_why(client, lang, message):
    created = create(client, lang)
    response = client.get(f"/api/games/{created['id']}/record?lang={lang}")
    assert response.status_code == 409
    assert response.json()["code"] == "record_not_over" and message in response.json()["message"]
    assert "secret" not in response.json().get("params", {})


def test_a_finished_game_downloads_and_the_review_reads_the_file(client, tmp_path, capsys):
    created = create(client)
    play_to_the_end(client, created)
    response = client.get(f"/api/games/{created['id']}/record")
    assert response.status_code == 200
    name = f"cubilete-5000-{created['id']}.json"
    assert response.headers["content-disposition"] == f'attachment; filename="{name}"'
    document = response.json()
    assert document["seats"] == [{**ANA, "level": None, "left": False}, {**BOT, "left": False}]
    assert created["seats"][0]["token"] not in response.text and "token" not in response.text
    replayed = Match.from_json(document["record"])
    assert (
        replayed.state.is_over
        and list(replayed.state.scores()) == client.get(f"/api/games/{created['id']}").json()["scores"]
    )

    path = tmp_path / name
    path.write_bytes(response.content)
    assert main(["review", str(path), "--json"]) == 0
    review = json.loads(capsys.readouterr().out)
    assert [player["name"] for player in review["players"]] == ["Ana"]  # the human seat, as the file says
    assert review["finished"] is True and review["decisions"]


def test_no_such_game_is_refused(client):
    assert client.get("/api/games/nope/record").json()["code"] == "game_not_found"


def test_downloads_count_in_the_reviews_budget(database):
    from fastapi.testclient import TestClient

    from cubilete.web import create_app
    from cubilete.web.rate_limits import RateLimits

    with TestClient(create_app(database, rate_limits=RateLimits(reviews=1))) as client:
        assert client.get("/api/games/nope/record").status_code == 404
        refused = client.get("/api/games/nope/review")
        assert refused.status_code == 429 and refused.json()["code"] == "too_many_requests"
