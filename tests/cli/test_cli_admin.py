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


def test_only_migrate_migrates_a_database_of_an_older_release(tmp_path, capsys):
    """The host's audit: `admin stats` migrated 0006 to 0008 under the running 0.2.0 processes. Now the
    reading and tidying commands refuse it in one line, and `admin migrate` brings it forward."""
    from cubilete.storage.schema import migration_behind
    from tests.web.test_schema_drift import migrate

    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"  # a new file: the fixture's is migrated already
    migrate(database, "0006")
    for words in (("stats",), ("list",), ("expire", "--older-than", "30d"), ("delete", "any")):
        assert main(["admin", *words, "--database", database]) == 2
        message = capsys.readouterr().err.strip()
        assert "is at migration 0006" in message and "cubilete admin migrate" in message, message
    assert main(["review", "any", "--database", database]) == 2
    assert "is at migration 0006" in capsys.readouterr().err
    assert migration_behind(database) == ("0006", migration_behind(database)[1])  # nothing migrated
    assert main(["admin", "migrate", "--database", database]) == 0
    assert "at this release's schema" in capsys.readouterr().out and migration_behind(database) is None
    assert admin(capsys, database, "stats")[0] == 0


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


def test_profiles_are_listed_shown_and_deleted_with_every_row_of_theirs(database, capsys):
    """The host's audit: strangers made profiles on a password-protected server, and no command listed or
    deleted them."""
    with TestClient(create_app(database)) as client:
        beto = client.post("/api/profiles", json={"name": "Beto"}).json()
        client.post("/api/profiles", json={"name": "Ana"})
        headers = {"Authorization": f"Bearer {beto['secret']}"}
        client.post("/api/games", json={"game": "penta", "players": [{"name": "Beto", "kind": "human"}]}, headers=headers)
    status, listed = admin(capsys, database, "profiles", "list")
    assert status == 0 and [(row["name"], row["devices"], row["seats"]) for row in listed["profiles"]] == [
        ("Beto", 1, 1), ("Ana", 1, 0),
    ]
    assert admin(capsys, database, "profiles", "show", "BETO")[1]["profiles"][0]["name"] == "Beto"
    assert admin(capsys, database, "profiles", "delete", "beto", "Nadie") == (1, {"deleted": ["Beto"], "not_found": ["Nadie"]})
    assert [row["name"] for row in admin(capsys, database, "profiles", "list")[1]["profiles"]] == ["Ana"]
    with TestClient(create_app(database)) as client:
        assert client.get("/api/profiles/me", headers=headers).status_code == 401  # its device secret went with it
    assert main(["admin", "profiles", "show", "--database", database]) == 2
    assert "takes names" in capsys.readouterr().err
