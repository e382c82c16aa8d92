"""What a player's record needs of each game (GameHead: its seats checked), and each finished game's
result per seat, as storage/seat_summaries.py keeps them.

A finished game never changes, so its seats' summaries (score, place, and the review's decisions
and total loss) are computed once and kept: a record then reads two queries, however many games
it covers. A summary made by an older way of reviewing (`version` below SUMMARY_VERSION) is made
again. The summaries are a cache: a failed write is logged and the record answers all the same.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from datetime import datetime

from ..storage import Storage
from ..storage.seat_summaries import SeatSummary
from .seats import Seat

log = logging.getLogger(__name__)

# Raise it when the review's losses change meaning: the stored summaries are then made again.
SUMMARY_VERSION = 1

__all__ = ["SUMMARY_VERSION", "GameHead", "SeatSummary", "SummaryStore"]


@dataclass(frozen=True)
class GameHead:
    """What a record needs of a game's row: its seats (to check tokens and names), and what it was."""

    id: str
    game: str
    rules: str
    seats: tuple[Seat, ...]
    finished: bool
    updated: datetime  # a finished game's last change: when it ended


class SummaryStore:
    """The records' side of the stored summaries: game rows read as GameHeads, summaries of SUMMARY_VERSION."""

    def __init__(self, storage: Storage) -> None:
        self.stored = storage.summaries

    def heads(self, game_ids: Collection[str]) -> dict[str, GameHead]:
        """The games of these ids that exist (a row that cannot be read is logged and left out)."""
        heads = {}
        for row in self.stored.game_rows(game_ids):
            try:
                seats = tuple(Seat.from_json(seat) for seat in row.seats)
                heads[row.id] = GameHead(row.id, row.game, str(row.rules["name"]), seats, row.finished, row.updated)
            except (TypeError, KeyError, ValueError) as error:
                log.warning("game %s cannot be read for a record: %s", row.id, error)
        return heads

    def summaries(self, game_ids: Collection[str]) -> dict[tuple[str, int], SeatSummary]:
        """The current summaries of these games' seats, by (game id, seat)."""
        return self.stored.summaries(game_ids, SUMMARY_VERSION)

    def store(self, summaries: Iterable[SeatSummary]) -> None:
        """Keep these summaries, replacing older ones (two processes may store the same game at once)."""
        self.stored.store(summaries, SUMMARY_VERSION)
