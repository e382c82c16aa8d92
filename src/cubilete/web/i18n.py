"""The app's languages: the language a request wants. The catalogs' messages, names and
refusals in the player's language come from cubilete.translations, which the command line
shares (its docstring says how the catalogs are keyed, extracted and updated).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..translations import (
    CONTEXT_SEPARATOR,
    DEFAULT_LANGUAGE,
    LANGUAGES,
    REFUSAL_CONTEXT,
    messages,
    plural_categories,
    refusal_message,
)

__all__ = [
    "CONTEXT_SEPARATOR",
    "LANGUAGES",
    "REFUSAL_CONTEXT",
    "messages",
    "negotiate",
    "plural_categories",
    "refusal_message",
]


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
