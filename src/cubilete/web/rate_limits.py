"""Per-client limits on the requests that cost the server the most: new games (bots' games and rematches
too), QR codes, hints (and the live bar's chances), reviews, reactions (each told to every page of a
game), profiles' sign-ins and push subscriptions. One client creating games in a loop made 367 a second,
and a flood of QR codes took a core; people make a few of each a minute.

Each route class has its own budget of requests per minute per client address (clients.py), counted in
this process's memory by the `limits` library's fixed window: one counter per client and class, which
starts at the client's first request and expires a minute later, so memory holds only the clients of
the last minute. A request beyond the budget is refused before its handler runs: 429
`too_many_requests`, with `Retry-After` the seconds left of the client's minute (refusals.py). Several server processes count apart, so a
client's budget is per process; moves and reads are not limited here (the connection bounds hold them).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from enum import Enum
from typing import Any

from fastapi import Depends, Request
from limits import RateLimitItem, RateLimitItemPerMinute
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from .clients import client_key

GAMES_PER_MINUTE = 30
QR_CODES_PER_MINUTE = 60
HINTS_PER_MINUTE = 300  # the live bar asks once per step shown, and a bot's turn shows several
REVIEWS_PER_MINUTE = 120
REACTIONS_PER_MINUTE = 20  # a player's reactions to the table (web/reactions.py)
PROFILES_PER_MINUTE = 30  # a profile claimed, a recovery code tried, a passkey's steps
PUSH_PER_MINUTE = 120  # a device opting in posts its subscription once per seat it plays


class RouteClass(Enum):
    GAMES = "games"  # a new game, with or without bots, or a rematch
    QR_CODES = "qr_codes"
    HINTS = "hints"  # a hint, the live bar's chances
    REVIEWS = "reviews"  # a game's review, a past position ranked
    REACTIONS = "reactions"  # a seat's preset reaction, told to every page of the game
    PROFILES = "profiles"  # a new profile, a sign-in (recovery code or passkey), a passkey's registration
    PUSH = "push"  # a push subscription kept or dropped


@dataclass(frozen=True)
class RateLimits:
    """Requests per minute from one client address, per route class; None: not limited."""

    games: int | None = GAMES_PER_MINUTE
    qr_codes: int | None = QR_CODES_PER_MINUTE
    hints: int | None = HINTS_PER_MINUTE
    reviews: int | None = REVIEWS_PER_MINUTE
    reactions: int | None = REACTIONS_PER_MINUTE
    profiles: int | None = PROFILES_PER_MINUTE
    push: int | None = PUSH_PER_MINUTE


NO_RATE_LIMITS = RateLimits(
    games=None, qr_codes=None, hints=None, reviews=None, reactions=None, profiles=None, push=None
)


class TooManyRequests(Exception):
    """A client went beyond a route class's budget; it may try again in `seconds`."""

    def __init__(self, seconds: int) -> None:
        super().__init__(f"too many requests: try again in {seconds} s")
        self.seconds = seconds


class RequestRates:
    """The budgets of one app, counted per route class and client."""

    def __init__(self, limits: RateLimits | None = None) -> None:
        chosen = limits or RateLimits()
        self._items: dict[RouteClass, RateLimitItem] = {}
        for route_class in RouteClass:
            per_minute = getattr(chosen, route_class.value)
            if per_minute is not None:
                self._items[route_class] = RateLimitItemPerMinute(per_minute)
        self._limiter = FixedWindowRateLimiter(MemoryStorage())

    def count(self, route_class: RouteClass, client: str) -> None:
        """Count a request of the class from the client, or raise TooManyRequests (not counted) if it
        went beyond the budget."""
        item = self._items.get(route_class)
        if item is None or self._limiter.hit(item, route_class.value, client):
            return
        reset = self._limiter.get_window_stats(item, route_class.value, client).reset_time
        raise TooManyRequests(max(1, math.ceil(reset - time.time())))


def limited(route_class: RouteClass) -> Any:
    """A route's dependency that counts its request against the class's budget (on the event loop,
    before the handler takes a worker thread)."""

    async def within_budget(request: Request) -> None:
        rates: RequestRates = request.app.state.services.rates
        rates.count(route_class, client_key(request.scope))

    return Depends(within_budget)
