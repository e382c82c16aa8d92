"""The coach in a phone-sized Chromium: a finished Penta game's dialog downloads its record and closes, its review marks the
mistakes on the chart and a tap shows the position with its options ranked; the 5000 hint button."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect
from test_browser import create_by_api, open_seat, ready, score_first_open_box, start_from_home

QUICK_AUTO_SCORE = json.dumps({"autoScore": True, "autoScoreSeconds": 1, "botPaceMs": 0})
MARKED = "[data-chart] .point[data-class='mistake'], [data-chart] .point[data-class='blunder']"


# The quick suite finishes the game the quickest way a player has, a box tapped after each turn's first
# roll; the slow step plays it as a hasty player does, three rolls a turn and the computer scoring after a
# second, with reduced motion and animated.
@pytest.mark.parametrize(
    ("motion", "rolls"),
    [
        pytest.param("reduce", 1, id="one-roll-still", marks=pytest.mark.slow),
        pytest.param("reduce", 3, id="three-rolls-still", marks=pytest.mark.slow),
        pytest.param("no-preference", 3, id="three-rolls-animated", marks=pytest.mark.slow),
    ],
)
def test_a_finished_penta_game_is_reviewed_and_a_mistake_shows_its_ranked_options(server, new_page, motion, rolls):
    page = new_page(reduced_motion=motion)
    page.goto(f"{server.url}/")
    page.evaluate(f"localStorage.setItem('cubilete.settings', '{QUICK_AUTO_SCORE}')")
    start_from_home(page, server, "penta")
    page.click("[data-action='start']")
    ready(page)
    page.click("[data-action='roll']")
    ready(page)
    page.click("[data-box='chance'][data-player='0']")  # the chance box on the first roll: a deliberate mistake
    page.click("[data-action='validate']")
    for _ in range(12):  # roll once and tap a box, or roll three times and the computer scores after a second
        for _ in range(rolls):
            ready(page)
            page.click("[data-action='roll']")
        if rolls == 1:
            ready(page)
            score_first_open_box(page)

    dialog = page.locator("[data-game-over]")
    expect(dialog).to_be_visible()
    download_link = dialog.locator("[data-download-link]")
    expect(download_link).to_have_text("Descargar el registro de la partida")
    with page.expect_download() as downloading:
        download_link.click()
    game_id = re.search(r"/game/([\w-]+)", page.url).group(1)
    assert downloading.value.suggested_filename == f"cubilete-penta-{game_id}.json"
    downloaded = json.loads(Path(downloading.value.path()).read_text(encoding="utf-8"))  # what `cubilete review` reads
    assert downloaded["record"]["game"] == "penta" and downloaded["seats"][0]["kind"] == "human"
    page.click("[data-action='close-game-over']")
    expect(dialog).to_be_hidden()
    expect(page.locator("[data-total][data-player='0']")).to_be_visible()  # the finished sheet
    page.reload()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    page.click(".status [data-review-link]")
    expect(page).to_have_url(f"{server.url}/game/{page.url.rsplit('/', 2)[1]}/review")
    summary = page.locator("[data-seat-review='0']")
    expect(summary.locator("[data-luck]")).to_contain_text("Los dados te dieron")
    expect(summary.locator("[data-luck]")).to_have_text(re.compile(r"; tus decisiones costaron \d+,\d$"))  # a cost, no sign
    expect(summary.locator("[data-mean-loss]")).to_contain_text("decisiones, pérdida promedio")
    expect(summary.locator(".costliest li")).to_have_count(3)
    mistakes = page.locator(MARKED)
    assert mistakes.count() >= 1
    point = mistakes.last  # drawn last: nothing covers it
    index = point.get_attribute("data-decision")
    point.click()
    position = page.locator("[data-position]")
    expect(position).to_be_visible()
    expect(position).to_have_attribute("data-index", index)
    expect(position.locator(".dice .die")).to_have_count(5)
    chosen = position.locator(".options li[data-chosen]")
    expect(chosen).to_have_count(1)
    expect(chosen).not_to_have_attribute("data-rank", "1")
    expect(chosen.locator(".loss")).to_contain_text("−")
    assert position.locator(".options li").count() >= 2
    expect(position.locator(".options li[data-rank='1'] .loss")).to_have_text("")

    chance = page.locator(".costliest [data-decision='1']")  # the chance box, if among the costliest
    if chance.count():
        chance.click()
        expect(position).to_have_attribute("data-index", "1")
        expect(position.locator(".options li[data-chosen] .what")).to_contain_text("Chance")


def test_the_5000_hint_ranks_roll_and_bank_by_chance_to_win(server, new_page):
    page = new_page(locale="en-US")
    start_from_home(page, server, "5000")
    page.fill("[name='name-0']", "Ana")
    page.click("[data-action='start']")
    hint = page.locator("[data-action='hint']")
    for _ in range(20):  # roll until there is a choice to make (a bust passes the dice on)
        ready(page)
        if hint.is_enabled():
            break
        page.click("[data-action='roll']")
    hint.click()
    hints = page.locator("[data-hints]")
    expect(hints).to_be_visible()
    expect(hints.locator(".hints-title")).to_have_text("Best choices, with the chance to win")
    expect(hints.locator("[data-hint='roll']")).to_have_count(1)
    assert all(text.endswith("%") and "→" in text for text in hints.locator(".hint").all_inner_texts())
    hint.click()
    expect(hints).to_be_hidden()


def test_a_decisions_kept_dice_read_in_the_summary_as_in_its_ranked_options(server, new_page):
    """Issue 34 item 13b: the dice kept are listed in ascending order in the costliest decisions, as the
    position's options list them, whatever the order they lay in."""
    created = create_by_api(server, seed=4)  # the first roll: 6 6 4 3 1
    page = new_page()
    open_seat(page, server, created)
    page.click("[data-action='roll']")
    ready(page)
    assert [page.get_attribute(f"[data-die='{i}']", "data-value") for i in range(5)] == list("66431")
    for die in (0, 1, 3):  # 6 6 3 as they lay: the best keeps 6 6
        page.click(f"[data-die='{die}']")
    page.click("[data-action='roll']")
    ready(page)

    page.goto(f"{server.url}{created['url']}/review")  # a game in progress is reviewed up to now
    decision = page.locator("[data-seat-review='0'] .costliest [data-decision]")
    expect(decision.locator(".what")).to_have_text("Turno 1: guardar 3 6 6 en vez de guardar 6 6")
    decision.click()
    chosen = page.locator("[data-position] .options li[data-chosen] .what")
    expect(chosen).to_have_text("Guardar 3 6 6")
