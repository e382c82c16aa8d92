"""The live bar's figures: every seat's chance to win (or, alone at Penta or Generala, its expected
final total) at a moment of a game (analysis.outlook), for any reader of a game whose table allows hints.

The figures are the same for every reader, so they are computed once per game and event index
and kept in a small in-memory cache. The handler awaits the solver's tables on the event loop
(web/tables.py), then computes the figures in a worker thread. Nothing here runs on the path of an action: a page asks for
the figures only while its bar is shown.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Query, Response
from starlette.concurrency import run_in_threadpool

from ..analysis.outlook import outlook, outlook_level
from ..engine.errors import IllegalAction
from .games import Games
from .live_game import LiveGame
from .rate_limits import RouteClass, limited

CACHED_OUTLOOKS = 1024  # a few kilobytes each: every step of the games being followed


class OutlookCache:
    """Outlook JSON by (game id, event index), the least recently used leaving first."""

    def __init__(self, capacity: int = CACHED_OUTLOOKS) -> None:
        self.capacity = capacity
        self._outlooks: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def outlook(self, live: LiveGame, at: int | None) -> dict[str, Any]:
        """The outlook after the first `at` events of the game (default: now)."""
        with live.lock:  # the state and its index together, never half a move
            events = len(live.match.events)
            if at is not None and at > events:
                raise IllegalAction("chances_ahead", at=at, events=events)
            at = events if at is None else at
            state = live.history[at]
        key = (live.id, at)
        with self._lock:
            cached = self._outlooks.get(key)
            if cached is not None:
                self._outlooks.move_to_end(key)
                return cached
        result = {"events": at, "is_over": state.is_over, **outlook(state).to_json()}
        with self._lock:
            self._outlooks[key] = result
            while len(self._outlooks) > self.capacity:
                self._outlooks.popitem(last=False)
        return result


def chances_router(games: Games) -> APIRouter:
    router = APIRouter()
    outlooks = OutlookCache()

    @router.get(
        "/api/games/{game_id}/chances",
        summary="Every seat's chance to win or expected final total",
        dependencies=[limited(RouteClass.HINTS)],
    )
    async def chances(
        response: Response,
        game_id: str,
        at: int | None = Query(None, ge=0, description="after this many events; default: now"),
        wait: bool = Query(True, description="false: answer at once, 202 preparing, while the tables are built"),
    ) -> dict[str, Any]:
        """For the live bar: each seat's total now (`score`) and `value`, its chance to win (`unit`
        "win_probability"; with more than two players an estimate, `estimate`): at 5000 the exact
        solver's with two players, else the strong player's; at Penta and Generala the chance to
        finish first of the seat to move playing the duel, a shared first place counting half, and
        each seat's expected final total under solitaire-optimal play beside it (`expected`). Alone
        at Penta or Generala, `value` is that expected final total (`unit` "points").
        The same for every reader; refused (403, hints_off) in a game with friends that did not allow hints.
        The first request for a rule set's tables waits while they are built (a minute or more for a duel):
        with `wait=false` it is answered at once, 202 `{"preparing": true}`, so that the page can say so
        before it asks again."""
        live = await games.find(game_id)
        live.table.check_hints()
        rules = live.match.rules
        levels = (outlook_level(rules.game, len(live.seats)),)
        if not wait and not games.tables.prepared(rules, levels):
            response.status_code = 202
            return {"preparing": True}
        await games.tables.ready(rules, levels)
        return await run_in_threadpool(outlooks.outlook, live, at)

    return router
