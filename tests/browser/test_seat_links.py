"""The links of a game as its players meet them: the form, the invite panel and ⚙'s invites say when
friends cannot reach this server, the creator finds the unused invites in ⚙ (gone once claimed), an old seat link of a seat the computer
now plays only watches, and the review says from which turn the computer played a handed seat."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect
from test_browser import ready, score_first_open_box
from test_online import create_with_a_friend, game_id_of, held_tokens

INVITES = "#settings [data-seat-invites]"


def test_the_form_warns_that_only_this_device_reaches_the_server_and_unused_invites_stay_in_settings(
    server, new_page
):
    ana = new_page(locale="es-ES")
    ana.goto(f"{server.url}/")  # the test server listens on 127.0.0.1, as `cubilete serve` does by default
    ana.click("[data-game-choice='penta']")
    hint = ana.locator("[data-new-game] [data-this-device-only]")
    expect(hint).to_be_hidden()
    if ana.locator("[data-player-row]").count() < 2:
        ana.click("[data-action='add-player']")
    ana.locator("[data-player-row]").nth(1).locator("[data-player-kind]").select_option("friend")
    expect(hint).to_contain_text("solo se puede abrir desde este dispositivo")
    expect(hint).to_contain_text("cubilete serve --host 0.0.0.0")

    links = create_with_a_friend(ana, server, "penta", "Ana", "Beto", clock="0")
    ready(ana)
    ana.click("[data-action='settings']")
    expect(ana.locator("#settings [data-watch-link]")).to_have_attribute("href", links["watch"])
    expect(ana.locator(f"{INVITES} [data-invite-link][data-seat='1']")).to_have_attribute("href", links["invite"])
    qr = ana.locator(f"{INVITES} [data-qr='1']")
    expect(qr).to_have_js_property("complete", True)
    assert qr.evaluate("image => image.naturalWidth") > 100
    ana.click("#settings button[value='close']")

    beto = new_page(locale="id-ID")
    beto.goto(links["invite"])
    expect(beto.locator("[data-current-player]")).to_have_text("Giliran Ana")
    assert list(held_tokens(beto)) == ["1"]
    ana.click("[data-action='settings']")  # Beto took his seat: nothing left to send
    expect(ana.locator(INVITES)).to_be_hidden()
    assert ana.evaluate(f"localStorage.getItem('cubilete.invites.{game_id_of(ana)}')") is None


@pytest.mark.parametrize(  # Spanish's page in the quick suite, the others in the slow step
    ("locale", "warning"),
    [("es-ES", "solo se puede abrir desde este dispositivo"),
     pytest.param("id-ID", "hanya dapat dibuka dari perangkat ini", marks=pytest.mark.slow),
     pytest.param("en-US", "can be reached from this device only", marks=pytest.mark.slow)],
)
def test_the_invites_of_a_started_game_warn_that_only_this_device_reaches_the_server(server, new_page, locale, warning):
    """Issue 34 item 13d: the invite panel after the start and ⚙'s invites repeat the form's warning beside the links."""
    ana = new_page(locale=locale)
    ana.goto(f"{server.url}/")  # the test server listens on 127.0.0.1
    ana.click("[data-game-choice='penta']")
    if ana.locator("[data-player-row]").count() < 2:
        ana.click("[data-action='add-player']")
    ana.locator("[data-player-row]").nth(1).locator("[data-player-kind]").select_option("friend")
    ana.click("[data-action='start']")
    panel = ana.locator("[data-invite-panel]")
    expect(panel.locator("[data-qr='1']")).to_be_visible()
    expect(panel.locator("[data-this-device-only]")).to_be_visible()
    expect(panel.locator("[data-this-device-only]")).to_contain_text(warning)
    expect(panel.locator("[data-this-device-only]")).to_contain_text("cubilete serve --host 0.0.0.0")

    ana.click("[data-action='go-to-game']")
    ready(ana)
    ana.click("[data-action='settings']")
    expect(ana.locator(f"{INVITES} [data-qr='1']")).to_be_visible()
    expect(ana.locator(f"{INVITES} [data-this-device-only]")).to_be_visible()
    expect(ana.locator(f"{INVITES} [data-this-device-only]")).to_contain_text(warning)


@pytest.mark.slow  # a game and its review with the computer's turns: the slow step runs it
def test_a_seat_handed_to_the_computer_its_old_link_watches_and_the_review_marks_the_computers_turns(
    server, new_page
):
    ana = new_page(locale="es-ES")
    ana.goto(f"{server.url}/")
    ana.click("[data-game-choice='penta']")
    rows = ana.locator("[data-player-row]")
    rows.nth(0).locator("[data-player-name]").fill("Ana")
    if rows.count() < 2:
        ana.click("[data-action='add-player']")
    rows.nth(1).locator("[data-player-kind]").select_option("here")
    rows.nth(1).locator("[data-player-name]").fill("Beto")
    ana.click("[data-action='start']")
    for seat in (0, 1):  # one turn each, on this one phone
        ready(ana)
        ana.click("[data-action='roll']")
        ready(ana)
        score_first_open_box(ana, seat)
    ready(ana)
    game_id, beto_token = game_id_of(ana), held_tokens(ana)["1"]
    handed = ana.evaluate(
        "([id, token]) => fetch(`/api/games/${id}/seats/1/bot`, {method: 'POST',"
        " headers: {'Content-Type': 'application/json'}, body: JSON.stringify({token})}).then((r) => r.status)",
        [game_id, beto_token],
    )
    assert handed == 200
    expect(ana.locator("[data-notice]")).to_have_text("Beto dejó su puesto a la computadora")
    ana.click("[data-action='roll']")
    ready(ana)
    score_first_open_box(ana, 0)
    expect(ana.locator("[data-current-player]")).to_have_attribute("data-current-player", "0")  # Beto's turn played
    ready(ana)

    friend = new_page(locale="id-ID")  # Beto's seat link from before, opened on another phone
    friend.goto(f"{server.url}/game/{game_id}#seat=1&token={beto_token}")
    expect(friend.locator("[data-notice]")).to_have_text("Kursi ini sudah diambil: Anda menonton permainan")
    assert "#" not in friend.url and held_tokens(friend) == {}

    ana.goto(f"{server.url}/game/{game_id}/review")
    beto = ana.locator("[data-seat-review='1']")
    expect(beto.locator("[data-computer-from]")).to_have_text(
        "Desde el turno 2, la computadora jugó por Beto: sus decisiones no se cuentan"
    )
    expect(beto.locator("[data-mean-loss]")).to_contain_text("1 decisión,")
