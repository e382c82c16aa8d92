"""`cubilete serve` asked to stop (SIGTERM) while a request waits for the duel's tables (issue 31, point 1):
the build cannot be interrupted, yet the request is refused at once (503 server_stopping), the process
exits within 10 s, and its log says what it abandoned."""

from __future__ import annotations

import json
import signal
import threading
import time
import urllib.error
import urllib.request

import pytest
from harness import Server, free_port

from cubilete.cli.commands.serve import DRAIN_SECONDS

SAFETY_SECONDS = 60  # a deadline for states that come soon when all is well
EXIT_BOUND = 10.0  # seconds from SIGTERM to the process's exit
PLAYERS = [{"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}]


def wait_for_line(server: Server, line: str) -> None:
    deadline = time.monotonic() + SAFETY_SECONDS
    while line not in server.log.read_text():
        assert time.monotonic() < deadline, f"never logged: {line}"
        time.sleep(0.05)


def test_sigterm_during_a_duel_build_exits_within_ten_seconds_and_logs_what_it_abandoned(tmp_path):
    server = Server(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        free_port(),
        tmp_path / "server.log",
        env={"CUBILETE_CACHE_DIR": str(tmp_path / "cache")},  # no table solved yet: the build starts
    ).start()
    answers: list[object] = []  # the waiting request's
    try:
        game = server.api("POST", "/api/games", {"game": "penta", "players": PLAYERS})

        def live_bar() -> None:  # waits for the duel's tables, whose build it starts
            try:
                with urllib.request.urlopen(f"{server.url}/api/games/{game['id']}/chances", timeout=SAFETY_SECONDS):
                    answers.append("served")
            except urllib.error.HTTPError as refused:
                answers.append((refused.code, refused.headers["Retry-After"], json.load(refused)["code"]))

        waiting = threading.Thread(target=live_bar, daemon=True)
        waiting.start()
        wait_for_line(server, "preparing the duel tables of penta/seed")  # the request awaits this build
        assert server.process is not None
        stopped = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        server.process.wait(EXIT_BOUND)  # TimeoutExpired fails the test
        exit_seconds = time.monotonic() - stopped
        print(f"exited {exit_seconds:.2f} s after SIGTERM, during the build of the duel's tables")
    finally:
        server.stop()
    assert "stopping: abandoned the tables of penta/seed duel (being built)" in server.log.read_text()
    waiting.join(SAFETY_SECONDS)
    assert answers == [(503, "5", "server_stopping")]


def readiness(server: Server) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(f"{server.url}/readyz", timeout=SAFETY_SECONDS) as answer:
            return answer.status, json.load(answer)["status"]
    except urllib.error.HTTPError as refused:
        return refused.code, json.load(refused)["code"]


@pytest.mark.slow  # a server's start (seconds): the quick suite stays as it was
def test_sigterm_makes_readyz_503_while_the_process_still_serves_then_it_exits(tmp_path):
    """The drain a proxy needs (issue 35): told to stop, the process is not ready at once, yet serves a
    moment more, so the proxy's health check moves requests away before its port closes."""
    server = Server(
        f"sqlite:///{tmp_path / 'games.sqlite3'}", free_port(), tmp_path / "server.log",
        env={"CUBILETE_DRAIN_SECONDS": str(DRAIN_SECONDS)},  # serve's default, which the test harness turns off
    ).start()
    try:
        assert readiness(server) == (200, "ready")
        assert server.process is not None
        server.process.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + SAFETY_SECONDS
        while (answer := readiness(server)) == (200, "ready"):
            assert time.monotonic() < deadline, "still ready long after SIGTERM"
        assert answer == (503, "server_stopping")
        assert "penta" in json.dumps(server.api("GET", "/api/games/options"))  # still served while draining
        server.process.wait(EXIT_BOUND)
    finally:
        server.stop()
