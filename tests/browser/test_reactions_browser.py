"""Reactions, as two friends meet them on their phones: Ana (in English) opens the presets from the turn
line, by touch or keyboard, and sends «Well played!»; Beto's page (in Spanish) shows «¡Bien jugado!» by
her name (still: he asked for reduced motion) and tells his screen reader. Ana creates the game through the form; one browser context per
player."""

from __future__ import annotations

import pytest
from a11y import axe_violations
from layout_checks import not_on_screen
from playwright.sync_api import expect
from test_browser import ready
from test_layout import CONTROLS
from test_online import create_with_a_friend

from cubilete.web.i18n import messages

ANA_HEAD = "th.seat[data-seat='0']"


@pytest.mark.slow
def test_a_reaction_reaches_the_friend_in_his_language(server, new_page):
    ana = new_page(locale="en-US")
    links = create_with_a_friend(ana, server, "penta", "Ana", "Beto", clock="0")
    ready(ana)
    beto = new_page(locale="es-ES", reduced_motion="reduce")  # his bubble stays still where it shows
    beto.goto(links["invite"])
    words = messages("es")
    expect(beto.locator("[data-current-player]")).to_have_text(words["{name}'s turn"].format(name="Ana"))

    react = ana.get_by_role("button", name="React to the table")
    assert not_on_screen(ana, f"[data-action='react'], {CONTROLS}") == []
    line = ana.locator(".turn-line").bounding_box()["height"]
    ana.evaluate("document.querySelector('[data-react]').hidden = true")
    assert ana.locator(".turn-line").bounding_box()["height"] == line  # the sheet loses no room on a phone
    ana.evaluate("document.querySelector('[data-react]').hidden = false")
    react.click()
    presets = ana.get_by_role("group", name="Reactions")
    expect(presets.get_by_role("button")).to_have_count(6)
    expect(presets.get_by_role("button").first).to_be_focused()  # the keyboard goes on from there
    assert axe_violations(ana) == []
    ana.keyboard.press("Escape")
    expect(presets).to_be_hidden()
    expect(react).to_be_focused()
    react.click()
    presets.get_by_role("button", name="Well played!").click()
    expect(presets).to_be_hidden()

    bubble = beto.locator(".reaction-bubble[data-reaction-seat='0']")
    expect(bubble).to_have_text("¡Bien jugado!")
    expect(beto.locator("[data-reaction-said]")).to_have_text("Ana reacciona: ¡Bien jugado!")
    assert bubble.evaluate("bubble => getComputedStyle(bubble).animationName") == "none"
    below = beto.locator(ANA_HEAD).bounding_box()
    assert abs(bubble.bounding_box()["y"] - (below["y"] + below["height"] + 4)) < 2  # by her name
    expect(ana.locator(".reaction-bubble[data-reaction-seat='0']")).to_have_text("Well played!")  # her own page too
    expect(bubble).to_have_count(0, timeout=8000)  # a few seconds, then gone
