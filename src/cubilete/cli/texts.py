"""What `cubilete play` says, in one language: its messages, the names of games, boxes and
levels, refusals and numbers, all from the Babel catalogs (cubilete.translations).

Strings are marked `texts.t("...")` and `texts.tn("...", "...", n)`, which Babel extracts from
cli/**.py (babel.cfg) like the client's t() and tn().
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from babel.lists import format_list
from babel.numbers import format_decimal, format_percent

from ..engine.errors import CubileteError
from ..engine.game_words import GameWords, game_words
from ..engine.refusals import Refusal
from ..translations import gettext, ngettext, pgettext, refusal_message, rules_name


class Texts:
    def __init__(self, lang: str) -> None:
        self.lang = lang

    def t(self, message: str, **params: Any) -> str:
        return gettext(self.lang, message).format(**params)

    def pgettext(self, context: str, message: str, **params: Any) -> str:
        """A message in a catalog context, such as the same English text worded for one game; the common
        message's translation where the context has none."""
        return pgettext(self.lang, context, message).format(**params)

    def of_game(self, game: str) -> GameTexts:
        """The messages a game words its own way (engine/game_words.py) in its words, the others as they are."""
        return GameTexts(self, game_words(game))

    def tn(self, singular: str, plural: str, n: int, **params: Any) -> str:
        return ngettext(self.lang, singular, plural, n).format(n=n, **params)

    def game(self, game: str) -> str:
        return gettext(self.lang, game, "game")

    def rules(self, game: str, rules: str) -> str:
        return rules_name(self.lang, game, rules)

    def box(self, game: str, box: str) -> str:
        return gettext(self.lang, box, f"box:{game}")

    def level(self, level: str) -> str:
        return gettext(self.lang, level, "level")

    def refusal(self, error: CubileteError | Refusal) -> str:
        return refusal_message(self.lang, error.code, error.params)

    def names(self, names: Sequence[str]) -> str:
        """Names as the language lists them ("Ana, Bo and Cy")."""
        return format_list(list(names), locale=self.lang)

    def decimal(self, value: float) -> str:
        return format_decimal(value, "#,##0.0", locale=self.lang)

    def percent(self, value: float) -> str:
        return format_percent(value, "#,##0.0%", locale=self.lang)


class GameTexts:
    """One game's texts: `t` marks a message as Texts.t does (Babel extracts its common wording; the game's
    own wordings are extracted from engine/game_words.py)."""

    def __init__(self, texts: Texts, words: GameWords) -> None:
        self.texts = texts
        self.words = words

    def t(self, message: str, **params: Any) -> str:
        context = self.words.context
        if context is None or message not in self.words.messages:
            return self.texts.t(message, **params)
        return self.texts.pgettext(context, message, **params)
