"""`cubilete play` in a terminal: the Textual app driven by Textual's own test pilot, with keys
and clicks as a player would (each test runs the app in its own event loop)."""

from functools import partial
from itertools import takewhile

import pytest
from harness import run_async
from played_games import serving_seed
from textual.widgets import OptionList, Static

from cubilete.cli.play_session import PlaySession, parse_seats
from cubilete.cli.texts import Texts
from cubilete.cli.tui.app import PlayApp
from cubilete.cli.tui.widgets import MoveLog
from cubilete.engine.actions import Keep, Roll
from cubilete.engine.events import ActionEvent
from cubilete.engine.games import rules_for
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_scoring import Sheet
from cubilete.players import make_player
from cubilete.solvers.sheet.advice import advise

SIZE = (110, 36)
MOMENTS = 200  # at most this many pauses of the pilot while waiting for the app to reach a state


def session(game="penta", players="Ana", lang="en", seed=3, rules=None, advice=True):
    """A game as `cubilete play` starts it; without `advice`, no solver table for the hint and the auto-score."""
    texts = Texts(lang)
    rules = rules_for(game, rules)
    played = PlaySession(rules, parse_seats(players, rules, texts), seed, texts)
    played.prepare(advice=advice)
    return played


def play(app, scenario, size=SIZE):
    async def run():
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await scenario(pilot, app)

    run_async(run())


def text(app, selector):
    return str(app.query_one(selector, Static).render())


def log_lines(app):
    return list(app.query_one("#log", MoveLog).lines)


def screen_lines(app):
    """The terminal's rows as the player sees them."""
    update = app.screen._compositor.render_full_update()
    return ["".join(segment.text for segment in strip).rstrip() for strip in update.strips]


def in_sight(app, line):
    """Whether a line of the log is on screen, whole: its words in the log's column, in order, on the
    rows it wraps to."""
    log = app.query_one("#log").region
    rows = " ".join(row[log.x : log.right].strip() for row in screen_lines(app)[log.y : log.bottom])
    return line in rows


async def until(pilot, condition):
    """Let the app run (its timers included) until the condition holds."""
    for _ in range(MOMENTS):
        if condition():
            return
        await pilot.pause(0.05)
    raise AssertionError("the app never got there")


def test_hold_dice_with_keys_and_clicks_then_roll_the_others():
    game = session()

    async def scenario(pilot, app):
        assert "Roll the dice" in text(app, "#prompt")
        await pilot.press("r")
        first = game.state.dice
        assert len(first) == 5 and game.state.rolls_left == 2
        await pilot.press("1", "3")
        await pilot.click("#die-5")
        assert app.table.holding == {0, 2, 4}
        assert all(app.query_one(f"#die-{n}").has_class("-marked") for n in (1, 3, 5))
        assert not app.query_one("#die-2").has_class("-marked")
        assert text(app, "#marked") == f"Held: {first[0]} {first[2]} {first[4]}"
        await pilot.click("#die-5")  # a second click lets it go
        assert app.table.holding == {0, 2}
        await pilot.press("r")
        second = game.state.dice
        assert game.state.rolls_left == 1
        assert (second[0], second[2]) == (first[0], first[2])
        assert log_lines(app)[-2:] == [f"Ana keeps {first[0]} {first[2]}", f"Ana rolls {second[1]} {second[3]} {second[4]}"]

    play(PlayApp(game), scenario)


