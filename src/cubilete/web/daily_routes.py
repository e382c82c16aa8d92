"""The daily challenge's routes (web/daily.py): today's challenge of a game, starting a try (ranked with a
profile's secret, else unranked under a name), the day's board, and, once a try is finished, how the day's
other players chose at each of its decisions."""

from __future__ import annotations

import datetime
from typing import Any

from fastapi import APIRouter, Request

from .api_models import DailyChoicesIn, DailyStartIn
from .clients import client_key
from .daily import DailyService
from .game_routes import seat_link
from .i18n import request_language
from .rate_limits import RouteClass, limited
from .services import services


def daily_of(request: Request) -> DailyService:
    return services(request).daily


daily_router = APIRouter()


@daily_router.get("/api/daily/{game}", summary="Today's challenge of a game, and the signed-in profile's try")
def challenge(request: Request, game: str) -> dict[str, Any]:
    return daily_of(request).challenge(game, request)


@daily_router.post(
    "/api/daily/{game}/start", status_code=201, summary="Start a try of today's challenge",
    dependencies=[limited(RouteClass.GAMES)],
)
def start(request: Request, game: str, body: DailyStartIn | None = None) -> dict[str, Any]:
    """Ranked with a profile's `Authorization: Bearer` (one per game and day: 409 daily_already_started),
    else unranked under `{"name"}`. Answers as POST /api/games does, without a watch link."""
    lang = request_language(request)
    live, seat_secrets, ranked = daily_of(request).start(
        game, request, None if body is None else body.name, lang, client_key(request.scope)
    )
    game_url, mark = services(request).game_url(request, live.id), live.table.daily
    assert mark is not None, "a daily table has its day"
    return {
        "id": live.id,
        "url": f"/game/{live.id}",
        "ranked": ranked,
        "date": mark.date,
        "seats": [
            {"seat": index, "name": seat.name, "kind": seat.kind, "token": secret.token, "invite": secret.invite,
             "link": seat_link(game_url, index, secret)}
            for index, (seat, secret) in enumerate(zip(live.seats, seat_secrets))
        ],
    }


@daily_router.get(
    "/api/daily/{game}/board", summary="A day's board of a game: its finished ranked tries",
    dependencies=[limited(RouteClass.BOARDS)],
)
def board(request: Request, game: str, date: datetime.date | None = None) -> dict[str, Any]:
    return daily_of(request).board(game, None if date is None else date.isoformat())


@daily_router.post(
    "/api/daily/{game}/choices", summary="How the day's players chose at each decision of a finished try",
    dependencies=[limited(RouteClass.REVIEWS)],
)
async def choices(request: Request, game: str, body: DailyChoicesIn) -> dict[str, Any]:
    return await daily_of(request).choices(game, body.id, body.seat, body.token)
