"""5000's rules set one by one on the new-game form (docs/rules.md#5000-switches): clicked, then played under."""

from __future__ import annotations

from playwright.sync_api import expect


def test_a_5000_game_created_with_its_switches_clicked_plays_under_them(server, new_page):
    page = new_page(locale="en-US", reduced_motion="reduce")
    page.goto(f"{server.url}/")
    page.click("[data-game='5000']")
    expect(page.locator("[data-rules-select]")).to_be_hidden()  # the switches replace the list of rule sets
    expect(page.locator("#switch-help-entry")).to_have_text(
        "You enter the game by banking at least 500 in one turn, as in the standard rules."
    )
    page.select_option("[data-switch='entry']", "entry-1000")
    expect(page.locator("#switch-help-entry")).to_have_text("You enter the game by banking at least 1000 in one turn.")
    page.select_option("[data-switch='three_ones']", "three-ones-1000")
    page.fill("[name='name-0']", "Ana")
    page.select_option("[data-player-row]:nth-child(2) [data-player-kind]", "here")  # hot seat: no bot's table
    page.click("[data-action='start']")
    expect(page.locator("[data-rules-name]")).to_have_text("Enter with 1000 + Three 1s worth 1000")
    reason = page.locator("[data-bank-reason]")
    for _ in range(200):  # roll (either seat) until a turn holds points that only the entry of 1000 keeps
        page.wait_for_selector("#table[data-ready]")
        points = int(page.locator("[data-turn-points]").get_attribute("data-turn-points"))
        if 0 < points < 1000 and points % 100 == 0:
            break
        page.click("[data-action='roll']")
    expect(page.locator("[data-action='bank']")).to_be_disabled()
    expect(reason).to_have_text("You are not in the game yet: you need 1000 points in one turn to bank")