def test_the_sheet_previews_every_open_box_and_a_chosen_box_is_scored():
    game = session()

    async def scenario(pilot, app):
        await pilot.press("r")
        options = game.state.score_options()
        assert len(options) == 13
        for option in options:
            row = text(app, f"#box-{option.box}")
            assert row.rstrip().endswith(f"({option.points})"), row
        await pilot.click("#box-chance")
        assert app.table.selected == "chance" and app.query_one("#box-chance").has_class("-selected")
        assert text(app, "#prompt").startswith(f"Chance: {sum(game.state.dice)} points")
        await pilot.press("enter")
        assert game.state.sheets[0].boxes[-2] == sum(game.match.events[0].dice)
        assert log_lines(app)[-1] == f"Ana scores {sum(game.match.events[0].dice)} in Chance"
        assert text(app, "#box-chance").rstrip().endswith(f" {sum(game.match.events[0].dice)}")  # written, no brackets
        assert game.state.is_chance and "Roll the dice" in text(app, "#prompt")

    play(PlayApp(game), scenario)


def test_a_yatzy_sheet_shows_its_15_boxes_and_a_turn_is_played_on_it():
    game = session(game="yatzy", lang="es", advice=False)
    boxes = game.state.rules.box_ids

    async def scenario(pilot, app):
        assert len(boxes) == 15 and all(app.query(f"#box-{box}") for box in boxes)
        assert text(app, "#box-one_pair").strip().startswith("Un par")
        assert not app.query("#sheet-five-equal")  # Yatzy pays no bonus for a second Yatzy
        assert text(app, "#sheet-bonus").startswith("  Bonus (+50 con 63)")
        await pilot.press("r")
        assert len(game.state.score_options()) == 15
        assert text(app, "#prompt") == "Guarda dados (1-5 o un clic) y vuelve a lanzar (r), o elige una casilla (↑↓ o un clic, Enter)"
        await pilot.click("#box-chance")
        await pilot.press("enter")
        assert game.state.sheets[0].boxes[boxes.index("chance")] == sum(game.match.events[0].dice)
        assert game.state.is_chance and "Lanza los dados" in text(app, "#prompt")

    play(PlayApp(game), scenario)


def test_generala_traditionals_sheet_previews_a_servida_with_its_bonus():
    """A full on the turn's first roll is «servido»: 30 and 5 more (docs/rules.md#generala-traditional)."""
    game = session(game="generala", rules="traditional", lang="es", seed=6, advice=False)

    async def scenario(pilot, app):
        await pilot.press("r")
        assert sorted(game.state.dice) == [1, 1, 3, 3, 3]
        assert [text(app, f"#box-{box}").split()[0] for box in ("straight", "full", "poker", "generala")] == [
            "Escalera", "Full", "Póker", "Generala"
        ]
        assert text(app, "#box-full").rstrip().endswith("(35)")
        assert text(app, "#box-threes").rstrip().endswith("(9)")

    play(PlayApp(game), scenario)


def test_arrows_choose_among_the_open_boxes_and_escape_drops_the_choice():
    game = session()

    async def scenario(pilot, app):
        await pilot.press("enter")  # before the roll: the engine's refusal, nothing changes
        assert "roll the dice first" in text(app, "#prompt") and game.state.is_chance
        await pilot.press("r", "down")
        assert app.table.selected == "ones"
        await pilot.press("down", "down", "up")
        assert app.table.selected == "twos"
        await pilot.press("escape")
        assert app.table.selected is None
        await pilot.press("enter")
        assert "Choose a box first" in text(app, "#prompt") and game.state.sheets[0].boxes == (None,) * 13

    play(PlayApp(game), scenario)


def test_the_hint_lists_the_solvers_best_choices_and_enter_takes_one():
    game = session()

    async def scenario(pilot, app):
        await pilot.press("r", "h")
        hints = app.query_one("#hints", OptionList)
        best = advise(game.state)[:3]
        assert hints.display and hints.option_count == 3
        assert text(app, "#prompt").startswith("Best choices, with the expected final total")
        shown = [str(hints.get_option_at_index(i).prompt) for i in range(3)]
        assert all(f"→ {option.value:.1f}" in line for option, line in zip(best, shown)), shown
        await pilot.press("enter")  # the first choice
        assert not hints.display
        if isinstance(best[0].action, Keep):
            assert app.table.holding == set(best[0].action.held)
        else:
            assert app.table.selected == best[0].action.box
        await pilot.press("h", "escape")  # shown again, then closed
        assert not hints.display

    play(PlayApp(game), scenario)


