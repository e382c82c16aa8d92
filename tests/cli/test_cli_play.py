"""`cubilete play` line by line (standard input is not a terminal): a whole solo Penta game, a
Generala game against a duel bot and a 5000 turn typed at the prompt, hints and names in the
player's language, and refusals."""

import io
import re

import pytest
from played_games import serving_seed

from cubilete.cli.families.sheet_words import sheet_words
from cubilete.cli.main import main
from cubilete.cli.texts import Texts
from cubilete.engine.games import rules_for

BOXES = rules_for("penta").box_ids


def play(monkeypatch, capsys, lines, *argv):
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(["play", *argv])
    return code, capsys.readouterr().out


def test_a_solo_penta_game_typed_to_the_end(monkeypatch, capsys):
    lines = ["keep 1 2", "keep 9", "fly", *(f"score {box}" for box in BOXES)]
    code, out = play(monkeypatch, capsys, lines, "penta", "--players", "Ana", "--seed", "3")
    assert code == 0
    assert "the dice are numbered 1 to 5" in out and "unknown command 'fly'" in out
    assert out.count("Ana scores") == 13
    assert re.fullmatch(r"Game over: \d+ points", out.strip().splitlines()[-1])  # alone: no place (issue 34, item 13a)
    assert "1. Ana" not in out


@pytest.mark.parametrize(("lang", "end"), [("es", r"Fin de la partida: \d+ puntos"), ("id", r"Permainan selesai: \d+ poin")])
def test_a_solo_game_ends_with_its_score_and_no_place_in_the_players_language(monkeypatch, capsys, lang, end):
    lines = [f"score {box}" for box in BOXES]
    code, out = play(monkeypatch, capsys, lines, "penta", "--players", "Ana", "--seed", "3", "--lang", lang)
    assert code == 0 and re.fullmatch(end, out.strip().splitlines()[-1])


@pytest.mark.parametrize(
    ("lang", "won", "places"),
    [
        ("en", "You roll 3 3 3 3 3: Generala servida! You win.", ["1. You: 0", "2. Bot (Beginner): 0"]),
        ("es", "Lanzas 3 3 3 3 3: ¡Generala servida! Ganaste.", ["1. Tú: 0", "2. Bot (Principiante): 0"]),
        ("id", "Anda melempar 3 3 3 3 3: Generala servida! Anda menang.", ["1. Anda: 0", "2. Bot (Pemula): 0"]),
    ],
)
def test_a_generala_servida_ends_the_game_at_once_and_says_who_won(monkeypatch, capsys, lang, won, places):
    """docs/rules.md#generala-servida-wins: the first roll of the game is five threes."""
    argv = ["generala", "--rules", "traditional", "--players", "you,bot:beginner", "--seed", str(serving_seed(0))]
    code, out = play(monkeypatch, capsys, [], *argv, "--lang", lang)
    assert code == 0 and out.strip().splitlines()[-3:] == [won, *places]


def test_a_generala_servida_puts_its_roller_first_whatever_the_totals(monkeypatch, capsys):
    argv = ["generala", "--rules", "traditional", "--players", "Ana,bot:beginner", "--seed", str(serving_seed(1))]
    code, out = play(monkeypatch, capsys, ["score fives"], *argv)
    assert code == 0 and out.strip().splitlines()[-3:] == [
        "Bot (Beginner) rolls 3 3 3 3 3: Generala servida! Bot (Beginner) wins.", "1. Bot (Beginner): 0", "2. Ana: 10"
    ]


def test_5000_refuses_a_forced_bank_and_quits_cleanly(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["bank", "quit"], "5000", "--players", "Ana,Bo", "--seed", "0")
    assert code == 0
    assert "you are not in the game yet: you need 500 points in one turn to bank" in out


def test_the_line_mode_names_boxes_in_the_players_language_and_gives_hints(monkeypatch, capsys):
    lines = ["hint", "score escalera PEQUENA", "score Chance", "quit"]
    code, out = play(monkeypatch, capsys, lines, "penta", "--players", "Ana", "--seed", "3", "--lang", "es")
    assert code == 0
    assert "Escalera pequeña 0" in out and "small_straight" not in out  # the boxes and their points, by name
    assert "Mejores opciones, con el total final esperado:" in out
    assert "  1. " in out and "  3. " in out and "  4. " not in out  # the three best choices
    assert "Ana anota 0 en Escalera pequeña" in out  # typed without case or accent
    assert "Ana anota 11 en Chance" in out  # the dice of seed 3


def test_a_duel_bot_plays_its_turns_under_its_level_name(monkeypatch, capsys):
    boxes = rules_for("generala").box_ids
    lines = [f"score {box}" for box in boxes]
    code, out = play(monkeypatch, capsys, lines, "generala", "--players", "Ana,bot:duel", "--seed", "3", "--lang", "es")
    assert code == 0
    assert out.count("Ana anota") == len(boxes) and out.count("Bot (Duelo) anota") == len(boxes)


