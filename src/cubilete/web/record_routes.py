"""A player's record: its page (/player/{name}) and the record the page asks for with the seats its
browser holds (records.py says why a record needs them)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from .games import Games
from .i18n import negotiate
from .pages import PAGE_METHODS, render_page
from .records import MAX_PROOFS, PlayerRecords, SeatProof


class ProofIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    game: str = Field(description="a game's id")
    seat: int = Field(description="a seat of that game, 0 first")
    token: str = Field(description="that seat's token, as the game's creation (or a join) answered it")


class RecordIn(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={"example": {"name": "Ana", "seats": [{"game": "Xy3_aB9kQ", "seat": 0, "token": "..."}]}},
    )
    name: str = Field(description="the player's name; a seat counts if it has this name (without case)")
    seats: list[ProofIn] = Field(description=f"the seats this browser holds, at most {MAX_PROOFS}")


def record_router(games: Games) -> APIRouter:
    router = APIRouter()
    records = PlayerRecords(games)

    def reader_language(request: Request) -> str:
        return negotiate(
            (request.query_params.get("lang"), request.cookies.get("lang")), request.headers.get("accept-language")
        )

    @router.api_route("/player/{name}", methods=PAGE_METHODS, response_class=HTMLResponse, include_in_schema=False)
    def player_page(request: Request, name: str) -> str:
        """The page asks its browser's seats for the record: the server knows nothing of who reads it."""
        return render_page("player", reader_language(request), {"name": name, "max_seats": MAX_PROOFS})

    @router.post("/api/players/record", summary="A player's record over the seats the browser proves it holds")
    async def record(request: Request, body: RecordIn) -> dict[str, Any]:
        """Per game and rule set: games, wins, mean and best score and mean loss per decision; each
        finished game (oldest first) with its result and review; `refused`: the seats whose proof
        failed, each with its refusal; `other_names`: the names of the other proven seats."""
        proofs = [SeatProof(proof.game, proof.seat, proof.token) for proof in body.seats]
        return await records.record(body.name, proofs, reader_language(request))

    return router
