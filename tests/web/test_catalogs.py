"""The es, id and en catalogs cover every string Babel extracts from the client, every name,
and every refusal code, with the same placeholders as the English text."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg

from cubilete.engine.game_words import GAME_WORDS
from cubilete.engine.games import GAMES
from cubilete.engine.refusals import REFUSALS
from cubilete.players import player_levels
from cubilete.web.i18n import (
    CONTEXT_SEPARATOR,
    LANGUAGES,
    REFUSAL_CONTEXT,
    messages,
    plural_categories,
    refusal_message,
)

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"\{\w+\}")
KEYWORDS = {"t": None, "tn": (1, 2), "pgettext": ((1, "c"), 2)}  # as babel.cfg's command says


def extracted() -> list[tuple[str | None, str | tuple[str, str]]]:
    """(context, message id) of everything Babel extracts with babel.cfg: JS, HTML, Python, refusals."""
    with open(ROOT / "babel.cfg", encoding="utf-8") as config:
        method_map, options_map = parse_mapping_cfg(config)
    found = extract_from_dir(ROOT / "src" / "cubilete", method_map, options_map, keywords=KEYWORDS)
    return [(context, message) for _file, _line, message, _comments, context in found]


EXTRACTED = extracted()


def key(context: str | None, message: str | tuple[str, str]) -> str:
    singular = message[0] if isinstance(message, tuple) else message
    return singular if context is None else f"{context}{CONTEXT_SEPARATOR}{singular}"


def placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def named_messages() -> set[str]:
    """Every id shown through a context: games, rule sets, switches' choices and bot levels with their one-line
    help, switches, boxes."""
    keys = set()
    for info in GAMES.values():
        keys.add(f"game{CONTEXT_SEPARATOR}{info.id}")
        keys.update(f"rules:{info.id}{CONTEXT_SEPARATOR}{name}" for name in info.variants)
        keys.update(f"rules-help:{info.id}{CONTEXT_SEPARATOR}{name}" for name in info.variants)
        keys.update(f"level{CONTEXT_SEPARATOR}{level}" for level in player_levels(info.id))
        keys.update(f"level-help:{info.id}{CONTEXT_SEPARATOR}{level}" for level in player_levels(info.id))
        for rules in info.variants.values():
            keys.update(f"box:{info.id}{CONTEXT_SEPARATOR}{box.id}" for box in getattr(rules, "boxes", ()))
        for switch in info.switches:
            keys.add(f"switch:{info.id}{CONTEXT_SEPARATOR}{switch.id}")
            keys.update(f"rules:{info.id}{CONTEXT_SEPARATOR}{word}" for word in switch.words)
            keys.update(f"rules-help:{info.id}{CONTEXT_SEPARATOR}{word}" for word in switch.words)
    return keys


def test_babel_extracts_the_client_strings_plurals_and_refusals():
    keys = {key(context, message) for context, message in EXTRACTED}
    assert {"Validate turn", "No open box scores: one must be sacrificed", "Roll", "Game over", "Thinking…"} <= keys
    assert ("{n} left", "{n} left") in [message for _, message in EXTRACTED]
    assert {f"{REFUSAL_CONTEXT}{CONTEXT_SEPARATOR}{code}" for code in REFUSALS} <= keys
    for words in GAME_WORDS.values():  # a game's own wordings, with its refusals
        assert {f"{words.context}{CONTEXT_SEPARATOR}{message}" for message in words.messages} <= keys
        assert {f"{REFUSAL_CONTEXT}:{words.context}{CONTEXT_SEPARATOR}{code}" for code in words.refusals} <= keys


def test_the_browsers_table_of_game_words_is_engine_game_words():
    """static/js/sheet_words.js keeps engine/game_words.py's table for the browser: the same contexts, and only
    messages the catalogs word for that game (a message the engine's table misses would not be extracted)."""
    source = (ROOT / "src" / "cubilete" / "web" / "static" / "js" / "sheet_words.js").read_text(encoding="utf-8")
    table = source[source.index("const GAME_WORDS = {") : source.index("\n};\n")]
    games = re.findall(r'(\w+): \{\s*context: "([^"]+)",\s*messages: new Set\(\[(.*?)\]\)', table, re.DOTALL)
    assert {game for game, _, _ in games} == set(GAME_WORDS)
    for game, context, listed in games:
        assert context == GAME_WORDS[game].context
        assert set(re.findall(r'"([^"]+)"', listed)) <= GAME_WORDS[game].messages


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_extracted_message_is_translated_with_the_same_placeholders(lang):
    table = messages(lang)
    missing = sorted(key(context, message) for context, message in EXTRACTED if key(context, message) not in table)
    assert missing == []
    for context, message in EXTRACTED:
        translated = table[key(context, message)]
        if isinstance(message, tuple):  # a plural: one form per category, each inside the plural's placeholders
            assert set(translated) == set(plural_categories(lang)), message
            assert all(set(placeholders(form)) <= set(placeholders(message[1])) for form in translated.values())
        elif context == REFUSAL_CONTEXT:
            assert placeholders(translated) == placeholders(REFUSALS[message]), (lang, message)
        elif context and context.startswith(f"{REFUSAL_CONTEXT}:"):  # a refusal a game words its own way
            words = next(words for words in GAME_WORDS.values() if context == f"{REFUSAL_CONTEXT}:{words.context}")
            assert placeholders(translated) == placeholders(words.refusals[message]), (lang, context, message)
        else:
            assert placeholders(translated) == placeholders(message), (lang, message)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_message_is_still_extracted(lang):
    """Else `pybabel update` would make it obsolete (a string Babel's extractors no longer see)."""
    keys = {key(context, message) for context, message in EXTRACTED}
    assert sorted(set(messages(lang)) - keys) == []


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("code", sorted(REFUSALS))
def test_every_refusal_code_formats_in_every_language(lang, code):
    template = REFUSALS[code]
    assert f"{REFUSAL_CONTEXT}{CONTEXT_SEPARATOR}{code}" in messages(lang)
    names = {name for _, name, _, _ in string.Formatter().parse(template) if name}
    params = {name: f"<{name}>" for name in names}
    text = refusal_message(lang, code, params)
    assert all(f"<{name}>" in text for name in names), text
    if lang != "en" and PLACEHOLDER.sub("", template).strip():  # words to translate
        assert text != template.format(**params), (lang, code)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_rule_set_level_and_box_has_a_name(lang):
    assert sorted(named_messages() - set(messages(lang))) == []


def test_plural_forms_follow_babels_plural_rule():
    assert plural_categories("es") == ("one", "many", "other")
    assert plural_categories("id") == ("other",)
    assert plural_categories("en") == ("one", "other")
    assert messages("es")["{box}: {points} point → {expected}"]["one"] == "{box}: {points} punto → {expected}"
    assert messages("es")["{box}: {points} point → {expected}"]["other"] == "{box}: {points} puntos → {expected}"
    assert messages("es")["{n} left"] == {"one": "queda {n}", "many": "quedan {n}", "other": "quedan {n}"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_catalog_reads_without_a_word_and_each_plural_has_its_languages_forms(lang, capsys):
    """Babel prints its doubts on standard output: a plural with a form too many put "WARNING: msg has more
    translations than num_plurals" before the JSON of `cubilete simulate --json`."""
    from babel.messages.pofile import read_po

    path = Path(__file__).parents[2] / "src" / "cubilete" / "web" / "locales" / lang / "LC_MESSAGES" / "messages.po"
    with path.open("rb") as catalog_file:
        catalog = read_po(catalog_file)
    assert capsys.readouterr() == ("", "")
    assert [message.id for message in catalog if message.pluralizable and len(message.string) != catalog.num_plurals] == []


def test_the_seeds_strings_are_the_catalogs_strings():
    assert messages("es")["Validate turn"] == "Validar el turno"
    assert messages("id")["Validate turn"] == "Validasi giliran"
    assert messages("es")["No open box scores: one must be sacrificed"] == (
        "Ninguna casilla abierta puntúa: hay que sacrificar una"
    )
    assert messages("id")["No open box scores: one must be sacrificed"] == (
        "Tidak ada kotak terbuka yang menghasilkan poin: salah satu harus dikorbankan"
    )
    assert messages("es")[f"box:penta{CONTEXT_SEPARATOR}small_straight"] == "Escalera pequeña"
    assert messages("id")[f"box:generala{CONTEXT_SEPARATOR}libre"] == "Bebas"


def test_refusals_show_names_translated_and_lists_as_the_language_writes_them():
    assert refusal_message("es", "box_used", {"game": "penta", "box": "fours"}) == "la casilla Cuatros ya está usada"
    assert refusal_message("es", "box_used", {"game": "generala", "box": "fours"}) == (
        "la combinación Jugada de 4 ya está usada"  # seed 003's word for Generala
    )
    assert refusal_message("id", "unknown_box", {"game": "generala", "box": "x", "boxes": ["trio", "libre"]}) == (
        "Generala tidak punya kombinasi «x»; kombinasinya adalah Trio dan Bebas"
    )
    assert refusal_message("es", "joker_forces", {"game": "generala", "boxes": ["fours", "libre"]}) == (
        "la regla del comodín obliga a anotar este lanzamiento en: Jugada de 4 y Libre"
    )
    assert refusal_message("es", "must_roll_points", {"rest": 50}) == (
        "tienes que seguir lanzando: los puntos del turno terminan en 50"
    )
    assert refusal_message("en", "must_roll_entry", {"entry": 500}) == (
        "you are not in the game yet: you need 500 points in one turn to bank"
    )


@pytest.mark.parametrize(("game", "word"), [("penta", "una casilla"), ("generala", "una combinación")])
def test_a_sheet_refused_by_the_engine_is_named_as_its_game_names_it(game, word):
    from cubilete.engine import IllegalAction, Keep, new_state, rules_for

    state = new_state(rules_for(game), 1)
    for _roll in range(3):  # three rolls: none left to keep for
        state = state.apply_roll([1, 2, 3, 4, 6])
        if state.rolls_left:
            state = state.apply(Keep(()))
    with pytest.raises(IllegalAction) as refused:
        state.apply(Keep((0,)))
    assert refusal_message("es", refused.value.code, refused.value.params) == (
        f"no quedan lanzamientos en este turno: elige {word} para anotar"
    )


@pytest.mark.parametrize("game", ["penta", "5000"])
def test_a_move_for_another_seat_counts_the_seats_from_one_for_people(game):
    """Issue 34 item 16: «le toca al puesto 0» counted seats as the code does."""
    from cubilete.engine import IllegalAction, Keep, new_state, rules_for

    with pytest.raises(IllegalAction) as refused:
        new_state(rules_for(game), 2).apply(Keep(()), seat=1)  # seat 1 plays while seat 0 is to move
    assert refused.value.params["seat"] == 0  # the API's params stay as the code counts
    assert refusal_message("es", refused.value.code, refused.value.params) == "le toca al puesto 1, no al puesto 2"
    assert refusal_message("en", refused.value.code, refused.value.params) == "it is seat 1's turn, not seat 2's"
    assert refusal_message("id", refused.value.code, refused.value.params) == "giliran kursi 1, bukan kursi 2"


@pytest.mark.parametrize("code", ["bot_seat", "wrong_token"])
def test_the_seat_refusals_of_the_web_app_count_the_seats_from_one(code):
    from cubilete.web.seats import Seat, SeatRefused, check_seat_token

    seats = [Seat(name="Ana", kind="human", token_sha256="0" * 64), Seat(name="Bot", kind="bot", level="beginner")]
    with pytest.raises(SeatRefused) as refused:
        check_seat_token(seats, 0 if code == "wrong_token" else 1, "guess")
    assert refused.value.code == code
    shown = refusal_message("es", code, refused.value.params)
    assert ("puesto 1 (Ana)" if code == "wrong_token" else "puesto 2 (Bot)") in shown
