"""The language a command speaks: `--lang`, else the user's locale, else English.

Nothing here reads the catalogs (cli/texts.py does), so `rules` starts without Babel.
"""

from __future__ import annotations

import argparse
import locale
import os

from ..rules_texts import LANGUAGES  # the catalogs' languages too (translations.LANGUAGES)


def add_language_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", choices=LANGUAGES, help="language (default: from your locale, else en)")


def default_language() -> str:
    """The user's locale language if cubilete speaks it, else English."""
    for name in (os.environ.get("LC_ALL"), os.environ.get("LANG"), locale.getlocale()[0]):
        if name and name[:2] in LANGUAGES:
            return name[:2]
    return "en"
