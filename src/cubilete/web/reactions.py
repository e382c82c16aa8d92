"""Reactions, not chat: a player shows the table one of a few preset reactions (👍, "Well played!"), each
in every reader's own language; there is no free text, so nothing to moderate, and nothing is stored.

A seat holder sends a reaction's key with its seat's token (web/seat_routes.py); the broker tells every
page of the game, in every process (`Reacted`), and each page's live socket passes it on without drawing
the game again (web/live.py). Besides the per-client budget (rate_limits.py), a seat reacts at most once per
SEAT_PAUSE_SECONDS, counted in this process's memory (a client's budget is per process too).
The texts are in the catalogs under the context "reaction", keyed by the reaction's key; the English
texts here are the translators' reference (babel_extractors.py reads them).
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItemPerSecond
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from ..engine.errors import CubileteError
from .broker import Broker, Reacted

REACTIONS: dict[str, str] = {  # the key, and its English text
    "thumbs_up": "👍",
    "well_played": "Well played!",
    "good_luck": "Good luck!",
    "wow": "Wow!",
    "oops": "Oops!",
    "thanks": "Thanks!",
}
SEAT_PAUSE_SECONDS = 2


class UnknownReaction(CubileteError):
    """The key is none of REACTIONS."""


class ReactionTooSoon(CubileteError):
    """The seat reacted less than SEAT_PAUSE_SECONDS ago."""


class Reactions:
    """The reactions of this process's seats: each seat's pause between two, then the news to every page."""

    def __init__(self, broker: Broker) -> None:
        self._broker = broker
        self._pause = RateLimitItemPerSecond(1, SEAT_PAUSE_SECONDS)
        self._limiter = FixedWindowRateLimiter(MemoryStorage())  # forgets a seat once its pause is over

    def react(self, game_id: str, seat: int, key: str) -> None:
        """Tell every page of the game that the seat (its token checked) shows the reaction `key`."""
        if key not in REACTIONS:
            raise UnknownReaction("unknown_reaction", reaction=key, reactions=list(REACTIONS))
        if not self._limiter.hit(self._pause, game_id, str(seat)):
            reset = self._limiter.get_window_stats(self._pause, game_id, str(seat)).reset_time
            raise ReactionTooSoon("reaction_too_soon", seconds=max(1, math.ceil(reset - time.time())))
        self._broker.publish(game_id, Reacted(seat, key))
