"""The app's languages: the language a request wants. The catalogs' messages, names and
refusals in the player's language come from cubilete.translations, which the command line
shares (its docstring says how the catalogs are keyed, extracted and updated).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from starlette.requests import Request

from ..engine.refusals import english
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
    "refusal_json",
    "refusal_message",
    "request_language",
]


def request_language(request: Request, *preferred: str | None) -> str:
    """The language a request asks for: `?lang=`, then the `lang` cookie, then `preferred`, then Accept-Language."""
    return negotiate(
        (request.query_params.get("lang"), request.cookies.get("lang"), *preferred),
        request.headers.get("accept-language"),
    )


def refusal_json(lang: str, code: str, params: Mapping[str, Any]) -> dict[str, Any]:
    """Every refusal as the API answers it: its code and parameters, the player's text and the English one.
    A refusal often echoes what the request sent, so its texts are built from the parameters made plain."""
    plain = {name: _plain_json(value) for name, value in params.items()}
    return {
        "code": code,
        "params": plain,
        "message": refusal_message(lang, code, plain),
        "detail": english(code, plain),
    }


def _plain_json(value: Any) -> Any:
    """A refusal parameter as JSON: lists stay lists, anything unusual becomes its text, and text is
    Unicode that UTF-8 can carry."""
    if isinstance(value, (list, tuple)):
        return [_plain_json(item) for item in value]
    if isinstance(value, str):
        return _unicode_text(value)
    if value is None or isinstance(value, (int, float, bool)):
        return value
    return _unicode_text(str(value))


def _unicode_text(text: str) -> str:
    """The text with each lone surrogate (which a JSON escape such as "\\ud800" can make, and which no
    UTF-8 encoder accepts) replaced by U+FFFD; surrogate pairs become the character they encode."""
    if text.isascii():
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


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
