"""The hosting guide's deployment, run as a host runs it (issue 35, item 2): two `cubilete serve` on one
PostgreSQL database and one Redis behind Debian's Caddy with the repository's deploy/Caddyfile, its site on
https with a certificate from Caddy's own CA. The browser trusts that CA as a device that installed its root
does (an NSS database in the browser's home, where Chromium on Linux reads the roots a user added), so the
pages are a secure context and their service worker installs. Two players, one browser context each, play
Penta over https and wss while the guide's rolling restart runs mid-game: no request fails on either page
and no move is lost."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest
from harness import CHROMIUM_ARGS, PHONE, Caddy, Server, free_port, rolling_restart
from playwright.sync_api import expect
from test_browser import ready, score_first_open_box
from test_browser_offline import ACTIVATED
from test_online import create_with_a_friend

from cubilete.cli.commands.serve import DRAIN_SECONDS

pytestmark = pytest.mark.slow
CADDYFILE = Path(__file__).resolve().parents[2] / "deploy/Caddyfile"
BEHIND_CADDY = ("--forwarded-allow-ips", "127.0.0.1,::1")  # as the guide's --public-url implies: links read https
DRAINING = {"CUBILETE_DRAIN_SECONDS": str(DRAIN_SECONDS)}  # serve's default, which the test harness turns off
RESTART_BOUND = 120  # seconds for the guide's rolling restart of both processes


@pytest.fixture
def deployment(postgres_url, redis_url, solved_tables, tmp_path):
    """The guide's two processes behind Caddy, everything stopped afterwards."""
    if shutil.which("caddy") is None or shutil.which("certutil") is None:
        pytest.skip("caddy or certutil is not installed (apt-get install caddy libnss3-tools)")
    servers = [
        Server(postgres_url, free_port(), tmp_path / f"server-{name}.log", broker=redis_url, env=DRAINING,
               options=BEHIND_CADDY)
        for name in "ab"
    ]
    caddy = None
    try:
        for server in servers:
            server.start()
        caddy = Caddy(CADDYFILE, servers).start()
        yield caddy, servers
    finally:
        if caddy is not None:
            caddy.remove()
        for server in servers:
            server.stop()


@pytest.fixture
def trusting_browser(chromium, deployment):
    """A Chromium whose user trusts Caddy's root, added to the NSS database in its home (certutil)."""
    caddy, _servers = deployment
    with tempfile.TemporaryDirectory() as home:
        nss = f"sql:{home}/.pki/nssdb"
        os.makedirs(f"{home}/.pki/nssdb")
        subprocess.run(["certutil", "-d", nss, "-N", "--empty-password"], check=True, capture_output=True)
        subprocess.run(["certutil", "-d", nss, "-A", "-t", "C,,", "-n", "caddy-local", "-i", str(caddy.root_certificate)],
                       check=True, capture_output=True)
        browser = chromium.playwright.chromium.launch(
            executable_path=chromium.path, args=CHROMIUM_ARGS, env={**os.environ, "HOME": home}
        )
        try:
            yield browser
        finally:
            if browser.is_connected():
                browser.close()


def test_two_players_over_https_lose_no_request_and_no_move_while_the_processes_restart(deployment, trusting_browser):
    caddy, servers = deployment
    failures: list[str] = []  # every failed request and every answer >= 500, on both players' contexts
    pages = []
    for locale in ("es-ES", "en-US"):
        context = trusting_browser.new_context(viewport=PHONE, locale=locale, service_workers="allow")
        context.set_default_timeout(20_000)
        context.on("requestfailed", lambda request: failures.append(f"{request.url}: {request.failure}"))
        context.on("response", lambda response: response.status >= 500 and failures.append(f"{response.url}: {response.status}"))
        page = context.new_page()
        page.sockets = []  # the live sockets the page opened: another after each process it was on stopped
        page.on("websocket", lambda socket, page=page: page.sockets.append(socket.url))
        page.errors = []
        page.on("pageerror", lambda error, page=page: page.errors.append(str(error)))
        pages.append(page)
    ana, beto = pages

    links = create_with_a_friend(ana, caddy, "penta", "Ana", "Beto")
    assert links["invite"].startswith(f"{caddy.url}/game/")
    beto.goto(links["invite"])
    ready(ana)
    expect(beto.locator("[data-current-player]")).to_have_attribute("data-current-player", "0")
    for page in pages:
        assert page.evaluate(ACTIVATED), "the service worker did not activate"
    live = [page.evaluate("location.protocol") for page in pages]
    assert live == ["https:", "https:"]

    restarting = threading.Thread(target=rolling_restart, args=(servers,), kwargs={"bound": RESTART_BOUND})
    phones = ((ana, beto, 0), (beto, ana, 1))
    for turn in range(13):
        if turn == 1:
            restarting.start()  # mid-game: the players go on playing while each process restarts in turn
        for player, other, seat in phones:
            ready(player)
            player.click("[data-action='roll']")
            ready(player)
            box = score_first_open_box(player, seat)
            # the move reached a process and was pushed (wss, through Caddy) to the other player's page
            expect(other.locator(f"[data-box='{box}'][data-player='{seat}'][data-score]")).to_have_count(1)
        if turn >= 2 and not restarting.is_alive():
            break
    restarting.join(RESTART_BOUND)
    assert not restarting.is_alive(), "the rolling restart did not end"
    assert turn < 12, "the game ended before the rolling restart did: it did not run mid-game"

    game_id = ana.url.rsplit("/", 1)[1].split("#")[0]
    for server in servers:  # both processes, restarted, hold every move
        scores = server.api("GET", f"/api/games/{game_id}")["scores"]
        for page in pages:
            for seat, score in enumerate(scores):
                expect(page.locator(f"[data-total][data-player='{seat}']")).to_have_attribute("data-total", str(score))
    for page in pages:  # both processes restarted: every page lost its socket once at least, and opened another
        assert len(page.sockets) >= 2 and all(url.startswith(f"wss://localhost:{caddy.port}/") for url in page.sockets)
    assert failures == []
    assert [error for page in pages for error in page.errors] == []
