"""The Textual app of `cubilete play` (app.py) and each game family's table in it (a Table), which
TABLES names by the engine's family id: the family's widgets (the board and its controls), its
keys, and what its actions do with the dice, boxes and buttons.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from ...engine.games import FIVE_THOUSAND, SHEET, family_of
from ..families.hints import HintOption
from . import five_thousand, sheet
from .keys import Key

if TYPE_CHECKING:
    from textual.widget import Widget

    from ..play_session import PlaySession
    from .app import PlayApp


class Table(Protocol):
    """A family's table in the app. Its actions are methods `do_NAME`, run for a key, a button or a
    click only while a human is to move (PlayApp.action_table); they raise CubileteError to refuse
    (the app says why)."""

    @property
    def board(self) -> Widget:
        """The sheet or the scores, on the left."""

    @property
    def controls(self) -> Widget:
        """The dice and the buttons, on the right."""

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


TABLES: dict[str, Callable[[PlaySession, PlayApp], Table]] = {
    SHEET.id: sheet.FamilyTable,
    FIVE_THOUSAND.id: five_thousand.FamilyTable,
}


def make_table(session: PlaySession, app: PlayApp) -> Table:
    return TABLES[family_of(session.rules.game).id](session, app)
