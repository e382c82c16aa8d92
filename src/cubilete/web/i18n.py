"""The app's languages: Babel catalogs (.po files read at import), the language a request
wants, and the translation of the engine's English messages.

Message ids are the English texts. Names that depend on the game (boxes, rule sets,
bot levels) use a context such as "box:penta" with the stable id as message id.
The client receives a language's messages as one JSON object whose keys are the
message ids, or "context\\x04id" for messages with a context (gettext's convention).
"""

from __future__ import annotations

import re
from functools import cache
from itertools import count
from importlib.resources import files
from typing import Iterable

from babel.messages.pofile import read_po

LANGUAGES = ("es", "id", "en")
DEFAULT_LANGUAGE = "en"
CONTEXT_SEPARATOR = "\x04"
_NUMBER = re.compile(r"\d+")


@cache
def messages(lang: str) -> dict[str, str]:
    """Every translated message of a language, keyed as the client expects."""
    path = files(__package__).joinpath("locales", lang, "LC_MESSAGES", "messages.po")
    with path.open("rb") as po_file:
        catalog = read_po(po_file, locale=lang)
    table = {}
    for message in catalog:
        if not message.id or not message.string:
            continue
        key = message.id if message.context is None else f"{message.context}{CONTEXT_SEPARATOR}{message.id}"
        table[key] = message.string
    return table


def gettext(lang: str, message: str, context: str | None = None) -> str:
    key = message if context is None else f"{context}{CONTEXT_SEPARATOR}{message}"
    return messages(lang).get(key, message)


def translate_engine_message(lang: str, text: str) -> str:
    """An engine message in this language: numbers become {0}, {1}... to find the template."""
    numbers = _NUMBER.findall(text)
    position = count()
    template = _NUMBER.sub(lambda _number: "{%d}" % next(position), text)
    translated = messages(lang).get(template)
    return text if translated is None else translated.format(*numbers)


def negotiate(candidates: Iterable[str | None], accept_language: str | None) -> str:
    """The first supported language among explicit choices, then the Accept-Language header."""
    for candidate in candidates:
        if candidate in LANGUAGES:
            return candidate
    for tag in _accepted(accept_language or ""):
        primary = tag.split("-")[0].lower()
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def _accepted(header: str) -> list[str]:
    """Language tags of an Accept-Language header, most wanted first."""
    weighted = []
    for position, part in enumerate(header.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        if tag and quality > 0:
            weighted.append((-quality, position, tag))
    return [tag for _, _, tag in sorted(weighted)]
