"""A game never stalls, and the lobby, as people see it: Beto never opens his invite link, so when his
turn clock runs out the computer plays his turn and every page says so; Ana hands her seat to the
computer from ⚙ (after saying so); Carla finds a public game on the home page's open tables and joins it
by name, which Ana's open page shows at once.

The servers run with CUBILETE_CLOCK_SCALE=0.3 (a test hook): the form's 30 s clock lasts 9 s, time
enough for Ana's page to play her turn on a busy machine, where 3 s ran out before she scored. Each test
runs on each topology (conftest.py): Ana's browser on the first process, the others' on the second."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser import ready, score_first_open_box
from test_online import create_with_a_friend, held_tokens

CLOCK_SCALE = "0.3"
CLOCK_RUNS_OUT_MS = 20_000  # the longest wait for a 9 s clock to run out and its turn to be shown


@pytest.fixture(scope="module")
def server_env() -> dict[str, str]:
    return {"CUBILETE_CLOCK_SCALE": CLOCK_SCALE}


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_the_clock_plays_for_an_absent_player_and_everyone_sees_it(topology, new_page):
    ana = new_page(locale="es-ES")
    links = create_with_a_friend(ana, topology.host, "penta", "Ana", "Beto", clock="30")
    spectator = new_page(locale="en-US")
    spectator.goto(topology.for_friend(links["watch"]))
    ready(ana)
    expect(ana.locator("[data-turn-clock-left]")).to_be_hidden()  # no clock before the table's first move
    ana.click("[data-action='roll']")
    ready(ana)
    expect(ana.locator("[data-turn-clock-left]")).to_contain_text("Tu tiempo: ")  # her own clock counts down too, said to her
    box = score_first_open_box(ana)
    for page in (ana, spectator):
        expect(page.locator(f"[data-box='{box}'][data-player='0'][data-score]")).to_have_count(1)
        expect(page.locator("[data-turn-clock-left]")).to_contain_text("Beto")

    # Beto never comes: after 9 s the computer plays his whole turn, and both pages say so.
    expect(ana.locator("[data-notice]")).to_have_text(
        "Se acabó el tiempo de Beto: la computadora jugó su turno", timeout=CLOCK_RUNS_OUT_MS
    )
    expect(spectator.locator("[data-notice]")).to_have_text(
        "Time ran out for Beto: the computer played their turn", timeout=CLOCK_RUNS_OUT_MS
    )
    for page in (ana, spectator):  # his box (and on a slow machine maybe the next turn's, Ana's 9 s run out too)
        expect(page.locator("[data-player='1'][data-score]").first).to_be_visible()
    ready(ana)
    game_id = ana.url.rsplit("/", 1)[1]
    steps = topology.friend.api("GET", f"/api/games/{game_id}?since=0")["steps"]
    betos = [index for index, step in enumerate(steps) if step["seat"] == 1]
    assert betos and all(steps[index]["by_clock"] for index in betos)  # Beto never played: the clock did
    # Ana played her first turn herself; later, on a slow machine, her own 9 s may run out too
    assert not any(step["by_clock"] for step in steps[: betos[0]])

    # Ana hands her seat to the computer from ⚙: the spectator is told, and her phone plays it no more.
    ana.click("[data-action='settings']")
    ana.click("[data-action='hand-to-bot'][data-seat='0']")
    ana.click("[data-action='confirm-seat']")
    expect(spectator.locator("[data-notice]")).to_have_text("Ana handed their seat to the computer")
    expect(ana.locator("[data-notice]")).to_have_text("Ana dejó su puesto a la computadora")
    assert ana.evaluate(f"localStorage.getItem('cubilete.tokens.{game_id}')") is None
    for server in {topology.host, topology.friend}:
        assert server.api("GET", f"/api/games/{game_id}")["seats"][0]["kind"] == "bot"


def test_a_public_game_is_joined_from_the_open_tables(topology, new_page):
    ana = new_page(locale="es-ES")
    create_with_a_friend(ana, topology.host, "generala", "Ana", "Beto", clock="0", public=True)
    ready(ana)
    carla = new_page(locale="es-ES")
    carla.goto(f"{topology.friend.url}/")
    table = carla.locator("[data-open-table]")
    expect(table).to_have_count(1)
    expect(table).to_contain_text("Ana")
    carla.click("[data-action='join']")
    expect(carla.locator("[data-join-error]")).to_be_visible()  # no name yet
    carla.fill("[data-join-name]", "Carla")
    carla.click("[data-action='join']")
    expect(carla.locator("[data-current-player]")).to_have_text("Turno de Ana")
    assert list(held_tokens(carla)) == ["1"]
    expect(ana.locator("[data-notice]")).to_have_text("Carla se unió a la partida")
    expect(ana.locator("th.seat[data-seat='1']")).to_have_text("Carla")  # Beto's name gives way, no reload
    ana.click("[data-action='roll']")
    ready(ana)
    generala_prompt = "Toca los dados para guardarlos; después vuelve a lanzar o elige una combinación"  # seed 003's word
    expect(ana.locator("[data-message]")).to_have_text(generala_prompt)
    score_first_open_box(ana)
    ready(carla)  # Carla plays the seat that was Beto's
    assert carla.evaluate("localStorage.getItem('cubilete.name')") == "Carla"
    other = new_page(locale="es-ES")
    other.goto(f"{topology.friend.url}/")
    expect(other.locator("[data-unfinished-section]")).to_be_hidden()
    expect(other.locator("[data-open-tables-section]")).to_be_hidden()  # nothing left to join
