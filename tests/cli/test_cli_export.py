"""`cubilete export GAME_ID`: a finished game of the app's database written as the file the game page
downloads, which `cubilete review FILE` reviews; a game still on is refused (its dice's secret)."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient
from played_games import create, play_to_the_end

from cubilete.cli.main import main
from cubilete.web import create_app


@pytest.fixture
def app_client(database):
    with TestClient(create_app(database)) as client:
        yield client


def test_a_finished_game_is_exported_as_the_page_downloads_it_and_reviewed(
    app_client, database, tmp_path, capsys, monkeypatch
):
    created = create(app_client)
    play_to_the_end(app_client, created)
    downloaded = app_client.get(f"/api/games/{created['id']}/record").json()
    monkeypatch.chdir(tmp_path)
    assert main(["export", created["id"], "--database", database]) == 0
    path = tmp_path / f"cubilete-5000-{created['id']}.json"
    assert capsys.readouterr().out == f"wrote {path}: cubilete review {path.name} reviews it\n"
    assert json.loads(path.read_text(encoding="utf-8")) == downloaded
    assert main(["review", path.name]) == 0
    out = capsys.readouterr().out
    assert (
        out.startswith("5000 (seed), finished; loss in chance to win")
        and "Ana (seat 0)" in out
        and "Bot (seat 1)" not in out
    )
    assert main(["export", created["id"], "--database", database, "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out) == downloaded


def test_a_game_still_on_or_unknown_is_refused(app_client, database, tmp_path, capsys):
    created = create(app_client)
    assert main(["export", created["id"], "--database", database, "-o", str(tmp_path / "game.json")]) == 2
    assert "the game's record can be taken once the game is over" in capsys.readouterr().err
    assert not (tmp_path / "game.json").exists()
    assert main(["export", "nope", "--database", database]) == 2
    assert capsys.readouterr().err == "cubilete: error: the database has no game 'nope'\n"
