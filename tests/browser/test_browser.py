"""The app in a phone-sized headless Chromium against a real `cubilete serve`: whole games played
by clicking, hot-seat, bots, languages, the auto-score and a server restart (online play: test_online.py)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.players import make_player

WARNING = {
    "es": "Ninguna casilla abierta puntúa: hay que sacrificar una",
    "id": "Tidak ada kotak terbuka yang menghasilkan poin: salah satu harus dikorbankan",
    "en": "No open box scores: one must be sacrificed",
}
VALIDATE = {"es": "Validar el turno", "id": "Validasi giliran", "en": "Confirm turn"}
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")


def ready(page) -> None:
    """Wait until the page waits for this screen's player."""
    page.wait_for_selector("#table[data-ready]")


def start_from_home(page, server, game: str) -> None:
    page.goto(f"{server.url}/")
    page.click(f"[data-game='{game}']")


def create_by_api(server, game="penta", players=({"name": "Ana", "kind": "human"},), seed=7, lang="es"):
    return server.api("POST", "/api/games", {"game": game, "players": list(players), "seed": seed, "lang": lang})


def open_seat(page, server, created, seat=0) -> None:
    """Open a game through a seat link (the way a friend joins online)."""
    page.goto(f"{server.url}{created['url']}#seat={seat}&token={created['seats'][seat]['token']}")
    ready(page)


def score_first_open_box(page, seat=0) -> str:
    box = page.locator(f"[data-player='{seat}'][data-preview]").first
    name = box.get_attribute("data-box")
    box.click()
    expect(box).to_have_attribute("aria-pressed", "true")
    page.click("[data-action='validate']")
    return name


def cell_number(page, selector) -> int:
    return int(page.locator(selector).inner_text())


# The quick suite plays the first two turns (the review's test plays a whole game the same way); the whole
# game, with its end, runs in the slow step, with reduced motion and animated.
@pytest.mark.parametrize(
    ("motion", "turns"),
    [
        pytest.param("reduce", 2, id="first-turns-still"),
        pytest.param("reduce", 13, id="whole-still", marks=pytest.mark.slow),
        pytest.param("no-preference", 13, id="whole-animated", marks=pytest.mark.slow),
    ],
)
def test_a_solo_penta_game_clicked(server, new_page, motion, turns):
    page = new_page(reduced_motion=motion)
    start_from_home(page, server, "penta")
    page.click("[data-action='start']")
    for turn in range(turns):
        ready(page)
        expect(page.locator("[data-action='roll']")).to_contain_text("3")
        page.click("[data-action='roll']")
        ready(page)
        values = [page.get_attribute(f"[data-die='{i}']", "data-value") for i in range(5)]
        assert all(value in "123456" and value for value in values)
        if turn == 12:  # only the penta box is open: once no roll is left, it scores nothing but five equal
            for _ in range(2):
                page.click("[data-action='roll']")
                ready(page)
            if len({page.get_attribute(f"[data-die='{i}']", "data-value") for i in range(5)}) > 1:
                expect(page.locator("[data-message]")).to_have_text(WARNING["es"])
        score_first_open_box(page)

    whole = turns == 13
    page.wait_for_selector("[data-game-over]:not([hidden])" if whole else "#table[data-ready]")
    scores = {
        cell.get_attribute("data-box"): int(cell.get_attribute("data-score"))
        for cell in page.locator("[data-box][data-player='0'][data-score]").all()
    }
    assert len(scores) == turns and page.locator("[data-preview]").count() == 0
    upper = sum(scores.get(box, 0) for box in UPPER)
    upper_bonus = cell_number(page, "[data-upper-bonus][data-player='0']")
    penta_bonus = cell_number(page, "[data-five-equal-bonus][data-player='0']")
    assert upper_bonus == (35 if upper >= 63 else 0)
    total = int(page.get_attribute("[data-total][data-player='0']", "data-total"))
    assert total == sum(scores.values()) + upper_bonus + penta_bonus
    game_id = page.url.rsplit("/", 1)[1]
    assert server.api("GET", f"/api/games/{game_id}")["scores"] == [total]
    if whole:
        expect(page.locator("#game-over-title")).to_have_text(f"Fin de la partida: {total} puntos")
        expect(page.locator("[data-ranking]")).to_be_hidden()  # alone: no place
        expect(page.locator("[data-action='rematch']")).to_be_visible()


def test_the_new_games_sheets_have_their_own_rows(server, new_page):
    """Issue 37: Kniffel's five-equal bonus row is named after its Kniffel box (not Penta's), and Yatzy's
    sheet has its 15 boxes (no such bonus row)."""
    page = new_page()
    start_from_home(page, server, "kniffel")
    page.click("[data-action='start']")
    ready(page)
    expect(page.locator("[data-five-equal-bonus][data-player='0']")).to_have_count(1)
    expect(page.locator("tr:has([data-five-equal-bonus]) th")).to_have_text("Bonus de Kniffel")
    start_from_home(page, server, "yatzy")
    page.click("[data-action='start']")
    ready(page)
    expect(page.locator("tr.box")).to_have_count(15)
    expect(page.locator("tr.box th").nth(6)).to_have_text("Un par")
    expect(page.locator("[data-five-equal-bonus]")).to_have_count(0)


