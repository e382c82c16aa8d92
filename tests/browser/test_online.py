"""Online play as people do it: Ana fills in the new-game form, sends Beto his invite link, and each
plays on their own phone (a browser context each); a spectator follows the watch link. Every move
reaches the other pages pushed over the WebSocket, without reload, also after a dropped connection.

Each test runs on each topology (conftest.py): one process on SQLite, and two processes on one
PostgreSQL database and one Redis broker, Ana's browser on the first and everyone else's on the
second, so that what Ana's page shows of Beto's moves was pushed from one process to the other."""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect
from test_browser import ready, score_first_open_box

# The quick suite plays the first turns of each online game on one process, with reduced motion: every
# move pushed to the other pages, a dropped connection caught up. The whole games run in the slow step:
# on one process still and animated, on two processes animated (still as well, they would add a minute
# and a half to it).
GAME_VARIANTS = pytest.mark.parametrize(
    ("topology", "motion", "whole"),
    [
        pytest.param("one-process-sqlite", "reduce", False, id="one-process-sqlite-first-turns"),
        pytest.param("one-process-sqlite", "reduce", True, id="one-process-sqlite-still", marks=pytest.mark.slow),
        pytest.param(
            "one-process-sqlite", "no-preference", True, id="one-process-sqlite-animated", marks=pytest.mark.slow
        ),
        pytest.param(
            "two-processes-postgresql-redis",
            "no-preference",
            True,
            id="two-processes-postgresql-redis-animated",
            marks=pytest.mark.slow,
        ),
    ],
    indirect=["topology"],
)
ROLL = "[data-action='roll']"
BANK = "[data-action='bank']"
READY = "#table[data-ready]"
RECONNECTED_WITHIN_MS = 40_000  # live.js's longest retry delay (10 s), with a busy machine's slack


def create_with_a_friend(
    page, server, game: str, host: str, friend: str, clock: str = "60", public: bool = False
) -> dict:
    """Click the form as Ana does: her seat on this device, her friend's seat invited; answer the links."""
    page.goto(f"{server.url}/")
    page.click(f"[data-game-choice='{game}']")
    rows = page.locator("[data-player-row]")
    rows.nth(0).locator("[data-player-name]").fill(host)
    if rows.count() < 2:
        page.click("[data-action='add-player']")
    rows.nth(1).locator("[data-player-kind]").select_option("friend")
    rows.nth(1).locator("[data-player-name]").fill(friend)
    page.select_option("[data-turn-clock]", clock)
    if public:
        page.check("[data-public]")
    page.click("[data-action='start']")
    invite = page.locator("[data-invite-link][data-seat='1']")
    expect(invite).to_be_visible()
    qr = page.locator("[data-qr='1']")
    expect(qr).to_be_visible()
    expect(qr).to_have_js_property("complete", True)
    assert qr.evaluate("image => image.naturalWidth") > 100  # drawn by the server, no CDN
    links = {"invite": invite.get_attribute("href"), "watch": page.get_attribute("[data-watch-link]", "href")}
    page.click("[data-action='go-to-game']")
    return links


def held_tokens(page) -> dict:
    """The seats' tokens the page's browser holds for its game (none: {})."""
    game_id = page.url.rsplit("/", 1)[1].split("#")[0]
    return json.loads(page.evaluate(f"localStorage.getItem('cubilete.tokens.{game_id}')") or "{}")


def mark_unreloaded(page) -> None:
    """Mark the page's window: a reload or navigation would lose the mark (see still_unreloaded)."""
    page.evaluate("window.notReloaded = true")


def still_unreloaded(page) -> bool:
    return page.evaluate("window.notReloaded === true")


def game_id_of(page) -> str:
    return page.url.rsplit("/", 1)[1].split("#")[0]


