"""`cubilete backup`: a running SQLite server's games copied whole while it serves, found again by a
server started on the copy; PostgreSQL and a destination that exists are refused. `cubilete restore`:
the backup copied back into the database's own file."""

from __future__ import annotations

import os
import sqlite3

import pytest
from fastapi.testclient import TestClient
from harness import next_action

from cubilete.cli.main import main

ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}



class InProcess:
    """The app spoken to in-process, with a served Server's `api`."""

    def __init__(self, client) -> None:
        self.client = client

    def api(self, method: str, path: str, body: dict | None = None) -> dict:
        return self.client.request(method, path, json=body).json()


def play(server, created: dict, moves: int) -> dict:
    """Play `moves` moves of the game through the API (a Server's, or InProcess); answers its view after the last."""
    path = f"/api/games/{created['id']}"
    view = server.api("GET", path)
    for _ in range(moves):
        seat = view["current_player"]
        body = {
            "seat": seat,
            "token": created["seats"][seat]["token"],
            "action": next_action(view),
            "at": view["events"],
        }
        server.api("POST", f"{path}/actions", body)
        view = server.api("GET", path)
    return view


@pytest.mark.slow  # a server of its own through a whole scenario: the slow step runs it
def test_a_backup_taken_while_the_server_plays_holds_every_game_and_move(start_server, tmp_path, capsys):
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    server = start_server(database)
    assert f"database {database};" in server.log.read_text()  # where the host finds them
    games = [server.api("POST", "/api/games", {"game": "penta", "players": [ANA, LUIS]}) for _ in range(3)]
    views = {created["id"]: play(server, created, moves) for created, moves in zip(games, (0, 4, 9), strict=True)}
    assert [view["events"] > 0 for view in views.values()] == [False, True, True]

    backup = tmp_path / "backup.sqlite3"
    assert main(["backup", str(backup), "--database", database]) == 0
    assert str(backup) in capsys.readouterr().out
    assert play(server, games[0], 2)["events"] > 0  # the server plays on after the backup (not in it)
    server.stop()

    restored = start_server(f"sqlite:///{backup}")
    for game_id, view in views.items():
        assert restored.api("GET", f"/api/games/{game_id}") == view
    assert play(restored, games[1], 1)["events"] > views[games[1]["id"]]["events"]  # and go on from there


def test_postgresql_is_refused_with_pg_dump_named(tmp_path, capsys):
    destination = tmp_path / "backup.sqlite3"
    assert main(["backup", str(destination), "--database", "postgresql://cubilete@127.0.0.1/cubilete"]) == 2
    assert "pg_dump" in capsys.readouterr().err
    assert not destination.exists()


def test_a_destination_that_exists_is_refused_and_kept(database, tmp_path, capsys):
    from cubilete.storage import Storage

    Storage(database).close()
    destination = tmp_path / "taken.sqlite3"
    destination.write_text("mine")
    assert main(["backup", str(destination), "--database", database]) == 2
    assert "already exists" in capsys.readouterr().err
    assert destination.read_text() == "mine"


def test_a_database_that_is_not_there_is_refused_not_made(tmp_path, capsys):
    missing = tmp_path / "nothing.sqlite3"
    assert main(["backup", str(tmp_path / "backup.sqlite3"), "--database", f"sqlite:///{missing}"]) == 2
    assert "cannot back up" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_a_backup_is_its_owners_alone_and_a_restore_keeps_the_databases_owner_and_mode(tmp_path, capsys):
    """The host's audit: the guide's `cp` of a backup, as root, left a root-owned database that the server
    read and could not write; and backups, which hold the push signing key, were readable by anyone."""
    from cubilete.web import create_app

    path = tmp_path / "games.sqlite3"
    database = f"sqlite:///{path}"
    with TestClient(create_app(database)) as client:
        kept = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS]}).json()["id"]
        backup = tmp_path / "backup.sqlite3"
        assert main(["backup", str(backup), "--database", database]) == 0
        after = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS]}).json()["id"]
    assert backup.stat().st_mode & 0o777 == 0o600
    os.chown(path, 65534, 65534)  # the service user's, as systemd's DynamicUser gives
    path.chmod(0o640)
    capsys.readouterr()

    assert main(["restore", str(backup), "--database", database]) == 0
    assert str(backup) in capsys.readouterr().out
    assert (path.stat().st_uid, path.stat().st_mode & 0o777) == (65534, 0o640)
    with TestClient(create_app(database)) as client:
        assert client.get(f"/api/games/{kept}").status_code == 200
        assert client.get(f"/api/games/{after}").status_code == 404  # made after the backup: gone with the restore
    not_a_backup = tmp_path / "notes.sqlite3"
    sqlite3.connect(not_a_backup).close()
    assert main(["restore", str(not_a_backup), "--database", database]) == 2
    assert "is not a backup" in capsys.readouterr().err
    assert main(["restore", str(backup), "--database", "postgresql://cubilete@127.0.0.1/cubilete"]) == 2
    assert "pg_restore" in capsys.readouterr().err


@pytest.mark.slow  # a PostgreSQL server of the test's own
def test_the_guides_postgresql_restore_into_a_new_database_serves_every_game(postgres_cluster, tmp_path):
    """The guide's steps (docs/hosting.md, "PostgreSQL: pg_dump"): pg_dump, then createdb and pg_restore into
    a new database, which a server then serves with every game as it was. (The old steps' `pg_restore
    --clean --if-exists` into the migrated database failed, and left it refusing the next start.)"""
    import subprocess

    from cubilete.web import create_app

    with TestClient(create_app(postgres_cluster.url)) as client:
        games = [client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS]}).json() for _ in range(3)]
        in_process = InProcess(client)
        views = {created["id"]: play(in_process, created, moves) for created, moves in zip(games, (0, 3, 6), strict=True)}
    dump = tmp_path / "cubilete.dump"
    host = ["--host=127.0.0.1", f"--port={postgres_cluster.port}", "--username=postgres"]
    subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", *host, "postgres"], check=True, timeout=60)
    assert dump.stat().st_size > 0
    subprocess.run(["createdb", *host, "cubilete_restored"], check=True, timeout=60)
    subprocess.run(["pg_restore", "--no-owner", *host, "--dbname=cubilete_restored", str(dump)], check=True, timeout=60)
    restored = postgres_cluster.url.rsplit("/", 1)[0] + "/cubilete_restored"
    with TestClient(create_app(restored)) as client:
        for game_id, view in views.items():
            assert client.get(f"/api/games/{game_id}").json() == view
