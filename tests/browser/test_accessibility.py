"""axe-core finds nothing on any page, in light and dark mode: the home page, Penta, Generala and 5000
in the middle of a game (at phone and desktop sizes, with the hints open, a box chosen, six seats
collapsed, the live bar on), the rules pages, the review, a player's record, the missing game; a Generala game is played with
the keyboard alone (its first turns in the quick suite, the whole game in the slow step), every focused control showing
its focus ring; dice, boxes and the message line speak to screen readers."""

from __future__ import annotations

import pytest
from a11y import axe_violations
from harness import DESKTOP
from layout_checks import start_game
from playwright.sync_api import expect

SCHEMES = ("light", "dark")
# A two-seat game's live bar shows each seat's chance to finish first: the server computes a rule set's
# first duel once, a moment for Generala and some twenty seconds of CPU for Penta (more on a busy machine).
DUEL_FIGURES_MS = 120_000


def ready(page) -> None:
    page.wait_for_selector("#table[data-ready]")


def no_violations(page, what: str) -> None:
    """axe-core's default rules pass on the page as it is now, in light and in dark mode."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        assert axe_violations(page) == [], f"{what}, {scheme}"
    page.emulate_media(color_scheme="light")


@pytest.mark.slow  # the quick suite checks a game's page and its review by keyboard: the slow step runs this one
def test_the_home_rules_and_missing_pages(server, new_page):
    page = new_page()
    page.goto(f"{server.url}/")
    expect(page.locator("[data-rules-help]")).to_have_text(
        "Si la casilla Penta tiene 50 puntos, cada nuevo Penta da 100 puntos de bonus y hace de comodín: primero en la casilla de arriba de su valor."
    )
    no_violations(page, "home")
    page.click("[data-game='generala']")  # 5000's rules are switches, without this list
    page.select_option("[data-rules-select]", "traditional")
    expect(page.locator("[data-rules-help]")).to_have_text(
        "10 combinaciones: Escalera 20, Full 30, Póker 40, 5 más si salen servidas (en el primer lanzamiento);"
        " Generala 50, y una Generala servida gana la partida."
    )
    expect(page.locator("[data-rules-select]")).to_have_attribute("aria-describedby", "rules-help")
    page.click("[data-action='add-player']")
    page.select_option("[data-player-row]:nth-child(2) [data-player-kind]", "friend")
    page.click("[data-action='start']")
    expect(page.locator("[data-invite-panel]")).to_be_visible()
    page.wait_for_selector("[data-qr]")
    no_violations(page, "home, the invitations")
    for game in ("penta", "generala", "5000"):
        page.goto(f"{server.url}/rules/{game}")
        no_violations(page, f"rules of {game}")
    page.goto(f"{server.url}/game/no-such-game")
    expect(page.locator("h1")).to_be_visible()
    no_violations(page, "missing game")


# Generala in the quick suite: Penta's first duel would cost its server twenty seconds of CPU.
@pytest.mark.slow  # the live bar's figures on a phone; the quick suite checks the bar in test_game_page.py
@pytest.mark.parametrize("game", ["generala", "penta"])
def test_a_sheet_game_in_the_middle(server, new_page, game):
    page = new_page()
    start_game(page, server, game, 2)
    page.click("[data-action='roll']")
    ready(page)
    page.locator("[data-player='0'][data-preview]").first.click()
    page.click("[data-action='validate']")
    ready(page)  # the bot has played: written scores on both sheets
    page.click("[data-action='roll']")
    ready(page)
    no_violations(page, f"{game}, dice rolled")
    page.click("[data-action='settings']")
    page.check("#settings [data-live-bar-setting]")
    page.click("#settings button[value='close']")
    expect(page.locator("[data-live-bar] [data-live-seat]")).to_have_count(2, timeout=DUEL_FIGURES_MS)
    no_violations(page, f"{game}, the live bar on")
    page.click("[data-action='hint']")
    expect(page.locator("[data-hints] li").first).to_be_visible()
    no_violations(page, f"{game}, hints open")
    page.locator("[data-player='0'][data-preview]").first.click()
    expect(page.locator("td[aria-pressed='true']")).to_have_count(1)
    no_violations(page, f"{game}, a box chosen")
    page.set_viewport_size(DESKTOP)
    no_violations(page, f"{game}, desktop")


@pytest.mark.slow  # six seats on a phone: test_layout's quick check covers the layout; the slow step runs axe on it
def test_six_seats_collapsed_on_a_phone(server, new_page):
    page = new_page()
    start_game(page, server, "penta", 6)
    page.click("[data-action='roll']")
    ready(page)
    expect(page.locator("[data-seat-toggle][aria-expanded='false']")).to_have_count(5)
    no_violations(page, "penta, six seats")
    page.click("[data-seat-toggle='2']")
    expect(page.locator("[data-seat-toggle='2']")).to_have_attribute("aria-expanded", "true")
    no_violations(page, "penta, six seats, one opened")


@pytest.mark.slow  # a 5000 game played to its middle: the slow step runs it
def test_5000_in_the_middle_with_players_in_and_out(server, new_page):
    page = new_page()
    start_game(page, server, "5000", 3)
    scoreboard = page.locator(".scoreboard li")
    for _ in range(200):  # Ana rolls and banks what she may until a bot is in the game
        if page.locator(".scoreboard li[data-in-game='true']").count() and page.locator(
            ".scoreboard li[data-in-game='false']"
        ).count():
            break
        bank = page.locator("[data-action='bank']")
        page.click("[data-action='bank']" if bank.is_enabled() else "[data-action='roll']")
        ready(page)
    expect(scoreboard.and_(page.locator("[data-in-game='true']")).first).to_be_visible()
    expect(scoreboard.and_(page.locator("[data-in-game='false']")).first).to_be_visible()
    if page.locator("[data-action='roll']").is_enabled():
        page.click("[data-action='roll']")
        ready(page)
    no_violations(page, "5000")
    page.set_viewport_size(DESKTOP)
    no_violations(page, "5000, desktop")


def focus_ring(page, selector: str) -> tuple[str, str, float, bool]:
    """The focused element (its start), its outline, and whether it is `selector`: one round trip a Tab."""
    return page.evaluate(
        """(selector) => { const element = document.activeElement; const style = getComputedStyle(element);
        return [element.outerHTML.slice(0, 60), style.outlineStyle, parseFloat(style.outlineWidth),
                element.matches(selector)]; }""",
        selector,
    )


def tab_to(page, selector: str, most: int = 60) -> None:
    """Press Tab until the focus is on `selector`; every control it passes shows a focus ring (past the
    last one, the focus leaves the page and comes back to the first)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        html, style, width, reached = focus_ring(page, selector)
        assert html.startswith("<body") or (style != "none" and width >= 2), html
        if reached:
            return
    raise AssertionError(f"Tab never reached {selector}")