def test_after_the_last_roll_the_computer_scores_in_the_optimal_box():
    game = session()

    async def scenario(pilot, app):
        await pilot.press("r", "r", "r")  # holding nothing: roll, keep nothing, roll, keep nothing, roll
        await until(pilot, lambda: len(game.match.events) == 6)
        last_roll = game.match.events[4].dice
        optimal = make_player("optimal", game.rules).choose(SheetState.situation(game.rules, Sheet.empty(game.rules), last_roll))
        assert game.match.events[5] == ActionEvent(0, optimal)
        assert log_lines(app)[-2] == "The computer scores for you"

    play(PlayApp(game, auto_score_seconds=0.1), scenario)


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_a_whole_game_scored_by_the_computer_ends_with_the_total():
    game = session(game="generala")

    async def scenario(pilot, app):
        for turn in range(13):
            await pilot.press("r", "r", "r")
            await until(pilot, lambda left=12 - turn: game.state.sheets[0].boxes.count(None) == left)
        assert game.state.is_over and text(app, "#status") == "Game over"
        assert log_lines(app)[-1] == f"Game over: {game.state.scores()[0]} points"  # alone: no place
        await pilot.press("r")
        assert text(app, "#prompt") == "Game over"

    play(PlayApp(game, auto_score_seconds=0.01), scenario)


def test_the_countdown_waits_while_a_box_is_chosen_and_restarts_when_it_is_dropped():
    game = session()

    async def scenario(pilot, app):
        await pilot.press("r", "r", "r")
        assert text(app, "#countdown").startswith("The computer scores for you in ") and app.table.timers
        await pilot.press("down")
        assert text(app, "#countdown") == "" and app.table.timers == []
        await pilot.press("escape")
        assert text(app, "#countdown").startswith("The computer scores for you in ") and app.table.timers
        assert game.state.rolls_left == 0 and game.state.sheets[0].boxes == (None,) * 13  # nothing scored meanwhile

    play(PlayApp(game, auto_score_seconds=60), scenario)


def test_no_countdown_when_the_auto_score_is_off():
    game = session()

    async def scenario(pilot, app):
        await pilot.press("r", "r", "r")
        assert game.state.rolls_left == 0 and text(app, "#countdown") == "" and app.table.timers == []
        assert "Last roll: choose a box" in text(app, "#prompt")

    play(PlayApp(game, auto_score_seconds=0), scenario)


def test_a_bot_plays_its_whole_turn_then_it_is_the_humans_again():
    game = session(players="Ana,bot:beginner")

    async def scenario(pilot, app):
        await pilot.press("r", "down", "enter")
        await until(pilot, lambda: game.human_to_move)
        assert game.state.sheets[1].boxes.count(None) == 12
        assert any(line.startswith("Bot (Beginner) scores") for line in log_lines(app))
        assert text(app, "#status") == "Ana's turn"

    play(PlayApp(game, bot_pace_seconds=0), scenario)


def test_a_bots_generala_servida_ends_the_game_and_the_log_says_who_won():
    """docs/rules.md#generala-servida-wins: Ana scores her first roll, the bot's first roll is five threes."""
    game = session(game="generala", rules="traditional", players="Ana,bot:beginner", seed=serving_seed(1), advice=False)

    async def scenario(pilot, app):
        await pilot.press("r")
        await pilot.click("#box-fives")
        await pilot.press("enter")
        await until(pilot, lambda: game.state.is_over)
        await until(pilot, lambda: log_lines(app)[-1] == "2. Ana: 10")
        assert log_lines(app)[-3:] == [
            "Bot (Beginner) rolls 3 3 3 3 3: Generala servida! Bot (Beginner) wins.", "1. Bot (Beginner): 0", "2. Ana: 10"
        ]
        assert text(app, "#status") == "Game over"

    play(PlayApp(game, bot_pace_seconds=0), scenario)


