"""Every seat's outlook at any moment of a game, the same whoever asks: its chance to finish first
(or, alone, its expected final total) as the computer players value them. Each family's module
(sheet.py, five_thousand.py) says how it values its games.
"""

from __future__ import annotations

from typing import Any

from .families import family_analysis
from .findings import Outlook


def outlook(state: Any) -> Outlook:
    """Every seat's value in this state of any game (loads or solves the rule set's tables)."""
    return family_analysis(state.game).outlook(state)


def outlook_level(game: str, num_players: int) -> str:
    """The player level whose tables the outlook of such a game needs (players.prepare)."""
    return family_analysis(game).outlook_level(num_players)