def test_the_line_mode_refuses_in_the_players_language(monkeypatch, capsys):
    lines = ["score straight KECIL", "score Unos", "keep 7", "fly", "quit"]
    code, out = play(monkeypatch, capsys, lines, "penta", "--players", "Ana", "--seed", "3", "--lang", "id")
    assert code == 0
    assert "Ana mencatat 0 di Straight kecil" in out
    assert "Penta tidak punya kotak «Unos»; kotaknya adalah As, Dua, Tiga" in out  # a Spanish name, in Indonesian
    assert "dadu diberi nomor 1 sampai 5, bukan «7»" in out
    assert "perintah tidak dikenal «fly»: keep 1 3 5 (simpan dadu itu, lempar sisanya)" in out


@pytest.mark.parametrize(
    "players, lang, message",
    [
        ("Ana,,bot:optimal", "en", "seat 2 of 'Ana,,bot:optimal' has no name: give every human player a name"),
        (" ", "en", "seat 1 of ' ' has no name"),
        ("Ana, ", "es", "el puesto 2 de «Ana, » no tiene nombre: da un nombre a cada jugador humano"),
    ],
)
def test_a_blank_player_name_is_refused_clearly(monkeypatch, capsys, players, lang, message):
    monkeypatch.setattr("sys.stdin", io.StringIO("score chance\n"))
    code = main(["play", "penta", "--players", players, "--lang", lang])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err == f"cubilete: error: {message}" + err.split(message)[1] and err.endswith("\n")


def test_the_terminal_words_generalas_sheet_with_combinations_and_pentas_with_boxes():
    """Seed 003: Generala's lines are «combinaciones» that players «tachan»; Penta's are «casillas»."""
    generala, penta = sheet_words(Texts("es"), "generala"), sheet_words(Texts("es"), "penta")
    assert generala.must_sacrifice == "Ninguna combinación abierta puntúa: hay que tachar una"
    assert penta.must_sacrifice == "Ninguna casilla abierta puntúa: hay que sacrificar una"
    assert generala.box == "Combinación" and penta.box == "Casilla"
    assert sheet_words(Texts("id"), "generala").last_roll == "Lemparan terakhir: pilih satu kombinasi"
    assert "Enter" in generala.hold_or_choose and "Intro" not in penta.choose_box_first


@pytest.mark.parametrize("game", ["yatzy", "yahtzee", "kniffel"])
def test_a_game_without_words_of_its_own_has_the_common_words_in_the_readers_language(game):
    """Issue 37: a context without a translation falls back to the common message's, in Spanish, not English."""
    assert sheet_words(Texts("es"), game) == sheet_words(Texts("es"), "penta")
    assert sheet_words(Texts("es"), game).box == "Casilla"
    assert Texts("id").pgettext(game, "Last roll: choose a box") == Texts("id").t("Last roll: choose a box") != (
        "Last roll: choose a box"
    )


@pytest.mark.parametrize(
    "lang, message",
    [
        ("en", "no Penta player level 'genius'; write one of beginner, casual, optimal, duel"),
        ("es", "no hay nivel «genius» para Penta; escribe uno de estos: beginner, casual, optimal, duel"),
        ("id", "tidak ada tingkat «genius» untuk Penta; tulis salah satu dari: beginner, casual, optimal, duel"),
    ],
)
def test_a_bad_level_lists_the_words_the_command_line_accepts(monkeypatch, capsys, lang, message):
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["play", "penta", "--players", "Ana,bot:genius", "--lang", lang]) == 2
    assert capsys.readouterr().err == f"cubilete: error: {message}\n"


def test_a_level_is_accepted_in_any_case(monkeypatch, capsys):
    code, out = play(monkeypatch, capsys, ["quit"], "penta", "--players", "Ana,BOT:Beginner", "--seed", "3")
    assert code == 0 and "Bot (Beginner)" in out


@pytest.mark.parametrize(
    "lang, rolled, kept, boxes, no_rolls_left",
    [
        ("en", "You roll ", "You roll all five again", "  Boxes: Ones ", "no rolls left this turn: choose a box to score"),
        (
            "es",
            "Lanzas ",
            "Vuelves a lanzar los cinco",
            "  Casillas: Ases ",
            "no quedan lanzamientos en este turno: elige una casilla",
        ),
        ("id", "Anda melempar ", "Anda melempar kelima dadu lagi", "  Kotak: As ", "tidak ada lemparan lagi giliran ini"),
    ],
)
def test_the_line_mode_speaks_to_the_default_seat_and_roll_rolls_all_five(
    monkeypatch, capsys, lang, rolled, kept, boxes, no_rolls_left
):
    code, out = play(monkeypatch, capsys, ["roll", "roll", "roll", "quit"], "penta", "--seed", "3", "--lang", lang)
    assert code == 0
    lines = out.splitlines()
    assert [line for line in lines if line.startswith(rolled)] and kept in out  # `roll`: all five again
    assert sum(line.startswith(rolled) for line in lines) == 3  # the turn's three rolls, then refused
    assert any(line.startswith(boxes) for line in lines)
    assert no_rolls_left in out


