"""Plumbing shared by the browser tests and scripts/screenshots.py: a real `cubilete serve`
on a free port, a `redis-server` and a PostgreSQL server of a test's own, Debian's Caddy in front of
processes, and how to launch Debian's headless Chromium here."""

from __future__ import annotations

import asyncio
import json
import os
import pwd
import shutil
import signal
import socket
import sqlite3
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing
from pathlib import Path
from typing import Any, TypeVar

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 375, "height": 667}
DESKTOP = {"width": 1280, "height": 800}
# A server answers within a few seconds; on a machine loaded with other runs (a load of 15 on 2 cores here)
# starts took over 30 s. A bound, not a wait: a server that answers sooner is used at once.
START_SECONDS = 60


# Debian's chromium-headless-shell is Chromium's own headless build, the one Playwright drives for
# headless runs: the same engine without the desktop browser around it. The browser tests took half
# the CPU in Chromium on it as on the full browser's --headless (53.6 s against 113.5 s here,
# docs/benchmarks.md "The test suite"), so it comes first.
def chromium_path() -> str | None:
    return shutil.which("chromium-headless-shell") or desktop_chromium_path()


def desktop_chromium_path() -> str | None:
    """The full browser: the headless shell has no notifications, so a test that shows one (a push's) runs on it."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


Answer = TypeVar("Answer")


def run_async(coroutine: Coroutine[Any, Any, Answer]) -> Answer:
    """`asyncio.run` in a thread of its own: in a worker that ran browser tests, Playwright's sync API
    leaves its event loop running in the main thread, where `asyncio.run` refuses to start another."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def chosen_seed(players, seed: int | None) -> dict:
    """A new game's body's dice seed, where a client may choose one: a game with one human seat at most
    (the server refuses it otherwise: whoever chose it could foresee every roll); else none, the server's dice."""
    humans = sum(player["kind"] == "human" for player in players)
    return {} if seed is None or humans > 1 else {"seed": seed}


def next_action(view: dict) -> dict:
    """A legal move of the seat to play in a sheet game's view: roll, keep nothing, else score the first box offered."""
    if view["to_roll"]:
        return {"type": "roll"}
    if view["table"]["can_reroll"]:
        return {"type": "keep", "held": []}
    return {"type": "score", "box": view["table"]["options"][0]["box"]}


def copy_database(template: Path, path: Path) -> str:
    """A new SQLite database at `path`, a whole copy of `template` (SQLite's backup); its URL."""
    with closing(sqlite3.connect(template)) as source, closing(sqlite3.connect(path)) as copy:
        source.backup(copy)
    return f"sqlite:///{path}"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class PortTaken(RuntimeError):
    """The server could not listen: another process holds its port."""


class Server:
    """`cubilete serve` in a subprocess; stop() and start() again keep the port and the database."""

    def __init__(
        self,
        database: str,
        port: int,
        log: Path,
        broker: str | None = None,
        env: dict[str, str] | None = None,
        options: tuple[str, ...] = (),
    ) -> None:
        self.database = database
        self.options = options  # more `cubilete serve` options, e.g. its bounds on connections
        self.broker = broker
        # e.g. CUBILETE_CLOCK_SCALE, the turn clocks' test hook. No drain when stopped (--drain-seconds) but
        # behind a proxy that checks /readyz: the tests stop servers often, and only those need it
        self.env = {**os.environ, "CUBILETE_DRAIN_SECONDS": "0", **(env or {})}
        self.port = port
        self.log = log
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None
        self.started_once = False

    def start(self) -> Server:
        """Start the server and wait until it answers. A first start whose port another process took since
        free_port() chose it (other test runs share this machine) moves to a new port; a restart keeps its own."""
        for _attempt in range(3):
            try:
                return self._start_once()
            except PortTaken:
                if self.started_once:
                    raise
                self.port = free_port()
                self.url = f"http://127.0.0.1:{self.port}"
        return self._start_once()

    def _start_once(self) -> Server:
        command = [sys.executable, "-m", "cubilete.cli.main", "serve", "--port", str(self.port)]
        command += ["--database", self.database]
        if self.broker is not None:
            command += ["--broker", self.broker]
        command += self.options
        logged_before = self.log.stat().st_size if self.log.exists() else 0
        with self.log.open("ab") as log:  # a file, not a pipe: a full pipe would block the server
            self.process = subprocess.Popen(command, stdout=log, stderr=log, env=self.env)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if b"address already in use" in self.log.read_bytes()[logged_before:]:
                    raise PortTaken(self.log.read_text())
                raise RuntimeError(f"cubilete serve stopped: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/games/options", timeout=1):
                    self.started_once = True
                    return self
            except OSError:
                time.sleep(0.1)
        self.stop()  # no test owns a server that never answered: it would outlive the session
        raise RuntimeError(f"cubilete serve did not answer within {START_SECONDS} s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def api(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}{path}", data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)


def rolling_restart(servers: list[Server], bound: float = 60) -> None:
    """docs/hosting.md's rolling restart: each process in turn stopped (SIGTERM: it drains, then ends what is
    under way within 5 s), started again, and the next only once this one's /readyz answers 200."""
    for server in servers:
        server.stop()
        server.start()
        deadline = time.monotonic() + bound
        while True:
            try:
                server.api("GET", "/readyz")
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

