"""The wording of issue 11 in the es, id and en catalogs: plural forms chosen by Babel's plural rules,
lists of names as each language writes them, and one word for one thing (Indonesian keeps dice with
«simpan» and banks with «berhenti», as the rules pages say; Spanish says «la computadora» and «puesto»).
tests/i18n/test_glossary.py checks every forbidden term of the glossary."""

from __future__ import annotations

import re

import pytest

from cubilete.web.i18n import CONTEXT_SEPARATOR, LANGUAGES, messages

PLURAL = {
    "es": {
        "{names} is knocked back to zero": {"one": "{names} vuelve a cero", "many": "{names} vuelven a cero"},
        "{box}: {points} point": {"one": "{box}: {points} punto", "other": "{box}: {points} puntos"},
        "Set aside {dice}: {points} point": {"one": "Apartar {dice}: {points} punto", "other": "Apartar {dice}: {points} puntos"},
        # the record's "1 victoria en 3 partidas": each count has its own plural form (issue 26)
        "{n} win": {"one": "{n} victoria", "other": "{n} victorias"},
        "{n} game": {"one": "{n} partida", "other": "{n} partidas"},
    },
    "en": {
        "{names} is knocked back to zero": {"one": "{names} is knocked back to zero", "other": "{names} are knocked back to zero"},
        "{box}: {points} point": {"one": "{box}: {points} point", "other": "{box}: {points} points"},
        "{n} game": {"one": "{n} game", "other": "{n} games"},
    },
    "id": {"{names} is knocked back to zero": {"other": "{names} kembali ke nol"}},
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_counted_messages_have_a_form_per_plural_category(lang):
    for message, forms in PLURAL[lang].items():
        assert {category: messages(lang)[message][category] for category in forms} == forms


def test_indonesian_keeps_dice_and_banks_points_with_different_words():
    id_ = messages("id")
    assert id_["Out"] == "Belum masuk" and id_["In"] == "Masuk"
    keeping = [id_[key] for key in ("Keep {dice}", "keep {dice}", "{name} keeps {dice}", "Die {n}: {value}, held")]
    banking = [id_[key] for key in ("Bank", "Bank {points}", "bank", "{name} banks {points}", "Bank your points or roll again")]
    simpan = re.compile(r"(s|ny)impan", re.IGNORECASE)  # simpan, disimpan, menyimpan
    assert all(simpan.search(text) for text in keeping), keeping
    assert all("berhenti" in text.lower() and not simpan.search(text) for text in banking), banking


def test_spanish_says_computadora_and_puesto_throughout():
    texts = [text for value in messages("es").values() for text in ([value] if isinstance(value, str) else value.values())]
    assert not [text for text in texts if "ordenador" in text or "asiento" in text]
    assert messages("es")["Hand my seat to the computer"] == "Dejar mi puesto a la computadora"


def test_the_terminal_holds_with_simpan_and_banks_with_berhenti_as_the_web_app():
    id_ = messages("id")
    assert id_["Hold"] == "Simpan" and id_["Held: {dice}"] == "Disimpan: {dice}"
    assert "bank (berhenti)" in id_["roll | bank | aside 1 2 (free set-aside: the dice to keep) | hint | quit"]
    assert id_["Bank {points}"] == "Berhenti, catat {points}"


def test_generala_words_its_sheet_with_combinations_crossed_out():
    generala = f"generala{CONTEXT_SEPARATOR}"
    assert messages("es")[generala + "No open box scores: one must be sacrificed"] == (
        "Ninguna combinación abierta puntúa: hay que tachar una"
    )
    assert messages("es")["No open box scores: one must be sacrificed"] == "Ninguna casilla abierta puntúa: hay que sacrificar una"
    assert messages("id")[generala + "Last roll: choose a box"] == "Lemparan terakhir: pilih satu kombinasi"
    assert messages("en")[generala + "Box"] == "Combination"


@pytest.mark.parametrize(
    ("locale", "expected"),
    [
        ("es-ES", ["Jugada de 1: 1 punto", "Jugada de 1: 2 puntos", "Ana vuelve a cero", "Ana y Beto vuelven a cero",
                   "1 victoria en 1 partida con otros", "0 victorias en 3 partidas con otros"]),
        ("id-ID", ["Angka 1: 1 poin", "Angka 1: 2 poin", "Ana kembali ke nol", "Ana dan Beto kembali ke nol",
                   "1 kemenangan dalam 1 permainan dengan pemain lain", "0 kemenangan dalam 3 permainan dengan pemain lain"]),
        ("en-US", ["Ones: 1 point", "Ones: 2 points", "Ana is knocked back to zero", "Ana and Beto are knocked back to zero",
                   "1 win in 1 game with others", "0 wins in 3 games with others"]),
    ],
)
def test_the_page_picks_the_plural_form_and_lists_names_in_its_language(server, new_page, locale, expected):
    page = new_page(locale=locale)
    page.goto(f"{server.url}/")
    shown = page.evaluate(
        """async () => {
          const { boxName, listText, t, tn } = await import("/static/js/i18n.js");
          const box = (points) => tn("{box}: {points} point", "{box}: {points} points", points, { box: boxName("generala", "ones"), points });
          const knocked = (names) =>
            tn("{names} is knocked back to zero", "{names} are knocked back to zero", names.length, { names: listText(names) });
          // the record's headline (player.js): wins and games each take their own plural form
          const record = (wins, games) =>
            t("{wins} in {games} with others", { wins: tn("{n} win", "{n} wins", wins), games: tn("{n} game", "{n} games", games) });
          return [box(1), box(2), knocked(["Ana"]), knocked(["Ana", "Beto"]), record(1, 1), record(0, 3)];
        }"""
    )
    assert shown == expected