@pytest.mark.parametrize(
    "lang, words",
    [
        (
            "en",
            [
                "You roll 6 5 2 5 4",
                "You> You roll again",
                "You roll 6 3 3: You roll nothing that scores: the turn's 100 points are lost",
            ],
        ),
        (
            "es",
            [
                "Lanzas 6 5 2 5 4",
                "Tú> Vuelves a lanzar",
                "Lanzas 6 3 3: No sacas nada que puntúe: pierdes los 100 puntos del turno",
            ],
        ),
        (
            "id",
            [
                "Anda melempar 6 5 2 5 4",
                "Anda> Anda melempar lagi",
                "Anda melempar 6 3 3: Anda tidak mendapat dadu yang menghasilkan poin: 100 poin giliran ini hilang",
            ],
        ),
    ],
)
def test_5000_speaks_to_the_default_seat(monkeypatch, capsys, lang, words):
    code, out = play(
        monkeypatch, capsys, ["roll", "quit"], "5000", "--players", "you,bot:beginner", "--seed", "0", "--lang", lang
    )
    assert code == 0 and all(line in out.splitlines() for line in words)


@pytest.mark.parametrize(
    "lang, boxes, command",
    [("es", "  Combinaciones: ", "score COMBINACIÓN"), ("id", "  Kombinasi: ", "score KOMBINASI"),
     ("en", "  Combinations: ", "score COMBINATION")],
)
def test_generalas_line_mode_names_its_combinations_not_pentas_boxes(monkeypatch, capsys, lang, boxes, command):
    """Issue 34 item 14: the terminal said «Casillas:» in Generala."""
    code, out = play(monkeypatch, capsys, ["quit"], "generala", "--players", "Ana", "--seed", "3", "--lang", lang)
    assert code == 0
    assert command in out.splitlines()[1]  # the commands, under the game's title
    assert any(line.startswith(boxes) for line in out.splitlines())


@pytest.mark.parametrize("typed", ["forced", "FORCED", "Forced joker", "comodín FORZADO", "joker wajib"])
def test_10_rules_are_taken_by_id_or_by_name_in_any_case_and_language(monkeypatch, capsys, typed):
    code, out = play(monkeypatch, capsys, ["quit"], "penta", "--rules", typed, "--players", "Ana", "--seed", "3")
    assert code == 0 and out.startswith("Penta (Forced joker), seed 3.")


def test_10_unknown_rules_are_refused_with_what_is_accepted(monkeypatch, capsys):
    code = main(["play", "5000", "--rules", "bogus", "--lang", "es"])
    assert code != 0
    assert capsys.readouterr().err.strip() == (
        "cubilete: error: 5000 no tiene las reglas «bogus»; escribe uno de estos: seed, three-ones-1000, free-set-aside,"
        " entry-0, entry-350, entry-500, entry-750, entry-1000, three-ones-1100, auto-set-aside, o el nombre de unas"
        " reglas en cualquier idioma: Estándar, Tres ases valen 1000, Elegir los dados que se apartan, Sin mínimo para"
        " entrar, Entrar con 350, Entrar con 500, Entrar con 750, Entrar con 1000, Tres ases valen 1100 y Se apartan"
        " todos los dados que puntúan"
    )


def test_10_rules_set_one_by_one_are_typed_as_their_words_joined_with_plus_in_any_language(monkeypatch, capsys):
    """docs/rules.md#5000-switches: the entry shows in the title and in the refusal to bank below it."""
    code, out = play(
        monkeypatch,
        capsys,
        ["roll", "bank", "quit"],
        "5000",
        "--rules",
        "Entrar con 1000+three-ones-1000",
        "--players",
        "Ana,bot:beginner",
        "--seed",
        "4",
    )
    assert code == 0
    assert out.startswith("5000 (Enter with 1000 + Three 1s worth 1000), seed 4.")
    assert "you need 1000 points in one turn to bank" in out


def test_13_a_stray_option_is_refused_with_plays_usage(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["play", "penta", "--bogus"])
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.startswith("usage: cubilete play ") and "unrecognized arguments: --bogus" in err


def test_13_an_unknown_bot_level_is_echoed_as_typed(capsys):
    assert main(["play", "5000", "--players", "Ana,bot:duel", "--lang", "es"]) != 0
    assert "no hay nivel «duel» para 5000" in capsys.readouterr().err


def test_5000_numbers_the_dice_on_the_table_from_1_in_its_refusals(monkeypatch, capsys):
    lines = ["aside 1", "roll", "aside 5", "quit"]  # seed 3: 1 4 2 5 1, a 1 set aside, then four dice rolled
    argv = ("5000", "--rules", "free-set-aside", "--players", "Ana,bot:beginner", "--seed", "3")
    code, out = play(monkeypatch, capsys, lines, *argv)
    assert code == 0 and "Ana rolls 1 1 4 1" in out
    assert "the dice are numbered 1 to 4, not '5'" in out and "0 to" not in out