def test_a_hot_seat_generala_round_with_two_humans(server, new_page):
    page = new_page()
    start_from_home(page, server, "generala")
    page.click("[data-action='add-player']")
    page.select_option("[data-player-row]:nth-child(2) [data-player-kind]", "here")
    page.fill("[name='name-0']", "Ana")
    page.fill("[name='name-1']", "Luis")
    page.click("[data-action='start']")

    ready(page)
    expect(page.locator("[data-current-player]")).to_have_attribute("data-current-player", "0")
    expect(page.locator("[data-message]")).to_contain_text("Ana")
    page.click("[data-action='roll']")
    ready(page)
    kept = page.get_attribute("[data-die='0']", "data-value")
    page.keyboard.press("1")
    expect(page.locator("[data-die='0']")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-action='roll']")).to_contain_text("2")
    page.click("[data-action='roll']")
    ready(page)
    assert page.get_attribute("[data-die='0']", "data-value") == kept
    expect(page.locator("[data-action='roll']")).to_contain_text("1")
    ana_box = score_first_open_box(page, seat=0)

    ready(page)
    expect(page.locator("[data-current-player]")).to_have_attribute("data-current-player", "1")
    expect(page.locator("[data-current-player]")).to_contain_text("Luis")
    expect(page.locator("[data-die='0']")).to_have_attribute("data-value", "")
    page.click("[data-action='roll']")
    ready(page)
    assert page.locator("[data-player='0'][data-preview]").count() == 0
    luis_box = score_first_open_box(page, seat=1)

    ready(page)
    expect(page.locator("[data-current-player]")).to_have_attribute("data-current-player", "0")
    assert page.locator("[data-player='0'][data-score]").all()[0].get_attribute("data-box") == ana_box
    assert page.locator("[data-player='1'][data-score]").all()[0].get_attribute("data-box") == luis_box
    assert page.locator("[data-score]").count() == 2
    for seat in (0, 1):
        total = page.get_attribute(f"[data-total][data-player='{seat}']", "data-total")
        assert total == page.get_attribute(f"[data-player='{seat}'][data-score]", "data-score")


@pytest.mark.slow  # a whole game; the quick suite plays 5000's first turns online and its review's hint
def test_a_5000_game_against_a_bot_to_the_end(server, new_page, motion):
    page = new_page(locale="en-US", reduced_motion=motion)
    start_from_home(page, server, "5000")
    page.fill("[name='name-0']", "Ana")
    page.click("[data-action='start']")
    reasons, messages = set(), set()
    game_over = page.locator("[data-game-over]")
    for _ in range(600):
        page.wait_for_selector("#table[data-ready], [data-game-over]:not([hidden])")
        if game_over.is_visible():
            break
        # the log, not the line: news stays on the line only until the next prompt
        messages.update(page.locator("[data-turn-log-entries] li").all_text_contents())
        bank = page.locator("[data-action='bank']")
        if bank.is_enabled():
            bank.click()
        else:
            if page.locator("[data-turn-points]").get_attribute("data-turn-points") != "0":
                reasons.add(page.locator("[data-bank-reason]").text_content())
            page.click("[data-action='roll']")
    expect(game_over).to_be_visible()
    totals = [int(cell.get_attribute("data-total")) for cell in page.locator(".scoreboard [data-total]").all()]
    assert 5000 in totals
    expect(page.locator("[data-ranking] li")).to_have_count(2)
    expect(page.locator("[data-ranking] li[data-place='1']")).to_have_count(1)
    assert reasons and all(reason.startswith(("You must roll again", "You are not in the game")) for reason in reasons)
    assert any(re.search(r"banks \d+", message) for message in messages)


def test_bot_turns_play_at_a_watchable_pace_and_can_be_skipped(server, new_page):
    robot = {"name": "Robot", "kind": "bot", "level": "optimal"}
    created = create_by_api(server, players=({"name": "Ana", "kind": "human"}, robot))
    page = new_page(bot_pace_ms=1200)
    open_seat(page, server, created)
    page.click("[data-action='roll']")
    ready(page)
    score_first_open_box(page)
    expect(page.locator("[data-action='skip']")).to_be_visible()
    expect(page.locator("[data-message]")).to_contain_text("Robot")
    page.click("[data-action='skip']")
    ready(page)
    expect(page.locator("[data-action='skip']")).to_be_hidden()
    expect(page.locator("[data-player='1'][data-score]")).to_have_count(1)


