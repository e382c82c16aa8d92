"""Who sits where, as the families' words need it (PlaySession answers it)."""

from __future__ import annotations

from typing import Protocol


class Seating(Protocol):
    """A seat's name as the player reads it now (in the current language: a bot's level, the player at
    this keyboard as "You"), and whether the seat is that player, spoken to in the second person."""

    def name(self, seat: int) -> str: ...

    def is_you(self, seat: int) -> bool: ...
