"""A player's record in a phone-sized Chromium: Penta games played to the end by clicking, the second
with the name the form remembered; the game-over dialog links to the record, whose page shows the
figures, a loss chart with a point per reviewed game (each opening its review), in light and dark.
The quick suite finishes one game and leaves the second in progress; the slow step finishes both."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser import ready, score_first_open_box, start_from_home

TURNS = 13
DARK_BACKGROUND = "rgb(18, 22, 28)"  # app.css's --bg in dark mode


def play_to_the_end(page) -> int:
    """Roll once each turn and score the first open box the table offers; answers the final score."""
    for _ in range(TURNS):
        ready(page)
        page.click("[data-action='roll']")
        ready(page)
        score_first_open_box(page)
    dialog = page.locator("[data-game-over]")
    expect(dialog).to_be_visible()
    return int(dialog.locator("[data-player='0'] .score").inner_text())


@pytest.mark.parametrize(
    ("motion", "finished"),
    [
        pytest.param("reduce", 1, id="one-finished-still", marks=pytest.mark.slow),
        pytest.param("reduce", 2, id="two-finished-still", marks=pytest.mark.slow),
        pytest.param("no-preference", 2, id="two-finished-animated", marks=pytest.mark.slow),
    ],
)
def test_finished_games_make_a_record_with_a_point_per_reviewed_game(server, new_page, motion, finished):
    page = new_page(auto_score=False, reduced_motion=motion)  # every box chosen by a tap
    page.goto(f"{server.url}/")
    expect(page.locator("[data-my-record-link]")).to_be_hidden()  # no name on this device yet
    start_from_home(page, server, "penta")
    page.fill("[name='name-0']", "Ana")
    page.click("[data-action='start']")
    scores = [play_to_the_end(page)]
    newest_game = page.url.rsplit("/", 1)[1]
    record_link = page.locator("[data-game-over] [data-record-link]")
    expect(record_link).to_be_visible()
    expect(record_link).to_have_attribute("href", "/player/Ana")

    start_from_home(page, server, "penta")
    expect(page.locator("[name='name-0']")).to_have_value("Ana")  # the name last used for the seat
    my_name = page.locator("[data-my-name]")
    expect(my_name).to_have_value("Ana")  # the first seat created on this device
    my_name.fill("Bea")
    expect(page.locator("[data-my-record-link]")).to_have_attribute("href", "/player/Bea")
    assert page.evaluate("localStorage.getItem('cubilete.name')") == "Bea"
    my_name.fill("Ana")
    page.click("[data-action='start']")
    ready(page)
    if finished == 2:
        scores.append(play_to_the_end(page))
        newest_game = page.url.rsplit("/", 1)[1]
        page.click("[data-game-over] [data-record-link]")
    else:  # the second game in progress: the home page's link to the record
        page.goto(f"{server.url}/")
        page.click("[data-my-record-link]")
    expect(page).to_have_url(f"{server.url}/player/Ana")
    expect(page.locator("[data-headline]")).to_have_text(
        "1 partida terminada" if finished == 1 else "2 partidas terminadas"
    )
    in_progress = page.locator("[data-in-progress]")
    if finished == 1:
        expect(in_progress).to_have_text("1 partida en curso todavía no cuenta.")
    else:
        expect(in_progress).to_be_hidden()
    penta = page.locator("[data-rule-set='penta:seed']")
    expect(penta.locator("h3")).to_have_text("Penta · Reglas de la app")
    expect(penta.locator("[data-figure='games'] dd")).to_have_text(str(finished))
    expect(penta.locator("[data-figure='wins'] dd")).to_have_text("—")  # solo games: nobody to beat
    expect(penta.locator("[data-figure='best-score'] dd")).to_have_text(str(max(scores)))
    average = f"{sum(scores) / finished:.1f}".replace(".", ",")
    expect(penta.locator("[data-figure='mean-score'] dd")).to_have_text(average)
    expect(penta.locator("[data-figure='mean-loss'] dd")).to_have_text(re.compile(r"^\d+,\d\d$"))

    chart = page.locator("[data-progress-game='penta'] svg")
    expect(chart).to_be_visible()
    points = chart.locator(".point")
    expect(points).to_have_count(finished)  # one per reviewed game
    expect(page.locator("[data-record-games] li")).to_have_count(finished)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375  # nothing wider than the phone
    box = chart.bounding_box()
    assert box["width"] <= 375 and box["height"] > 100

    light = page.evaluate("getComputedStyle(document.body).backgroundColor")
    page.emulate_media(color_scheme="dark")
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == DARK_BACKGROUND != light
    dot = points.first.locator(".dot")
    assert dot.evaluate("(dot) => getComputedStyle(dot).fill") == "rgb(255, 122, 102)"  # the dark accent (app.css --accent)

    points.last.click()  # the newest game
    expect(page).to_have_url(f"{server.url}/game/{newest_game}/review")
    expect(page.locator("[data-seat-review='0'] [data-record-link]")).to_have_attribute("href", "/player/Ana")