class RedisServer:
    """A `redis-server` of one test's own (never the machine's shared one), keeping nothing on disk; stop()
    and start() again keep its port, as a restarted Redis does."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--dir", str(self.folder)]  # nothing kept on disk
        with (self.folder / "redis.log").open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server stopped: {(self.folder / 'redis.log').read_text()}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as connection:
                    connection.sendall(b"PING\r\n")
                    if connection.recv(7) == b"+PONG\r\n":
                        return self
            except OSError:
                pass
            time.sleep(0.05)
        raise RuntimeError("redis-server did not answer within 10 s")

    def freeze(self) -> None:
        """Redis stops answering but keeps its connections open, as a hung host or a lost network does."""
        assert self.process is not None
        self.process.send_signal(signal.SIGSTOP)

    def thaw(self) -> None:
        assert self.process is not None
        self.process.send_signal(signal.SIGCONT)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a frozen Redis handles no SIGTERM
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None


class PostgresCluster:
    """A PostgreSQL server of a test's own, made with initdb and run by pg_ctl on a free port in a
    temporary folder, to stop, freeze and restart (never the machine's shared server). As root,
    PostgreSQL's commands run as the `postgres` user, as PostgreSQL requires."""

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="cubilete-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self.url = f"postgresql://postgres@127.0.0.1:{self.port}/postgres"
        self._as_owner: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("postgres")
            os.chown(self.folder, owner.pw_uid, owner.pw_gid)
            self._as_owner = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync")

    def start(self) -> PostgresCluster:
        options = f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "log"), "-w", "-o", options, "start")
        return self

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")

    def signal(self, number: int) -> None:
        """Send a signal to the server and each of its processes (SIGSTOP freezes it, SIGCONT thaws it):
        each runs in a session of its own."""
        postmaster = (self.data / "postmaster.pid").read_text().split()[0]
        children = subprocess.run(["pgrep", "-P", postmaster], capture_output=True, text=True).stdout.split()
        for pid in (postmaster, *children):
            os.kill(int(pid), number)

    def remove(self) -> None:
        if (self.data / "postmaster.pid").exists():
            self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def _run(self, *command: str) -> None:
        subprocess.run([*self._as_owner, *command], check=True, capture_output=True, cwd=self.folder)


# Caddy's global options for a test, before the Caddyfile under test: no admin endpoint, its data in the
# test's folder, certificates from its own CA (as `tls internal` in every site), not installed in this
# machine's trust store, on free high ports of 127.0.0.1 only
CADDY_TEST_OPTIONS = """{{
\tadmin off
\tstorage file_system {data}
\tlocal_certs
\tskip_install_trust
\thttp_port {http_port}
\thttps_port {https_port}
\tdefault_bind 127.0.0.1
}}
import {caddyfile}
"""


class Caddy:
    """Debian's `caddy` in front of cubilete processes, running a Caddyfile as the host would (deploy/Caddyfile),
    its site on https://localhost:PORT with a certificate from Caddy's own CA instead of a public one. It runs
    unprivileged (as the `caddy` user when the tests run as root), on free high ports, with its data in a
    temporary folder of its own (its log too: caddy.log) and no admin endpoint."""

    def __init__(self, caddyfile: Path, processes: list[Server]) -> None:
        self.folder = folder = Path(tempfile.mkdtemp(prefix="cubilete-caddy-"))
        self.port = free_port()
        self.url = f"https://localhost:{self.port}"
        self.root_certificate = folder / "data/pki/authorities/local/root.crt"
        # the Caddyfile names its site and processes by these variables
        self.env = {
            **os.environ, "XDG_DATA_HOME": str(folder), "XDG_CONFIG_HOME": str(folder), "HOME": str(folder),
            "CUBILETE_SITE": "localhost", "CUBILETE_PROCESSES": " ".join(s.url.removeprefix("http://") for s in processes),
        }
        self.config = folder / "Caddyfile"
        self.config.write_text(CADDY_TEST_OPTIONS.format(
            data=folder / "data", http_port=free_port(), https_port=self.port, caddyfile=caddyfile.resolve()
        ))
        self._as_user: list[str] = []
        if os.geteuid() == 0:
            owner = pwd.getpwnam("caddy" if user_exists("caddy") else "nobody")
            os.chown(folder, owner.pw_uid, owner.pw_gid)
            self._as_user = ["runuser", "-u", owner.pw_name, "--"]
        self.process: subprocess.Popen | None = None

    def start(self) -> Caddy:
        command = [*self._as_user, "caddy", "run", "--config", str(self.config), "--adapter", "caddyfile"]
        with (self.folder / "caddy.log").open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=log, env=self.env, cwd=self.folder)
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"caddy stopped: {(self.folder / 'caddy.log').read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=2, context=self.trusting()):
                    return self
            except OSError:  # not listening yet, or its CA's root not written yet
                time.sleep(0.1)
        raise RuntimeError(f"caddy did not answer within {START_SECONDS} s: {(self.folder / 'caddy.log').read_text()}")

    def trusting(self) -> ssl.SSLContext:
        """A TLS context that trusts Caddy's CA, as a player's device that installed its root would."""
        return ssl.create_default_context(cafile=str(self.root_certificate))

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)
        self.process = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)


def user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True
