"""The process's figures for its host (`GET /metrics`, Prometheus's text format, by prometheus_client):
requests by route template and status class, games held in memory, moves and events stored, pushes sent
and failed, the solver's table memory, and the process's own memory and CPU.

Off unless the host gives a token (`cubilete serve --metrics-token`, CUBILETE_METRICS_TOKEN): without one
nothing here is built, nothing counts, and /metrics is an unknown path (404). With one, a request must
bring `Authorization: Bearer TOKEN`, compared in constant time; any other is refused (403
metrics_refused) before anything is read, so a stranger can neither read the figures nor make the server
compute them. A scrape costs a fixed set of series whatever the traffic: labels are route templates,
status classes and a push's outcome, never a game, a seat or an address.

Each process counts its own (two processes: scrape both ports), from its start."""

from __future__ import annotations

import hmac
from typing import TYPE_CHECKING

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import Response
from prometheus_client import (
    CONTENT_TYPE_LATEST,
    CollectorRegistry,
    Counter,
    Gauge,
    ProcessCollector,
    disable_created_metrics,
    generate_latest,
)
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .access import HostOnly

if TYPE_CHECKING:
    from .games import Games
    from .live_game import LiveGame
    from .seats import Seat

UNMATCHED = "unmatched"  # the route label of a request no route took (a stranger's guesses stay one series)
PUSH_OUTCOMES = ("gone", "refused", "unanswered", "error")  # a failed push, by what the push service did


class Metrics:
    """One app's counters and gauges, in a registry of its own (several apps in one process count apart),
    served to whoever brings `token`. A watcher of the games (web/watchers.py) for the moves stored;
    `pushed` is the push outbox's tally."""

    def __init__(self, games: Games, token: str) -> None:
        self.games, self._token = games, token
        # (for the process) a `_created` line beside every counter's doubles each scrape; the library leaves it untyped
        disable_created_metrics()  # type: ignore[no-untyped-call]
        self.registry = registry = CollectorRegistry(auto_describe=True)
        self.requests = Counter(
            "cubilete_requests", "HTTP requests answered, by route template and status class",
            ["route", "status"], registry=registry,
        )
        self.moves = Counter(
            "cubilete_moves_stored", "changes of a game's play stored: a player's move, the bots' or the clock's turn",
            registry=registry,
        )
        self.events = Counter("cubilete_events_stored", "events stored: rolls and actions", registry=registry)
        self.pushes_sent = Counter("cubilete_pushes_sent", "pushes a push service accepted", registry=registry)
        self.pushes_failed = Counter(
            "cubilete_pushes_failed", "push attempts that failed, by what the push service did: gone (404, 410),"
            " refused (another 3xx or 4xx), unanswered (429, 5xx, no connection: tried again), error",
            ["outcome"], registry=registry,
        )
        for outcome in PUSH_OUTCOMES:
            self.pushes_failed.labels(outcome)  # every series from the start, at 0
        Gauge("cubilete_games_in_memory", "games held in memory (at most the cache's 500)", registry=registry
              ).set_function(lambda: games.held)
        tables = games.tables
        Gauge("cubilete_table_memory_bytes", "bytes of the solver's tables held or on their way", registry=registry
              ).set_function(lambda: tables.held)
        Gauge("cubilete_table_memory_budget_bytes", "the table budget (serve --table-memory-mb)", registry=registry
              ).set_function(lambda: tables.budget)
        ProcessCollector(registry=registry)  # process_resident_memory_bytes, process_cpu_seconds_total, ...

    def stored(self, live: LiveGame, first: int) -> None:
        """(A watcher, holding the game's lock.) The game's events from `first` on were stored."""
        self.moves.inc()
        self.events.inc(len(live.match.events) - first)

    def seats_stored(self, live: LiveGame, before: tuple[Seat, ...]) -> None:
        """(A watcher.) Seat changes are not counted."""

    def pushed(self, outcome: str) -> None:
        """(From the outbox's workers.) A push was sent (`sent`) or failed (one of PUSH_OUTCOMES)."""
        if outcome == "sent":
            self.pushes_sent.inc()
        else:
            self.pushes_failed.labels(outcome).inc()

    def serve(self, app: FastAPI) -> None:
        """Count the app's requests (add it after the other middlewares: the outermost) and moves, and serve
        /metrics to the token's holder."""
        self.games.watchers.append(self)
        app.add_middleware(RequestCounting, metrics=self)
        app.include_router(metrics_router(self, self._token))

    def answer(self) -> Response:
        return Response(generate_latest(self.registry), media_type=CONTENT_TYPE_LATEST)


class RequestCounting:
    """Counts each HTTP request by its route's template (`/api/games/{game_id}/actions`) and its status
    class (`2xx`), once answered. The outermost middleware, so it sees every refusal too."""

    def __init__(self, app: ASGIApp, metrics: Metrics) -> None:
        self.app, self.metrics = app, metrics

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        status = 0

        async def sending(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
            await send(message)

        try:
            await self.app(scope, receive, sending)
        finally:
            route = scope.get("route")
            template = getattr(route, "path", None) or UNMATCHED
            self.metrics.requests.labels(template, f"{status // 100}xx" if status else "none").inc()


def metrics_router(metrics: Metrics, token: str) -> APIRouter:
    router = APIRouter()
    expected = f"Bearer {token}".encode()

    @router.get("/metrics", include_in_schema=False)
    def figures(request: Request) -> Response:
        given = request.headers.get("authorization", "").encode()
        if not hmac.compare_digest(given, expected):
            raise HostOnly("metrics_refused")
        return metrics.answer()

    return router


