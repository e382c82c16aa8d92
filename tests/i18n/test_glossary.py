"""Every text players read in es, id and en (the Babel catalogs, which the web app, the terminal app and
the command line share, and the rules pages) uses the glossary's words: glossary.toml beside this
file lists, per language, the forbidden terms of each concept, the word to use instead and, where the
English names the concept, the word the translation must use. A message without a game in its
context is shown in Generala too, so it uses Generala's words or has its Generala twin; the rules
pages of es and id have the blocks of the English page."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from cubilete.engine.games import GAMES
from cubilete.translations import CONTEXT_SEPARATOR, messages
from cubilete.web.pages import rules_html

GLOSSARY = tomllib.loads((Path(__file__).with_name("glossary.toml")).read_text(encoding="utf-8"))
LANGUAGES = ("es", "id", "en")
PLACEHOLDER = re.compile(r"\{\w+\}")


@dataclass(frozen=True)
class Text:
    where: str
    game: str | None  # the game whose own text it is, or None for a text every game shows
    text: str
    english: str | None = None  # the same message in English (catalog messages only)
    counted: bool = False  # one form of a plural message (ngettext), which agrees with its count


@dataclass(frozen=True)
class Term:
    concept: str
    preferred: str
    pattern: re.Pattern[str] | None  # any forbidden word, phrase or pattern, as a whole word (not a {placeholder})
    allowed: frozenset[str]  # whole words a pattern matches that are not the term
    only: str | None  # a game whose own texts alone the term concerns
    english: re.Pattern[str] | None  # where the English says this...
    required: re.Pattern[str] | None  # ...the translation says this
    singular_only: bool  # forbidden only outside plural messages (a count that may be one)

    def concerns(self, text: Text) -> bool:
        return self.only in (None, text.game) and not (self.singular_only and text.counted)

    def uses(self, text: str) -> list[str]:
        if self.pattern is None:
            return []
        return [found.group(0) for found in self.pattern.finditer(text) if found.group(0).lower() not in self.allowed]

    def misses(self, text: Text) -> bool:
        """The English names the concept and the translation does not use the preferred word."""
        if self.english is None or self.required is None or text.english is None:
            return False
        return bool(self.english.search(PLACEHOLDER.sub("", text.english))) and not self.required.search(text.text)


def term(entry: dict) -> Term:
    either = "|".join([re.escape(word) for word in entry["forbidden"]] + entry.get("patterns", []))
    english, required = entry.get("english"), entry.get("required")
    return Term(
        concept=entry["concept"],
        preferred=entry["preferred"],
        pattern=re.compile(rf"(?<![\w{{])(?:{either})(?![\w}}])", re.IGNORECASE) if either else None,
        allowed=frozenset(word.lower() for word in entry.get("except", [])),
        only=entry.get("only"),
        english=re.compile(english, re.IGNORECASE) if english else None,
        required=re.compile(required, re.IGNORECASE) if required else None,
        singular_only=entry.get("singular_only", False),
    )


def terms(lang: str) -> list[Term]:
    return [term(entry) for entry in GLOSSARY[lang]]


def split(key: str) -> tuple[str, str | None, str]:
    """(context, game or None, message id) of a catalog key; the game is the context's last part."""
    context, _, message_id = key.rpartition(CONTEXT_SEPARATOR)
    game = context.rpartition(":")[2]
    return context, game if game in GAMES else None, message_id


def texts(lang: str) -> Iterator[Text]:
    """Every catalog message and every rules page in the language."""
    english = messages("en")
    for key, value in messages(lang).items():
        context, game, message_id = split(key)
        where = f"catalog {context + ' ' if context else ''}{message_id!r}"
        if isinstance(value, str):
            yield Text(where, game, value, english.get(key) if isinstance(english.get(key), str) else None)
            continue
        english_forms = english.get(key, {})
        for category, form in value.items():
            yield Text(where, game, form, english_forms.get(category, english_forms.get("other")), counted=True)
    for page in files("cubilete.rules_texts").iterdir():
        if page.name.endswith(f".{lang}.md"):
            yield Text(f"rules page {page.name}", page.name.split(".")[0], page.read_text(encoding="utf-8"))


def forbidden_uses(lang: str, found: Iterator[Text]) -> list[str]:
    uses = []
    for text in found:
        for entry in terms(lang):
            if not entry.concerns(text):
                continue
            for word in entry.uses(text.text):
                uses.append(f"{text.where}: «{word}» ({entry.concept}: say «{entry.preferred}»)")
            if entry.misses(text):
                uses.append(f"{text.where}: «{text.text}» ({entry.concept}: say «{entry.preferred}»)")
    return uses


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_catalog_and_rules_page_uses_the_glossarys_words(lang):
    assert forbidden_uses(lang, texts(lang)) == []


def generala_twin(key: str) -> str:
    """The key of the same message worded for Generala: its context followed by ":generala"."""
    context, _, message_id = key.rpartition(CONTEXT_SEPARATOR)
    return f"{context + ':' if context else ''}generala{CONTEXT_SEPARATOR}{message_id}"


