"""The installed app in a phone-sized headless Chromium: the service worker keeps the shell, so the
app opens without a connection (in the language last chosen) and says that playing needs one; the
API never comes from the cache."""

from __future__ import annotations

from playwright.sync_api import expect

from cubilete.web.i18n import messages

OFFLINE = "No connection to the server: playing needs one."
ACTIVATED = """navigator.serviceWorker.ready.then(({ active }) => active.state === "activated" ||
  new Promise((resolve) => active.addEventListener("statechange", () => resolve(active.state === "activated"))))"""


def worker_activated(page) -> bool:
    """Wait for the service worker: once active, it has kept the shell in its cache."""
    return page.evaluate(ACTIVATED)


def test_the_home_page_opens_offline_says_a_connection_is_needed_and_comes_back_online(server, new_page):
    page = new_page(locale="es-ES")
    api_from_worker = []
    page.on("response", lambda r: "/api/" in r.url and r.from_service_worker and api_from_worker.append(r.url))
    page.goto(f"{server.url}/")
    expect(page.locator("[data-game='penta']")).to_be_visible()
    assert worker_activated(page)
    expect(page.locator("[data-offline]")).to_have_count(0)

    page.context.set_offline(True)
    server.stop()  # no server either: whatever the page shows now comes from the worker's cache
    response = page.reload()
    assert response.from_service_worker
    notice = page.locator("[data-offline]")
    expect(notice).to_have_text(messages("es")[OFFLINE])
    expect(notice).to_be_visible()
    expect(page.locator("[data-new-game]")).to_be_hidden()
    expect(page.locator(".tagline")).to_have_text(messages("es")["Dice games to play alone, against bots or with friends."])

    page.goto(f"{server.url}/game/some-game")  # any page of the app: the shell, saying the same
    expect(page.locator("[data-offline]")).to_have_text(messages("es")[OFFLINE])

    server.start()
    page.context.set_offline(False)  # the page loads itself again, and the API answers from the server
    expect(page.locator("[data-game='penta']")).to_be_visible()
    expect(page.locator("[data-offline]")).to_have_count(0)
    assert api_from_worker == []


def test_the_shell_opens_offline_in_the_language_last_chosen_on_any_page(server, new_page):
    page = new_page(locale="es-ES")
    page.goto(f"{server.url}/")
    assert worker_activated(page)
    page.goto(f"{server.url}/rules/penta")
    page.click("[data-lang='id']")  # the home page kept is still in Spanish
    expect(page.locator("html")).to_have_attribute("lang", "id")
    page.context.set_offline(True)
    server.stop()
    page.goto(f"{server.url}/")
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("[data-offline]")).to_have_text(messages("id")[OFFLINE])
    page.goto(f"{server.url}/rules/penta")  # a page seen online: kept as it was
    expect(page.locator("html")).to_have_attribute("lang", "id")
    expect(page.locator("main h1").first).to_be_visible()
