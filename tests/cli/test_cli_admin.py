"""`cubilete admin`: a server's games listed, shown, deleted and expired, and its totals, on a SQLite
database whose games were made and played through the API."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, update

from cubilete.cli.main import main
from cubilete.storage.tables import events_table, games_table
from cubilete.web import create_app

ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}


@pytest.fixture
def games(database) -> dict[str, str]:
    """Three games through the API: one nobody moved in, one with a roll, one with its friend invited."""
    with TestClient(create_app(database)) as client:
        made = {
            name: client.post("/api/games", json=body).json()
            for name, body in {
                "unplayed": {"game": "penta", "players": [ANA, LUIS]},
                "played": {"game": "generala", "players": [ANA, LUIS]},
                "invited": {"game": "penta", "players": [ANA, {**LUIS, "invited": True}]},
            }.items()
        }
        played = made["played"]
        view = client.get(f"/api/games/{played['id']}").json()
        roll = {"seat": 0, "token": played["seats"][0]["token"], "action": {"type": "roll"}, "at": view["events"]}
        assert client.post(f"/api/games/{played['id']}/actions", json=roll).status_code == 200
    return {name: created["id"] for name, created in made.items()}


def admin(capsys, database: str, *words: str) -> tuple[int, dict]:
    status = main(["admin", *words, "--database", database, "--json"])
    return status, json.loads(capsys.readouterr().out)


def backdate(database: str, game_ids: list[str], days: int) -> None:
    """As if these games had been created and played `days` ago."""
    engine, back = create_engine(database), timedelta(days=days)
    with engine.begin() as connection:
        games = connection.execute(select(games_table).where(games_table.c.id.in_(game_ids))).all()
        for game in games:
            connection.execute(
                update(games_table)
                .where(games_table.c.id == game.id)
                .values(
                    created=game.created.replace(tzinfo=UTC) - back, updated=game.updated.replace(tzinfo=UTC) - back
                )
            )
        events = connection.execute(select(events_table).where(events_table.c.game_id.in_(game_ids))).all()
        for event in events:
            moved = events_table.c.game_id == event.game_id, events_table.c["index"] == event.index
            connection.execute(
                update(events_table).where(*moved).values(created=event.created.replace(tzinfo=UTC) - back)
            )
    engine.dispose()


def test_list_shows_each_game_with_its_progress_and_players(database, games, capsys):
    status, listed = admin(capsys, database, "list")
    assert status == 0
    by_id = {game["id"]: game for game in listed["games"]}
    assert set(by_id) == set(games.values())
    unplayed, played = by_id[games["unplayed"]], by_id[games["played"]]
    assert (unplayed["game"], unplayed["rules"], unplayed["players"]) == ("penta", "seed", ["Ana", "Luis"])
    assert unplayed["last_move"] is None and played["last_move"] is not None
    assert played["events"] > unplayed["events"] >= 0 and not played["finished"]
    assert datetime.fromisoformat(played["created"]) <= datetime.now(UTC)

    assert main(["admin", "list", "--database", database]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0].split()[:3] == ["ID", "GAME", "RULES"]
    assert all(game_id in text for game_id in games.values()) and "generala" in text


def test_show_gives_one_game_and_refuses_an_unknown_id(database, games, capsys):
    status, shown = admin(capsys, database, "show", games["invited"])
    assert status == 0
    assert [seat["name"] for seat in shown["seats"]] == ["Ana", "Luis"]
    assert main(["admin", "show", "nosuchgame", "--database", database]) == 2
    assert "nosuchgame" in capsys.readouterr().err


def test_delete_removes_games_and_their_events_and_names_the_unknown(database, games, capsys):
    status, answer = admin(capsys, database, "delete", games["played"], "nosuchgame")
    assert status == 1 and answer == {"deleted": [games["played"]], "not_found": ["nosuchgame"]}
    _, listed = admin(capsys, database, "list")
    assert {game["id"] for game in listed["games"]} == {games["unplayed"], games["invited"]}
    with TestClient(create_app(database)) as client:
        assert client.get(f"/api/games/{games['played']}").status_code == 404


def test_expire_deletes_only_games_idle_for_longer_unplayed_ones_alone_when_asked(database, games, capsys):
    backdate(database, [games["unplayed"], games["played"]], days=40)
    _, nothing = admin(capsys, database, "expire", "--older-than", "41d")
    assert nothing == {"deleted": []}
    _, unplayed = admin(capsys, database, "expire", "--older-than", "30d", "--unplayed-only")
    assert unplayed == {"deleted": [games["unplayed"]]}
    _, idle = admin(capsys, database, "expire", "--older-than", "4w")
    assert idle == {"deleted": [games["played"]]}  # the recent game stays
    _, listed = admin(capsys, database, "list")
    assert [game["id"] for game in listed["games"]] == [games["invited"]]


def test_stats_counts_games_events_and_the_file_size(database, games, capsys):
    status, held = admin(capsys, database, "stats")
    assert status == 0
    assert held["games"] == 3 and held["finished"] == 0 and held["events"] > 0 and held["size"] > 0
    assert held["database"] == database


@pytest.mark.parametrize("bad", ["30", "d", "3x", "1d 2h", "-1d"])
def test_a_bad_duration_is_refused(database, capsys, bad):
    with pytest.raises(SystemExit) as stopped:
        main(["admin", "expire", "--older-than", bad, "--database", database])
    assert stopped.value.code == 2 and "--older-than" in capsys.readouterr().err


def test_the_database_comes_from_the_environment_too(database, games, capsys, monkeypatch):
    monkeypatch.setenv("CUBILETE_DATABASE_URL", database)
    assert main(["admin", "stats"]) == 0
    assert "3 games" in capsys.readouterr().out


def test_boards_hide_takes_a_profile_off_the_boards_and_unhide_puts_it_back(database, capsys):
    with TestClient(create_app(database)) as client:
        assert client.post("/api/profiles", json={"name": "Beto"}).status_code == 201
    assert admin(capsys, database, "boards", "hide", "beto") == (0, {"name": "Beto", "hidden_from_boards": True})
    with TestClient(create_app(database)) as client:
        assert client.get("/api/profiles/Beto").json()["hidden_from_boards"] is True
    assert admin(capsys, database, "boards", "unhide", "Beto")[1]["hidden_from_boards"] is False
    with TestClient(create_app(database)) as client:
        assert client.get("/api/profiles/Beto").json()["hidden_from_boards"] is False
    assert main(["admin", "boards", "hide", "Nadie", "--database", database]) == 2
    assert "no profile Nadie" in capsys.readouterr().err
