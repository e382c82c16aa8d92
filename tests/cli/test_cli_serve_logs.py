"""What `cubilete serve` logs: every record timestamped (ISO 8601) with its level and logger, on standard
error; a start-up line naming the version, database, broker, public URL and directories; --log-level
choosing what is logged, and --access-log each request."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from datetime import datetime

import pytest
from harness import Server, free_port

from cubilete import __version__

RECORD = re.compile(r"^(\S+) (DEBUG|INFO|WARNING|ERROR) ([\w.]+): (.*)$")


def serve(tmp_path, *options: str, broker: str | None = None) -> Server:
    return Server(
        f"sqlite:///{tmp_path / 'games.sqlite3'}", free_port(), tmp_path / "server.log", broker, options=options
    )


def records(server: Server) -> list[tuple[datetime, str, str, str]]:
    """The log's records (time, level, logger, message); what is not one (the addresses printed for
    people) is left out."""
    found = []
    for line in server.log.read_text().splitlines():
        if match := RECORD.match(line):
            found.append((datetime.fromisoformat(match[1]), match[2], match[3], match[4]))
    return found


def send_nonsense(server: Server) -> bytes:
    """A request uvicorn cannot parse, which it answers 400 after logging a warning."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=20) as connection:
        connection.sendall(b"NONSENSE\r\n\r\n")
        return connection.recv(1024)


@pytest.fixture
def stopped_after():
    servers: list[Server] = []
    yield servers.append
    for server in servers:
        server.stop()


def test_the_startup_line_names_what_the_server_uses_and_warnings_are_timestamped(tmp_path, redis_url, stopped_after):
    server = serve(tmp_path, "--public-url", "https://dice.example", broker=redis_url)
    stopped_after(server.start())
    assert send_nonsense(server).startswith(b"HTTP/1.1 400 ")
    logged = records(server)
    startup = next(message for _, level, name, message in logged if message.startswith("cubilete ") and level == "INFO")
    assert startup.startswith(f"cubilete {__version__} starting: database sqlite:///{tmp_path / 'games.sqlite3'};")
    assert f"broker {redis_url}" in startup and "public URL https://dice.example" in startup
    assert "cache directory " in startup and "compiled kernels " in startup
    assert "forwarded headers from 127.0.0.1,::1" in startup  # --public-url: a proxy on this machine
    warning = [
        (when, name) for when, level, name, message in logged if level == "WARNING" and "Invalid HTTP" in message
    ]
    assert len(warning) == 1 and warning[0][1] == "uvicorn.error"
    assert warning[0][0].tzinfo is not None  # the offset from UTC, not a bare local time
    assert not [message for *_, name, message in logged if name == "uvicorn.access"]  # no access log by default
    assert not [level for _, level, *_ in logged if level == "DEBUG"]


def test_at_the_warning_level_only_warnings_are_logged(tmp_path, stopped_after):
    server = serve(tmp_path, "--log-level", "warning")
    stopped_after(server.start())
    send_nonsense(server)
    assert {level for _, level, *_ in records(server)} == {"WARNING"}
    assert "cubilete is listening on:" in server.log.read_text()  # the addresses are still printed for people


def test_at_the_debug_level_with_the_access_log_each_request_and_the_bounds_are_logged(tmp_path, stopped_after):
    server = serve(tmp_path, "--log-level", "debug", "--access-log", "--max-sockets-per-client", "7")
    stopped_after(server.start())
    logged = records(server)
    bounds = [message for _, level, name, message in logged if level == "DEBUG" and name.startswith("cubilete")]
    assert any("per_client=7" in message for message in bounds), bounds
    requests = [message for *_, name, message in logged if name == "uvicorn.access"]
    assert any('"GET /api/games/options HTTP/1.1" 200' in message for message in requests), requests
    # the libraries beneath log only their warnings: no thousands of lines of Numba's compiler
    assert not [name for _, level, name, _ in logged if level == "DEBUG" and name.startswith(("numba", "alembic"))]


def test_an_unknown_log_level_is_refused():
    command = [sys.executable, "-m", "cubilete.cli.main", "serve", "--log-level", "verbose"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--log-level" in done.stderr and "'verbose'" in done.stderr


@pytest.mark.slow  # a server of its own through a whole scenario: the slow step runs it
@pytest.mark.parametrize("access_log", [False, True])
def test_a_live_connection_logs_the_players_address_only_with_the_access_log(tmp_path, stopped_after, access_log):
    """The host's audit: each live connection logged the player's address and the game's id even without
    --access-log."""
    from websockets.sync.client import connect

    server = serve(tmp_path, *(["--access-log"] if access_log else []))
    stopped_after(server.start())
    created = server.api("POST", "/api/games", {"game": "penta", "players": [{"name": "Ana", "kind": "human"}]})
    with connect(f"ws://127.0.0.1:{server.port}/api/games/{created['id']}/live", open_timeout=20) as socket_:
        socket_.recv(timeout=20)  # the game's view: the connection is accepted and followed
    server.stop()  # its log is whole
    told = [message for *_, message in records(server) if created["id"] in message or "connection " in message]
    assert bool(told) is access_log, told


def test_the_hosting_guides_start_up_example_names_this_release():
    """The host's audit: the guide's example said 0.1.0 two releases later."""
    from pathlib import Path

    guide = (Path(__file__).parents[2] / "docs" / "hosting.md").read_text()
    assert re.findall(r"cubilete (\d+\.\d+\.\d+) starting:", guide) == [__version__]
