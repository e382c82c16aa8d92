"""The table fits the screen: at 375x667 and at 1280x800 every row of the Penta and Generala sheets
(boxes, bonuses, totals) for 1, 2 and 4 players, the dice and the buttons are on screen without
scrolling; with six players the other seats collapse to their totals on a phone; 5000's table fits
too; the sticky cells are opaque; long names and long rule set names are not cut or overflowing.
The quick suite checks a representative of each page kind; the whole matrix runs in the slow step."""

from __future__ import annotations

from itertools import product

import pytest
from harness import DESKTOP, PHONE
from layout_checks import cut_selects, not_on_screen, overflowing, see_through_sticky_cells, start_game
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect
from test_online import create_with_a_friend

SIZES = {"phone": PHONE, "desktop": DESKTOP}
ROWS = ".sheet tr"
CONTROLS = "[data-die], .tray [data-action]"
LONG_NAMES = ("Maximiliano Bartolomé Gu", "Anastasia Valentina Rod", "Wolfgang Amadeus Mozart")
LOCALES = {"es": "es-ES", "id": "id-ID", "en": "en-US"}


def matrix(*axes, quick: set[tuple]) -> list:
    """Every combination of the axes; those not in `quick` (a representative of each page kind and
    size) run in the slow step: the whole matrix takes minutes."""
    return [pytest.param(*case, marks=() if case in quick else pytest.mark.slow) for case in product(*axes)]


DESKTOP_IN_THE_SLOW_STEP = ["phone", pytest.param("desktop", marks=pytest.mark.slow)]


def ready(page) -> None:
    page.wait_for_selector("#table[data-ready]")


def roll(page) -> None:
    page.click("[data-action='roll']")
    ready(page)


SCROLL_FIGURES = """(() => { const b = document.querySelector('[data-board]');
  return [b.scrollHeight, b.clientHeight, document.documentElement.scrollHeight, innerHeight]; })()"""


def nothing_scrolls(page) -> None:
    """Once the table has settled (a roll's lines may take a frame or two to reach their height),
    neither the board nor the page scrolls."""
    try:
        page.wait_for_function(
            # a function, not an expression: polling an expression evaluates a string in the page, which its CSP refuses
            f"() => (([board, shown, page, view]) => board <= shown && page <= view)({SCROLL_FIGURES})", timeout=3000
        )
    except PlaywrightTimeoutError:
        board, shown, height, view = page.evaluate(SCROLL_FIGURES)
        raise AssertionError(f"the board scrolls ({board} > {shown}) or the page does ({height} > {view})") from None


@pytest.mark.parametrize(
    ("game", "players", "size", "lang"),
    matrix(["penta", "generala"], [1, 2, 4], SIZES, ["es"], quick={("penta", 4, "phone", "es")})
    # Indonesian's and English's words on a phone too (issue 34 item 18): the fullest sheet of each game
    + [pytest.param("penta", 4, "phone", "id", marks=pytest.mark.slow), pytest.param("generala", 4, "phone", "id"),
       pytest.param("penta", 4, "phone", "en", marks=pytest.mark.slow),
       pytest.param("generala", 4, "phone", "en", marks=pytest.mark.slow)],
)
def test_every_row_of_the_sheet_the_dice_and_the_buttons_are_on_screen(server, new_page, game, players, size, lang):
    page = new_page(viewport=SIZES[size], locale=LOCALES[lang])
    start_game(page, server, game, players)
    expect(page.locator("html")).to_have_attribute("lang", lang)
    expected_rows = 1 + 13 + 1 + (3 if game == "penta" else 0)  # names, boxes, total, penta's bonuses
    expect(page.locator(ROWS)).to_have_count(expected_rows)
    roll(page)
    nothing_scrolls(page)
    assert not_on_screen(page, ROWS) == []
    assert not_on_screen(page, CONTROLS) == []
    # the hints lie over the bottom of the sheet on a phone, beside it on a desktop; the dice stay
    page.click("[data-action='hint']")
    expect(page.locator("[data-hints] li").first).to_be_visible()
    assert not_on_screen(page, "[data-hints], " + CONTROLS) == []
    if size == "desktop":
        assert not_on_screen(page, ROWS) == []
    if players == 4:  # the last roll: the countdown to the auto-score is shown too
        roll(page)
        roll(page)
        expect(page.locator("[data-countdown]")).to_be_visible()
        nothing_scrolls(page)
        assert not_on_screen(page, ROWS) == []
        assert not_on_screen(page, CONTROLS + ", [data-countdown]") == []


