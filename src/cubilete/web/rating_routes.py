"""The routes of ratings and boards (docs/ratings.md): each game's boards (ratings by ordinal, decision
accuracy), a profile's choice to be left out of them, and the ratings part of a profile's public answer."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict
from starlette.concurrency import run_in_threadpool

from ..engine.games import game_info
from ..storage.ratings import RatingStore
from .profile_routes import profile_json, signed_in
from .rate_limits import RouteClass, limited
from .ratings import rating_json

BOARD_ROWS = 100  # the rows of each board
MIN_BOARD_GAMES = 5  # the games reviewed a profile needs to appear on a game's accuracy board


class BoardsIn(BaseModel):
    model_config = ConfigDict(extra="forbid", json_schema_extra={"example": {"hidden": True}})
    hidden: bool


def rating_router(store: RatingStore) -> APIRouter:
    router = APIRouter()

    @router.put("/api/profiles/me/boards", summary="Leave the profile out of every board, or put it back")
    async def hide(request: Request, body: BoardsIn) -> dict[str, Any]:
        profile = await signed_in(request)
        await run_in_threadpool(store.hide, profile.id, body.hidden)
        return profile_json(profile) | {"hidden_from_boards": body.hidden}

    @router.get(
        "/api/boards/{game}", summary="A game's boards: ratings and decision accuracy",
        dependencies=[limited(RouteClass.BOARDS)],
    )
    async def boards(game: str) -> dict[str, Any]:
        """Ratings ranked by ordinal (mu - 3 sigma); accuracy by mean loss per decision, of the profiles
        with MIN_BOARD_GAMES games reviewed or more. Profiles hidden from boards are left out.
        400 `unknown_game`."""
        game_info(game)
        ratings = await run_in_threadpool(store.rating_board, game, BOARD_ROWS)
        accuracy = await run_in_threadpool(store.accuracy_board, game, MIN_BOARD_GAMES, BOARD_ROWS)
        return {
            "game": game,
            "min_games": MIN_BOARD_GAMES,
            "ratings": [
                {"rank": rank, "name": row.name} | rating_json(row.mu, row.sigma, row.games)
                for rank, row in enumerate(ratings, 1)
            ],
            "accuracy": [
                {"rank": rank, "name": row.name, "mean_loss": row.mean_loss, "decisions": row.decisions,
                 "games": row.games, "performance": row.performance}
                for rank, row in enumerate(accuracy, 1)
            ],
        }

    return router
