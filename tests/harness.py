"""Plumbing shared by the browser tests and scripts/screenshots.py: a real `cubilete serve`
on a free port, and how to launch Debian's headless Chromium here."""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

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


def chromium_path() -> str | None:
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def chosen_seed(players, seed: int | None) -> dict:
    """A new game's body's dice seed, where a client may choose one: a game with one human seat at most
    (the server refuses it otherwise: whoever chose it could foresee every roll); else none, the server's dice."""
    humans = sum(player["kind"] == "human" for player in players)
    return {} if seed is None or humans > 1 else {"seed": seed}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
        self.env = {**os.environ, **(env or {})}  # e.g. CUBILETE_CLOCK_SCALE, the turn clocks' test hook
        self.port = port
        self.log = log
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> Server:
        command = [sys.executable, "-m", "cubilete.cli.main", "serve", "--port", str(self.port)]
        command += ["--database", self.database]
        if self.broker is not None:
            command += ["--broker", self.broker]
        command += self.options
        with self.log.open("ab") as log:  # a file, not a pipe: a full pipe would block the server
            self.process = subprocess.Popen(command, stdout=log, stderr=log, env=self.env)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"cubilete serve stopped: {self.log.read_text()}")
            try:
                with urllib.request.urlopen(f"{self.url}/api/games/options", timeout=1):
                    return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("cubilete serve did not answer within 30 s")

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