def test_in_spanish_the_boxes_the_keys_and_the_messages_are_spanish():
    game = session(lang="es", game="generala")

    async def scenario(pilot, app):
        assert "Lanza los dados" in text(app, "#prompt")
        assert text(app, "#box-short_straight").strip().startswith("Escalera corta")
        assert text(app, "#box-ones").strip().startswith("Jugada de 1")
        assert {binding.binding.description for binding in app.active_bindings.values()} >= {"Lanzar", "Pista", "Salir"}
        await pilot.press("r", "h")
        assert text(app, "#prompt").startswith("Mejores opciones, con el total final esperado")

    play(PlayApp(game), scenario)


def test_5000_rolls_and_refuses_a_bank_before_entering_the_game():
    game = session(game="5000", players="Ana,bot:beginner", seed=0)

    async def scenario(pilot, app):
        assert text(app, "#turn") == "This turn: 0 · 5 dice to roll"
        await pilot.press("r")
        assert 0 < game.state.turn_points < 500, "the seed gives a first roll that scores"
        await pilot.click("#bank")
        assert "you are not in the game yet" in text(app, "#prompt") and game.state.turn_points > 0
        scoring = [app.query_one(f"#die-{n}").has_class("-scoring") for n in range(1, 6)]
        assert any(scoring)
        await pilot.press("r")
        assert game.match.events[-2].action == Roll()

    play(PlayApp(game, bot_pace_seconds=0), scenario)


def test_l_switches_the_language_keeping_the_held_dice_and_the_chosen_box():
    game = session()

    async def scenario(pilot, app):
        await pilot.press("r", "2", "down")
        assert text(app, "#box-small_straight").strip().startswith("Small straight")
        await pilot.press("l")
        assert app.texts.lang == "es"
        assert text(app, "#box-small_straight").strip().startswith("Escalera pequeña")
        assert text(app, "#box-ones").startswith("▶ Ases")  # still chosen
        assert app.table.holding == {1} and app.query_one("#die-2").has_class("-marked")
        assert {binding.binding.description for binding in app.active_bindings.values()} >= {"Lanzar", "Idioma"}
        assert app.title == "Penta (Reglas de la app)"
        await pilot.press("l")
        assert text(app, "#box-small_straight").strip().startswith("Straight kecil")
        await pilot.press("l", "enter")  # back to English, and the chosen box is scored
        assert log_lines(app)[-1].startswith("Ana scores ") and log_lines(app)[-1].endswith(" in Ones")

    play(PlayApp(game), scenario)


def test_the_default_seat_is_spoken_to_and_l_says_the_whole_log_again():
    game = session(players="you,bot:beginner")

    async def scenario(pilot, app):
        assert text(app, "#status") == "Your turn" and "You" in text(app, "#sheet-head")
        await pilot.press("r")
        dice = " ".join(map(str, game.state.dice))
        assert log_lines(app) == [f"You roll {dice}"]
        await pilot.press("down", "enter")
        await until(pilot, lambda: game.human_to_move)
        english = log_lines(app)
        assert english[1].startswith("You score ") and any(line.startswith("Bot (Beginner) scores") for line in english)
        await pilot.press("l")
        spanish = log_lines(app)
        assert len(spanish) == len(english) and spanish[0] == f"Lanzas {dice}" and spanish[1].startswith("Anotas ")
        assert any(line.startswith("Bot (Principiante) anota") for line in spanish)
        assert text(app, "#status") == "Tu turno" and "▸Tú " in text(app, "#sheet-head")
        await pilot.press("l")
        assert log_lines(app)[0] == f"Anda melempar {dice}" and text(app, "#status") == "Giliran Anda"
        assert any(line.startswith("Bot (Pemula) mencatat") for line in log_lines(app))

    play(PlayApp(game, bot_pace_seconds=0), scenario)


