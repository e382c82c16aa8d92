"""The coach in a phone-sized Chromium: the live bar switched on in ⚙ follows each move; a 5000 game
against a bot, clicked to the end, is reviewed with its win-chance chart and ranked options; in a game
with a friend, hints are on only if Ana allowed them, and Beto is told so before taking his seat."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect
from test_browser import ready, start_from_home

ROLL = "[data-action='roll']"
BANK = "[data-action='bank']"
HINT = "[data-action='hint']"
BAR = "[data-live-bar]"
FIRST_PLAYER_WINS = 0.5151204677228313  # cubilete solve 5000
PENTA_OPTIMUM = 254.4848458817  # cubilete solve penta


def switch_live_bar(page, on: bool) -> None:
    page.click("[data-action='settings']")
    setting = page.locator("#settings [data-live-bar-setting]")
    setting.check() if on else setting.uncheck()
    page.click("#settings button[value='close']")


def bar_values(page) -> list[float]:
    return [float(value) for value in page.locator(f"{BAR} [data-live-seat]").evaluate_all(
        "items => items.map(item => item.dataset.value)")]


def test_the_live_bar_shows_the_expected_final_total_and_follows_each_move(server, new_page):
    page = new_page(locale="en-US")
    start_from_home(page, server, "penta")
    page.click("[data-action='start']")
    ready(page)
    expect(page.locator(BAR)).to_be_hidden()  # off until the player switches it on
    switch_live_bar(page, True)
    bar = page.locator(BAR)
    expect(bar).to_have_attribute("data-events", "0")
    expect(bar.locator(".live-title")).to_have_text("Expected final total")
    expect(bar.locator("[data-live-seat='0'] .value")).to_have_text("254.5")
    assert bar_values(page) == [pytest.approx(PENTA_OPTIMUM, abs=1e-6)]

    page.click(ROLL)
    expect(bar).to_have_attribute("data-events", "1")  # the dice rolled change what Ana can expect
    (after_roll,) = bar_values(page)
    game_id = page.url.rsplit("/", 1)[1]
    assert after_roll == pytest.approx(server.api("GET", f"/api/games/{game_id}/chances")["seats"][0]["value"])
    assert after_roll != pytest.approx(PENTA_OPTIMUM)

    page.reload()  # remembered in this browser
    expect(page.locator(BAR)).to_have_attribute("data-events", "1")
    switch_live_bar(page, False)
    expect(page.locator(BAR)).to_be_hidden()


def open_home_with_the_live_bar(page, server) -> None:
    """The home page, this browser's settings showing the live bar and bots playing at once."""
    page.goto(f"{server.url}/")
    page.evaluate("localStorage.setItem('cubilete.settings', JSON.stringify({liveBar: true, botPaceMs: 0}))")


def test_the_live_bar_shows_the_exact_chance_to_win_against_a_5000_bot(server, new_page):
    page = new_page(locale="en-US")
    open_home_with_the_live_bar(page, server)
    start_from_home(page, server, "5000")
    page.click("[data-action='start']")
    ready(page)
    bar = page.locator(BAR)
    expect(bar.locator(".live-title")).to_have_text("Chance to win")
    expect(bar.locator("[data-live-seat='0'] .value")).to_have_text("51.5%")
    assert bar_values(page) == pytest.approx([FIRST_PLAYER_WINS, 1 - FIRST_PLAYER_WINS], abs=1e-9)
    page.click(ROLL)
    ready(page)
    expect(bar).not_to_have_attribute("data-events", "0")
    assert sum(bar_values(page)) == pytest.approx(1, abs=1e-9)


