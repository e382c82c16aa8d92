"""The game page at 375x667 as a new player met it (issue 23, items 10 to 15): the live bar on and every
row of the sheet still on screen, and what its first figures wait for; the sacrifice warning as the
last roll lands and only then; hints and figures written as the reader's language writes numbers;
the turn banner in full beside the auto-score countdown, and no clock of Ana's beside Beto's timed-out
turn played back; one size of checkbox on the form and in ⚙;
held dice kept when the tab is closed and opened again. Games are started from the form; the layout
is checked by the boxes the page measures."""

from __future__ import annotations

import json
import re

import pytest
from harness import Server, free_port
from layout_checks import not_on_screen, overflowing, start_game
from playwright.sync_api import expect
from test_browser import score_first_open_box
from test_browser_coach import switch_live_bar
from test_layout import nothing_scrolls, ready, roll
from test_online import create_with_a_friend

ROWS = ".sheet tr"
BAR = "[data-live-bar]"
MESSAGE = "[data-message]"
SACRIFICE = "Ninguna casilla abierta puntúa: hay que sacrificar una"
HOLD_OR_CHOOSE = "Toca los dados para guardarlos; después vuelve a lanzar o elige una casilla"
# Seven turns that leave only the combinations, which most rolls do not make: a sacrifice is then likely.
FILLED_FIRST = ("ones", "twos", "threes", "fours", "fives", "sixes", "chance")
LEFT_LAST = ("three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight", "penta")
SLOW_AUTO_SCORE = "localStorage.setItem('cubilete.settings', JSON.stringify({autoScoreSeconds: 30, botPaceMs: 0}))"


def score(page, box: str) -> None:
    page.click(f"td[data-box='{box}'][data-player='0']")
    page.click("[data-action='validate']")
    ready(page)


@pytest.mark.slow  # the quick suite checks every row on a phone (test_layout) and the bar (test_browser_coach): the slow step runs this one
def test_with_the_live_bar_on_every_row_of_the_sheet_stays_on_screen(server, new_page):
    page = new_page()
    start_game(page, server, "penta")
    switch_live_bar(page, True)
    expect(page.locator(BAR)).to_have_attribute("data-events", "0")
    roll(page)
    expect(page.locator(BAR)).to_have_attribute("data-events", "1")
    nothing_scrolls(page)
    assert not_on_screen(page, f"{ROWS}, {BAR}, [data-die], .tray [data-action]") == []


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_with_four_seats_in_the_live_bar_every_row_stays_on_screen(server, new_page):
    """Four seats' chips (the duel's figures take minutes to solve: the bar is given them as the server
    words them), with the auto-score's countdown beside the turn."""
    page = new_page()
    answer = {
        "events": 0,
        "is_over": False,
        "unit": "win_probability",
        "estimate": True,
        "seats": [{"seat": seat, "score": 0, "value": 0.25, "expected": 254.5} for seat in range(4)],
    }

    def figures(route):
        answer["events"] = int(re.search(r"at=(\d+)", route.request.url).group(1))
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    page.route(re.compile(r"/chances\?"), figures)
    start_game(page, server, "penta", 4)
    page.evaluate(SLOW_AUTO_SCORE)
    switch_live_bar(page, True)
    for _ in range(3):
        roll(page)
    expect(page.locator(f"{BAR} [data-live-seat]")).to_have_count(4)
    expect(page.locator("[data-countdown]")).to_be_visible()
    nothing_scrolls(page)
    assert not_on_screen(page, f"{ROWS}, {BAR}, [data-countdown], [data-die], .tray [data-action]") == []


# Every text the live bar shows, and whether the page's «Thinking…» ever shows, from now on.
WATCH_THE_BAR = """() => {
  window.barTexts = [];
  window.thoughtOf = false;
  const bar = document.querySelector("[data-live-bar]");
  const thinking = document.querySelector("[data-thinking]");
  new MutationObserver(() => {
    window.barTexts.push(bar.textContent);
    window.thoughtOf ||= !thinking.hidden;
  }).observe(document.querySelector("#table"), { subtree: true, childList: true, characterData: true, attributes: true });
}"""


