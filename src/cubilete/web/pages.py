"""The HTML pages: each page's body from web/static in the shared layout, given its language and start-up data."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

from babel import Locale
from markdown_it import MarkdownIt

from ..rules_texts import rules_page
from .i18n import LANGUAGES, messages

# A page answers HEAD as GET without the body, as uptime monitors and link previews ask.
PAGE_METHODS = ["GET", "HEAD"]
_LANGUAGE_NAMES = [{"code": code, "name": Locale(code).get_display_name(code)} for code in LANGUAGES]
_markdown = MarkdownIt("commonmark", {"html": False}).enable("table")


def _static(name: str) -> str:
    return files(__package__).joinpath("static", f"{name}.html").read_text(encoding="utf-8")


@cache
def _shell(name: str) -> str:
    """The page's <body> inside the head every page shares."""
    return _static("layout").replace("__PAGE__", _static(name).rstrip("\n"))


def render_page(name: str, lang: str, page: dict[str, Any], body: str = "") -> str:
    """A page shell with its language, the language's messages and the page's data for the script."""
    boot = {"lang": lang, "languages": _LANGUAGE_NAMES, "messages": messages(lang), "page": page}
    script_safe = json.dumps(boot, ensure_ascii=False).replace("</", "<\\/")
    return (
        _shell(name)
        .replace("__LANG__", lang)
        .replace("__BODY__", body)
        .replace("__BOOT__", script_safe)
    )


def rules_html(game: str, lang: str) -> str:
    """A game's rules page (the Markdown of cubilete.rules_texts) as HTML."""
    html: str = _markdown.render(rules_page(game, lang))  # Any in markdown-it (a renderer's choice): HTML here
    return html
