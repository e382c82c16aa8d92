"""The es, id and en catalogs cover every string of the client, every name and the engine's reasons."""

from __future__ import annotations

import re
from importlib.resources import files

import pytest

from cubilete.engine.five_thousand import FiveThousandState
from cubilete.engine.games import GAMES
from cubilete.players import player_levels
from cubilete.web.i18n import CONTEXT_SEPARATOR, LANGUAGES, messages, translate_engine_message

STATIC = files("cubilete.web").joinpath("static")
CLIENT_MESSAGE = re.compile(r"""\bt\(\s*"((?:[^"\\]|\\.)*)"|data-i18n(?:-label)?="([^"]+)\"""")
PLACEHOLDER = re.compile(r"\{\w+\}")


def client_messages() -> set[str]:
    found = set()
    for folder, pattern in (("js", "*.js"), (".", "*.html")):
        for path in STATIC.joinpath(folder).iterdir():
            if path.name.endswith(pattern[1:]):
                found.update(a or b for a, b in CLIENT_MESSAGE.findall(path.read_text(encoding="utf-8")))
    return found


def named_messages() -> set[str]:
    """Every id shown through a context: games, rule sets, bot levels, boxes."""
    keys = set()
    for info in GAMES.values():
        keys.add(f"game{CONTEXT_SEPARATOR}{info.id}")
        keys.update(f"rules:{info.id}{CONTEXT_SEPARATOR}{name}" for name in info.variants)
        keys.update(f"level{CONTEXT_SEPARATOR}{level}" for level in player_levels(info.id))
        for rules in info.variants.values():
            keys.update(f"box:{info.id}{CONTEXT_SEPARATOR}{box.id}" for box in getattr(rules, "boxes", ()))
    return keys


def test_the_client_uses_many_messages():
    assert {"Validate turn", "No open box scores: one must be sacrificed", "Roll", "Game over"} <= client_messages()


@pytest.mark.parametrize("lang", ["es", "id"])
def test_every_client_message_is_translated_with_the_same_placeholders(lang):
    table = messages(lang)
    missing = sorted(message for message in client_messages() if message not in table)
    assert missing == []
    for message in client_messages():
        assert sorted(PLACEHOLDER.findall(table[message])) == sorted(PLACEHOLDER.findall(message)), message


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_game_rule_set_level_and_box_has_a_name(lang):
    assert sorted(named_messages() - set(messages(lang))) == []


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


@pytest.mark.parametrize(
    ("scores", "turn_points", "spanish"),
    [
        ((0, 0), 250, "tienes que seguir lanzando: los puntos del turno terminan en 50"),
        ((0, 0), 300, "aún no has entrado en el juego: necesitas 500 puntos en un turno para plantarte"),
    ],
)
def test_the_engines_reasons_to_roll_are_translated(scores, turn_points, spanish):
    state = FiveThousandState.decision_point(GAMES["5000"].default, scores, 0, turn_points, 2)
    reason = state.must_roll_reason()
    assert translate_engine_message("es", reason) == spanish
    assert translate_engine_message("id", reason) != reason
    assert translate_engine_message("en", reason) == reason