@GAME_VARIANTS
def test_two_phones_play_penta_from_an_invite_link_while_a_spectator_follows(topology, new_page, motion, whole):
    """Its first two turns in the quick suite (Ana's page offline during Beto's second), the whole game in the slow step."""
    ana = new_page(locale="es-ES", reduced_motion=motion)
    links = create_with_a_friend(ana, topology.host, "penta", "Ana", "Beto")
    assert links["invite"].startswith(f"{topology.host.url}/game/") and "#seat=1&invite=" in links["invite"]
    assert links["watch"] == links["invite"].split("#")[0]
    ready(ana)
    assert list(held_tokens(ana)) == ["0"]  # Ana's phone never holds Beto's seat, only his invite to share again
    invites = ana.evaluate(f"localStorage.getItem('cubilete.invites.{game_id_of(ana)}')")
    assert json.loads(invites) == {"1": links["invite"].split("&invite=")[1]}

    beto = new_page(locale="id-ID", reduced_motion=motion)
    beto.goto(topology.for_friend(links["invite"]))
    assert beto.url.startswith(f"{topology.friend.url}/game/")
    expect(beto.locator("html")).to_have_attribute("lang", "id")  # his language, not Ana's
    expect(beto.locator("[data-current-player]")).to_have_text("Giliran Ana")
    expect(beto.locator(ROLL)).to_be_disabled()
    assert "#" not in beto.url and list(held_tokens(beto)) == ["1"]
    spectator = new_page(locale="en-US", reduced_motion=motion)
    spectator.goto(topology.for_friend(links["watch"]))
    expect(spectator.locator("[data-current-player]")).to_have_text("Ana's turn")
    second_tab = ana.context.new_page()  # Ana's same game in another tab stays live too
    second_tab.goto(ana.url)
    ana.bring_to_front()  # she plays in the first tab, the other behind it (in front, it slowed her clicks)
    for page in (ana, beto, spectator, second_tab):
        mark_unreloaded(page)

    phones = ((ana, beto, 0), (beto, ana, 1))
    for turn in range(13 if whole else 2):
        for player, other, seat in phones:
            ready(player)
            expect(other.locator("[data-current-player]")).to_have_attribute("data-current-player", str(seat))
            expect(other.locator(ROLL)).to_be_disabled()
            if turn == 0 and seat == 1:
                expect(ana.locator("[data-current-player]")).to_have_text("Turno de Beto")
                expect(ana.locator("[data-message]")).to_have_text("Esperando a Beto, que juega en otro dispositivo")
            dropped = turn == 1 and seat == 1
            if dropped:  # Ana's phone loses the network while Beto plays
                ana.context.set_offline(True)
                expect(ana.locator("[data-connection]")).to_be_visible()
            player.click(ROLL)
            ready(player)
            dice = [player.get_attribute(f"[data-die='{i}']", "data-value") for i in range(5)]
            box = score_first_open_box(player, seat)
            if dropped:
                ana.context.set_offline(False)
                expect(ana.locator("[data-connection]")).to_be_hidden()
            for follower in (other, spectator, second_tab):
                scored = follower.locator(f"[data-box='{box}'][data-player='{seat}'][data-score]")
                expect(scored).to_have_count(1)
            if turn == 0:
                assert all(value in "123456" and value for value in dice)

    game = topology.host.api("GET", f"/api/games/{game_id_of(ana)}")
    scores = game["scores"]
    assert topology.friend.api("GET", f"/api/games/{game_id_of(ana)}")["scores"] == scores
    assert game["is_over"] == whole
    for page in (ana, beto, spectator, second_tab):
        if whole:
            expect(page.locator("[data-game-over]")).to_be_visible()
        for seat, score in enumerate(scores):
            expect(page.locator(f"[data-total][data-player='{seat}']")).to_have_attribute("data-total", str(score))
    assert all(still_unreloaded(page) for page in (ana, beto, spectator, second_tab))  # every move was pushed
    second_tab.close()