@pytest.mark.parametrize("size", DESKTOP_IN_THE_SLOW_STEP)
def test_the_sticky_names_and_totals_are_opaque(server, new_page, size):
    page = new_page(viewport=SIZES[size])
    start_game(page, server, "penta", 2)
    roll(page)
    expect(page.locator(".sheet thead th.current")).to_have_count(1)
    assert see_through_sticky_cells(page) == []
    page.emulate_media(color_scheme="dark")
    assert see_through_sticky_cells(page) == []


def test_with_six_players_the_other_seats_collapse_to_their_totals_on_a_phone(server, new_page):
    page = new_page()
    start_game(page, server, "penta", 6)
    roll(page)
    page.locator("[data-player='0'][data-preview]").first.click()
    page.click("[data-action='validate']")
    ready(page)  # the five bots have played their first turn
    roll(page)
    toggles = page.locator("[data-seat-toggle]")
    expect(toggles).to_have_count(5)  # the seat to move has its name, not a button
    for seat in range(1, 6):
        toggle = page.locator(f"[data-seat-toggle='{seat}']")
        expect(toggle).to_have_attribute("aria-expanded", "false")
        written = page.locator(f"td[data-player='{seat}'][data-score]")
        expect(written).to_have_count(1)
        assert written.evaluate("(cell) => getComputedStyle(cell).fontSize") == "0px"  # collapsed
        expect(page.locator(f"[data-total][data-player='{seat}']")).to_have_text(written.inner_text())
    nothing_scrolls(page)
    assert not_on_screen(page, ROWS) == [] and not_on_screen(page, CONTROLS) == []

    page.click("[data-seat-toggle='3']")
    expect(page.locator("[data-seat-toggle='3']")).to_have_attribute("aria-expanded", "true")
    opened = page.locator("td[data-player='3'][data-score]")
    assert opened.evaluate("(cell) => getComputedStyle(cell).fontSize") != "0px"
    assert opened.bounding_box()["width"] > page.locator("td[data-player='2'][data-score]").bounding_box()["width"]
    nothing_scrolls(page)
    assert not_on_screen(page, ROWS) == []
    assert overflowing(page, "html, [data-board]") == []
    page.click("[data-seat-toggle='3']")
    expect(page.locator("[data-seat-toggle='3']")).to_have_attribute("aria-expanded", "false")

    page.set_viewport_size(DESKTOP)  # room for every column: none collapses
    expect(page.locator("[data-seat-toggle]")).to_have_count(0)
    expect(page.locator(".sheet .collapsed")).to_have_count(0)
    assert not_on_screen(page, ROWS) == []


@pytest.mark.parametrize("size", DESKTOP_IN_THE_SLOW_STEP)
def test_a_5000_table_of_six_fits_with_the_longest_rule_set_name_in_two_lines_and_whole_in_its_title(server, new_page, size):
    page = new_page(viewport=SIZES[size])
    longest = {"entry": "entry-1000", "three_ones": "three-ones-1000", "set_aside": "free-set-aside"}
    start_game(page, server, "5000", 6, switches=longest, names=("Ana", "Beto", "Carla", "Dani", "Eva", "Fede"))
    rules_name = page.locator("[data-rules-name]")
    longest_name = "Entrar con 1000 + Tres ases valen 1000 + Elegir los dados que se apartan"
    expect(rules_name).to_have_text(longest_name)
    expect(rules_name).to_have_attribute("title", longest_name)  # in full on a long press; the bar shows two lines
    assert overflowing(page, "html, .bar, .bar .title, [data-rules-name]") == []
    assert not_on_screen(page, "[data-rules-name], .bar .title") == []
    roll(page)
    nothing_scrolls(page)
    assert not_on_screen(page, ".scoreboard li, .turn-points, [data-die]:not([hidden]), .tray [data-action]:not([hidden])") == []
    # The turn log's toggle beside the message, shown once a move is logged: a bust on this first roll
    # (about 1 in 13) showed it, three lines tall, and the board scrolled (435 > 433). Shown here every time.
    page.evaluate("document.querySelector('[data-turn-log]').hidden = false")
    nothing_scrolls(page)