@pytest.mark.slow  # a server of its own; the quick suite says a refused table in the bar (below)
def test_the_bar_says_it_waits_for_the_computer_s_tables(new_page, tmp_path, solved_tables):
    """A server just started holds no tables: the bar's first figures wait for them to be loaded, and say so."""
    server = Server(f"sqlite:///{tmp_path / 'games.sqlite3'}", free_port(), tmp_path / "server.log")
    server.start()
    try:
        page = new_page()
        start_game(page, server, "penta")
        page.evaluate(WATCH_THE_BAR)
        switch_live_bar(page, True)
        expect(page.locator(BAR)).to_have_attribute("data-events", "0")
        assert "Preparando las tablas de la computadora…" in page.evaluate("window.barTexts")
        assert page.evaluate("window.thoughtOf") is False
    finally:
        server.stop()


def test_a_refused_table_is_said_in_the_bar_and_nothing_says_thinking(new_page, tmp_path, solved_tables):
    """A server whose budget holds no duel tables refuses the bar's figures at once (503 tables_over_budget):
    the bar says so in the reader's language, and the page never shows "thinking" for the bar."""
    server = Server(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        free_port(),
        tmp_path / "server.log",
        options=("--table-memory-mb", "1"),
    )
    server.start()
    try:
        page = new_page(locale="id-ID")
        page.goto(f"{server.url}/")
        page.click("[data-game='penta']")
        page.click("[data-action='add-player']")
        page.click("[data-action='start']")
        page.wait_for_selector("#table[data-ready]")
        switch_live_bar(page, True)
        expect(page.locator(f"{BAR} .live-off")).to_have_text(
            "Server saat ini tidak punya ruang untuk tabel komputer yang dibutuhkan aturan ini: silakan coba lagi"
            " dalam 5 menit"
        )
        expect(page.locator("[data-thinking]")).to_be_hidden()
        assert not_on_screen(page, f"{ROWS}, {BAR}") == []
    finally:
        server.stop()


@pytest.mark.slow  # three animated rolls: the slow step runs it
def test_the_sacrifice_warning_comes_as_the_last_roll_lands_and_only_then(server, new_page):
    page = new_page(auto_score=False, reduced_motion="reduce")
    start_game(page, server, "penta")
    for box in FILLED_FIRST:  # the first seven turns as a hasty player plays them: one roll, a box
        roll(page)
        score(page, box)
    open_boxes = list(LEFT_LAST)
    while open_boxes:
        roll(page)  # rolls left: whatever the dice, no sacrifice is due yet
        expect(page.locator(MESSAGE)).to_have_text(HOLD_OR_CHOOSE)
        roll(page)
        roll(page)
        previews = page.locator("td[data-player='0'][data-preview]").evaluate_all(
            "cells => cells.map(cell => Number(cell.dataset.preview))"
        )
        if not any(previews):
            # at once: the moment the table is ready for the player, not after the news of the reroll
            assert page.locator(MESSAGE).text_content() == SACRIFICE
            return
        expect(page.locator(MESSAGE)).to_have_text("Último lanzamiento: elige una casilla")
        best = page.locator("td[data-player='0'][data-preview]:not(.zero)").first.get_attribute("data-box")
        score(page, best)
        open_boxes.remove(best)
    pytest.fail("no last roll at the combinations called for a sacrifice")


@pytest.mark.parametrize("locale", ["es-ES", pytest.param("id-ID", marks=pytest.mark.slow)])
def test_hints_and_the_live_bar_write_numbers_as_the_reader_does(server, new_page, locale):
    page = new_page(locale=locale)
    start_game(page, server, "penta")
    switch_live_bar(page, True)
    roll(page)
    page.click("[data-action='hint']")
    hints = page.locator("[data-hints] button.hint")
    expect(hints.first).to_be_visible()
    for text in hints.all_text_contents():
        assert re.search(r"→ \d+,\d$", text), text  # 249,8 where «249.8» was
    expect(page.locator(BAR)).to_have_attribute("data-events", "1")
    assert re.fullmatch(r"\d+,\d", page.locator(f"{BAR} .value").text_content())


def test_the_turn_banner_is_whole_beside_the_countdown(server, new_page):
    page = new_page()
    start_game(page, server, "penta", 4, names=("Lucía",))
    page.evaluate(SLOW_AUTO_SCORE)  # the countdown stays while it is measured
    for _ in range(3):
        roll(page)
    expect(page.locator("[data-countdown]")).to_have_text(re.compile("La computadora anota en"))
    expect(page.locator("[data-current-player]")).to_have_text("Turno de Lucía")
    assert overflowing(page, ".turn-line, .turn-line > :not([hidden])") == []
    nothing_scrolls(page)
    assert not_on_screen(page, f"{ROWS}, [data-current-player], [data-countdown]") == []


