"""A real `cubilete serve` process bounds what it holds: connections beyond --max-connections are answered
503, a connection that sends nothing or sends its headers slowly is closed, live sockets beyond the
bounds of a game are closed with a code, and a WebSocket message larger than a request body is refused.

Each test waits for the state it checks (the socket closed, the refusal read), never for a time; the
sockets' own timeouts only keep a broken server from hanging the test."""

from __future__ import annotations

import json
import select
import socket
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from harness import Server, free_port
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cubilete.web import SocketLimits

SAFETY_SECONDS = 20  # what a broken server may cost a test at most; no test waits for it to pass
OPTIONS = (
    "--max-connections", "6", "--idle-timeout", "0.5", "--header-timeout", "1",
    "--max-sockets-per-game", "3", "--max-sockets-per-client", "50",
)


class Served(Server):
    """The bounded server, with the clients these tests need."""

    def new_game(self) -> str:
        body = json.dumps({"game": "penta", "players": [{"name": "Ana", "kind": "human"}]}).encode()
        request = urllib.request.Request(
            f"{self.url}/api/games", data=body, method="POST", headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=SAFETY_SECONDS) as response:
            return json.load(response)["id"]

    def follow(self, game_id: str) -> ClientConnection:
        return connect(f"ws://127.0.0.1:{self.port}/api/games/{game_id}/live", open_timeout=SAFETY_SECONDS)

    def raw(self) -> socket.socket:
        return socket.create_connection(("127.0.0.1", self.port), timeout=SAFETY_SECONDS)


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("bounded")
    server = Served(f"sqlite:///{folder / 'games.sqlite3'}", free_port(), folder / "server.log", options=OPTIONS)
    yield server.start()
    server.stop()


def answer_or_close(connection: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    received = b""
    try:
        while chunk := connection.recv(4096):
            received += chunk
    except ConnectionResetError:
        pass
    return received


def test_a_connection_that_sends_nothing_is_closed_after_the_idle_timeout(served):
    with served.raw() as idle:
        assert answer_or_close(idle) == b""  # closed without a word: no request was begun


def test_a_connection_sending_its_headers_slowly_is_answered_408_and_closed(served):
    with served.raw() as slow:
        slow.sendall(b"GET /api/games/options HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        while not select.select([slow], [], [], 0.05)[0]:  # a header byte now and then, until answered
            slow.sendall(b"X")
        answer = answer_or_close(slow)
    assert answer.startswith(b"HTTP/1.1 408 ")
    assert answer.endswith(b"the request's headers did not arrive in time")


def test_connections_beyond_the_bound_are_answered_503_and_the_next_after_one_closed_is_served(served):
    """Live sockets hold their connections (the idle timeout is for HTTP connections between requests)."""
    game_id = served.new_game()
    games = [game_id, served.new_game()]  # 3 sockets per game at most
    with ExitStack() as stack:
        held = [stack.enter_context(served.follow(games[index % 2])) for index in range(6)]
        for socket_ in held:
            assert json.loads(socket_.recv(timeout=SAFETY_SECONDS))["events"] == 0
        with served.raw() as beyond:
            beyond.sendall(b"GET /api/games/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = answer_or_close(beyond)
        assert answer.startswith(b"HTTP/1.1 503 ") and b"retry-after: 5" in answer
        held[0].close()
        deadline = time.monotonic() + SAFETY_SECONDS
        while True:  # served again once the server has seen that socket go
            try:
                urllib.request.urlopen(f"{served.url}/api/games/options", timeout=SAFETY_SECONDS).close()
                break
            except OSError:  # still refused (answered 503, or reset as it closed)
                assert time.monotonic() < deadline


def test_live_sockets_beyond_the_bound_of_a_game_are_closed_with_a_code(served):
    game_id = served.new_game()
    with ExitStack() as stack:
        for _ in range(3):
            follower = stack.enter_context(served.follow(game_id))
            assert json.loads(follower.recv(timeout=SAFETY_SECONDS))["events"] == 0
        with served.follow(game_id) as beyond, pytest.raises(ConnectionClosed) as closed:
            beyond.recv(timeout=SAFETY_SECONDS)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (4429, "too many live connections to this game")


def test_a_websocket_message_larger_than_a_request_body_is_refused_unread(served):
    most = SocketLimits().max_message
    with served.follow(served.new_game()) as follower:
        assert json.loads(follower.recv(timeout=SAFETY_SECONDS))["events"] == 0
        follower.send(json.dumps({"since": 0}).ljust(most))  # up to the bound: answered
        assert json.loads(follower.recv(timeout=SAFETY_SECONDS))["events"] == 0
        follower.send(" " * (most + 1))
        with pytest.raises(ConnectionClosed) as closed:
            follower.recv(timeout=SAFETY_SECONDS)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_the_help_gives_the_live_sockets_default_bounds(capsys):
    """serve.py writes them out, not to import the web app for every command."""
    from cubilete.cli.main import main

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    defaults = SocketLimits()
    assert f"code 4429 unless they prove a seat (default: {defaults.per_game})" in help_text
    assert f"this many more; beyond, closed with code 4429 (default: {defaults.seat_pages})" in help_text
    assert f"one /64); beyond, closed with code 4429 (default: {defaults.per_client})" in help_text
