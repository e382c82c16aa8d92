"""A finished game's record to take home: the JSON file `cubilete review FILE` reads, served as a
download (storage/export.py says what it holds and why only once the game is over).

Any reader of the game may take it, as any reader may see its review: the game's id is what lets a
reader in, and a finished record tells nothing a reader of the game could not see, bar the secret of
dice that will never be rolled.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ..storage import export_file_name, exported_game
from .games import Games
from .live_game import LiveGame
from .rate_limits import RouteClass, limited


def export_router(games: Games) -> APIRouter:
    router = APIRouter()

    @router.get(
        "/api/games/{game_id}/record",
        summary="A finished game's record, as a file to download (for `cubilete review FILE`)",
        response_description="{id, record, seats}: the engine's record and each seat's name, kind and level",
        dependencies=[limited(RouteClass.REVIEWS)],
    )
    async def record(game_id: str) -> Response:
        """Refused with 409 record_not_over while the game is on: its record holds the secret of its dice."""
        live = await games.find(game_id)
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
