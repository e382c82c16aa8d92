"""Browser tests: a real `cubilete serve` on a free port with a temporary database, driven by
Playwright in headless Chromium (Debian's /usr/bin/chromium or any chromium on PATH)."""

from __future__ import annotations

import json

import pytest
from harness import CHROMIUM_ARGS, PHONE, Server, chromium_path, free_port


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


@pytest.fixture(scope="session")
def solved_tables(solver_cache_dir):
    """The servers' solver tables, solved once before any page waits on a bot or a hint.

    A server solving a table cold (5000 takes seconds, more on a busy machine) would make
    the first bot move outlast the page's timeouts; the servers load these from the shared cache.
    """
    from cubilete.engine.games import GAMES
    from cubilete.players import prepare

    for info in GAMES.values():
        prepare("optimal", info.default)


@pytest.fixture
def server(tmp_path, solved_tables):
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
