"""One address cannot hold every connection of a real `cubilete serve` (issue 32, item 1): a body
trickling in is closed with its 408, and an address holding its share of the connections is refused
more while another address is served. Other addresses are other loopback sources (127.0.0.2, ...),
which Linux routes to the server on 127.0.0.1.

Each test waits for the state it checks, never for a time; the sockets' own timeouts only keep a
broken server from hanging the test."""

from __future__ import annotations

import select
import socket
import time
from collections.abc import Iterator
from contextlib import ExitStack

import pytest
from harness import Server, free_port

SAFETY_SECONDS = 20  # what a broken server may cost a test at most; no test waits for it to pass
SHARE = 4
PROXY = "127.0.0.9"
OPTIONS = (
    "--max-connections", "12", "--max-connections-per-client", str(SHARE), "--idle-timeout", "60",
    "--body-timeout", "1", "--forwarded-allow-ips", PROXY,
)
OPTIONS_REQUEST = b"GET /api/games/options HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> Iterator[Server]:
    folder = tmp_path_factory.mktemp("shared")
    server = Server(f"sqlite:///{folder / 'games.sqlite3'}", free_port(), folder / "server.log", options=OPTIONS)
    yield server.start()
    server.stop()


def connect_from(served: Server, source: str) -> socket.socket:
    return socket.create_connection(("127.0.0.1", served.port), timeout=SAFETY_SECONDS, source_address=(source, 0))


def answer(connection: socket.socket) -> bytes:
    """The first bytes the server sends (a whole small answer), or b"" when it closed the connection."""
    try:
        return connection.recv(65536)
    except ConnectionResetError:
        return b""


def served_to(connection: socket.socket) -> bytes:
    """The answer to a request on the connection, whole (its head and the body its length gives)."""
    connection.sendall(OPTIONS_REQUEST)
    received = answer(connection)
    while b"\r\n\r\n" not in received and (chunk := answer(connection)):
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = next((int(line[15:]) for line in head.lower().split(b"\r\n") if line.startswith(b"content-length:")), 0)
    while len(body) < length and (chunk := answer(connection)):
        body += chunk
    return head + b"\r\n\r\n" + body


def test_a_body_trickling_in_is_answered_408_and_its_connection_closed(served):
    """As the audit did: Content-Length 60000, then a byte now and then (here faster than the deadline)."""
    with connect_from(served, "127.0.0.2") as slow:
        slow.sendall(b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")
        slow.sendall(b"Content-Length: 60000\r\n\r\n{")
        received, closed = b"", False
        deadline = time.monotonic() + SAFETY_SECONDS
        while not closed and time.monotonic() < deadline:  # bytes keep coming, as long as the server takes them
            if select.select([slow], [], [], 0.1)[0]:
                chunk = answer(slow)
                received, closed = received + chunk, not chunk
            else:
                try:
                    slow.sendall(b" ")
                except OSError:  # closed while a byte was on its way
                    closed = True
    assert received.startswith(b"HTTP/1.1 408 ") and b'"body_too_slow"' in received
    assert closed, "the connection stayed open while the body trickled in"


def test_an_address_beyond_its_share_is_refused_while_another_address_is_served(served):
    with ExitStack() as stack:
        held = [stack.enter_context(connect_from(served, "127.0.0.3")) for _ in range(SHARE)]
        for connection in held:  # each is served, so each is held by the server
            assert served_to(connection).startswith(b"HTTP/1.1 200 ")
        beyond = [stack.enter_context(connect_from(served, "127.0.0.3")) for _ in range(SHARE)]
        for connection in beyond:
            refusal = answer(connection)
            assert refusal.startswith(b"HTTP/1.1 429 ") and b"retry-after: 5" in refusal
            assert b"this address holds too many connections" in refusal
        player = stack.enter_context(connect_from(served, "127.0.0.4"))
        assert served_to(player).startswith(b"HTTP/1.1 200 ")
        assert served_to(held[0]).startswith(b"HTTP/1.1 200 ")  # the share itself stays served
        held[1].close()
        deadline = time.monotonic() + SAFETY_SECONDS
        while True:  # the address gets its connection back once the server has seen one of them go
            with connect_from(served, "127.0.0.3") as again:
                if served_to(again).startswith(b"HTTP/1.1 200 "):
                    break
            assert time.monotonic() < deadline


def test_a_believed_proxy_is_not_held_to_one_address_share(served):
    """Its connections carry many clients, each counted by its X-Forwarded-For in the app's own bounds."""
    with ExitStack() as stack:
        proxied = [stack.enter_context(connect_from(served, PROXY)) for _ in range(SHARE + 2)]
        for connection in proxied:
            assert served_to(connection).startswith(b"HTTP/1.1 200 ")


def test_the_help_gives_the_body_timeout_default(capsys):
    """serve.py writes it out, not to import the web app for every command."""
    from cubilete.cli.main import main
    from cubilete.web.security import BODY_TIMEOUT_SECONDS

    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert f"408 body_too_slow and closed (default: {BODY_TIMEOUT_SECONDS:g})" in help_text
