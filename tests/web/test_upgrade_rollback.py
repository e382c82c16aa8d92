"""The guide's upgrade and rollback on PostgreSQL (docs/hosting.md, "Upgrades" and "PostgreSQL: pg_dump"),
as a host does them with the release before this one (0.3.0, from the repository's history): back up,
upgrade (this release migrates the database), then roll back: restore the backup into a new database and
start the old release on it, which serves every game as it was. The audit's steps (`pg_restore --clean
--if-exists` into the migrated database) failed, and left a database the old release refused."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from harness import Server, free_port, next_action

ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}
PREVIOUS_RELEASE = "e90b846"  # 0.3.0 (migrations to 0010)
ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def previous_src(tmp_path) -> Path:
    """The previous release's `src`, from the repository's history (skipped without it: a shallow clone)."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", PREVIOUS_RELEASE, "src"], capture_output=True, timeout=60
    )
    if archive.returncode != 0:
        pytest.skip(f"the previous release {PREVIOUS_RELEASE} is not in this clone's history: {archive.stderr!r}")
    subprocess.run(["tar", "-x", "-C", str(tmp_path)], input=archive.stdout, check=True, timeout=60)
    return tmp_path / "src"


def play(server: Server, created: dict, moves: int) -> dict:
    path = f"/api/games/{created['id']}"
    view = server.api("GET", path)
    for _ in range(moves):
        seat = view["current_player"]
        body = {"seat": seat, "token": created["seats"][seat]["token"], "action": next_action(view), "at": view["events"]}
        server.api("POST", f"{path}/actions", body)
        view = server.api("GET", path)
    return view


@pytest.mark.slow  # a PostgreSQL server of the test's own and three server starts
def test_a_backup_taken_before_an_upgrade_rolls_back_to_the_previous_release(postgres_cluster, previous_src, tmp_path):
    old_release = {"PYTHONPATH": str(previous_src)}
    old = Server(postgres_cluster.url, free_port(), tmp_path / "old.log", env=old_release).start()
    games = [old.api("POST", "/api/games", {"game": "penta", "players": [ANA, LUIS]}) for _ in range(2)]
    views = {created["id"]: play(old, created, moves) for created, moves in zip(games, (2, 5), strict=True)}
    old.stop()
    assert "cubilete 0.3.0 starting" in old.log.read_text()

    host = ["--host=127.0.0.1", f"--port={postgres_cluster.port}", "--username=postgres"]
    dump = tmp_path / "before-upgrade.dump"
    subprocess.run(["pg_dump", "--format=custom", f"--file={dump}", *host, "postgres"], check=True, timeout=60)
    new = Server(postgres_cluster.url, free_port(), tmp_path / "new.log").start()  # the upgrade: it migrates
    new.api("POST", "/api/games", {"game": "penta", "players": [ANA, LUIS]})
    new.stop()
    refused = Server(postgres_cluster.url, free_port(), tmp_path / "refused.log", env=old_release)
    with pytest.raises(RuntimeError, match="Can't locate revision"):
        refused.start()  # the old release refuses the migrated database: hence the restore

    subprocess.run(["createdb", *host, "cubilete_rolled_back"], check=True, timeout=60)
    subprocess.run(["pg_restore", "--no-owner", *host, "--dbname=cubilete_rolled_back", str(dump)], check=True, timeout=60)
    rolled_back = postgres_cluster.url.rsplit("/", 1)[0] + "/cubilete_rolled_back"
    old_again = Server(rolled_back, free_port(), tmp_path / "rolled-back.log", env=old_release).start()
    try:
        for game_id, view in views.items():
            assert old_again.api("GET", f"/api/games/{game_id}") == view
    finally:
        old_again.stop()
