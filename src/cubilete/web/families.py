"""Each game family's part of the web app, keyed by the engine's family id.

A family gives the client its table (`table(state, legal_actions, lang)`, drawn by the
JavaScript table class of the same family id in static/js/game.js), hints on the dice on
the table, every option of a past position ranked for the review (`rank(state, chosen)`),
and where a seat's turn begins (to number the turns of a review).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.games import family_of
from . import five_thousand_view, sheet_view


@dataclass(frozen=True)
class WebFamily:
    id: str
    table: Callable[[Any, tuple[Action, ...], str], dict[str, Any]]
    hint: Callable[[Any], dict[str, Any]]
    rank: Callable[[Any, Action | None], list[dict[str, Any]]]
    turn_start: Callable[[Any], bool]


WEB_FAMILIES = {
    family.id: family
    for family in (
        WebFamily("sheet", sheet_view.table, sheet_view.hint, sheet_view.rank, sheet_view.turn_start),
        WebFamily(
            "five_thousand",
            five_thousand_view.table,
            five_thousand_view.hint,
            five_thousand_view.rank,
            five_thousand_view.turn_start,
        ),
    )
}


def web_family(game: str) -> WebFamily:
    return WEB_FAMILIES[family_of(game).id]
