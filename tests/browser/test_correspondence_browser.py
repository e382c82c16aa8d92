"""A game by correspondence as two players see it, each on their own browser: Ana starts it with one day
per turn, Beto joins by his invite link; each one's home page lists it with whose turn it is (Ana's:
"your turn" and the time left); then both close their pages, the day runs out, and the server plays
Ana's turn with nobody connected: Beto's home page now says it is his turn.

The servers run with CUBILETE_CLOCK_SCALE (a test hook) making a day last DAY_LASTS_S seconds: time
enough for Ana to roll and open her home page on a busy machine."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect
from test_browser import ready
from test_online import create_with_a_friend

DAY_LASTS_S = 20
CLOCK_SCALE = str(DAY_LASTS_S / 86_400)
TURN_PLAYED_S = 3 * DAY_LASTS_S  # the longest wait for the server to play the expired turn


@pytest.fixture(scope="module")
def server_env() -> dict[str, str]:
    return {"CUBILETE_CLOCK_SCALE": CLOCK_SCALE}


def wait_for_turn(server, game_id: str, seat: int) -> None:
    """Wait until the server says it is `seat`'s turn (no page of the game is open to show it)."""
    give_up = time.monotonic() + TURN_PLAYED_S
    while server.api("GET", f"/api/games/{game_id}")["current_player"] != seat:
        assert time.monotonic() < give_up, f"seat {seat}'s turn never came"
        time.sleep(0.2)


def closed_then_reopened(page):
    """Close the page; answer a new blank page of the same browser (its storage kept), whose script
    errors count as the closed page's."""
    context = page.context
    page.close()
    reopened = context.new_page()
    reopened.on("pageerror", lambda error: page.errors.append(str(error)))
    return reopened


@pytest.mark.slow  # a whole scenario over a day of the scaled clock: the slow step runs it
def test_the_server_plays_an_expired_correspondence_turn_with_every_page_closed(topology, new_page):
    ana = new_page(locale="es-ES")
    ana.goto(f"{topology.host.url}/")
    expect(ana.locator("[data-turn-clock] option[value='1d']")).to_have_text("1 día por turno")
    expect(ana.locator("[data-turn-clock] option[value='7d']")).to_have_text("7 días por turno")
    links = create_with_a_friend(ana, topology.host, "penta", "Ana", "Beto", clock="1d")
    beto = new_page(locale="en-US")
    beto.goto(topology.for_friend(links["invite"]))
    expect(beto.locator("[data-current-player]")).to_have_text("Ana's turn")
    game_id = ana.url.rsplit("/", 1)[1]

    ready(ana)
    ana.click("[data-action='roll']")  # the table's first move: the day starts
    expect(ana.locator("[data-turn-clock-left]")).to_contain_text("Tu tiempo: ")  # her own clock, said to her
    ana.goto(f"{topology.host.url}/")
    mine = ana.locator(f"li:has([data-resume='{game_id}']) [data-turn-status]")
    expect(mine).to_have_attribute("data-turn-status", "mine")
    expect(mine).to_contain_text("Tu turno · tiempo restante:")
    beto.goto(f"{topology.friend.url}/")
    theirs = beto.locator(f"li:has([data-resume='{game_id}']) [data-turn-status]")
    expect(theirs).to_have_text("Ana's turn")

    # Both close their pages: nobody counts down, and the server plays Ana's turn when her day is over.
    ana, beto = (closed_then_reopened(page) for page in (ana, beto))
    # either process's sweeper may play it; the other hears it through the broker a moment later
    for server in (topology.host, topology.friend):
        wait_for_turn(server, game_id, 1)
    steps = topology.friend.api("GET", f"/api/games/{game_id}?since=0")["steps"]
    assert [step["seat"] for step in steps if step["by_clock"]] and all(
        step["seat"] == 0 for step in steps if step["by_clock"]
    )

    beto.goto(f"{topology.friend.url}/")
    theirs = beto.locator(f"li:has([data-resume='{game_id}']) [data-turn-status]")
    expect(theirs).to_have_attribute("data-turn-status", "mine")
    expect(theirs).to_contain_text("Your turn · ")
    expect(beto.locator("[data-resume]").first).to_have_attribute("data-resume", game_id)  # listed first
    ana.goto(f"{topology.host.url}/")
    expect(ana.locator(f"li:has([data-resume='{game_id}']) [data-turn-status]")).to_have_text("Turno de Beto")
