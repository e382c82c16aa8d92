"""Each game family's part of the web app (a WebFamily), which WEB_FAMILIES names by the engine's
family id.

A family gives the client its table (`table(state, legal_actions, lang)`, drawn by the
JavaScript table class of the same family id in static/js/game.js), hints on the dice on
the table, every option of a past position ranked for the review (`rank(state, chosen)`),
and where a seat's turn begins (to number the turns of a review).
"""

from __future__ import annotations

from typing import Any, Protocol

from ..engine.actions import Action
from ..engine.games import FIVE_THOUSAND, SHEET, family_of
from . import five_thousand_view, sheet_view


class WebFamily(Protocol):
    """What a family's view module defines."""

    def table(self, state: Any, legal: tuple[Action, ...], lang: str) -> dict[str, Any]:
        """The table the client draws: the state and what can be done in it."""

    def hint(self, state: Any) -> dict[str, Any]:
        """The best options for the dice on the table, best first."""

    def rank(self, state: Any, chosen: Action | None = None) -> list[dict[str, Any]]:
        """Every option of the seat to move, best first, with its value and its loss beside the best."""

    def turn_start(self, state: Any) -> bool:
        """Whether a seat's turn begins here."""


WEB_FAMILIES: dict[str, WebFamily] = {SHEET.id: sheet_view, FIVE_THOUSAND.id: five_thousand_view}


def web_family(game: str) -> WebFamily:
    return WEB_FAMILIES[family_of(game).id]
