"""Browser tests: a real `cubilete serve` on a free port with a temporary database, driven by
Playwright in headless Chromium (Debian's /usr/bin/chromium or any chromium on PATH)."""

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

import pytest

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


def chromium_path() -> str | None:
    if os.access("/usr/bin/chromium", os.X_OK):
        return "/usr/bin/chromium"
    return shutil.which("chromium") or shutil.which("chromium-browser")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    """`cubilete serve` in a subprocess; stop() and start() again keep the port and the database."""

    def __init__(self, database: str, port: int, log: Path) -> None:
        self.database = database
        self.port = port
        self.log = log
        self.url = f"http://127.0.0.1:{port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> "Server":
        command = [sys.executable, "-m", "cubilete.cli.main", "serve", "--port", str(self.port), "--database", self.database]
        with self.log.open("ab") as log:  # a file, not a pipe: a full pipe would block the server
            self.process = subprocess.Popen(command, stdout=log, stderr=log)
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


@pytest.fixture(scope="session")
def browser():
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium executable found (install Debian's chromium to run the browser tests)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=path, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def server(tmp_path):
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", free_port(), tmp_path / "server.log").start()
    yield server
    server.stop()


@pytest.fixture
def new_page(browser):
    """Open phone-sized pages whose settings are stored before any script runs; no script error allowed."""
    contexts = []

    def open_page(locale: str = "es-ES", bot_pace_ms: int = 0, auto_score: bool = True):
        context = browser.new_context(viewport=PHONE, locale=locale)
        settings = json.dumps({"autoScore": auto_score, "autoScoreSeconds": 3, "botPaceMs": bot_pace_ms})
        context.add_init_script(
            f"localStorage.getItem('cubilete.settings') || localStorage.setItem('cubilete.settings', '{settings}')"
        )
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        contexts.append((context, page))
        return page

    yield open_page
    for context, page in contexts:
        context.close()
        assert page.errors == [], page.errors