CHECKBOX_SIZES = """() => [...document.querySelectorAll("input[type='checkbox']")]
  .filter((box) => box.getClientRects().length > 0)
  .map((box) => { const { width, height } = box.getBoundingClientRect(); return [box.name, width, height]; })"""


def test_every_checkbox_has_one_size_on_the_form_and_in_the_settings(server, new_page):
    page = new_page()
    page.goto(f"{server.url}/")
    page.click("[data-game='penta']")
    page.click("[data-action='add-player']")
    page.select_option("[data-player-row]:nth-child(2) [data-player-kind]", "friend")
    expect(page.locator("[data-hints-allowed-row]")).to_be_visible()
    on_the_form = page.evaluate(CHECKBOX_SIZES)
    start_game(page, server, "penta")
    page.click("[data-action='settings']")
    in_settings = page.evaluate(CHECKBOX_SIZES)
    assert len(on_the_form) == 2 and len(in_settings) == 3, (on_the_form, in_settings)
    assert {(width, height) for _, width, height in on_the_form + in_settings} == {(24, 24)}


def test_held_dice_are_kept_when_the_tab_is_closed_and_opened_again(server, new_page):
    page = new_page()
    start_game(page, server, "penta")
    stale = "cubilete.held.abandoned.0"  # a game left a month ago: dropped once dice are held again
    page.evaluate(
        f"localStorage.setItem('{stale}', JSON.stringify({{at: 3, positions: [1], saved: Date.now() - 30 * 86400000}}))"
    )
    roll(page)
    for die in (0, 3):
        page.click(f"[data-die='{die}']")
    url, context = page.url, page.context
    page.close()
    page = context.new_page()
    page.goto(url)
    ready(page)
    held = page.locator("[data-die]").evaluate_all("dice => dice.map(die => die.getAttribute('aria-pressed'))")
    assert held == ["true", "false", "false", "true", "false"]
    assert page.evaluate(f"localStorage.getItem('{stale}')") is None


# What the turn banner and the turn clock say together, at every change of either.
WATCH_THE_TURN_LINE = """() => {
  window.turnLine = [];
  const banner = document.querySelector("[data-current-player]");
  const clock = document.querySelector("[data-turn-clock-left]");
  const note = () => window.turnLine.push([banner.textContent, clock.hidden ? "" : clock.textContent]);
  new MutationObserver(note).observe(document.querySelector(".turn-line"),
    { subtree: true, childList: true, characterData: true, attributes: true });
}"""


@pytest.mark.slow  # a clock of 9 s to run out, and a turn played back at the bots' pace
def test_while_a_timed_out_turn_plays_back_the_banner_and_the_clock_agree(new_page, tmp_path, solved_tables):
    """Beto never comes: the computer plays his turn when his clock runs out (a 30 s clock lasting 9 s on
    this server), and Ana's page plays it back at the bots' pace: meanwhile no clock of hers beside his turn."""
    server = Server(
        f"sqlite:///{tmp_path / 'games.sqlite3'}",
        free_port(),
        tmp_path / "server.log",
        env={"CUBILETE_CLOCK_SCALE": "0.3"},
    )
    server.start()
    try:
        ana = new_page(bot_pace_ms=1200)
        create_with_a_friend(ana, server, "penta", "Ana", "Beto", clock="30")
        ready(ana)
        ana.evaluate(WATCH_THE_TURN_LINE)
        roll(ana)
        score_first_open_box(ana)
        expect(ana.locator("[data-notice]")).to_have_text(
            "Se acabó el tiempo de Beto: la computadora jugó su turno", timeout=30_000
        )
        expect(ana.locator("[data-turn-clock-left]")).to_contain_text("Tu tiempo: ")  # her own clock, said to her
        seen = ana.evaluate("window.turnLine")
        assert ["Turno de Beto", ""] in seen  # his turn played back, with no clock beside it
        assert [pair for pair in seen if "Beto" in pair[0] and "Tu tiempo" in pair[1]] == []
    finally:
        server.stop()
