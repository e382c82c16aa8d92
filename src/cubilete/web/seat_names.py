"""A seat's name as its reader sees it: a default name of the new-game form ("Jugador 2", "Pemain 2",
"Bot 3") reads in the reader's language, whatever language its creator's form wrote it in; any other
name as it was written."""

from __future__ import annotations

import re
from functools import cache

from .i18n import LANGUAGES, messages

DEFAULT_NAMES = ("Player {n}", "Bot {n}")  # the form's (static/js/home.js)


def _written(message_id: str, lang: str) -> str:
    return str(messages(lang).get(message_id, message_id))


@cache
def _default_patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    """Each default name in each language, as a pattern of its seat number, with its message id."""
    patterns = {}
    for message_id in DEFAULT_NAMES:
        for lang in LANGUAGES:
            before, _, after = _written(message_id, lang).partition("{n}")
            patterns[f"{re.escape(before)}([1-9])" + re.escape(after)] = message_id
    return tuple((re.compile(pattern), message_id) for pattern, message_id in patterns.items())


def shown_name(name: str, lang: str) -> str:
    """`name` as a reader of `lang` reads it: a form's default name in `lang`, any other unchanged."""
    for pattern, message_id in _default_patterns():
        if match := pattern.fullmatch(name):
            return _written(message_id, lang).replace("{n}", match[1])
    return name