TERMINALS = [(80, 24), (90, 30), (110, 42)]
# The smallest terminal in the quick suite (its log shows the fewest lines); the others in the slow step:
# 30 lines of play with hints cost seconds each.
SMALLEST_QUICK = [TERMINALS[0], *(pytest.param(size, marks=pytest.mark.slow) for size in TERMINALS[1:])]


@pytest.mark.parametrize("size", SMALLEST_QUICK)
def test_9_the_log_keeps_the_newest_line_in_sight_through_the_hint_and_the_bots_turns(size):
    game = session(players="Ana,bot:beginner")

    async def scenario(pilot, app):
        while len(log_lines(app)) < 30:  # more lines than any of these terminals shows
            await pilot.press("r", "h")  # the hint list opens above the log, which shrinks
            await until(pilot, lambda: in_sight(app, log_lines(app)[-1]))  # drawn at the next refresh, or never
            await pilot.press("escape", "down", "enter")
            await until(
                pilot,
                lambda: game.human_to_move and in_sight(app, log_lines(app)[-1]) and in_sight(app, log_lines(app)[-2]),
            )

    play(PlayApp(game, bot_pace_seconds=0), scenario, size)


@pytest.mark.parametrize("size", SMALLEST_QUICK)
def test_9_the_end_of_a_5000_game_is_in_sight_and_its_long_lines_wrap(size):
    game = session(game="5000", players="bot:beginner,bot:beginner", lang="es", seed=1)

    async def scenario(pilot, app):
        await until(pilot, lambda: game.seat_to_move is None)
        lines, width = log_lines(app), app.query_one("#log").region.width
        assert lines[-1].startswith("2. ") and text(app, "#status") == "Fin de la partida"
        shown = list(takewhile(partial(in_sight, app), reversed(lines)))  # the newest lines, each whole
        assert len(shown) >= 3 and any(len(line) > width for line in shown), (shown, screen_lines(app))

    play(PlayApp(game, bot_pace_seconds=0), scenario, size)


def test_9_the_hints_help_line_goes_when_the_list_closes():
    game = session()

    async def scenario(pilot, app):
        await pilot.press("r")
        before = text(app, "#prompt")
        assert before.startswith("Hold dice")
        await pilot.press("h")
        assert text(app, "#prompt").endswith("Escape closes")
        await pilot.press("escape")
        assert text(app, "#prompt") == before
        await pilot.press("h", "h")  # h closes the list too
        assert text(app, "#prompt") == before
        await pilot.press("h", "enter")  # the best choice is taken: its words replace the help line
        assert "Escape closes" not in text(app, "#prompt")

    play(PlayApp(game), scenario)


@pytest.mark.parametrize("size", TERMINALS)
def test_9_a_bots_column_is_headed_by_its_level_in_full_or_a_short_form(size):
    game = session(players="Ana,bot:beginner,bot:beginner")

    async def scenario(pilot, app):
        assert text(app, "#sheet-head").split() == ["▸Ana", "Beginner", "Begin.", "2"]
        await pilot.press("l")
        assert text(app, "#sheet-head").split() == ["▸Ana", "Princip.", "Princ.", "2"]
        await pilot.press("l")
        assert text(app, "#sheet-head").split() == ["▸Ana", "Pemula", "Pemula", "2"]
        assert "…" not in text(app, "#sheet-head")

    play(PlayApp(game), scenario, size)


def test_9_a_bots_row_in_5000_names_its_level_in_full():
    game = session(game="5000", players="Ana,bot:beginner", lang="es")

    async def scenario(pilot, app):
        assert text(app, "#seat-1").split()[0] == "Principiante"
        assert not app.query_one("#main").has_class("-stacked")  # the scores and the dice side by side in 80 columns

    play(PlayApp(game), scenario, (80, 24))
