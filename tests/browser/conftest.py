"""Browser tests: a real `cubilete serve` on a free port with a temporary database, driven by
Playwright in headless Chromium (Debian's chromium-headless-shell, else its chromium, found on PATH).

Online tests run on each `topology`: one process on SQLite, and two processes sharing one
PostgreSQL database and one Redis broker, the host's browser on the first, everyone else's on
the second. The PostgreSQL and Redis tests skip, saying why, when those services are unreachable
(CUBILETE_TEST_POSTGRES and CUBILETE_TEST_REDIS name others than the local ones)."""

from __future__ import annotations

import fcntl
import json
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import pytest
from harness import CHROMIUM_ARGS, PHONE, Server, chromium_path, copy_database, desktop_chromium_path, free_port
from watchdog import Watchdog, unbounded_calls


class Chromium:
    """The worker's headless Chromium, launched again when the watchdog killed it."""

    def __init__(self, playwright, path: str) -> None:
        self.playwright, self.path = playwright, path
        self.browser = None

    def current(self):
        if self.browser is None or not self.browser.is_connected():
            self.browser = self.playwright.chromium.launch(executable_path=self.path, args=CHROMIUM_ARGS)
        return self.browser

    def close(self) -> None:
        if self.browser is not None and self.browser.is_connected():
            self.browser.close()


@pytest.fixture(scope="session")
def chromium():
    """Playwright and its Chromium, every call of theirs without a timeout of its own bounded by the watchdog."""
    path = chromium_path()
    if path is None:
        pytest.skip("no Chromium executable found (install Debian's chromium-headless-shell to run the browser tests)")
    from playwright import sync_api

    watchdog = Watchdog().start()
    classes = (sync_api.Browser, sync_api.BrowserContext, sync_api.Page, sync_api.Frame, sync_api.Locator,
               sync_api.CDPSession, sync_api.Worker, sync_api.JSHandle, sync_api.ElementHandle)
    try:
        with pytest.MonkeyPatch.context() as patch, sync_api.sync_playwright() as playwright:
            for cls, name in unbounded_calls(classes):
                patch.setattr(cls, name, watchdog.guard(f"{cls.__name__}.{name}", getattr(cls, name)))
            owner = Chromium(playwright, path)
            try:
                yield owner
            finally:
                owner.close()
    finally:
        watchdog.stop()


@pytest.fixture
def browser(chromium):
    """The worker's Chromium, a new one if a call of the previous test hung (and the watchdog killed it)."""
    return chromium.current()


@pytest.fixture(scope="session")
def desktop_chromium(chromium):
    """The full browser beside the headless shell, for the tests that show a notification: the shell has none
    (a service worker's getNotifications() stays empty)."""
    path = desktop_chromium_path()
    if path is None:
        pytest.skip("no desktop Chromium found for notifications (install Debian's chromium)")
    owner = Chromium(chromium.playwright, path)
    try:
        yield owner
    finally:
        owner.close()


@pytest.fixture(scope="module")
def service_workers() -> str:
    """Whether the pages' service worker runs: blocked, unless a test file needs it (push, offline)."""
    return "block"


