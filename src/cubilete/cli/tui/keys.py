"""The keys of a family's table in the app."""

from __future__ import annotations

from typing import NamedTuple


class Key(NamedTuple):
    """A key of a family's table: it runs the table's `do_ACTION()`, or `do_ACTION(argument)`;
    without a description the footer leaves it out."""

    key: str
    action: str
    argument: int | None = None
    description: str = ""
    display: str | None = None  # how the footer writes the key
