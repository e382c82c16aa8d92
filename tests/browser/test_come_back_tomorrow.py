"""Issue 24's whole scenario: two players with profiles, on two devices each (a phone and a laptop,
one browser context per device), play a game by correspondence. Each device signs in to its profile
by clicking (Ana's and Beto's phones claim the names, the laptops sign in with the recovery code the
phone showed) and subscribes to push for the profile; Ana starts the game from Beto's profile page
with a day per turn; each is told by push when it is their turn (the tests' push service checks every
push's VAPID signature and decrypts it), and plays on whichever device they pick up, the game found
on its home page. Then nobody plays: each expired day the server plays the turn, until the game is
over; every device then shows its player's record with the game.

The server's day lasts DAY_LASTS_S seconds (CUBILETE_CLOCK_SCALE, a test hook): time enough for a
player told by push to open the game and play, and short enough for the 22 turns the server plays."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect
from push_service import server_and_push_service
from test_browser import ready, score_first_open_box
from test_online import create_with_a_friend
from test_profiles_browser import profile_secret

pytestmark = pytest.mark.slow  # a whole game of 26 turns, most of them a scaled day each

DAY_LASTS_S = 8
GAME_OVER_WITHIN_S = 26 * DAY_LASTS_S + 60
LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture
def push_server(tmp_path, solved_tables):
    """A server whose days last DAY_LASTS_S seconds and whose pushes go to the tests' push service (the
    solver's tables are ready for the turns the clock plays)."""
    with server_and_push_service(tmp_path, {"CUBILETE_CLOCK_SCALE": str(DAY_LASTS_S / 86_400)}) as found:
        yield found


def claim_profile(phone, server, name: str) -> str:
    """The phone claims the name by clicking; answers the recovery code it shows once."""
    phone.goto(f"{server.url}/")
    phone.fill("[data-profile-name]", name)
    phone.click("[data-action='create-profile']")
    code = phone.locator("[data-profile-code-shown]")
    expect(code).to_be_visible()
    recovery = code.inner_text().strip()
    phone.click("[data-action='recovery-code-kept']")
    expect(phone.locator("[data-profile-link]")).to_have_text(name)
    return recovery


def sign_in_with_code(laptop, server, name: str, code: str) -> None:
    laptop.goto(f"{server.url}/")
    laptop.fill("[data-profile-recovery]", code)
    laptop.click("[data-action='recover-profile']")
    expect(laptop.locator("[data-profile-link]")).to_have_text(name)


def subscribe_device(device, server, service, name: str) -> None:
    """The device's push subscription, for all its profile's seats (headless Chromium has no push service
    of its own: the tests' one stands for it; tests/browser/test_push_browser.py clicks the ⚙ switch)."""
    secret = profile_secret(device)
    answer = device.request.post(
        f"{server.url}/api/profiles/me/push",
        data={"subscription": service.subscribe(name), "lang": device.evaluate("navigator.language.slice(0, 2)")},
        headers={"Authorization": f"Bearer {secret}"},
    )
    assert answer.ok, answer.text()


def listed(device, server, game_id: str):
    """The game's line on the device's home page (the page merges its profile's seats first)."""
    device.goto(f"{server.url}/")
    return device.locator(f"li:has([data-resume='{game_id}']) [data-turn-status]")


def put_away(device, server, game_id: str, seat: int) -> None:
    """Once the turn is played (the server gives it to the other seat), the player leaves the game for the
    home page: its page of the game, open and in sight, would keep the "your turn" pushes from its seat."""
    give_up = time.monotonic() + 10
    while server.api("GET", f"/api/games/{game_id}")["current_player"] == seat:
        assert time.monotonic() < give_up, "the turn was not played"
        time.sleep(0.1)
    device.goto(f"{server.url}/")


def play_a_turn_from_home(device, server, game_id: str) -> None:
    """The player picks up the device, finds the game first on the home page, opens it, plays a turn and
    puts the device away."""
    status = listed(device, server, game_id)
    expect(status).to_have_attribute("data-turn-status", "mine")
    expect(device.locator("[data-resume]").first).to_have_attribute("data-resume", game_id)
    device.click(f"[data-resume='{game_id}']")
    ready(device)
    device.click("[data-action='roll']")
    ready(device)
    seat = seat_of(device, game_id)
    score_first_open_box(device, seat=seat)
    put_away(device, server, game_id, seat)


