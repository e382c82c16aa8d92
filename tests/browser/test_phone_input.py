"""Input that cannot be lost and messages that say why (issue 11), in a phone-sized headless Chromium
against a real `cubilete serve`, every game created by clicking the form: a tap while the dice still
roll is no second roll, held dice survive a reload and the language switch, a disabled control says
why, the moves go into the log, the auto-score comes back after a box is deselected, and in 5000 the
hot-dice message and the dice chosen to set aside."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from test_browser import ready, start_from_home

ROLL = "[data-action='roll']"
MESSAGE = "[data-message]"
LOG = "[data-turn-log-entries] li"


def game_id_of(page) -> str:
    return page.url.rsplit("/", 1)[1].split("#")[0]


def dice_of(page) -> list[str]:
    return [page.get_attribute(f"[data-die='{i}']", "data-value") for i in range(5)]


def held_of(page) -> list[int]:
    return [i for i in range(5) if page.get_attribute(f"[data-die='{i}']", "aria-pressed") == "true"]


def tap(page, selector: str) -> None:
    """A finger on the control's centre: no waiting for it to be enabled, as Playwright's click does."""
    box = page.locator(selector).bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def start_game(page, server, game: str, seats=(), rules: str | None = None, switches: dict[str, str] | None = None) -> None:
    """Fill the form as a player: the rule set from the list (`rules`) or switch by switch (`switches`, 5000's),
    the first seat is Ana on this device; then (name, kind[, bot level]) per seat."""
    start_from_home(page, server, game)
    if rules is not None:
        page.select_option("[data-rules-select]", rules)
    for switch, choice in (switches or {}).items():
        page.select_option(f"[data-switch='{switch}']", choice)
    rows = page.locator("[data-player-row]")
    rows.nth(0).locator("[data-player-name]").fill("Ana")
    for index, (name, kind, *level) in enumerate(seats, start=1):
        if rows.count() <= index:
            page.click("[data-action='add-player']")
        rows.nth(index).locator("[data-player-kind]").select_option(kind)
        rows.nth(index).locator("[data-player-name]").fill(name)
        if level:
            rows.nth(index).locator("select.level").select_option(level[0])
    page.click("[data-action='start']")
    if any(seat[1] == "friend" for seat in seats):
        page.click("[data-action='go-to-game']")


def score_seconds(page, seconds: int) -> None:
    """Set the auto-score delay in ⚙, as a player does."""
    page.click("[data-action='settings']")
    page.fill("[name='autoScoreSeconds']", str(seconds))
    page.click("#settings button[value='close']")


@pytest.mark.slow  # the quick suite taps a disabled control: the slow step runs this one
def test_a_tap_while_the_dice_still_roll_is_not_a_second_roll(server, new_page):
    page = new_page()
    start_game(page, server, "penta")
    ready(page)
    game_id = game_id_of(page)

    # the answer is drawn and the dice are tumbling: a tap on «Volver a lanzar» then is ignored
    tap(page, ROLL)
    # held still mid-tumble (paused in the same turn as the check), so that a loaded machine cannot let the
    # tumble end before the second tap arrives; played on after it
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-die]')].every((die) => die.dataset.value)"
        " && document.querySelector('[data-die]').getAnimations().length > 0"
        " && (document.getAnimations().forEach((animation) => animation.pause()), true)"
    )
    tap(page, ROLL)
    page.evaluate("document.getAnimations().forEach((animation) => animation.play())")
    ready(page)
    assert server.api("GET", f"/api/games/{game_id}")["table"]["rolls_left"] == 2
    expect(page.locator(ROLL)).to_contain_text("Volver a lanzar")

    # a second tap while the first one's roll is on its way (its answer held back until then): one roll
    held = []
    actions = re.compile(rf"/api/games/{game_id}/actions\?")
    page.route(actions, lambda route: held.append(route))
    with page.expect_request(actions):
        tap(page, ROLL)
    tap(page, ROLL)
    assert page.evaluate("document.querySelector('#table').hasAttribute('data-ready')") is False and len(held) == 1
    held[0].continue_()
    ready(page)
    page.unroute(actions)
    page.wait_for_function("() => document.querySelector('[data-die]').getAnimations().length === 0")
    assert server.api("GET", f"/api/games/{game_id}")["table"]["rolls_left"] == 1
    expect(page.locator(ROLL)).to_contain_text("1")


@pytest.mark.slow  # two reloads: the slow step runs it
def test_held_dice_survive_a_reload_and_the_language_switch(server, new_page):
    page = new_page()
    start_game(page, server, "penta")
    ready(page)
    page.click(ROLL)
    ready(page)
    dice = dice_of(page)
    page.click("[data-die='1']")
    page.click("[data-die='3']")
    assert held_of(page) == [1, 3]

    page.reload()
    ready(page)
    assert dice_of(page) == dice and held_of(page) == [1, 3]
    page.click("[data-lang='en']")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    ready(page)
    assert dice_of(page) == dice and held_of(page) == [1, 3]
    expect(page.locator("[data-die='1']")).to_have_attribute("aria-label", re.compile(r"held$"))

    page.click(ROLL)  # the dice held before the reload are the ones kept
    ready(page)
    rolled = dice_of(page)
    assert rolled[1] == dice[1] and rolled[3] == dice[3]
    game = server.api("GET", f"/api/games/{game_id_of(page)}")
    assert game["table"]["rolls_left"] == 1 and game["table"]["dice"] == [int(value) for value in rolled]

    # a new turn: what was held in the last one is not applied, before or after a reload
    page.locator("[data-player='0'][data-preview]").first.click()
    page.click("[data-action='validate']")
    ready(page)
    page.click(ROLL)
    ready(page)
    assert held_of(page) == []
    page.reload()
    ready(page)
    assert held_of(page) == []


def test_a_disabled_control_says_why_in_the_message_line(server, new_page):
    page = new_page(auto_score=False)
    start_game(page, server, "penta", seats=[("Beto", "friend")])
    ready(page)
    hint = page.locator("[data-action='hint']")
    expect(hint).to_be_disabled()
    hint.click(force=True)  # a game with a friend started without hints: that is the reason, dice or not
    expect(page.locator(MESSAGE)).to_have_text(
        "Pistas y probabilidades de ganar desactivadas: esta partida con amigos se creó sin ellas."
    )
    expect(page.locator(MESSAGE)).to_have_attribute("data-tone", "warning")
    page.click("[data-action='validate']", force=True)
    expect(page.locator(MESSAGE)).to_have_text("Primero lanza los dados")

    for _ in range(3):
        page.click(ROLL)
        ready(page)
    page.click(ROLL, force=True)
    expect(page.locator(MESSAGE)).to_have_text("No quedan lanzamientos: elige una casilla")
    page.click("[data-die='0']", force=True)
    expect(page.locator(MESSAGE)).to_have_text("No quedan lanzamientos: elige una casilla")

    page.locator("[data-player='0'][data-preview]").first.click()
    page.click("[data-action='validate']")
    expect(page.locator("[data-current-player]")).to_have_attribute("data-current-player", "1")
    expect(page.locator(ROLL)).to_be_disabled()
    page.click(ROLL, force=True)
    expect(page.locator(MESSAGE)).to_have_text("Es el turno de Beto")
    page.keyboard.press("2")  # a die's key says it too
    expect(page.locator(MESSAGE)).to_have_text("Es el turno de Beto")


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_the_log_lists_the_bots_moves_and_the_computers_choice_for_a_player(server, new_page):
    page = new_page(bot_pace_ms=0)
    start_game(page, server, "generala", seats=[("Luis", "here"), ("Robot", "bot")])
    ready(page)
    score_seconds(page, 1)
    ready(page)
    for _ in range(3):
        page.click(ROLL)
        ready(page)
    # nobody chooses: the computer scores for Ana, and says so before Luis is asked to roll
    expect(page.locator(MESSAGE)).to_have_text(re.compile(r"^La computadora anota \d+ en .+ por Ana$"))
    expect(page.locator("[data-current-player]")).to_have_attribute("data-current-player", "1")
    expect(page.locator(MESSAGE)).to_have_text("Luis, lanza los dados")
    page.click(ROLL)
    ready(page)
    page.locator("[data-player='1'][data-preview]").first.click()
    page.click("[data-action='validate']")
    expect(page.locator("[data-current-player]")).to_have_attribute("data-current-player", "0")
    ready(page)

    page.click("[data-turn-log] summary")
    log = page.locator(LOG)
    expect(log.first).to_be_visible()
    texts = log.all_inner_texts()  # newest first
    assert any(re.fullmatch(r"La computadora anota \d+ en .+ por Ana", text) for text in texts), texts
    assert any(re.fullmatch(r"Luis anota \d+ en .+", text) for text in texts), texts
    assert any(re.fullmatch(r"Robot anota \d+ en .+", text) for text in texts), texts
    assert "Robot lanza" in texts, texts
    robot = [index for index, text in enumerate(texts) if text.startswith("Robot")]
    luis = [index for index, text in enumerate(texts) if text.startswith("Luis")]
    assert max(robot) < min(luis)  # the robot played after Luis: above him


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_the_auto_score_comes_back_after_a_box_is_selected_and_deselected(server, new_page):
    page = new_page()
    start_game(page, server, "penta")
    ready(page)
    score_seconds(page, 2)
    ready(page)
    for _ in range(3):
        page.click(ROLL)
        ready(page)
    countdown = page.locator("[data-countdown]")
    expect(countdown).to_be_visible()
    box = page.locator("[data-player='0'][data-preview]").first
    box.click()
    expect(box).to_have_attribute("aria-pressed", "true")
    expect(countdown).to_be_hidden()
    box.click()
    expect(box).to_have_attribute("aria-pressed", "false")
    expect(countdown).to_be_visible()
    expect(page.locator("[data-player='0'][data-score]")).to_have_count(1)
    expect(page.locator(LOG).first).to_have_text(re.compile(r"^La computadora anota \d+ en .+ por Ana$"))


@pytest.mark.slow  # plays 5000 turns until hot dice come: the slow step runs it
def test_the_5000_hot_dice_message_says_what_the_player_may_do(server, new_page, motion):
    """Ana rolls on until all five dice have scored with banking allowed; every hot-dice message on the
    way matches the bank button, and a roll that scores nothing with no points says just that."""
    page = new_page(locale="en-US", reduced_motion=motion)
    start_game(page, server, "5000")
    seen = set()
    for _ in range(500):
        page.wait_for_selector("#table[data-ready], [data-game-over]:not([hidden])")
        if page.locator("[data-game-over]").is_visible():
            start_game(page, server, "5000")
            continue
        events = server.api("GET", f"/api/games/{game_id_of(page)}")["events"]
        told = page.locator(f"{LOG}[data-event='{events}']")
        text = told.text_content() if told.count() else ""  # the log may be folded: its text, shown or not
        if text.startswith("All five dice scored"):
            can_bank = page.locator("[data-action='bank']").is_enabled()
            expected = "may roll all five again or bank" if can_bank else "must roll all five again"
            assert text == f"All five dice scored: Ana {expected}", text
            seen.add(can_bank)
            if can_bank:
                break
        page.click(ROLL)
    assert True in seen
    busts = [text for text in page.locator(LOG).all_text_contents() if "nothing that scores" in text]
    lost = r"(: the turn's [1-9]\d{0,2}(,\d{3})* points are lost)?"  # 1,050 in English: the reader's number format
    assert all(re.fullmatch(r".+ rolls nothing that scores" + lost, text) for text in busts)


@pytest.mark.slow  # several 5000 rolls in the browser: the slow step runs it
def test_5000_dice_chosen_to_set_aside_look_and_read_unlike_the_other_scoring_dice(server, new_page):
    page = new_page(locale="en-US")
    start_game(page, server, "5000", seats=[("Beto", "here")], switches={"set_aside": "free-set-aside"})  # hot-seat: no bot to wait for
    for _ in range(200):
        ready(page)
        scoring = page.locator(".die.scoring:not([hidden])")
        single = page.locator(".die.scoring[data-value='1'], .die.scoring[data-value='5']")
        if page.locator("[data-action='set-aside']").is_visible() and scoring.count() >= 2 and single.count():
            break
        if page.locator("[data-action='set-aside']").is_visible():  # not this roll: set all its scoring dice aside
            for die in scoring.all():
                die.click()
            page.click("[data-action='set-aside']")
        elif page.locator("[data-action='bank']").is_enabled():
            page.click("[data-action='bank']")
        else:
            page.click(ROLL)
    chosen = single.first
    index = chosen.get_attribute("data-die")
    value = chosen.get_attribute("data-value")
    other = page.locator(f".die.scoring:not([data-die='{index}']):not([hidden])").first
    chosen.click()
    chosen = page.locator(f"[data-die='{index}']")
    expect(chosen).to_have_attribute("aria-pressed", "true")
    expect(chosen).to_have_attribute("aria-label", f"Die {int(index) + 1}: {value}, chosen to set aside")
    expect(other).to_have_attribute("aria-label", re.compile(r", scores$"))
    style = "(die) => { const s = getComputedStyle(die); return [s.boxShadow, s.transform]; }"
    assert chosen.evaluate(style) != other.evaluate(style)
    mark = "(die) => getComputedStyle(die, '::after').content"
    assert chosen.evaluate(mark) == '"✓"' and other.evaluate(mark) in ("none", "normal")
    points = 100 if value == "1" else 50
    expect(page.locator(MESSAGE)).to_have_text(f"Set aside {value}: {points} points")

    page.reload()  # the choice survives a reload, and is the one set aside
    ready(page)
    expect(page.locator(f"[data-die='{index}']")).to_have_attribute("aria-pressed", "true")
    page.click("[data-action='set-aside']")
    ready(page)
    expect(page.locator("[data-turn-points]")).not_to_have_attribute("data-turn-points", "0")
