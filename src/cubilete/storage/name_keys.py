"""How profiles compare names: the key (NFKC, then without case: a full-width or composed name is the
name it looks like) must be unique, and the skeleton (Unicode's confusables, UTS #39, mapping each look-alike
character to its prototype: Cyrillic «е» to Latin «e», «1» to «l», «rn» and «m» alike) must not be another
profile's. The confusables are confusable-homoglyphs' table (pinned in pyproject.toml): a newer table
changes skeletons, so migration 0010 computes them and a pinned version keeps them."""

from __future__ import annotations

import json
import unicodedata
from functools import cache
from importlib.resources import files

LONGEST_KEY = 96  # characters of the key and of the skeleton (their columns, tables.py)


def name_key(name: str) -> str:
    """The name as profiles compare it: NFKC-normalized, stripped, without case."""
    return unicodedata.normalize("NFKC", name).strip().casefold()


def name_skeleton(name: str) -> str:
    """The name with every look-alike character replaced by its prototype, without case: mapped before
    and after the case is dropped («I» looks like «l», though «i» does not)."""
    mapped = _mapped(unicodedata.normalize("NFKC", name).strip())
    return _mapped(mapped.casefold()).casefold()


def _mapped(text: str) -> str:
    prototypes = _prototypes()
    return "".join(prototypes.get(character, character) for character in unicodedata.normalize("NFD", text))


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character's prototype. The table lists, for a character, its prototype alone (a
    look-alike), or every look-alike of it (a prototype); two that list only each other: the smaller."""
    table = json.loads(files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    prototypes = {}
    for character, alikes in table.items():
        if len(character) != 1 or len(alikes) != 1:
            continue
        target = alikes[0]["c"].strip("\u200e")  # the table marks right-to-left characters with LRMs
        if len(table.get(target, [])) > 1 or target < character:
            prototypes[character] = target
    return prototypes
