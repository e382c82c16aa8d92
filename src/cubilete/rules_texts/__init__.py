"""The rules pages players read, one Markdown file per game and language."""

from __future__ import annotations

from importlib.resources import files

from ..engine.errors import CubileteError, UnknownGame
from ..engine.games import GAMES, game_info

LANGUAGES = ("es", "id", "en")


class UnknownLanguage(CubileteError):
    """A language cubilete has no text for."""


def games_with_pages() -> tuple[str, ...]:
    """The games whose rules pages are written (every game has one)."""
    return tuple(game for game in GAMES if files(__package__).joinpath(f"{game}.en.md").is_file())


def rules_page(game: str, lang: str) -> str:
    """The rules page of a game in es, id or en."""
    game_info(game)  # an unknown game raises UnknownGame
    if game not in games_with_pages():
        raise UnknownGame("unknown_game", game=game, games=list(games_with_pages()))
    if lang not in LANGUAGES:
        raise UnknownLanguage("unknown_language", lang=lang, languages=list(LANGUAGES))
    return files(__package__).joinpath(f"{game}.{lang}.md").read_text(encoding="utf-8")
