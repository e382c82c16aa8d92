"""Every text players read in es and id (the Babel catalogs, which the web app, the terminal app and
the command line share, and the rules pages) uses the glossary's words: glossary.toml beside this
file lists, per language, the forbidden terms of each concept and the word to use instead."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import pytest

from cubilete.translations import CONTEXT_SEPARATOR, messages

GLOSSARY = tomllib.loads((Path(__file__).with_name("glossary.toml")).read_text(encoding="utf-8"))
LANGUAGES = ("es", "id")


@dataclass(frozen=True)
class Term:
    concept: str
    preferred: str
    pattern: re.Pattern[str]  # any forbidden word, phrase or pattern, as a whole word
    allowed: frozenset[str]  # whole words a pattern matches that are not the term
    only: str | None  # a game whose own texts alone the term concerns

    def uses(self, text: str) -> list[str]:
        return [found.group(0) for found in self.pattern.finditer(text) if found.group(0).lower() not in self.allowed]


def term(entry: dict) -> Term:
    either = "|".join([re.escape(word) for word in entry["forbidden"]] + entry.get("patterns", []))
    return Term(
        concept=entry["concept"],
        preferred=entry["preferred"],
        pattern=re.compile(rf"(?<!\w)(?:{either})(?!\w)", re.IGNORECASE),
        allowed=frozenset(word.lower() for word in entry.get("except", [])),
        only=entry.get("only"),
    )


def terms(lang: str) -> list[Term]:
    return [term(entry) for entry in GLOSSARY[lang]]


def texts(lang: str) -> Iterator[tuple[str, str | None, str]]:
    """(where, game or None, text) of every catalog message and every rules page in the language."""
    for key, value in messages(lang).items():
        context, _, message_id = key.rpartition(CONTEXT_SEPARATOR)
        game = context.rpartition(":")[2] or None
        for text in [value] if isinstance(value, str) else value.values():
            yield f"catalog {context + ' ' if context else ''}{message_id!r}", game, text
    for page in files("cubilete.rules_texts").iterdir():
        if page.name.endswith(f".{lang}.md"):
            yield f"rules page {page.name}", page.name.split(".")[0], page.read_text(encoding="utf-8")


def forbidden_uses(lang: str, found: Iterator[tuple[str, str | None, str]]) -> list[str]:
    uses = []
    for where, game, text in found:
        for entry in terms(lang):
            if entry.only not in (None, game):
                continue
            for word in entry.uses(text):
                uses.append(f"{where}: «{word}» ({entry.concept}: say «{entry.preferred}»)")
    return uses


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_and_rules_page_uses_the_glossarys_words(lang):
    assert forbidden_uses(lang, texts(lang)) == []


def test_the_glossary_matches_whole_words_ignoring_case_and_game_scoped_terms_only_in_their_game():
    def check(lang: str, game: str | None, text: str) -> list[str]:
        return forbidden_uses(lang, iter([("test", game, text)]))

    assert check("es", None, "Queda 1 tirada") and check("es", None, "Intro para anotar")
    assert check("es", None, "dados estirados, introducción") == []
    assert check("es", None, "Elige una casilla") == [] and check("es", "generala", "Elige una casilla")
    assert check("id", None, "Kursimu") and check("id", None, "Ambil kursiku") and check("id", None, "Sisa 3 dtk")
    assert check("id", None, "aturan ini tidak berlaku, Full bernilai 25, dua kali lipat") == []
    assert check("id", None, "Dadu {n}: {value}, bernilai")


def test_every_glossary_entry_names_its_concept_word_place_and_seed():
    for lang in LANGUAGES:
        for entry in GLOSSARY[lang]:
            assert {"concept", "preferred", "forbidden", "where", "seed"} <= set(entry), entry
            assert entry.get("only") in (None, "penta", "generala", "5000"), entry
