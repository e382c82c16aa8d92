"""Per-client limits on the requests that cost the server the most: new games (bots' games and rematches
too), QR codes, hints (and the live bar's chances), reviews, reactions (each told to every page of a
game), profiles' sign-ins and push subscriptions. One client creating games in a loop made 367 a second,
and a flood of QR codes took a core; people make a few of each a minute.

The costliest classes (QR codes, hints, reviews, open tables, boards) also have a budget for every client
together: 40 addresses, each within its QR budget, took a core, and another player's moves waited
(47 moves in a minute instead of 360, p99 2,184 ms). Each class has its own budget of requests per minute per client address (clients.py), counted in
this process's memory by the `limits` library's fixed window: one counter per client and class, which
starts at the client's first request and expires a minute later, so memory holds only the clients of
the last minute. A request beyond the budget is refused before its handler runs: 429
`too_many_requests`, with `Retry-After` the seconds left of the client's minute (refusals.py), or of
everyone's minute when the class's budget for all clients is spent. Several server processes count apart, so a
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
OPEN_TABLES_PER_MINUTE = 60  # the open tables' page asks again every 10 s
BOARDS_PER_MINUTE = 60  # a game's boards and a day's board, each a query over every profile's results
# Every client together, in the classes that cost a core: about a quarter of a core at most each (a QR
# code costs about 25 ms; 40 addresses at 60 a minute took a core).
QR_CODES_PER_MINUTE_EVERYONE = 600
HINTS_PER_MINUTE_EVERYONE = 3000
REVIEWS_PER_MINUTE_EVERYONE = 600
OPEN_TABLES_PER_MINUTE_EVERYONE = 1200
BOARDS_PER_MINUTE_EVERYONE = 1200
EVERYONE = "*"  # the key every client's requests are counted under together


class RouteClass(Enum):
    GAMES = "games"  # a new game, with or without bots, or a rematch
    QR_CODES = "qr_codes"
    HINTS = "hints"  # a hint, the live bar's chances
    REVIEWS = "reviews"  # a game's review, a past position ranked
    REACTIONS = "reactions"  # a seat's preset reaction, told to every page of the game
    PROFILES = "profiles"  # a new profile, a sign-in (recovery code or passkey), a passkey's registration
    PUSH = "push"  # a push subscription kept or dropped
    OPEN_TABLES = "open_tables"  # the list of public games with open seats
    BOARDS = "boards"  # a game's boards (ratings, decision accuracy) and a day's board


@dataclass(frozen=True)
class RateLimits:
    """Requests per minute from one client address, per route class, and (`<class>_everyone`) from every
    client together; None: not limited."""

    games: int | None = GAMES_PER_MINUTE
    qr_codes: int | None = QR_CODES_PER_MINUTE
    hints: int | None = HINTS_PER_MINUTE
    reviews: int | None = REVIEWS_PER_MINUTE
    reactions: int | None = REACTIONS_PER_MINUTE
    profiles: int | None = PROFILES_PER_MINUTE
    push: int | None = PUSH_PER_MINUTE
    open_tables: int | None = OPEN_TABLES_PER_MINUTE
    boards: int | None = BOARDS_PER_MINUTE
    qr_codes_everyone: int | None = QR_CODES_PER_MINUTE_EVERYONE
    hints_everyone: int | None = HINTS_PER_MINUTE_EVERYONE
    reviews_everyone: int | None = REVIEWS_PER_MINUTE_EVERYONE
    open_tables_everyone: int | None = OPEN_TABLES_PER_MINUTE_EVERYONE
    boards_everyone: int | None = BOARDS_PER_MINUTE_EVERYONE


NO_RATE_LIMITS = RateLimits(**dict.fromkeys(RateLimits.__dataclass_fields__))


class TooManyRequests(Exception):
    """A client went beyond a route class's budget; it may try again in `seconds`."""

    def __init__(self, seconds: int) -> None:
        super().__init__(f"too many requests: try again in {seconds} s")
        self.seconds = seconds


class RequestRates:
    """The budgets of one app, counted per route class and client."""

    def __init__(self, limits: RateLimits | None = None) -> None:
        chosen = limits or RateLimits()
        self._items: dict[tuple[RouteClass, bool], RateLimitItem] = {}  # by class and whether for everyone
        for route_class in RouteClass:
            for everyone, name in ((False, route_class.value), (True, f"{route_class.value}_everyone")):
                per_minute = getattr(chosen, name, None)
                if per_minute is not None:
                    self._items[route_class, everyone] = RateLimitItemPerMinute(per_minute)
        self._limiter = FixedWindowRateLimiter(MemoryStorage())

    def count(self, route_class: RouteClass, client: str) -> None:
        """Count a request of the class from the client, and with everyone's, or raise TooManyRequests
        (counted in neither) if it went beyond either budget."""
        counters = [
            (item, key)
            for (kind, everyone), item in self._items.items()
            if kind is route_class
            for key in ((EVERYONE,) if everyone else (client,))
        ]
        for item, key in counters:
            if not self._limiter.test(item, route_class.value, key):
                reset = self._limiter.get_window_stats(item, route_class.value, key).reset_time
                raise TooManyRequests(max(1, math.ceil(reset - time.time())))
        for item, key in counters:
            self._limiter.hit(item, route_class.value, key)


def limited(route_class: RouteClass) -> Any:
    """A route's dependency that counts its request against the class's budget (on the event loop,
    before the handler takes a worker thread)."""

    async def within_budget(request: Request) -> None:
        rates: RequestRates = request.app.state.services.rates
        rates.count(route_class, client_key(request.scope))

    return Depends(within_budget)
