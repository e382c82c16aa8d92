"""Who is at the table and what a player gives up, as players meet it on their phones: Beto's phone
goes offline, and his page says so once while the sheet keeps its room; when his page is gone, Ana's
page marks him offline (before he first came: invited). Ana asks to hand her seat to the computer and
is asked first; she cancels, then leaves for good. Ana creates the game through the form; one browser
context per player."""

from __future__ import annotations

import pytest
from a11y import axe_violations
from playwright.sync_api import expect
from test_browser import ready
from test_online import create_with_a_friend, held_tokens

from cubilete.web.i18n import messages

BETO_HEAD = "th.seat[data-seat='1']"


@pytest.mark.slow  # the quick suite hands a seat over: the slow step runs this one
def test_an_offline_player_sees_one_message_and_the_others_see_him_away(server, new_page):
    ana = new_page(locale="es-ES")
    links = create_with_a_friend(ana, server, "penta", "Ana", "Beto", clock="0")
    ready(ana)
    # issue 34, item 8: not here yet, but invited (not "offline": he never came)
    expect(ana.locator(f"{BETO_HEAD}[data-away]")).to_have_attribute("data-away", "invitado")
    beto = new_page(locale="id-ID")
    beto.goto(links["invite"])
    expect(beto.locator("[data-current-player]")).to_have_text(messages("id")["{name}'s turn"].format(name="Ana"))
    expect(ana.locator(f"{BETO_HEAD}[data-away]")).to_have_count(0)

    board = beto.locator("[data-board]").bounding_box()
    beto.context.set_offline(True)
    offline = beto.locator("[data-connection]")
    expect(offline).to_be_visible()
    expect(offline).to_have_text(messages("id")["Connection lost: reconnecting…"])
    expect(beto.locator("[data-offline]")).to_have_count(0)  # the shell's own line stays away from the game page
    assert beto.locator("[data-board]").bounding_box() == board  # the sheet keeps its room

    phone = beto.context
    beto.close()  # every page of his seat is gone
    expect(ana.locator(f"{BETO_HEAD}[data-away]")).to_have_attribute("data-away", "sin conexión")
    expect(ana.locator("[data-notice]")).to_have_text("Beto perdió la conexión")
    phone.set_offline(False)
    phone.new_page().goto(links["invite"].split("#")[0])  # his phone holds his seat: the game's address will do
    expect(ana.locator("[data-notice]")).to_have_text("Beto se conectó")
    expect(ana.locator(f"{BETO_HEAD}[data-away]")).to_have_count(0)


def test_handing_a_seat_to_the_computer_and_leaving_are_confirmed_first(server, new_page):
    ana = new_page(locale="id-ID")
    create_with_a_friend(ana, server, "penta", "Ana", "Beto", clock="0")
    ready(ana)
    words = messages("id")
    ana.click("[data-action='settings']")
    ana.click("[data-action='hand-to-bot'][data-seat='0']")
    confirm = ana.get_by_role("dialog", name=words["Hand your seat to the computer?"])
    expect(confirm).to_be_visible()
    told = (
        "The computer plays {name}'s turns to the end of the game; you go on watching. You cannot take the seat back."
    )
    expect(confirm).to_contain_text(words[told].format(name="Ana"))
    cancel = confirm.get_by_role("button", name=words["Cancel"])
    expect(cancel).to_be_focused()  # a second tap by mistake gives up nothing
    assert axe_violations(ana) == []
    cancel.click()
    expect(confirm).to_be_hidden()
    assert list(held_tokens(ana)) == ["0"]  # nothing happened
    expect(ana.locator("th.seat[data-seat='0']")).to_have_text("Ana")

    ana.click("[data-action='settings']")
    ana.click("[data-action='leave'][data-seat='0']")
    confirm = ana.get_by_role("dialog", name=words["Leave the game?"])
    confirm.get_by_role("button", name=words["Leave the game"]).click()
    ana.wait_for_url(f"{server.url}/")
    assert ana.evaluate("Object.keys(localStorage).some((key) => key.startsWith('cubilete.tokens.'))") is False