def next_mover(phones: dict, game_over) -> int | None:
    """The seat whose phone waits for its player now, or None once the game is over."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        for seat, phone in phones.items():
            if phone.locator(READY).count():
                return seat
        if game_over.is_visible():
            return None
        time.sleep(0.02)
    raise AssertionError("no phone became ready within 20 s")


@pytest.mark.slow  # the quick suite keeps the Penta game between two phones
@GAME_VARIANTS
def test_two_phones_play_5000(topology, new_page, motion, whole):
    """Each player banks as soon as the rules allow; each phone shows the other's rolls and banks as they happen.
    The quick suite stops after three changes of turn and three banks, the slow step plays to the end."""
    ana = new_page(locale="es-ES", reduced_motion=motion)
    links = create_with_a_friend(ana, topology.host, "5000", "Ana", "Beto", clock="0")
    ready(ana)
    beto = new_page(locale="en-US", reduced_motion=motion)
    beto.goto(topology.for_friend(links["invite"]))
    phones = {0: ana, 1: beto}
    for phone in phones.values():
        mark_unreloaded(phone)
    game_over = ana.locator("[data-game-over]")
    turns, banks, mover = 0, 0, 0
    for _step in range(1000):
        seat = next_mover(phones, game_over)
        if seat is None:
            break
        player, other = phones[seat], phones[1 - seat]
        # What the mover's phone shows, the other phone shows too, pushed: every score and the turn's points.
        for total in player.locator(".scoreboard [data-total]").all():
            cell = f".scoreboard [data-total][data-player='{total.get_attribute('data-player')}']"
            expect(other.locator(cell)).to_have_attribute("data-total", total.get_attribute("data-total"))
        points = player.get_attribute("[data-turn-points]", "data-turn-points")
        expect(other.locator("[data-turn-points]")).to_have_attribute("data-turn-points", points)
        expect(other.locator(ROLL)).to_be_disabled()
        turns += seat != mover
        mover = seat
        if not whole and turns > 2 and banks > 2:
            break
        if player.locator(BANK).is_enabled():
            player.click(BANK)
            banks += 1
        else:
            player.click(ROLL)
    else:
        raise AssertionError("the game did not end within 1000 steps")

    assert turns > 2 and banks > 2
    scores = topology.host.api("GET", f"/api/games/{game_id_of(ana)}")["scores"]
    assert topology.friend.api("GET", f"/api/games/{game_id_of(ana)}")["scores"] == scores
    assert (5000 in scores) == whole
    for page in phones.values():
        if whole:
            expect(page.locator("[data-game-over]")).to_be_visible()
        for seat, score in enumerate(scores):
            cell = page.locator(f".scoreboard [data-total][data-player='{seat}']")
            expect(cell).to_have_attribute("data-total", str(score))
    assert all(still_unreloaded(phone) for phone in phones.values())


@pytest.mark.slow  # the quick suite plays an online game: the slow step runs this one
def test_a_second_opener_of_an_invite_link_is_told_the_seat_is_taken_and_watches(topology, new_page):
    ana = new_page(locale="en-US")
    links = create_with_a_friend(ana, topology.host, "penta", "Ana", "Beto", clock="0")
    ready(ana)
    beto = new_page(locale="en-US")
    beto.goto(topology.for_friend(links["invite"]))
    expect(beto.locator("[data-message]")).to_have_text("Waiting for Ana, who plays on another device")
    assert list(held_tokens(beto)) == ["1"]

    carla = new_page(locale="es-ES")  # Beto's link, forwarded: the seat is his already
    carla.goto(topology.for_friend(links["invite"]))
    expect(carla.locator("[data-notice]")).to_have_text("Este puesto ya está ocupado: estás mirando la partida")
    expect(carla.locator("[data-current-player]")).to_have_text("Turno de Ana")
    assert "#" not in carla.url and held_tokens(carla) == {}  # the invite left the address bar, no seat taken
    ana.click(ROLL)
    ready(ana)
    box = score_first_open_box(ana)
    for follower in (beto, carla):  # she watches the game live, as Beto plays it
        expect(follower.locator(f"[data-box='{box}'][data-player='0'][data-score]")).to_have_count(1)
    expect(carla.locator(ROLL)).to_be_disabled()
    expect(beto.locator(ROLL)).to_be_enabled()


def test_a_page_reconnects_by_itself_after_its_server_restarts(topology, new_page):
    ana = new_page(locale="en-US")
    links = create_with_a_friend(ana, topology.host, "generala", "Ana", "Beto")
    ready(ana)
    beto = new_page(locale="en-US")
    beto.goto(topology.for_friend(links["invite"]))
    expect(beto.locator("[data-message]")).to_have_text("Waiting for Ana, who plays on another device")

    topology.friend.stop()  # Beto's server; with two processes, Ana's stays up
    expect(beto.locator("[data-connection]")).to_be_visible()
    topology.friend.start()  # back once it answers, its broker subscribed
    # Each page's socket reconnects after its growing delay (10 s at most): Ana moves once both
    # follow the game again, so the move is pushed to a connected page rather than caught up.
    for page in (ana, beto):
        expect(page.locator("[data-connection]")).to_be_hidden(timeout=RECONNECTED_WITHIN_MS)
    ana.click(ROLL)
    ready(ana)
    box = score_first_open_box(ana)
    expect(beto.locator(f"[data-box='{box}'][data-player='0'][data-score]")).to_have_count(1)
    expect(beto.locator("[data-connection]")).to_be_hidden()
    ready(beto)