def test_a_duel_bot_chosen_in_the_form_and_the_live_bar_shows_the_chances_to_finish_first(server, new_page):
    page = new_page(locale="en-US")
    open_home_with_the_live_bar(page, server)
    start_from_home(page, server, "generala")
    page.click("[data-action='add-player']")
    rows = page.locator("[data-player-row]")
    rows.nth(1).locator("[data-player-kind]").select_option("bot")
    rows.nth(1).locator("select.level").select_option("casual")
    help_line = page.locator("[data-levels-help] [data-level-help]")
    expect(help_line).to_have_text(["Casual: Usually plays well, sometimes not quite."])
    rows.nth(1).locator("select.level").select_option("duel")
    expect(help_line).to_have_text(["Duel: Plays for the best chance to finish first against the other players."])
    page.click("[data-action='start']")
    ready(page)
    game_id = page.url.rsplit("/", 1)[1]
    assert server.api("GET", f"/api/games/{game_id}")["seats"][1]["level"] == "duel"
    bar = page.locator(BAR)
    expect(bar.locator(".live-title")).to_have_text("Chance to win")
    expect(bar.locator("[data-live-seat] .value")).to_have_text([re.compile(r"^\d+\.\d%$")] * 2)
    answer = server.api("GET", f"/api/games/{game_id}/chances?at=0")
    assert bar_values(page) == pytest.approx([seat["value"] for seat in answer["seats"]], abs=1e-12)
    assert sum(bar_values(page)) == pytest.approx(1, abs=1e-12)
    expect(bar.locator("[data-live-seat='0']")).to_have_attribute("title", re.compile(r"^0 now, \d+\.\d expected at the end$"))
    page.click(ROLL)
    ready(page)
    expect(bar).not_to_have_attribute("data-events", "0")
    assert sum(bar_values(page)) == pytest.approx(1, abs=1e-12)


def play_to_the_end(page) -> None:
    """Ana rolls and banks as soon as the rules let her, against the bot, until the game is over."""
    over = page.locator("[data-game-over]:not([hidden])")
    for _ in range(2000):
        page.wait_for_selector("#table[data-ready], [data-game-over]:not([hidden])")
        if over.count():
            return
        page.click(BANK if page.locator(BANK).is_enabled() else ROLL)
    raise AssertionError("the game did not end within 2000 clicks")


@pytest.mark.slow  # a whole game; the quick suite plays 5000's first turns online and its review's hint
def test_a_5000_game_against_a_bot_is_reviewed_with_its_win_chance_chart(server, new_page, motion):
    page = new_page(locale="en-US", reduced_motion=motion)
    page.goto(f"{server.url}/")
    page.evaluate(f"localStorage.setItem('cubilete.settings', '{json.dumps({'botPaceMs': 0})}')")
    for _ in range(3):  # the dice are the server's: a rare game leaves Ana no choice that cost anything
        start_from_home(page, server, "5000")
        page.fill("[name='name-0']", "Ana")
        page.click("[data-action='start']")
        play_to_the_end(page)
        page.click("[data-game-over] [data-review-link]")
        expect(page.locator("[data-seat-review='0'] [data-mean-loss]")).to_be_visible()
        if page.locator(".costliest [data-decision]").count():
            break
        expect(page.locator("[data-seat-review='0']")).to_contain_text(
            re.compile(r"Every decision was the best one\.|No decisions yet\.")
        )
    expect(page.locator("[data-chart-title]")).to_have_text("Chance to win over the game")
    expect(page.locator("[data-chart] svg .grid")).to_have_count(5)  # 0 %, 25 %, 50 %, 75 %, 100 %
    expect(page.locator("[data-chart] svg .tick").last).to_have_text("100%")
    expect(page.locator("[data-seat-review='0'] [data-mean-loss]")).to_be_visible()
    expect(page.locator("[data-chart] .point").nth(2)).to_be_attached()  # a point per decision: more than two
    page.locator(".costliest [data-decision]").first.click()  # Ana's costliest decision
    position = page.locator("[data-position]")
    expect(position).to_be_visible()
    options = position.locator(".options li")
    assert options.count() >= 2  # roll or bank (at the least)
    expect(position.locator(".options li[data-rank='1'] .value")).to_contain_text("%")
    expect(position.locator(".options li[data-chosen]")).to_have_count(1)
    expect(position.locator(".options li[data-chosen]")).not_to_have_attribute("data-rank", "1")
    values = [float(text.rstrip("%")) for text in position.locator(".options .value").all_inner_texts()]
    assert values == sorted(values, reverse=True)


