"""Every option of the commands a host runs as a service (`cubilete serve`, `admin`, `backup`) also
from an environment variable: CUBILETE_DATABASE_URL for --database, CUBILETE_<OPTION> for the others.
The command line wins; a bad value is refused in one line, exit status 2, naming the variable."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from harness import free_port

from cubilete.cli.environment import variable_of
from cubilete.cli.main import build_parser


def serve_parser() -> argparse.ArgumentParser:
    subparsers = next(action for action in build_parser()._actions if isinstance(action, argparse._SubParsersAction))
    parser: argparse.ArgumentParser = subparsers.choices["serve"]
    return parser


def parse(*argv: str) -> argparse.Namespace:
    return build_parser().parse_args(list(argv))


def test_options_come_from_their_variables_converted_as_on_the_command_line(monkeypatch):
    monkeypatch.setenv("CUBILETE_DATABASE_URL", "postgresql://cubilete@db/games")
    monkeypatch.setenv("CUBILETE_PORT", "8123")
    monkeypatch.setenv("CUBILETE_IDLE_TIMEOUT", "2.5")
    monkeypatch.setenv("CUBILETE_NO_OPEN_TABLES", "yes")
    monkeypatch.setenv("CUBILETE_CREATION_PASSWORD", "s3cret")
    args = parse("serve")
    assert args.database == "postgresql://cubilete@db/games"
    assert args.port == 8123 and args.idle_timeout == 2.5
    assert args.open_tables is False and args.creation_password == "s3cret"
    assert args.broker is None and args.max_connections == 1000  # unset: the defaults


def test_the_command_line_wins_over_the_environment(monkeypatch):
    monkeypatch.setenv("CUBILETE_PORT", "not a port")  # left out: never read
    monkeypatch.setenv("CUBILETE_DATABASE_URL", "sqlite:///from-environment.sqlite3")
    monkeypatch.setenv("CUBILETE_OPEN", "1")
    args = parse("serve", "--port", "9000", "--database", "sqlite:///given.sqlite3")
    assert args.port == 9000 and args.database == "sqlite:///given.sqlite3"
    assert args.open is True


@pytest.mark.parametrize("flag_value, open_tables", [("0", True), ("off", True), ("", True), ("TRUE", False)])
def test_a_flag_is_given_by_a_true_word_and_not_by_a_false_or_empty_one(monkeypatch, flag_value, open_tables):
    monkeypatch.setenv("CUBILETE_NO_OPEN_TABLES", flag_value)
    assert parse("serve").open_tables is open_tables


@pytest.mark.parametrize(
    "variable, value, words",
    [
        ("CUBILETE_MAX_CONNECTIONS", "0", ("a whole number from 1", "'0'")),
        ("CUBILETE_PORT", "eighty", ("invalid int value", "'eighty'")),
        ("CUBILETE_NO_OPEN_TABLES", "maybe", ("--no-open-tables", "'maybe'")),
        ("CUBILETE_CREATION_PASSWORD", " ", ()),  # blank is unset: no refusal
    ],
)
def test_a_bad_value_is_refused_in_one_line_naming_its_variable(monkeypatch, capsys, variable, value, words):
    monkeypatch.setenv(variable, value)
    if not words:
        assert parse("serve").creation_password is None
        return
    with pytest.raises(SystemExit) as stopped:
        parse("serve")
    assert stopped.value.code == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"cubilete: error: {variable}: "), lines
    assert all(word in lines[0] for word in words), lines[0]


@pytest.mark.parametrize(
    "variable, value, words",
    [
        ("CUBILETE_DATABASE_URL", "mysql://root:secret@db/cubilete", ("mysql:// is not supported",)),  # aborted: exit 134
        ("CUBILETE_DATABASE_URL", "not a url", ("not a database URL",)),
        ("CUBILETE_BROKER", "amqp://guest@localhost", ("redis://", "not amqp://")),  # a traceback, exit 1
        ("CUBILETE_PUBLIC_URL", "dice.example.org", ("https://", "'dice.example.org'")),  # accepted silently
        ("CUBILETE_PUBLIC_URL", "https://dice.example.org:99999", ("'https://dice.example.org:99999'",)),
    ],
)
def test_a_url_nothing_could_use_is_refused_at_start_in_one_line(monkeypatch, capsys, variable, value, words):
    monkeypatch.setenv(variable, value)
    with pytest.raises(SystemExit) as stopped:
        parse("serve")
    lines = capsys.readouterr().err.splitlines()
    assert stopped.value.code == 2 and len(lines) == 1 and lines[0].startswith(f"cubilete: error: {variable}: "), lines
    assert all(word in lines[0] for word in words) and "secret" not in lines[0], lines[0]


def test_the_same_urls_are_refused_on_the_command_line():
    for option, value in (("--database", "mysql://db/x"), ("--broker", "http://x"), ("--public-url", "x.org")):
        with pytest.raises(SystemExit) as stopped:
            parse("serve", option, value)
        assert stopped.value.code == 2
    accepted = parse("serve", "--database", "postgres://u@h/db", "--broker", "rediss://h:6380/1", "--public-url",
                     "https://dice.example.org:8443/")
    assert (accepted.database, accepted.broker) == ("postgres://u@h/db", "rediss://h:6380/1")


def test_a_misspelled_variable_is_named_at_start(monkeypatch, capsys, tmp_path):
    from cubilete.cli.main import main

    monkeypatch.setenv("CUBILETE_DATABSE_URL", "postgresql://db/cubilete")
    monkeypatch.setenv("CUBILETE_TEST_POSTGRES", "1")  # the test suite's own: never named
    assert main(["admin", "stats", "--database", f"sqlite:///{tmp_path / 'games.sqlite3'}"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "cubilete: CUBILETE_DATABSE_URL is no cubilete setting (did you mean CUBILETE_DATABASE_URL?): ignored"
    ]
    monkeypatch.setenv("CUBILETE_JSON", "1")
    assert main(["score", "penta", "--dice", "1,2,3,4,5"]) == 0  # a player's command reads no variable: names none
    assert "CUBILETE_JSON" not in capsys.readouterr().err


def test_every_serve_option_has_a_variable_named_in_its_help():
    """Options added later get theirs from the same rule: this covers them too."""
    parser = serve_parser()
    options = [action for action in parser._actions if action.option_strings and action.dest != "help"]
    assert len(options) >= 12
    help_text = " ".join(parser.format_help().split())
    for action in options:
        variable = variable_of(action)
        assert variable is not None and variable.startswith("CUBILETE_"), action.option_strings
        assert f"[env: {variable}]" in help_text, variable
    assert variable_of(next(a for a in options if a.dest == "database")) == "CUBILETE_DATABASE_URL"


def test_commands_that_are_not_services_read_no_variables(monkeypatch):
    monkeypatch.setenv("CUBILETE_JSON", "1")
    assert parse("rules", "penta").json is False


@pytest.fixture
def password_postgres():
    """A PostgreSQL cluster of this test's own that asks a password (the shared one trusts everyone)."""
    if shutil.which("initdb") is None or shutil.which("pg_ctl") is None:
        pytest.skip("initdb and pg_ctl are not installed: a PostgreSQL with a password needs a cluster of its own")
    as_owner = [] if os.geteuid() != 0 else ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    # outside pytest's folders, which only their owner may enter: PostgreSQL refuses to run as root
    folder = Path(tempfile.mkdtemp(prefix="cubilete-postgres-"))
    (folder / "password").write_text("s3cret\n")
    if as_owner:
        for path in (folder, folder / "password"):
            shutil.chown(path, "nobody", "nogroup")
    port = free_port()
    initdb = ["initdb", "-D", str(folder / "data"), "-U", "cubilete", "--auth=scram-sha-256"]
    subprocess.run([*as_owner, *initdb, f"--pwfile={folder / 'password'}"], check=True, capture_output=True)
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1"
    pg_ctl = [*as_owner, "pg_ctl", "-D", str(folder / "data")]
    subprocess.run([*pg_ctl, "-o", options, "-l", str(folder / "log"), "-w", "start"], check=True, capture_output=True)
    try:
        yield f"postgresql://cubilete@127.0.0.1:{port}/postgres", port
    finally:
        subprocess.run([*pg_ctl, "-m", "fast", "-w", "stop"], check=True, capture_output=True)
        shutil.rmtree(folder)