def test_the_language_switch_shows_the_seeds_exact_strings(server, new_page):
    created = create_by_api(server)
    game_id, token = created["id"], created["seats"][0]["token"]
    boxes = [box["id"] for box in server.api("GET", f"/api/games/{game_id}")["table"]["boxes"]]
    for box in boxes[:-1]:  # fill every box but the penta box by the API
        for action in ({"type": "roll"}, {"type": "score", "box": box}):
            server.api("POST", f"/api/games/{game_id}/actions", {"seat": 0, "token": token, "action": action})
    page = new_page(locale="es-ES")
    open_seat(page, server, created)
    for _ in range(3):  # the sacrifice is due once no roll is left
        page.click("[data-action='roll']")
        ready(page)
    expect(page.locator("[data-message]")).to_have_text(WARNING["es"])  # the last roll has landed
    assert len({page.get_attribute(f"[data-die='{i}']", "data-value") for i in range(5)}) > 1
    for lang in ("es", "id", "en"):
        if lang != "es":
            page.click(f"[data-lang='{lang}']")
            expect(page.locator("html")).to_have_attribute("lang", lang)
            ready(page)
        expect(page.locator("[data-lang][aria-pressed='true']")).to_have_attribute("data-lang", lang)
        expect(page.locator("[data-message]")).to_have_text(WARNING[lang])
        expect(page.locator("[data-action='validate']")).to_have_text(VALIDATE[lang])
    page.goto(f"{server.url}/rules/penta")  # in the language chosen last
    expect(page.locator("main")).to_contain_text(f'"{VALIDATE["en"]}"')
    page.goto(f"{server.url}/rules/penta?lang=es")
    expect(page.locator("main")).to_contain_text(f"«{VALIDATE['es']}»")


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_after_the_last_roll_the_computer_scores_after_three_seconds(server, new_page):
    replay = Match(rules_for("penta"), ["Ana"], seed=7)
    replay.roll()
    for _ in range(2):
        replay.act(replay.state.keep_values([]))
        replay.roll()
    optimal = make_player("optimal", rules_for("penta")).choose(replay.state).box

    created = create_by_api(server)
    page = new_page()
    open_seat(page, server, created)
    for _ in range(3):
        page.click("[data-action='roll']")
        ready(page)
    countdown = page.locator("[data-countdown]")
    expect(countdown).to_be_visible()
    expect(countdown).to_have_attribute("data-countdown", "3")
    expect(page.locator("[data-action='roll']")).to_be_disabled()
    assert [int(page.get_attribute(f"[data-die='{i}']", "data-value")) for i in range(5)] == list(replay.state.dice)

    # counted down to its last second with nothing scored yet (read at once: no clock in the test)
    page.wait_for_function(
        "() => document.querySelector('[data-countdown]').dataset.countdown === '1'"
        " && document.querySelectorAll('[data-score]').length === 0"
    )
    expect(page.locator(f"[data-box='{optimal}'][data-player='0'][data-score]")).to_have_count(1, timeout=3_000)
    expect(countdown).to_be_hidden()

    page.click("[data-action='settings']")
    page.uncheck("[name='autoScore']")
    page.click("#settings button[value='close']")
    ready(page)
    for _ in range(3):
        page.click("[data-action='roll']")
        ready(page)
    expect(countdown).to_be_hidden()
    page.wait_for_timeout(4_000)
    expect(page.locator("[data-score]")).to_have_count(1)


@pytest.mark.slow  # a second server start; the quick suite keeps test_online's reconnect after a restart
def test_a_server_restart_in_the_middle_of_a_game_resumes_it(server, new_page):
    page = new_page()
    start_from_home(page, server, "penta")
    page.click("[data-action='start']")
    ready(page)
    url = page.url
    page.click("[data-action='roll']")
    ready(page)
    page.click("[data-die='1']")
    page.click("[data-action='roll']")
    ready(page)
    dice = [page.get_attribute(f"[data-die='{i}']", "data-value") for i in range(5)]

    server.stop()
    server.start()
    page.goto(f"{server.url}/")
    resume = page.locator(f"[data-resume='{url.rsplit('/', 1)[1]}']")
    resume.click()
    ready(page)
    assert page.url == url
    assert [page.get_attribute(f"[data-die='{i}']", "data-value") for i in range(5)] == dice
    expect(page.locator("[data-action='roll']")).to_contain_text("1")
    box = score_first_open_box(page)
    ready(page)
    expect(page.locator(f"[data-box='{box}'][data-player='0']")).to_have_attribute("data-score", re.compile(r"\d+"))


def test_the_penta_hint_lists_the_best_choices_with_their_expected_totals(server, new_page):
    page = new_page()
    start_from_home(page, server, "penta")
    page.click("[data-action='start']")
    ready(page)
    page.click("[data-action='roll']")
    ready(page)
    page.click("[data-action='hint']")
    choices = page.locator("[data-hints] button.hint")
    expect(choices.first).to_be_visible()
    texts = choices.all_inner_texts()
    assert 1 <= len(texts) <= 3 and all("{" not in text and "→" in text for text in texts), texts
    expected = [float(text.rsplit("→", 1)[1].replace(",", ".")) for text in texts]
    assert expected == sorted(expected, reverse=True) and 150 < expected[0] < 400
