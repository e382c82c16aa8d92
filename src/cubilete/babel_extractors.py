"""Babel extraction methods for what Babel's own extractors cannot read (see babel.cfg).

This module imports nothing of the web app (only the engine and players, for the names).

`extract_html`: the data-i18n and data-i18n-label attributes of the static pages.
`extract_refusals`: every refusal code of engine/refusals.py, as the message id of the
context "refusal", with its English template as the translators' comment.
`extract_game_words`: the messages and refusals a game words its own way (engine/game_words.py), under
its context and "refusal:CONTEXT".
`extract_names`: the ids the client shows by name (contexts "game", "rules:penta", "box:penta", "level",
"switch:5000"), and the one-line descriptions of each rule set, choice of a switch and bot level (contexts
"rules-help:penta", "level-help:penta"); a switch's choices are named as rule sets are.
`extract_reactions`: the keys of the REACTIONS dict of web/reactions.py, as the message ids of the context
"reaction", with their English texts as the translators' comments.
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Iterator, Mapping
from html.parser import HTMLParser
from typing import IO, Any

Extracted = tuple[int, str | None, Any, list[str]]
I18N_ATTRIBUTES = ("data-i18n", "data-i18n-label")
REFUSAL_CONTEXT = "refusal"  # as translations.py reads the catalogs
REACTION_CONTEXT = "reaction"  # as web/reactions.py says


class _AttributeMessages(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[Extracted] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in I18N_ATTRIBUTES and value:
                self.found.append((self.getpos()[0], None, value, []))


def extract_html(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    parser = _AttributeMessages()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    yield from parser.found


def extract_refusals(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """The keys of the REFUSALS dict literal, read from the source (nothing is imported)."""
    for node in ast.walk(ast.parse(fileobj.read())):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "REFUSALS":
            if isinstance(node.value, ast.Dict):
                yield from _templates(node.value, REFUSAL_CONTEXT)


def extract_game_words(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """Each game's own wordings (engine/game_words.py): the messages under its context, its refusals under
    "refusal:CONTEXT" with their English templates as the translators' comments."""
    from cubilete.engine.game_words import GAME_WORDS

    for game, words in GAME_WORDS.items():
        for message in sorted(words.messages):
            yield 1, "pgettext", (words.context, message), [f"As {game} words it"]
        for code, text in words.refusals.items():
            yield 1, "pgettext", (f"{REFUSAL_CONTEXT}:{words.context}", code), [f"English: {text}"]


def extract_reactions(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """The keys of the REACTIONS dict literal, read from the source (nothing of the web app is imported)."""
    for node in ast.walk(ast.parse(fileobj.read())):
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.target.id == "REACTIONS":
            if isinstance(node.value, ast.Dict):
                yield from _templates(node.value, REACTION_CONTEXT)


def _templates(templates: ast.Dict, context: str) -> Iterator[Extracted]:
    """Each key of a dict literal of English texts (refusal templates, reactions), with its text as the comment."""
    for key, value in zip(templates.keys, templates.values):
        if isinstance(key, ast.Constant) and isinstance(value, ast.Constant) and isinstance(value.value, str):
            yield key.lineno, "pgettext", (context, key.value), [f"English: {value.value}"]


def extract_names(
    fileobj: IO[bytes], keywords: Collection[str], comment_tags: Collection[str], options: Mapping[str, Any]
) -> Iterator[Extracted]:
    """The names the client shows by id: games, rule sets, bot levels and boxes (engine/games.py)."""
    from cubilete.engine.games import GAMES
    from cubilete.players import player_levels

    for info in GAMES.values():
        yield 1, "pgettext", ("game", info.id), []
        for name, rules in info.variants.items():
            yield 1, "pgettext", (f"rules:{info.id}", name), []
            yield 1, "pgettext", (f"rules-help:{info.id}", name), ["One line on what the rule set does"]
            for box in getattr(rules, "boxes", ()):
                yield 1, "pgettext", (f"box:{info.id}", box.id), []
        for switch in info.switches:
            yield (
                1,
                "pgettext",
                (f"switch:{info.id}", switch.id),
                ["The name of a rule players set on the new-game form"],
            )
            for word in switch.words:  # the named rule sets that are one switch's choice are named above already
                if word not in info.variants:
                    yield 1, "pgettext", (f"rules:{info.id}", word), []
                    yield (
                        1,
                        "pgettext",
                        (f"rules-help:{info.id}", word),
                        ["One line on what this choice of the rule does"],
                    )
        for level in player_levels(info.id):
            yield 1, "pgettext", ("level", level), []
            yield 1, "pgettext", (f"level-help:{info.id}", level), ["One line on how the bot plays"]
