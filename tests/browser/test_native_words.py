"""Issue 34's native reread, as a player meets it: Generala's settings speak of combinations, not of
Penta's boxes (item 14), and the end of a game ranks its players with the language's ordinals, 1st and
2nd in English, 1.º in Spanish, ke-1 in Indonesian (item 16). The catalogs' words themselves are
tests/i18n/test_glossary.py's."""

from __future__ import annotations

import pytest
from harness import next_action
from layout_checks import start_game
from playwright.sync_api import expect

LOCALES = {"es": "es-ES", "id": "id-ID", "en": "en-US"}
AUTO_SCORE = {
    ("es", "generala"): "Tras el último lanzamiento, anotar por mí en la combinación que elegiría la computadora",
    ("es", "penta"): "Tras el último lanzamiento, anotar por mí en la casilla que elegiría la computadora",
    ("id", "generala"): "Setelah lemparan terakhir, catat untuk saya di kombinasi pilihan komputer",
    ("en", "generala"): "After the last roll, score for me in the computer's combination",
}


@pytest.mark.parametrize(("lang", "game"), list(AUTO_SCORE))
def test_the_settings_auto_score_line_names_the_games_own_sheet_lines(server, new_page, lang, game):
    page = new_page(locale=LOCALES[lang])
    start_game(page, server, game)
    page.click("[data-action='settings']")
    expect(page.locator("#settings [data-auto-score-label]")).to_have_text(AUTO_SCORE[lang, game])


def test_5000s_settings_have_no_auto_score_line_as_5000_has_no_box_to_score(server, new_page):
    page = new_page(locale="es-ES")
    start_game(page, server, "5000")
    page.click("[data-action='settings']")
    settings = page.locator("#settings")
    expect(settings.locator("[name='feel']")).to_be_visible()
    expect(settings.locator("[name='autoScore']")).to_be_hidden()
    expect(settings.locator("[name='autoScoreSeconds']")).to_be_hidden()
    shown = settings.inner_text()  # what the player reads (textContent would count the hidden lines)
    assert "anotar por mí" not in shown and "Segundos antes de anotar" not in shown


def finished_by_api(server) -> dict:
    """A two-player Penta game, Ana and Beto each on their seat's link, played to its end through the API
    (the ranking is what the test reads; 26 turns of clicks would cost most of a minute)."""
    players = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human"}]
    created = server.api("POST", "/api/games", {"game": "penta", "players": players, "lang": "en"})
    view = server.api("GET", f"/api/games/{created['id']}")
    while not view["is_over"]:
        seat = view["current_player"]
        body = {"seat": seat, "token": created["seats"][seat]["token"], "action": next_action(view)}
        view = server.api("POST", f"/api/games/{created['id']}/actions", body)
    return created


@pytest.mark.parametrize(("lang", "places"), [("en", ["1st", "2nd"]), ("es", ["1.º", "2.º"]), ("id", ["ke-1", "ke-2"])])
def test_the_end_of_a_game_ranks_the_players_with_the_languages_ordinals(server, new_page, lang, places):
    created = finished_by_api(server)
    page = new_page(locale=LOCALES[lang])
    page.goto(f"{server.url}{created['url']}#seat=0&token={created['seats'][0]['token']}")
    ranking = page.locator("[data-game-over] [data-ranking] li")
    expect(ranking).to_have_count(2)
    shown = ranking.locator(".place").all_text_contents()
    ties = [int(place) for place in ranking.evaluate_all("items => items.map((item) => item.dataset.place)")]
    assert shown == [places[place - 1] for place in ties]
