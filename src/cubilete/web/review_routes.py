"""The review's routes: its page, the review of a game's human seats, and a past position ranked.

Any reader of a game (players and spectators) may see its review. A review awaits the solver's
tables on the event loop (web/tables.py), then is computed in a worker thread: it takes a moment
(then it is cached until the game moves on).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse
from starlette.concurrency import run_in_threadpool

from .catch_up import GameNotFound
from .games import Games
from .i18n import negotiate
from .live_game import LiveGame
from .pages import PAGE_METHODS, render_page
from .rate_limits import RouteClass, limited
from .reviews import ReviewCache, position
from .services import services


def check_reviewable(live: LiveGame) -> None:
    """A game in progress whose table is without hints is reviewed once over: until then its review
    would show what the live bar may not (each seat's value after every decision)."""
    if not live.state.is_over:
        live.table.check_hints()


def review_router(games: Games) -> APIRouter:
    router = APIRouter()
    reviews = ReviewCache()

    def reader_language(request: Request) -> str:
        """The reader's language, as on the game page (a spectator's may differ from the game's)."""
        return negotiate(
            (request.query_params.get("lang"), request.cookies.get("lang")), request.headers.get("accept-language")
        )

    async def reviewable(request: Request, game_id: str) -> LiveGame:
        """The game, once its review may be shown (to this reader) and the solver's tables it needs are prepared."""
        live = await games.find(game_id)
        services(request).daily.check_reader(live, request)
        check_reviewable(live)
        await games.tables.ready(live.match.rules)
        return live

    @router.api_route(
        "/game/{game_id}/review", methods=PAGE_METHODS, response_class=HTMLResponse, include_in_schema=False
    )
    def review_page(request: Request, game_id: str) -> HTMLResponse:
        lang = reader_language(request)
        try:
            games.get(game_id)
        except GameNotFound:
            return HTMLResponse(render_page("missing", lang, {}), status_code=404)
        return HTMLResponse(render_page("review", lang, {"id": game_id}))

    @router.get(
        "/api/games/{game_id}/review", summary="Every decision of the human seats beside the best one",
        dependencies=[limited(RouteClass.REVIEWS)],
    )
    async def review(request: Request, game_id: str) -> dict[str, Any]:
        """analysis/review.py's review (finished or not: the decisions so far), with each decision's
        turn number (`turn`), the game's events and its seats."""
        live = await reviewable(request, game_id)
        return await run_in_threadpool(reviews.review, live)

    @router.get(
        "/api/games/{game_id}/review/{index}", summary="A past decision's position with its options ranked",
        dependencies=[limited(RouteClass.REVIEWS)],
    )
    async def review_position(request: Request, game_id: str, index: int = Path(ge=0)) -> dict[str, Any]:
        """The position before event `index` (an action), every option best first with its value
        (expected final total, or chance to win) and loss, the one chosen marked."""
        live = await reviewable(request, game_id)
        return await run_in_threadpool(position, live, index, reader_language(request))

    return router
