"""The installed app in a phone-sized headless Chromium: the service worker keeps the shell, so the
app opens without a connection (in the language last chosen), says that playing needs one and goes
on once the connection is back; the API never comes from the cache."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from cubilete.web.i18n import messages

OFFLINE = "No connection to the server: playing needs one."
# The server's page for a game that does not exist. Until it loads, the home page stands in, with two
# h1s: a plain "h1" would fail at once on strict mode rather than wait (seen in CI).
MISSING_GAME_TITLE = ".missing-page h1"
ACTIVATED = """navigator.serviceWorker.ready.then(({ active }) => active.state === "activated" ||
  new Promise((resolve) => active.addEventListener("statechange", () => resolve(active.state === "activated"))))"""


KEPT_IN_INDONESIAN = """caches.match("/rules/penta").then((kept) => kept?.text()).then((html) => html?.includes('lang="id"'))"""


@pytest.fixture(scope="module")
def service_workers() -> str:
    """The service worker keeps the shell and stands in for the server: what these tests check."""
    return "allow"


def worker_activated(page) -> bool:
    """Wait for the service worker: once active, it has kept the shell in its cache."""
    return page.evaluate(ACTIVATED)


def go_offline(page, server) -> None:
    page.context.set_offline(True)
    server.stop()  # no server either: whatever a page shows now comes from the worker's cache


def come_back_online(page, server) -> None:
    server.start()
    page.context.set_offline(False)


@pytest.mark.slow  # the quick suite opens the shell offline: the slow step runs this one
def test_the_home_page_opens_offline_says_a_connection_is_needed_and_goes_on_once_online(server, new_page):
    page = new_page(locale="es-ES")
    api_from_worker = []
    page.on("response", lambda r: "/api/" in r.url and r.from_service_worker and api_from_worker.append(r.url))
    page.goto(f"{server.url}/")
    expect(page.locator("[data-game='penta']")).to_be_visible()
    assert worker_activated(page)
    expect(page.locator("[data-offline]")).to_have_count(0)

    go_offline(page, server)
    response = page.reload()
    assert response.from_service_worker
    notice = page.locator("[data-offline]")
    expect(notice).to_have_text(messages("es")[OFFLINE])
    expect(notice).to_be_visible()
    expect(page.locator("[data-new-game]")).to_be_hidden()
    expect(page.locator(".tagline")).to_have_text(messages("es")["Dice games to play alone, against bots or with friends."])

    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    come_back_online(page, server)  # the page asks again (no reload), and the API answers from the server
    expect(page.locator("[data-game='penta']")).to_be_visible()
    expect(page.locator("[data-new-game]")).to_be_visible()
    expect(notice).to_be_hidden()
    assert navigations == [] and api_from_worker == []


@pytest.mark.slow  # stops and restarts the server: the slow step runs it (the quick suite keeps the shell opened offline)
def test_a_page_online_while_the_server_is_down_goes_on_once_the_server_is_back(server, new_page):
    """No "online" event comes when only the server was away (restarted, say): the page asks again
    every few seconds while the browser is online."""
    page = new_page(locale="es-ES")
    page.goto(f"{server.url}/")
    assert worker_activated(page)
    server.stop()
    page.reload()
    notice = page.locator("[data-offline]")
    expect(notice).to_be_visible()
    expect(page.locator("[data-new-game]")).to_be_hidden()
    server.start()
    expect(page.locator("[data-new-game]")).to_be_visible()
    expect(notice).to_be_hidden()


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_offline_any_page_opens_the_home_page_which_gives_way_to_that_page_once_online(server, new_page):
    page = new_page(locale="es-ES")
    page.goto(f"{server.url}/")
    assert worker_activated(page)
    go_offline(page, server)
    page.goto(f"{server.url}/game/some-game")
    expect(page.locator("[data-offline]")).to_have_text(messages("es")[OFFLINE])
    expect(page.locator("[data-new-game]")).to_be_hidden()
    come_back_online(page, server)  # the stand-in loads the page it stood for: the server's answer
    expect(page.locator(MISSING_GAME_TITLE)).to_have_text(messages("es")["This game does not exist"])


def test_a_page_the_worker_stood_in_for_while_the_server_answers_loads_after_all(server, new_page):
    """Just back online, the worker may fail to reach the server for a moment and stand in for the
    page: the stand-in loads that page as soon as the server answers it (it used to stay the home page)."""
    page = new_page(locale="es-ES")
    page.goto(f"{server.url}/")
    assert worker_activated(page)
    refused = []

    def refuse_once(route):
        if refused:
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()  # the worker's fetch fails: it answers with the home page

    page.context.route("**/game/some-game", refuse_once)
    page.goto(f"{server.url}/game/some-game")
    expect(page.locator(MISSING_GAME_TITLE)).to_have_text(messages("es")["This game does not exist"])
    assert refused == [f"{server.url}/game/some-game"]


def test_the_shell_opens_offline_in_the_language_last_chosen_on_any_page(server, new_page):
    page = new_page(locale="es-ES")
    page.goto(f"{server.url}/")
    assert worker_activated(page)
    page.goto(f"{server.url}/rules/penta")
    page.click("[data-lang='id']")  # the home page kept is still in Spanish
    expect(page.locator("html")).to_have_attribute("lang", "id")
    page.wait_for_function(KEPT_IN_INDONESIAN)  # the rules page as just seen
    go_offline(page, server)
    page.goto(f"{server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("[data-offline]")).to_have_text(messages("id")[OFFLINE])
    page.goto(f"{server.url}/rules/penta")  # a page seen online: kept as it was
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("main h1").first).to_be_visible()