# The quick suite plays the first two turns and checks the review of the game in progress; the whole game,
# with its end, runs in the slow step, with reduced motion and animated.
@pytest.mark.parametrize(
    ("motion", "turns"),
    [
        pytest.param("reduce", 2, id="first-turns-still"),
        pytest.param("reduce", 13, id="whole-still", marks=pytest.mark.slow),
        pytest.param("no-preference", 13, id="whole-animated", marks=pytest.mark.slow),
    ],
)
def test_a_generala_game_by_keyboard_then_its_end_and_review(server, new_page, motion, turns):
    page = new_page(auto_score=False, reduced_motion=motion)
    start_game(page, server, "generala")
    message = page.locator("[data-message]")
    expect(message).to_have_attribute("aria-live", "polite")
    for turn in range(turns):
        page.keyboard.press("r")
        ready(page)
        values = [page.get_attribute(f"[data-die='{index}']", "data-value") for index in range(5)]
        expect(page.locator("[data-die='0']")).to_have_attribute("aria-label", f"Dado 1: {values[0]}")
        if turn == 0:  # a die held from the keyboard, the dice rolled again
            tab_to(page, "[data-die='0']")
            page.keyboard.press("Space")
            expect(page.locator("[data-die='0']")).to_have_attribute("aria-pressed", "true")
            expect(page.locator("[data-die='0']")).to_have_attribute("aria-label", f"Dado 1: {values[0]}, guardado")
            page.keyboard.press("r")
            ready(page)
            expect(page.locator("[data-die='0']")).to_have_attribute("data-value", values[0])
        tab_to(page, "td[role='button']")
        cell = page.locator("td[role='button']:focus")
        box, points = cell.get_attribute("data-box"), cell.get_attribute("data-preview")
        expect(cell).to_have_attribute("aria-label", f"{page.inner_text(f'tr:has(td[data-box={box!r}]) th')}: anotaría {points}")
        page.keyboard.press("Space")
        expect(cell).to_have_attribute("aria-pressed", "true")
        tab_to(page, "[data-action='validate']")
        page.keyboard.press("Enter")
        expect(page.locator(f"td[data-box='{box}'][data-score='{points}']")).to_have_count(1)
        page.wait_for_selector("#table[data-ready], [data-game-over]:not([hidden])")
    whole = turns == 13
    if whole:
        dialog = page.locator("[data-game-over]")
        expect(dialog).to_be_visible()
        no_violations(page, "game over")
        page.keyboard.press("Escape")
        expect(dialog).to_be_hidden()
        no_violations(page, "the finished table")

    page.goto(page.url + "/review")
    page.wait_for_selector("[data-chart] svg")
    no_violations(page, "review")
    page.locator(".costliest [data-decision]").first.click()
    page.wait_for_selector("[data-position] .options")
    no_violations(page, "review, a position")

    name = page.evaluate("localStorage.getItem('cubilete.name')")
    page.goto(f"{server.url}/player/{name}")
    expect(page.locator("[data-summary]")).to_be_visible()
    expect(page.locator("[data-record-games] li")).to_have_count(1 if whole else 0)
    no_violations(page, "the player's record")