def shown_in_generala_in_other_words(lang: str) -> list[str]:
    """Messages of no game (shown in Generala too) that use a word Generala forbids, without a Generala twin."""
    generala_terms = [entry for entry in terms(lang) if entry.only == "generala"]
    table = messages(lang)
    found = []
    for key, value in table.items():
        if split(key)[1] is not None or generala_twin(key) in table:
            continue
        for text in [value] if isinstance(value, str) else value.values():
            found += [f"{key!r}: «{word}»" for entry in generala_terms for word in entry.uses(text)]
    return found


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_message_every_game_shows_uses_generalas_words_or_has_its_generala_twin(lang):
    assert shown_in_generala_in_other_words(lang) == []


def blocks(html: str) -> list[str]:
    """The block elements of a rendered page, in order (paragraphs, list items, headings, table cells)."""
    return re.findall(r"<(p|li|h\d|ul|ol|table|tr|th|td|blockquote|pre)>", html)


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("lang", ["es", "id"])
def test_each_rules_page_renders_the_blocks_of_the_english_page(game, lang):
    """As the app renders them: a paragraph without its blank line would join the list item above it."""
    assert blocks(rules_html(game, lang)) == blocks(rules_html(game, "en"))


def check(lang: str, game: str | None, text: str, english: str | None = None, counted: bool = False) -> list[str]:
    return forbidden_uses(lang, iter([Text("test", game, text, english, counted)]))


def test_the_glossary_matches_whole_words_ignoring_case_and_game_scoped_terms_only_in_their_game():
    assert check("es", None, "Queda 1 tirada") and check("es", None, "Intro para anotar")
    assert check("es", None, "dados estirados, introducción") == []
    assert check("es", None, "Elige una casilla") == [] and check("es", "generala", "Elige una casilla")
    assert check("id", None, "Kursimu") and check("id", None, "Ambil kursiku") and check("id", None, "Sisa 3 dtk")
    assert check("id", None, "aturan ini tidak berlaku, Full bernilai 25, dua kali lipat") == []
    assert check("id", None, "Dadu {n}: {value}, bernilai")


def test_the_glossary_asks_for_the_preferred_word_where_the_english_names_the_concept():
    assert check("es", None, "Primer puesto compartido: {names}", "Shared first place: {names}")
    assert check("es", None, "Primer lugar compartido: {names}", "Shared first place: {names}") == []
    assert check("es", None, "Salir en este dispositivo", "Sign out on this device")
    assert check("es", None, "Salir", "Leave") and check("es", None, "Abandonar", "Leave") == []
    assert check("es", "generala", "todas las combinaciones de esta hoja", "every combination of this sheet")
    assert check("es", "penta", "todas las casillas de esta hoja", "every box of this sheet") == []


def test_the_glossary_keeps_the_register_and_counts():
    assert check("es", None, "Le quedan {time} a {name}") and check("es", None, "Tu turno · quedan {time}")
    assert check("es", None, "quedan {n}", counted=True) == []
    assert check("es", None, "{game}: ganó {winners}.") and check("es", None, "ganó {winners}", counted=True) == []
    assert check("es", None, "Si usted quiere") and check("es", None, "Vos tenés dos lanzamientos")
    assert check("es", None, "Elija una casilla") and check("es", None, "Elige una casilla") == []
    assert check("es", None, "{name} pasaría de {target}") and check("es", None, "{name} se pasaría de {target}") == []
    assert check("id", None, "Masuk dengan passkey") and check("id", None, "Sedang berpikir…") == []
    assert check("en", None, "Validate turn") and check("en", "generala", "Thirteen boxes")


def test_a_message_every_game_shows_in_penta_words_is_caught_without_its_generala_twin():
    box = "After the last roll, score for me in the computer's box"
    assert generala_twin(box) == f"generala{CONTEXT_SEPARATOR}{box}"
    assert generala_twin(f"refusal{CONTEXT_SEPARATOR}box_used") == f"refusal:generala{CONTEXT_SEPARATOR}box_used"


def test_the_rules_pages_blocks_are_those_markdown_it_renders():
    joined = "- un comodín\nSi la casilla Penta se sacrificó"
    apart = "- un comodín\n\nSi la casilla Penta se sacrificó"
    markdown = MarkdownIt("commonmark", {"html": False})
    assert blocks(markdown.render(joined)) == ["ul", "li"] and blocks(markdown.render(apart)) == ["ul", "li", "p"]


def test_every_glossary_entry_names_its_concept_word_place_and_seed():
    for lang in LANGUAGES:
        for entry in GLOSSARY[lang]:
            assert {"concept", "preferred", "forbidden", "where", "seed"} <= set(entry), entry
            assert entry.get("only") in (None, "penta", "generala", "5000"), entry
            assert ("english" in entry) == ("required" in entry), entry