@pytest.mark.parametrize("game", ["penta", pytest.param("generala", marks=pytest.mark.slow)])
def test_the_rule_set_is_not_cut_in_the_header(server, new_page, game):
    page = new_page()
    start_game(page, server, game)
    expect(page.locator("[data-rules-name]")).to_have_text("Reglas de la app" if game == "penta" else "Estándar")
    assert overflowing(page, "html, .bar, .bar .title, [data-rules-name]") == []
    assert not_on_screen(page, "[data-rules-name]") == []


@pytest.mark.parametrize(("game", "size"), matrix(["penta", "5000"], SIZES, quick={("5000", "phone")}))
def test_three_long_names_do_not_overflow_the_width(server, new_page, game, size):
    page = new_page(viewport=SIZES[size])
    start_game(page, server, game, 3, names=LONG_NAMES)
    expect(page.locator("[data-current-player]")).to_contain_text(LONG_NAMES[0])
    roll(page)
    assert overflowing(page, "html, body, .table, [data-board], .turn-line, .tray") == []
    if game == "penta":
        assert page.evaluate("document.querySelector('.sheet').scrollWidth <= document.querySelector('[data-board]').clientWidth")
        for seat, name in enumerate(LONG_NAMES):  # cut with an ellipsis, whole in the text and the tooltip
            header = page.locator(f".sheet thead th[data-seat='{seat}']")
            expect(header).to_have_text(name)
            expect(header).to_have_attribute("title", name)
        assert not_on_screen(page, ROWS) == []
    else:
        assert not_on_screen(page, ".scoreboard li") == []


def test_a_friends_game_with_a_clock_fits_a_phone_and_names_nobody_on_her_own_clock(server, new_page):
    """Issue 34, item 8: Ana (default name, no friend yet) plays a friends' Penta game with a 5 min clock
    on her phone: the sheet scrolls not, the banner says her name whole, and her clock speaks to her."""
    ana = new_page(locale="es-ES")
    create_with_a_friend(ana, server, "penta", "Jugador 1", "Jugador 2", clock="300")
    ready(ana)
    roll(ana)
    clock = ana.locator("[data-turn-clock-left]")
    expect(clock).to_be_visible()
    expect(clock).not_to_contain_text("Jugador 1")  # her own clock, said to her
    expect(ana.locator("[data-current-player]")).to_have_text("Turno de Jugador 1")
    assert overflowing(ana, "[data-current-player], .turn-line") == []  # not "Turno de Jug…"
    nothing_scrolls(ana)
    assert not_on_screen(ana, ROWS) == [] and not_on_screen(ana, CONTROLS) == []


# Spanish's «En este dispositivo» is the widest kind of seat; the other languages in the slow step.
@pytest.mark.parametrize("lang", [lang if lang == "es" else pytest.param(lang, marks=pytest.mark.slow) for lang in LOCALES])
def test_the_new_game_forms_seat_selects_show_their_options_whole_on_a_phone(server, new_page, lang):
    """Issue 34 item 13c: «En este dispositivo», the widest kind of seat, was cut to «En este dis…» at 375 px."""
    page = new_page(locale=LOCALES[lang])
    page.goto(f"{server.url}/")
    page.click("[data-game-choice='penta']")
    while page.locator("[data-player-row]").count() < 3:
        page.click("[data-action='add-player']")
    rows = page.locator("[data-player-row]")
    rows.nth(1).locator("[data-player-kind]").select_option("friend")
    rows.nth(2).locator("[data-player-kind]").select_option("bot")
    assert cut_selects(page, "[data-player-row] select") == []
    assert overflowing(page, "html, [data-new-game]") == []
    assert not_on_screen(page, "[data-player-row] :is(input, select, button)") == []