@pytest.fixture(scope="session")
def solved_tables(solver_cache_dir):
    """The servers' solver tables, solved once before any page waits on a bot or a hint.

    A server solving a table cold (5000 takes seconds, more on a busy machine) would make
    the first bot move outlast the page's timeouts; the servers load these from the shared cache.
    Workers starting their browser tests together would each solve them: one solves, the others
    wait for its lock and load what it saved.
    """
    from cubilete.engine.games import SEED_GAMES, rules_for
    from cubilete.players import prepare

    with (solver_cache_dir.parent / "solved-tables.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        for game in SEED_GAMES:  # the games the browser tests play
            prepare("optimal", rules_for(game))


@pytest.fixture(scope="module")
def server_env() -> dict[str, str]:
    """Environment variables of the test's servers (a test file may override it, e.g. the clock's scale)."""
    return {}


# A worker's test files start a game every second or two from one address, faster than the 30 a minute a
# person is allowed; the other budgets stay the defaults, which the pages' hints, chances and reviews must fit.
WORKER_SERVER_OPTIONS = ("--games-per-minute", "600")


@pytest.fixture(scope="session")
def worker_servers(tmp_path_factory, solved_tables, migrated_database):
    """The worker's servers on SQLite, one per environment its test files ask for (`server_env`), each
    started when a file first needs it and stopped after the worker's last test: starting one costs
    seconds of CPU (imports, the kernels' warm-up), the tests' own games keep them apart. Each starts
    on a copy of the migrated database, as a server that has run before does."""
    servers: dict[tuple[tuple[str, str], ...], Server] = {}

    def server_for(env: dict[str, str]) -> Server:
        key = tuple(sorted(env.items()))
        if key not in servers:
            folder = tmp_path_factory.mktemp("server")
            servers[key] = Server(
                copy_database(migrated_database, folder / "games.sqlite3"), free_port(), folder / "server.log", env=env,
                options=WORKER_SERVER_OPTIONS,
            ).start()
        return servers[key]

    yield server_for
    for server in servers.values():
        server.stop()


@pytest.fixture(scope="module")
def module_server(worker_servers, server_env):
    """The server of a test file's games: the worker's one for the file's environment."""
    return worker_servers(server_env)


@pytest.fixture
def server(module_server):
    """The file's server, running: a test that stopped it (a restart, offline) and failed midway
    leaves it stopped, and the next test should not fail for that."""
    if module_server.process is None:
        module_server.start()
    return module_server


@dataclass(frozen=True)
class Topology:
    """Where the browsers of an online game connect: the host (who creates the game) to `host`,
    the friends and spectators to `friend`, the same server or another process of the same games."""

    host: Server
    friend: Server

    def for_friend(self, link: str) -> str:
        """A link the host's page shows, opened on the friend's process.

        Links point at the address the host browsed (process A); behind one public address a
        load balancer would send the friend to any process, which the test does by changing the
        link's host:port to the friend's process (B)."""
        parts = urlsplit(link)
        return urlunsplit(parts._replace(netloc=urlsplit(self.friend.url).netloc))


# The two-process variants replay the one-process scenarios over PostgreSQL and Redis; they take
# a few minutes in all, so they run in the slow step with the statistical checks.
@pytest.fixture(
    params=["one-process-sqlite", pytest.param("two-processes-postgresql-redis", marks=pytest.mark.slow)]
)
def topology(request, tmp_path, solved_tables, server_env):
    """One process on SQLite, or two processes on one PostgreSQL database and one Redis broker."""
    if request.param == "one-process-sqlite":
        server = request.getfixturevalue("server")
        yield Topology(server, server)
        return
    database, broker = request.getfixturevalue("postgres_url"), request.getfixturevalue("redis_url")
    servers = [
        Server(database, free_port(), tmp_path / f"server-{name}.log", broker=broker, env=server_env)
        for name in ("a", "b")
    ]
    try:
        for server in servers:
            server.start()
        yield Topology(*servers)
    finally:
        for server in servers:
            server.stop()


# A whole game clicked in the browser spends most of its time waiting for each roll's tumble (420 ms,
# hundreds of rolls in 5000). In the quick suite such games play with reduced motion, their dice landing
# at once (the tumble itself, taps during it and the feel have tests of their own); the same games
# played animated run in the slow step.
@pytest.fixture(params=["reduce", pytest.param("no-preference", marks=pytest.mark.slow)], ids=["still", "animated"])
def motion(request) -> str:
    """The reduced_motion of a whole game's pages (new_page(reduced_motion=motion))."""
    return request.param


@pytest.fixture
def new_page(browser, service_workers):
    """Open pages (phone-sized unless told) whose settings are stored before any script runs; no script
    error allowed. Their contexts are closed after the test, whatever happened."""
    contexts, pages = [], []

    def open_page(
        locale: str = "es-ES",
        bot_pace_ms: int = 0,
        auto_score: bool = True,
        viewport: dict[str, int] = PHONE,
        color_scheme: str = "light",
        reduced_motion: str = "no-preference",
    ):
        context = browser.new_context(
            viewport=viewport, locale=locale, color_scheme=color_scheme, reduced_motion=reduced_motion,
            service_workers=service_workers,
        )
        contexts.append(context)
        settings = json.dumps({"autoScore": auto_score, "autoScoreSeconds": 3, "botPaceMs": bot_pace_ms})
        context.add_init_script(
            f"localStorage.getItem('cubilete.settings') || localStorage.setItem('cubilete.settings', '{settings}')"
        )
        context.set_default_timeout(20_000)
        page = context.new_page()
        page.errors = []
        page.on("pageerror", lambda error: page.errors.append(str(error)))
        pages.append(page)
        return page

    try:
        yield open_page
    finally:
        if browser.is_connected():  # else the watchdog killed it, with every context
            for context in contexts:
                context.close()
    errors = [error for page in pages for error in page.errors]
    assert errors == [], errors


@pytest.fixture
def cdp_session(new_page):
    """Open DevTools protocol sessions on pages (`cdp_session(page)`), each detached after the test, before
    the pages' contexts close (this fixture needs new_page: it is torn down first)."""
    sessions = []

    def open_session(page):
        session = page.context.new_cdp_session(page)
        sessions.append((page, session))
        return session

    try:
        yield open_session
    finally:
        for page, session in sessions:
            if page.context.browser.is_connected() and not page.is_closed():
                session.detach()
