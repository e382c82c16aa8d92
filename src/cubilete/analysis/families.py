"""Each game family's analysis (a FamilyAnalysis), which ANALYSIS_FAMILIES names by the engine's
family id (`engine.games.GameFamily.id`): the walk that reviews its games and its outlook."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from ..engine.games import FIVE_THOUSAND, SHEET, family_of
from . import five_thousand, sheet
from .findings import Outlook
from .walk import Walk


class FamilyAnalysis(Protocol):
    """What a family's analysis module defines."""

    loss_unit: str  # its review's values and losses: "points" or "win_probability" (walk.CLASS_LIMITS' keys)

    def walk(self, initial: Any, reviewed: Sequence[int]) -> Walk[Any]:
        """The review's walk of a game from its initial state, for these seats (loads the tables)."""

    def outlook(self, state: Any) -> Outlook:
        """Every seat's value in this state (loads or solves the rule set's tables)."""

    def outlook_level(self, num_players: int) -> str:
        """The player level whose tables the outlook of a game of this many seats needs."""


ANALYSIS_FAMILIES: dict[str, FamilyAnalysis] = {SHEET.id: sheet, FIVE_THOUSAND.id: five_thousand}


def family_analysis(game: str) -> FamilyAnalysis:
    return ANALYSIS_FAMILIES[family_of(game).id]
