"""The "your turn" push, in Chromium: Beto turns on the ⚙ switch, closes the game, and when Ana has
played the server's push reaches the tests' push service (which checks and decrypts it); delivered to
Beto's service worker by the DevTools protocol, it shows the notification, whose click opens the game.

What headless Chromium cannot do is replaced, and only that. It has no push service of its own:
pushManager.subscribe is refused ("permission denied") even with the notifications permission, and
Ana's switch shows that refusal, as it shows a refused permission. So Beto's page's subscribe answers
a subscription of the tests' push service; every step before it (the permission asked, the key
fetched) and after it (the subscription posted for his seat) runs as on a phone. And no one can click
a headless notification: the service worker's own notificationclick handler is dispatched the real
notification, and the window it opens (Chromium lets a worker open or focus one only after a real
click) is recorded, then opened by the test."""

from __future__ import annotations

import json
import time

import pytest
from a11y import axe_violations
from playwright.sync_api import expect
from push_service import server_and_push_service
from test_browser import ready, score_first_open_box
from test_online import create_with_a_friend, game_id_of

pytestmark = pytest.mark.slow

# The browser's push service, as the page's subscribe answers it (the tests' push service's subscription).
FAKE_SUBSCRIBE = """subscription => {
  let current = null;
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (options) {
    window.subscribedWith = options;
    current = { endpoint: subscription.endpoint, toJSON: () => subscription };
    return current;
  };
}"""


@pytest.fixture(scope="module")
def service_workers() -> str:
    """The service worker shows the push's notification."""
    return "allow"


@pytest.fixture
def browser(desktop_chromium):
    """The full browser: the headless shell shows no notification."""
    return desktop_chromium.current()


@pytest.fixture
def push_server(tmp_path):
    with server_and_push_service(tmp_path) as found:
        yield found


def service_worker_registration(page, cdp) -> str:
    """The page's service worker registration's id, as the DevTools protocol session `cdp` names it."""
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    registrations = []
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.extend(event["registrations"]))
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while not registrations:
        assert time.monotonic() < deadline, "no service worker registration"
        page.wait_for_timeout(20)
    return str(registrations[0]["registrationId"])


def shows(page, expression: str, expected) -> None:
    """Wait until the page's `expression` is `expected` (the page's CSP allows no string for wait_for_function)."""
    deadline = time.monotonic() + 10
    while (value := page.evaluate(expression)) != expected:
        assert time.monotonic() < deadline, value
        page.wait_for_timeout(20)


def refused_switch(page) -> str:
    """Turn the ⚙ switch on where it cannot be: it turns back off and says why (the note's text)."""
    switch = page.locator("#settings [data-push-opt-in] input[name='push']")
    note = page.locator("#settings [data-push-note]")
    # A click, not check(): the refusal may turn the switch back off before check() looks at it.
    switch.click()
    expect(note).not_to_have_text("")
    expect(switch).not_to_be_checked()
    text = note.text_content() or ""
    page.evaluate("document.querySelector('#settings [data-push-note]').textContent = ''")
    return text


def test_the_push_of_your_turn_shows_a_notification_whose_click_opens_the_game(push_server, new_page, cdp_session):
    server, service = push_server
    ana = new_page(locale="es-ES")
    links = create_with_a_friend(ana, server, "penta", "Ana", "Beto", clock="0")
    ready(ana)
    game_id = game_id_of(ana)
    ana.click("[data-action='settings']")  # headless Chromium's own push, as far as it goes
    refused_first = refused_switch(ana)
    assert refused_first.startswith("No se pudieron activar las notificaciones:"), refused_first
    ana.context.grant_permissions(["notifications"], origin=server.url)
    refused = refused_switch(ana)  # no push service: the browser's subscribe refuses, said in our words
    assert "no aceptó la suscripción" in refused and "Registration failed" not in refused, refused
    assert axe_violations(ana) == []  # the ⚙ dialog with the switch and its note
    ana.click("#settings button[value='close']")

    beto = new_page(locale="id-ID")
    beto.context.grant_permissions(["notifications"], origin=server.url)
    beto.context.add_init_script(f"({FAKE_SUBSCRIBE})({json.dumps(service.subscribe('beto'))})")
    beto.goto(links["invite"])
    expect(beto.locator("[data-current-player]")).to_have_text("Giliran Ana")
    beto.click("[data-action='settings']")
    switch = beto.locator("#settings [data-push-opt-in] input[name='push']")
    expect(beto.locator("#settings [data-push-opt-in]")).to_contain_text("Beri tahu saya saat giliran saya")
    switch.click()  # then waits for the subscription, as for the refusal (see refused_switch)
    shows(beto, "localStorage.getItem('cubilete-push')", "on")  # once posted for his seat
    expect(switch).to_be_checked()
    expect(beto.locator("#settings [data-push-note]")).to_have_text("")
    assert beto.evaluate("window.subscribedWith.userVisibleOnly") is True
    key = beto.evaluate("Array.from(new Uint8Array(window.subscribedWith.applicationServerKey))")
    assert len(key) == 65 and key[0] == 4  # the server's key, decoded from /api/push/key

    beto.goto(f"{server.url}/")  # Beto leaves the game's page: his turn will be pushed
    beto_cdp = cdp_session(beto)
    registration = service_worker_registration(beto, beto_cdp)
    ready(ana)
    ana.click("[data-action='roll']")
    ready(ana)
    score_first_open_box(ana, 0)
    message = service.wait_for_kind("beto", "your_turn")
    assert (message["title"], message["url"]) == ("Giliran Anda", f"/game/{game_id}")

    beto_cdp.send(
        "ServiceWorker.deliverPushMessage",
        {"origin": server.url, "registrationId": registration, "data": json.dumps(message)},
    )
    shown = "navigator.serviceWorker.ready.then((r) => r.getNotifications()).then((ns) => ns.map((n) => [n.title, n.body, n.tag, n.data.url]))"
    shows(beto, shown, [[message["title"], message["body"], f"cubilete-{game_id}", f"/game/{game_id}"]])

    worker = next(worker for worker in beto.context.service_workers if worker.url.endswith("/sw.js"))
    opened = worker.evaluate(CLICK)
    assert opened == f"{server.url}/game/{game_id}"
    assert beto.evaluate(shown) == []  # the click closed it
    beto.goto(opened)
    expect(beto.locator("[data-current-player]")).to_have_attribute("data-current-player", "1")
    expect(beto.locator("[data-action='roll']")).to_be_enabled()  # his seat, his turn
    assert service.problems == []


# The notification as shown, clicked: the worker's handler runs; the window it opens is recorded.
CLICK = """async () => {
  let opened = null;
  Object.defineProperty(self.clients, "openWindow", { value: async (url) => { opened = url; return null; } });
  const [notification] = await self.registration.getNotifications();
  const event = new NotificationEvent("notificationclick", { notification });
  const waited = [];
  Object.defineProperty(event, "waitUntil", { value: (promise) => waited.push(promise) });
  self.dispatchEvent(event);
  await Promise.all(waited);
  return opened;
}"""
