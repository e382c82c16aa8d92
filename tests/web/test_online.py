"""Online play as people do it: Ana fills in the new-game form, sends Beto his invite link, and each
plays on their own phone (a browser context each); a spectator follows the watch link. Every move
reaches the other pages pushed over the WebSocket, without reload, also after a dropped connection."""

from __future__ import annotations

import json

from playwright.sync_api import expect
from test_browser import ready, score_first_open_box

ROLL = "[data-action='roll']"


def create_with_a_friend(
    page, server, game: str, host: str, friend: str, clock: str = "60", public: bool = False
) -> dict:
    """Click the form as Ana does: her seat on this device, her friend's seat invited; answer the links."""
    page.goto(f"{server.url}/")
    page.click(f"[data-game-choice='{game}']")
    rows = page.locator("[data-player-row]")
    rows.nth(0).locator("[data-player-name]").fill(host)
    if rows.count() < 2:
        page.click("[data-action='add-player']")
    rows.nth(1).locator("[data-player-kind]").select_option("friend")
    rows.nth(1).locator("[data-player-name]").fill(friend)
    page.select_option("[data-turn-clock]", clock)
    if public:
        page.check("[data-public]")
    page.click("[data-action='start']")
    invite = page.locator("[data-invite-link][data-seat='1']")
    expect(invite).to_be_visible()
    qr = page.locator("[data-qr='1']")
    expect(qr).to_be_visible()
    expect(qr).to_have_js_property("complete", True)
    assert qr.evaluate("image => image.naturalWidth") > 100  # drawn by the server, no CDN
    links = {"invite": invite.get_attribute("href"), "watch": page.get_attribute("[data-watch-link]", "href")}
    page.click("[data-action='go-to-game']")
    return links


def held_tokens(page) -> dict:
    game_id = page.url.rsplit("/", 1)[1].split("#")[0]
    return json.loads(page.evaluate(f"localStorage.getItem('cubilete.tokens.{game_id}')"))


def test_two_phones_play_a_whole_penta_game_from_an_invite_link_while_a_spectator_follows(server, new_page):
    ana = new_page(locale="es-ES")
    links = create_with_a_friend(ana, server, "penta", "Ana", "Beto")
    assert links["invite"].startswith(f"{server.url}/game/") and "#seat=1&token=" in links["invite"]
    assert links["watch"] == links["invite"].split("#")[0]
    ready(ana)
    assert list(held_tokens(ana)) == ["0"]  # Ana's phone never holds Beto's seat

    beto = new_page(locale="id-ID")
    beto.goto(links["invite"])
    expect(beto.locator("html")).to_have_attribute("lang", "id")  # his language, not Ana's
    expect(beto.locator("[data-current-player]")).to_have_text("Giliran Ana")
    expect(beto.locator(ROLL)).to_be_disabled()
    assert "token" not in beto.url and list(held_tokens(beto)) == ["1"]
    spectator = new_page(locale="en-US")
    spectator.goto(links["watch"])
    expect(spectator.locator("[data-current-player]")).to_have_text("Ana's turn")
    second_tab = ana.context.new_page()  # Ana's same game in another tab stays live too
    second_tab.goto(ana.url)

    phones = ((ana, beto, 0), (beto, ana, 1))
    for turn in range(13):
        for player, other, seat in phones:
            ready(player)
            expect(other.locator("[data-current-player]")).to_have_attribute("data-current-player", str(seat))
            expect(other.locator(ROLL)).to_be_disabled()
            if turn == 0 and seat == 1:
                expect(ana.locator("[data-current-player]")).to_have_text("Turno de Beto")
                expect(ana.locator("[data-message]")).to_have_text("Esperando a Beto, que juega en otro dispositivo")
            dropped = turn == 4 and seat == 1
            if dropped:  # Ana's phone loses the network while Beto plays
                ana.context.set_offline(True)
                expect(ana.locator("[data-connection]")).to_be_visible()
            player.click(ROLL)
            ready(player)
            dice = [player.get_attribute(f"[data-die='{i}']", "data-value") for i in range(5)]
            box = score_first_open_box(player, seat)
            if dropped:
                ana.context.set_offline(False)
                expect(ana.locator("[data-connection]")).to_be_hidden()
            for follower in (other, spectator, second_tab):
                scored = follower.locator(f"[data-box='{box}'][data-player='{seat}'][data-score]")
                expect(scored).to_have_count(1)
            if turn == 0:
                assert all(value in "123456" and value for value in dice)

    totals = []
    for page in (ana, beto, spectator, second_tab):
        expect(page.locator("[data-game-over]")).to_be_visible()
        totals.append([page.get_attribute(f"[data-total][data-player='{seat}']", "data-total") for seat in (0, 1)])
    assert totals[0] == totals[1] == totals[2] == totals[3]
    game_id = ana.url.rsplit("/", 1)[1]
    assert [str(score) for score in server.api("GET", f"/api/games/{game_id}")["scores"]] == totals[0]
    second_tab.close()


def test_a_page_reconnects_by_itself_after_the_server_restarts(server, new_page):
    ana = new_page(locale="en-US")
    links = create_with_a_friend(ana, server, "generala", "Ana", "Beto")
    ready(ana)
    beto = new_page(locale="en-US")
    beto.goto(links["invite"])
    expect(beto.locator("[data-message]")).to_have_text("Waiting for Ana, who plays on another device")

    server.stop()
    expect(beto.locator("[data-connection]")).to_be_visible()
    server.start()
    ana.click(ROLL)
    ready(ana)
    box = score_first_open_box(ana)
    expect(beto.locator(f"[data-box='{box}'][data-player='0'][data-score]")).to_have_count(1)
    expect(beto.locator("[data-connection]")).to_be_hidden()
    ready(beto)