def seat_of(device, game_id: str) -> int:
    tokens = device.evaluate(f"Object.keys(JSON.parse(localStorage.getItem('cubilete.tokens.{game_id}')) ?? {{}})")
    return int(tokens[0])


def test_two_profiles_play_by_correspondence_on_two_devices_each_told_by_push(push_server, new_page):
    server, service = push_server
    ana_phone, ana_laptop = (
        new_page(locale="es-ES", reduced_motion="reduce"),
        new_page(locale="es-ES", reduced_motion="reduce", viewport=LAPTOP),
    )
    beto_phone, beto_laptop = (
        new_page(locale="en-US", reduced_motion="reduce"),
        new_page(locale="en-US", reduced_motion="reduce", viewport=LAPTOP),
    )
    sign_in_with_code(ana_laptop, server, "Ana", claim_profile(ana_phone, server, "Ana"))
    sign_in_with_code(beto_laptop, server, "Beto", claim_profile(beto_phone, server, "Beto"))
    # They met before: Ana's game with a friend's seat, whose invite Beto opened (only then may she reserve his seat).
    links = create_with_a_friend(ana_phone, server, "penta", "Ana", "Beto", clock="0")
    beto_phone.goto(links["invite"])
    expect(beto_phone.locator("[data-message]")).to_have_text("Waiting for Ana, who plays on another device")
    devices = {"ana-phone": ana_phone, "ana-laptop": ana_laptop, "beto-phone": beto_phone, "beto-laptop": beto_laptop}
    for name, device in devices.items():
        subscribe_device(device, server, service, name)

    # Ana starts the game from Beto's profile page, a day per turn: Beto's seat is his already.
    ana_phone.goto(f"{server.url}/profile/Beto")
    ana_phone.click("[data-play-with]")
    expect(ana_phone.locator("[name='name-1']")).to_have_value("Beto")
    ana_phone.fill("[name='name-0']", "Ana")
    ana_phone.locator("[data-turn-clock]").select_option("1d")
    ana_phone.click("[data-action='start']")
    ana_phone.wait_for_url("**/game/*")
    game_id = ana_phone.url.rsplit("/", 1)[1]
    ready(ana_phone)
    ana_phone.click("[data-action='roll']")
    ready(ana_phone)
    score_first_open_box(ana_phone, seat=0)
    put_away(ana_phone, server, game_id, 0)

    for device in ("beto-phone", "beto-laptop"):  # both of Beto's devices are told, in his language
        told = service.wait_for_kind(device, "your_turn")
        assert told["body"] == "Beto, it is your turn in Penta." and told["url"].endswith(f"/game/{game_id}")
    play_a_turn_from_home(beto_laptop, server, game_id)
    for device in ("ana-phone", "ana-laptop"):
        assert service.wait_for_kind(device, "your_turn")["body"] == "Ana, es tu turno en Penta."
    play_a_turn_from_home(ana_laptop, server, game_id)  # Ana goes on from her laptop
    service.wait_for_kind("beto-phone", "your_turn", count=2)
    expect(listed(ana_phone, server, game_id)).to_have_text("Turno de Beto")  # her phone knows it too
    play_a_turn_from_home(beto_phone, server, game_id)
    service.wait_for_kind("ana-phone", "your_turn", count=2)

    # Nobody plays any more: every day that runs out, the server plays the turn, until the game is over.
    give_up = time.monotonic() + GAME_OVER_WITHIN_S
    while not server.api("GET", f"/api/games/{game_id}")["is_over"]:
        assert time.monotonic() < give_up, "the clock did not play the game to its end"
        time.sleep(0.5)
    for name in devices:
        service.wait_for_kind(name, "game_over")
        assert "clock_played" in service.kinds(name)  # the computer played some of each one's turns
    for name, device in devices.items():  # each player's record, with the game, on each device
        player = "Ana" if name.startswith("ana") else "Beto"
        device.goto(f"{server.url}/profile/{player}")
        expect(device.locator("[data-record-games] li")).to_have_count(1)
        expect(device.locator("[data-record-games] a").first).to_have_attribute("href", f"/game/{game_id}/review")
