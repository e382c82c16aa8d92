"""The app's languages: Babel catalogs (.po files read at import), the language a request
wants, and refusals (engine/refusals.py codes) in the player's language.

Message ids are the English texts. Names that depend on the game (boxes, rule sets,
bot levels) use a context such as "box:penta" with the stable id as message id.
Refusals use the context "refusal" with the refusal's code as message id; the message is
the template of REFUSALS in that language, with the same {placeholders}.
The client receives a language's messages as one JSON object whose keys are the
message ids, or "context\\x04id" for messages with a context (gettext's convention).
A message with plural forms (ngettext) is keyed by its singular id and maps each CLDR plural
category of the language (Babel's plural rule: "one", "many", "other"...) to its form, in the
order of the catalog's Plural-Forms; the client picks the category with Intl.PluralRules.

Re-extract the client's strings after changing them (babel.cfg maps the JS, HTML and
Python sources to Babel's extractors), then update the catalogs:

    pybabel extract -F babel.cfg -k t -k tn:1,2 -c English: -o messages.pot src/cubilete
    pybabel update -i messages.pot -d src/cubilete/web/locales --no-fuzzy-matching
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import cache
from importlib.resources import files
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.pofile import read_po

from ..engine.refusals import REFUSALS

LANGUAGES = ("es", "id", "en")
DEFAULT_LANGUAGE = "en"
CONTEXT_SEPARATOR = "\x04"
REFUSAL_CONTEXT = "refusal"
PLURAL_CATEGORIES = ("zero", "one", "two", "few", "many", "other")  # CLDR order = gettext order
# Refusal parameters whose values are ids with a translated name, and the context of that name.
NAMED_PARAMETERS = {
    "game": "game",
    "games": "game",
    "box": "box:{game}",
    "boxes": "box:{game}",
    "rules": "rules:{game}",
    "rule_sets": "rules:{game}",
    "level": "level",
    "levels": "level",
}


def plural_categories(lang: str) -> tuple[str, ...]:
    """The language's plural categories in the order of its catalog's plural forms."""
    used = Locale.parse(lang).plural_form.tags | {"other"}
    return tuple(category for category in PLURAL_CATEGORIES if category in used)


@cache
def messages(lang: str) -> dict[str, Any]:
    """Every translated message of a language, keyed as the client expects."""
    path = files(__package__).joinpath("locales", lang, "LC_MESSAGES", "messages.po")
    with path.open("rb") as po_file:
        catalog = read_po(po_file, locale=lang)
    table: dict[str, Any] = {}
    for message in catalog:
        if not message.id or not message.string:
            continue
        singular = str(message.id[0] if message.pluralizable else message.id)
        key = singular if message.context is None else f"{message.context}{CONTEXT_SEPARATOR}{singular}"
        if message.pluralizable:
            table[key] = dict(zip(plural_categories(lang), message.string))
        else:
            table[key] = message.string
    return table


def gettext(lang: str, message: str, context: str | None = None) -> str:
    key = message if context is None else f"{context}{CONTEXT_SEPARATOR}{message}"
    text = messages(lang).get(key, message)
    return text if isinstance(text, str) else message


def refusal_message(lang: str, code: str, params: Mapping[str, Any]) -> str:
    """A refusal in this language: its code's template, names translated, lists as the language writes them."""
    template = gettext(lang, code, REFUSAL_CONTEXT)
    if template == code:  # no translation: the English template
        template = REFUSALS[code]
    shown = {name: _shown(lang, name, value, params) for name, value in params.items()}
    return template.format(**shown)


def _shown(lang: str, name: str, value: Any, params: Mapping[str, Any]) -> str:
    context = NAMED_PARAMETERS.get(name)
    if isinstance(value, (list, tuple)):
        items = [_shown(lang, name, item, params) for item in value]
        return format_list(items, style="standard", locale=lang) if items else ""
    if context is not None:
        return gettext(lang, str(value), context.format(game=params.get("game", "")))
    return str(value)


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
