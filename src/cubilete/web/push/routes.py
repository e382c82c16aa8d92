"""The routes of Web Push: the server's application server key, and a seat's (or a signed-in profile's)
push subscription kept or dropped. Only a seat's holder subscribes it (its token, refused as any seat
request), so nothing is ever sent to spectators; each subscription is checked (subscriptions.py) and
bounded in number per seat and per browser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict
from starlette.concurrency import run_in_threadpool

from ...engine.errors import IllegalAction
from ...storage.push import CapReached, Owner
from ..api_models import Language, Token
from ..i18n import request_language
from ..rate_limits import RouteClass, limited
from ..services import games_of, services
from .subscriptions import MOST_ENDPOINT_LENGTH, PushRefused, checked_subscription

MOST_PER_OWNER = 10  # a seat's (or a profile's) devices
MOST_PER_ENDPOINT = 200  # a browser's seats (those of finished games are dropped)


class SeatPushIn(BaseModel):
    """A seat's token and the browser's PushSubscription.toJSON(); `lang`: the pushes' language."""

    model_config = ConfigDict(extra="forbid")
    token: Token
    subscription: dict[str, Any]
    lang: Language | None = None


class ProfilePushIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    subscription: dict[str, Any]
    lang: Language | None = None


push_router = APIRouter()


@push_router.get("/api/push/key", summary="The server's VAPID public key (the applicationServerKey)")
def push_key(request: Request) -> dict[str, str]:
    return {"public_key": services(request).push.keys.public_key}


@push_router.post(
    "/api/games/{game_id}/seats/{seat}/push",
    summary="Push this seat's news to this browser",
    dependencies=[limited(RouteClass.PUSH)],
)
async def subscribe_seat(request: Request, game_id: str, seat: int, body: SeatPushIn) -> dict[str, bool]:
    """Your turn (not while a page of the seat is in sight), a friend took an invite, the game is over,
    a correspondence turn is a quarter left, the computer played your turn: in `lang`."""
    live = await games_of(request).find(game_id)
    live.check_seat(seat, body.token)
    if live.state.is_over:  # nothing more to tell (its subscriptions were dropped at its end)
        raise IllegalAction("game_over")
    lang = body.lang or request_language(request, live.lang)
    await run_in_threadpool(_subscribe, request, Owner(game_id, seat), body.subscription, lang)
    return {"subscribed": True}


@push_router.delete(
    "/api/games/{game_id}/seats/{seat}/push",
    summary="Push no more of this seat to this browser",
    dependencies=[limited(RouteClass.PUSH)],
)
async def unsubscribe_seat(request: Request, game_id: str, seat: int, body: SeatPushIn) -> dict[str, bool]:
    live = await games_of(request).find(game_id)
    live.check_seat(seat, body.token)
    await run_in_threadpool(_unsubscribe, request, Owner(game_id, seat), body.subscription)
    return {"subscribed": False}


def profile_push_router(profile_of: Callable[[Request], str]) -> APIRouter:
    """POST/DELETE /api/profiles/me/push: the signed-in profile's subscription, for all its seats.
    `profile_of(request)` answers the signed-in profile's id, or refuses the request."""
    router = APIRouter()

    @router.post(
        "/api/profiles/me/push",
        summary="Push all my seats' news to this browser",
        dependencies=[limited(RouteClass.PUSH)],
    )
    async def subscribe_profile(request: Request, body: ProfilePushIn) -> dict[str, bool]:
        owner = Owner(profile_id=profile_of(request))
        lang = body.lang or request_language(request)
        await run_in_threadpool(_subscribe, request, owner, body.subscription, lang)
        return {"subscribed": True}

    @router.delete(
        "/api/profiles/me/push",
        summary="Push none of my seats' news to this browser",
        dependencies=[limited(RouteClass.PUSH)],
    )
    async def unsubscribe_profile(request: Request, body: ProfilePushIn) -> dict[str, bool]:
        await run_in_threadpool(_unsubscribe, request, Owner(profile_id=profile_of(request)), body.subscription)
        return {"subscribed": False}

    return router


def _subscribe(request: Request, owner: Owner, data: dict[str, Any], lang: str) -> None:
    push = services(request).push
    subscription = checked_subscription(data, lang, push.services)
    try:
        push.store.add(owner, subscription, MOST_PER_OWNER, MOST_PER_ENDPOINT)
    except CapReached as reached:
        raise PushRefused("push_too_many", most=reached.most) from None


def _unsubscribe(request: Request, owner: Owner, data: dict[str, Any]) -> None:
    endpoint = data.get("endpoint")
    if not isinstance(endpoint, str) or len(endpoint) > MOST_ENDPOINT_LENGTH:
        raise PushRefused("push_subscription", detail="endpoint")
    services(request).push.store.remove(owner, endpoint)
