"""The routes of seats: handing a seat to the computer or leaving, taking an invited seat, joining an
open seat of a public game (each builds its seat change, web/seat_changes.py, for the game service's
one change path, `Games.change`), the list of public games with open seats (the lobby), and a seat's
reaction to the table (web/reactions.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from starlette.concurrency import run_in_threadpool

from .api_models import InviteIn, JoinIn, ReactionIn, TokenIn
from .game_routes import answered_view
from .i18n import request_language
from .rate_limits import RouteClass, limited
from .seat_changes import Claim, HandToBot, Join
from .seat_names import shown_name
from .seats import seat_token
from .services import games_of, profiles_of, services

seat_router = APIRouter()


@seat_router.post("/api/games/{game_id}/seats/{seat}/bot", summary="A player hands their seat to the computer")
async def hand_to_bot(request: Request, game_id: str, seat: int, body: TokenIn) -> dict[str, Any]:
    live = await games_of(request).change(game_id, HandToBot(seat, body.token, leave=False))
    return answered_view(request, live)


@seat_router.post("/api/games/{game_id}/seats/{seat}/leave", summary="A player leaves; the computer plays their seat")
async def leave(request: Request, game_id: str, seat: int, body: TokenIn) -> dict[str, Any]:
    live = await games_of(request).change(game_id, HandToBot(seat, body.token, leave=True))
    return answered_view(request, live)


@seat_router.post("/api/games/{game_id}/seats/{seat}/claim", summary="The holder of an invite link takes the seat")
async def claim(request: Request, game_id: str, seat: int, body: InviteIn) -> dict[str, Any]:
    """Answers the seat's token (only this answer ever holds it); 409 `invite_claimed` to a second claim.
    A device signed in to a profile claims the seat for it, under the profile's name."""
    holder = await run_in_threadpool(profiles_of(request).device_holder, request)
    token = seat_token(holder, game_id, seat)
    await games_of(request).change(game_id, Claim(seat, body.invite, token, None if holder is None else holder.name))
    await run_in_threadpool(profiles_of(request).link_holders, game_id, [(seat, holder)])
    return {"id": game_id, "url": f"/game/{game_id}", "seat": seat, "token": token}


@seat_router.post("/api/games/{game_id}/seats/{seat}/join", summary="Take an open seat of a public game")
async def join(request: Request, game_id: str, seat: int, body: JoinIn) -> dict[str, Any]:
    """Answers the seat's token (only this answer ever holds it); 409 if someone claimed it first.
    A device signed in to a profile joins for it, under the profile's name."""
    holder = await run_in_threadpool(profiles_of(request).device_holder, request)
    token = seat_token(holder, game_id, seat)
    profile = None if holder is None else holder.name
    await games_of(request).change(game_id, Join(seat, profile or body.name, token, profile))
    await run_in_threadpool(profiles_of(request).link_holders, game_id, [(seat, holder)])
    return {"id": game_id, "url": f"/game/{game_id}", "seat": seat, "token": token}


@seat_router.get(
    "/api/open-tables", summary="Public games with seats anyone may join", dependencies=[limited(RouteClass.OPEN_TABLES)]
)
def open_tables(request: Request) -> list[dict[str, Any]]:
    """Never a token: each game's seated players' names and the numbers of its open seats. None when the
    host switched the open tables off; a few of each client address's (its newest: web/access.py)."""
    if not services(request).access.open_tables:
        return []
    return [
        {
            "id": table.id,
            "game": table.game,
            "rules": table.rules,
            "turn_clock": table.turn_clock,
            "hints": table.hints,
            "players": [shown_name(name, request_language(request)) for name in table.players],
            "open_seats": table.open_seats,
        }
        for table in games_of(request).open_tables(services(request).access.open_tables_per_client)
    ]


@seat_router.post(
    "/api/games/{game_id}/reactions",
    status_code=204,
    summary="A player shows the table a preset reaction",
    dependencies=[limited(RouteClass.REACTIONS)],
)
def react(request: Request, game_id: str, body: ReactionIn) -> Response:
    """Only a seat's holder reacts (its token, like any seat request); `reaction` is one of the keys of
    `reactions` in the game page's data (web/reactions.py). Every page of the game receives
    `{"type": "reaction", "reaction": {"seat", "key"}}` over its live socket; nothing is stored."""
    games_of(request).get(game_id).check_seat(body.seat, body.token)
    services(request).reactions.react(game_id, body.seat, body.reaction)
    return Response(status_code=204)