def create_with_a_friend(page, server, allow_hints: bool) -> str:
    """Ana clicks the form: her seat here, Beto's a friend's, hints allowed or not; answers his invite link."""
    page.goto(f"{server.url}/")
    page.click("[data-game-choice='penta']")
    allowed = page.locator("[data-hints-allowed]")
    expect(allowed).to_be_hidden()  # a choice for games with friends only
    rows = page.locator("[data-player-row]")
    rows.nth(0).locator("[data-player-name]").fill("Ana")
    page.click("[data-action='add-player']")
    rows.nth(1).locator("[data-player-kind]").select_option("friend")
    rows.nth(1).locator("[data-player-name]").fill("Beto")
    expect(allowed).to_be_visible()
    if allow_hints:
        allowed.check()
    page.click("[data-action='start']")
    invite = page.locator("[data-invite-link][data-seat='1']").get_attribute("href")
    page.click("[data-action='go-to-game']")
    ready(page)
    return invite


def held_seats(page) -> list[str]:
    game_id = page.url.rsplit("/", 1)[1].split("#")[0]
    return list(json.loads(page.evaluate(f"localStorage.getItem('cubilete.tokens.{game_id}') || '{{}}'")))


@pytest.mark.slow  # the quick suite turns hints off at a table: the slow step runs this one
def test_a_friend_is_told_the_table_plays_with_hints_before_taking_the_seat(server, new_page):
    ana = new_page(locale="en-US")
    invite = create_with_a_friend(ana, server, allow_hints=True)
    beto = new_page(locale="es-ES")
    beto.goto(invite)
    agreement = beto.locator("[data-hints-agreement]")
    expect(agreement).to_be_visible()
    expect(agreement.locator("h2")).to_have_text("Esta mesa juega con pistas")
    beto.click("[data-action='decline-hints']")
    expect(agreement).to_be_hidden()
    expect(beto.locator("[data-message]")).to_have_text("Estás mirando: Ana juega en su dispositivo")
    assert held_seats(beto) == []

    beto.reload()  # the invite link asks again
    expect(agreement).to_be_visible()
    beto.click("[data-action='agree-hints']")
    expect(beto.locator("[data-message]")).to_have_text("Esperando a Ana, que juega en otro dispositivo")
    assert held_seats(beto) == ["1"]
    assert "#" not in beto.url  # the invite left the address bar

    ana.click(ROLL)
    ready(ana)
    expect(ana.locator("[data-hints-off]")).to_be_hidden()
    ana.click(HINT)
    expect(ana.locator("[data-hints] .hint").first).to_be_visible()


def test_without_the_creators_leave_hints_and_the_live_bar_are_off_and_say_why(server, new_page):
    ana = new_page(locale="en-US")
    invite = create_with_a_friend(ana, server, allow_hints=False)
    reason = "Hints and win chances are off: this game with friends was started without them."
    ana.click(ROLL)
    ready(ana)
    expect(ana.locator(HINT)).to_be_disabled()
    expect(ana.locator("[data-hints-off]")).to_have_text(reason)
    expect(ana.locator(HINT)).to_have_attribute("aria-describedby", "hints-off")
    switch_live_bar(ana, True)
    expect(ana.locator(f"{BAR} .live-off")).to_have_text(reason)

    beto = new_page(locale="en-US")
    beto.goto(invite)  # nothing to agree to: the seat is his at once
    expect(beto.locator("[data-message]")).to_have_text("Waiting for Ana, who plays on another device")
    expect(beto.locator("[data-hints-agreement]")).to_be_hidden()
    assert held_seats(beto) == ["1"]