@pytest.mark.slow  # a PostgreSQL cluster of its own with a password, and four processes migrating it: 10-20 s
def test_the_database_password_comes_from_libpqs_places_never_the_command_line(password_postgres, tmp_path):
    """A URL without a password: libpq finds it in PGPASSWORD, in PGPASSFILE or in ~/.pgpass."""
    url, port = password_postgres
    pgpass = tmp_path / "pgpass"
    pgpass.write_text(f"127.0.0.1:{port}:postgres:cubilete:s3cret\n")
    pgpass.chmod(0o600)
    (tmp_path / ".pgpass").write_bytes(pgpass.read_bytes())
    (tmp_path / ".pgpass").chmod(0o600)
    clean = {name: value for name, value in os.environ.items() if not name.startswith("PG")}
    command = [sys.executable, "-m", "cubilete.cli.main", "admin", "stats"]

    def stats(**env: str) -> subprocess.CompletedProcess[str]:
        environment = {**clean, "HOME": str(tmp_path / "nohome"), "CUBILETE_DATABASE_URL": url, **env}
        return subprocess.run(command, capture_output=True, text=True, timeout=60, env=environment)

    refused = stats()
    assert refused.returncode == 2 and "no password supplied" in refused.stderr
    for found in (stats(PGPASSWORD="s3cret"), stats(PGPASSFILE=str(pgpass)), stats(HOME=str(tmp_path))):
        assert found.returncode == 0, found.stderr
        assert "0 games" in found.stdout and "s3cret" not in found.stdout
