"""The Babel catalogs of es, id and en, read for any app: messages, plural forms, names and refusals.

The web app and the command line both speak through these catalogs (.po files read once per
language). They live in web/locales, where `pybabel update -d src/cubilete/web/locales` keeps
them, and are read here as package data (without importing the web app).

Message ids are the English texts. Names that depend on the game (boxes, rule sets,
bot levels) use a context such as "box:penta" with the stable id as message id.
Refusals use the context "refusal" with the refusal's code as message id; the message is
the template of REFUSALS in that language, with the same {placeholders}; a refusal a game words its
own way (engine/game_words.py) uses the context "refusal:" and the game's context.
A language's messages are one dict whose keys are the message ids, or "context\\x04id" for
messages with a context (gettext's convention). A message with plural forms (ngettext) is
keyed by its singular id and maps each CLDR plural category of the language (Babel's plural
rule: "one", "many", "other"...) to its form, in the order of the catalog's Plural-Forms.

Re-extract the strings after changing them (babel.cfg maps the JS, HTML and Python sources to
Babel's extractors), then update the catalogs:

    pybabel extract -F babel.cfg -k t -k tn:1,2 -c English: --no-location --no-wrap -o messages.pot src/cubilete
    pybabel update -i messages.pot -d src/cubilete/web/locales --no-fuzzy-matching --no-location --no-wrap
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from typing import Any

from babel import Locale
from babel.lists import format_list
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from .engine.refusals import game_worded, template
from .engine.rule_switches import SEPARATOR

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
    path = files(__package__).joinpath("web", "locales", lang, "LC_MESSAGES", "messages.po")
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


def pgettext(lang: str, context: str, message: str) -> str:
    """A message worded under a context; without a translation there, the common message's in the same language."""
    key = f"{context}{CONTEXT_SEPARATOR}{message}"
    text = messages(lang).get(key)
    return text if isinstance(text, str) else gettext(lang, message)


def rules_name(lang: str, game: str, rules: str) -> str:
    """A rule set's name; one named by its switches ("entry-750+free-set-aside") names each switch's choice."""
    words = rules.split(SEPARATOR)
    if not all(words):  # a refused name, shown as written
        return rules
    return " + ".join(gettext(lang, word, f"rules:{game}") for word in words)


def ngettext(lang: str, singular: str, plural: str, n: int) -> str:
    """The form of a plural message for the number n, by the language's plural rule."""
    forms = messages(lang).get(singular)
    if isinstance(forms, dict):
        return str(forms.get(Locale.parse(lang).plural_form(n), forms["other"]))
    return singular if n == 1 else plural


def refusal_message(lang: str, code: str, params: Mapping[str, Any]) -> str:
    """A refusal in this language: its code's template, names translated, lists as the language writes them."""
    words = game_worded(code, params)
    text = gettext(lang, code, REFUSAL_CONTEXT if words is None else f"{REFUSAL_CONTEXT}:{words.context}")
    if text == code:  # no translation: the English template
        text = template(code, params)
    shown = {name: _shown(lang, name, value, params) for name, value in params.items()}
    return text.format(**shown)


def _shown(lang: str, name: str, value: Any, params: Mapping[str, Any]) -> str:
    context = NAMED_PARAMETERS.get(name)
    if isinstance(value, (list, tuple)):
        items = [_shown(lang, name, item, params) for item in value]
        return format_list(items, style="standard", locale=lang) if items else ""
    if context == "rules:{game}":
        return rules_name(lang, str(params.get("game", "")), str(value))
    if context is not None:
        return gettext(lang, str(value), context.format(game=params.get("game", "")))
    if isinstance(value, float):  # 2,5 in es and id; whole numbers here are counts, positions and ports
        return format_decimal(value, locale=lang)
    return str(value)
