"""The rules pages players read, one Markdown file per game and language."""

from __future__ import annotations

from importlib.resources import files

from ..engine.errors import CubileteError
from ..engine.games import game_info

LANGUAGES = ("es", "id", "en")


class UnknownLanguage(CubileteError):
    """A language cubilete has no text for."""


def rules_page(game: str, lang: str) -> str:
    """The rules page of a game in es, id or en."""
    game_info(game)  # an unknown game raises UnknownGame; every game has its pages (tests/i18n/test_glossary.py)
    if lang not in LANGUAGES:
        raise UnknownLanguage("unknown_language", lang=lang, languages=list(LANGUAGES))
    return files(__package__).joinpath(f"{game}.{lang}.md").read_text(encoding="utf-8")
