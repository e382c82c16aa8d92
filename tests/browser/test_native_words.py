"""Issue 34's native reread, as a player meets it: Generala's settings speak of combinations, not of
Penta's boxes (item 14), and 5000's have no auto-score line; the end of a game ranks its players with the
language's ordinals, 1st and 2nd in English, 1.º in Spanish, ke-1 in Indonesian (item 16), and a solo game's
end says its score with neither a winner nor a place (item 13a). The catalogs' words themselves are
tests/i18n/test_glossary.py's."""

from __future__ import annotations

import pytest
from harness import next_action
from layout_checks import start_game
from playwright.sync_api import expect
from test_browser import score_first_open_box

from cubilete.engine.games import rules_for

PENTA_BOXES = rules_for("penta").box_ids
LOCALES = {"es": "es-ES", "id": "id-ID", "en": "en-US"}
AUTO_SCORE = {
    ("es", "generala"): "Tras el último lanzamiento, anotar por mí en la combinación que elegiría la computadora",
    ("es", "penta"): "Tras el último lanzamiento, anotar por mí en la casilla que elegiría la computadora",
    ("id", "generala"): "Setelah lemparan terakhir, catat untuk saya di kombinasi pilihan komputer",
    ("en", "generala"): "After the last roll, score for me in the computer's combination",
}


# Spanish in the quick suite (Penta's word beside Generala's); the other languages' words are the catalogs'
# (tests/i18n), their pages in the slow step
@pytest.mark.parametrize(
    ("lang", "game"),
    [key if key[0] == "es" else pytest.param(*key, marks=pytest.mark.slow) for key in AUTO_SCORE],
)
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


@pytest.mark.parametrize(  # Spanish's page in the quick suite, the others in the slow step
    ("lang", "places"),
    [pytest.param("en", ["1st", "2nd"], marks=pytest.mark.slow), ("es", ["1.º", "2.º"]),
     pytest.param("id", ["ke-1", "ke-2"], marks=pytest.mark.slow)],
)
def test_the_end_of_a_game_ranks_the_players_with_the_languages_ordinals(server, new_page, lang, places):
    created = finished_by_api(server)
    page = new_page(locale=LOCALES[lang])
    page.goto(f"{server.url}{created['url']}#seat=0&token={created['seats'][0]['token']}")
    ranking = page.locator("[data-game-over] [data-ranking] li")
    expect(ranking).to_have_count(2)
    shown = ranking.locator(".place").all_text_contents()
    ties = [int(place) for place in ranking.evaluate_all("items => items.map((item) => item.dataset.place)")]
    assert shown == [places[place - 1] for place in ties]


def played_to_the_last_box(server, created) -> None:
    """A solo Penta game played through the API until its last box is all that is left to score."""
    view, scored = server.api("GET", f"/api/games/{created['id']}"), 0
    while (action := next_action(view))["type"] != "score" or scored < len(PENTA_BOXES) - 1:
        scored += action["type"] == "score"
        body = {"seat": 0, "token": created["seats"][0]["token"], "action": action}
        view = server.api("POST", f"/api/games/{created['id']}/actions", body)


@pytest.mark.parametrize(
    ("lang", "end"),
    [("es", "Fin de la partida: {} puntos"),  # Spanish's page in the quick suite, the others in the slow step
     pytest.param("id", "Permainan selesai: {} poin", marks=pytest.mark.slow),
     pytest.param("en", "Game over: {} points", marks=pytest.mark.slow)],
)
def test_a_solo_game_ends_with_its_score_and_neither_a_winner_nor_a_place(server, new_page, lang, end):
    """Issue 34 item 13a: Lucía alone scores her last box; the end says her score, not «¡Gana Lucía!» nor 1.º."""
    players = [{"name": "Lucía", "kind": "human"}]
    created = server.api("POST", "/api/games", {"game": "penta", "players": players, "lang": lang})
    played_to_the_last_box(server, created)
    page = new_page(locale=LOCALES[lang], auto_score=False)
    page.goto(f"{server.url}{created['url']}#seat=0&token={created['seats'][0]['token']}")
    page.wait_for_selector("#table[data-ready]")
    score_first_open_box(page)
    dialog = page.locator("[data-game-over]")
    expect(dialog).to_be_visible()
    total = page.get_attribute("[data-total][data-player='0']", "data-total")
    expect(dialog.locator("h2")).to_have_text(end.format(total))
    expect(dialog.locator("[data-winner]")).to_be_hidden()
    expect(dialog.locator("[data-ranking]")).to_be_hidden()
    assert "Lucía" not in dialog.inner_text()
