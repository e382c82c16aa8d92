"""A finished game's record to take home: the JSON file `cubilete review FILE` reads, served as a
download (storage/export.py says what it holds and why only once the game is over).

Any reader of the game may take it, as any reader may see its review: the game's id is what lets a
reader in, and a finished record tells nothing a reader of the game could not see, bar the secret of
dice that will never be rolled.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ..storage import export_file_name, exported_game
from .daily_secrecy import DailySecret, day_end
from .games import Games
from .live_game import LiveGame
from .rate_limits import RouteClass, limited
from .services import services


def export_router(games: Games) -> APIRouter:
    router = APIRouter()

    @router.get(
        "/api/games/{game_id}/record",
        summary="A finished game's record, as a file to download (for `cubilete review FILE`)",
        response_description="{id, record, seats}: the engine's record and each seat's name, kind and level",
        dependencies=[limited(RouteClass.REVIEWS)],
    )
    async def record(request: Request, game_id: str) -> Response:
        """Refused with 409 record_not_over while the game is on: its record holds the secret of its dice;
        a daily challenge's (whose dice key is the day's, everyone's) with 403 daily_secret until its day ends."""
        live = await games.find(game_id)
        mark = live.table.daily
        if mark is not None and services(request).daily.secret_now(live):
            raise DailySecret("daily_secret", ends_at=day_end(mark.date).isoformat())
        document = await run_in_threadpool(_document, live)  # under the game's lock, which a move may hold a moment
        name = export_file_name(live.id, live.match.rules.game)
        return Response(
            json.dumps(document, ensure_ascii=False),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="{name}"'},
        )

    return router


def _document(live: LiveGame) -> dict[str, Any]:
    with live.lock:  # the record and the seats of one moment
        return exported_game(live.id, live.match.to_json(), [seat.to_json() for seat in live.seats], live.state.is_over)
