"""The Textual app of `cubilete play` (app.py) and each game family's table in it, keyed by the
engine's family id: the family's widgets (the board and its controls), its keys, and what its
actions do with the dice, boxes and buttons.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from ...engine.games import family_of
from ..families import HintOption

if TYPE_CHECKING:
    from textual.widget import Widget

    from ..play_session import PlaySession
    from .app import PlayApp

TABLE_MODULES = {"sheet": "sheet", "five_thousand": "five_thousand"}


class Key(NamedTuple):
    """A key of a family's table: it runs the table's `do_ACTION()`, or `do_ACTION(argument)`;
    without a description the footer leaves it out."""

    key: str
    action: str
    argument: int | None = None
    description: str = ""
    display: str | None = None  # how the footer writes the key


class Table(Protocol):
    """A family's table in the app. Its actions are methods `do_NAME`, run for a key, a button or a
    click only while a human is to move (PlayApp.action_table); they raise CubileteError to refuse
    (the app says why)."""

    board: Widget  # the sheet or the scores, on the left
    controls: Widget  # the dice and the buttons, on the right

    def keys(self) -> list[Key]: ...

    def show(self) -> None:
        """Draw the session's state."""

    def ready(self) -> None:
        """A human is to move: say what they can do (and start what waits for them)."""

    def idle(self) -> None:
        """The state is about to change: stop what waits for the human."""

    def take_over(self, old: Any) -> None:
        """Keep the player's picks (held dice, a chosen box) of the table this one replaces."""

    def take_hint(self, option: HintOption) -> None:
        """Pick the hint's dice or box for the player to confirm."""

    def cancel(self) -> bool:
        """Escape: undo the player's pick; False when there was none."""


def make_table(session: PlaySession, app: PlayApp) -> Table:
    module = importlib.import_module(f"{__name__}.{TABLE_MODULES[family_of(session.rules.game).id]}")
    table: Table = module.FamilyTable(session, app)
    return table
