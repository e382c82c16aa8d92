"""What `cubilete serve` says as it starts: where the games and the solved tables are (the whole start-up
line: tests/cli/test_cli_serve_logs.py), and, when it cannot start (no broker, no database, no data
directory), why in one line with exit status 2, as for every other bad input, without a traceback."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from harness import free_port

from cubilete.cli.serve_logging import startup_summary
from cubilete.solvers.cache_dir import cache_dir


def serve(*options: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "cubilete.cli.main", "serve", "--port", str(free_port()), *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})})


def assert_refused_in_one_line(done: subprocess.CompletedProcess[str], *words: str) -> None:
    assert done.returncode == 2, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cubilete: error: "), done.stderr
    assert all(word in lines[0] for word in words), lines[0]
    assert "listening" not in done.stdout


def test_the_startup_line_names_the_database_and_broker_without_their_passwords_and_the_cache():
    said = startup_summary(
        "postgresql://cubilete:secret@db.example/games", "redis://:hush@cache.example:6379/0", None, None
    )
    assert "database postgresql+psycopg://cubilete:***@db.example/games" in said and "secret" not in said
    assert "broker redis://:***@cache.example:6379/0" in said and "hush" not in said
    assert f"cache directory {cache_dir()}" in said and "data directory" not in said  # no SQLite file there


def test_the_default_data_location_is_the_user_data_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    said = startup_summary(None, None, None, None)
    assert f"database sqlite:///{tmp_path / 'cubilete' / 'games.sqlite3'}" in said
    assert f"data directory {tmp_path / 'cubilete'}" in said


def test_a_services_state_directory_is_its_data_directory(tmp_path, monkeypatch):
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}:/var/lib/other")  # systemd: the unit's first, then others
    assert f"database sqlite:///{tmp_path / 'games.sqlite3'}" in startup_summary(None, None, None, None)


def test_an_unreachable_broker_is_one_line_and_status_2(tmp_path):
    pytest.importorskip("redis", reason="redis-py is not installed (pip install -e .[servers])")
    closed = free_port()
    done = serve(
        "--database", f"sqlite:///{tmp_path / 'games.sqlite3'}", "--broker", f"redis://:pw@127.0.0.1:{closed}/0"
    )
    assert_refused_in_one_line(done, "broker", f"127.0.0.1:{closed}", "refused")
    assert "pw" not in done.stderr  # the password is hidden


def test_an_unreachable_database_is_one_line_and_status_2():
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e .[servers])")
    closed = free_port()
    done = serve("--database", f"postgresql://cubilete:secret@127.0.0.1:{closed}/x")
    assert_refused_in_one_line(done, "database", f"127.0.0.1:{closed}/x", "refused")
    assert "secret" not in done.stderr


def test_a_database_file_that_cannot_be_made_is_one_line_and_status_2(tmp_path):
    (tmp_path / "a-file").touch()
    done = serve("--database", f"sqlite:///{tmp_path / 'a-file' / 'games.sqlite3'}")
    assert_refused_in_one_line(done, "database", "a-file", "unable to open")


def test_a_data_directory_that_cannot_be_made_is_one_line_and_status_2(tmp_path):
    (tmp_path / "a-file").touch()
    done = serve(env={"XDG_DATA_HOME": str(tmp_path / "a-file" / "data"), "HOME": str(tmp_path / "a-file")})
    assert_refused_in_one_line(done, "data directory", "a-file", "--database")
