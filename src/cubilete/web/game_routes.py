"""The routes of games and their moves: a new game, reading one, the action every move comes through,
the bots' turns, the clock's turn, a hint, a rematch, and the WebSocket that pushes each change.

A route that changes a game builds the change (web/changes.py: `Move`, `BotsTurn`, `ClockTurn`,
`Rematch`) and awaits the game service's one change path (web/games.py, `Games.change`), which answers
once it is stored. The action route and reading a game run on the event
loop: the hop to a worker thread and back would cost them more than their own work (a read that needs
a database across the network goes to a worker thread). A hint awaits the solver's tables on the event
loop (web/tables.py), then is computed in a worker thread.
"""

from __future__ import annotations

from typing import Any

import orjson
from fastapi import APIRouter, Query, Request, WebSocket
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from ..engine.games import GAMES, SEED_GAMES
from ..players import default_level, player_levels
from .api_models import ActionIn, ClockIn, NewGame, SeatIn, SeatProof
from .changes import BotsTurn, ClockTurn, Move, Rematch
from .clients import client_key
from .compression import action_answer
from .i18n import LANGUAGES, negotiate, request_language
from .live import follow_game
from .live_game import LiveGame
from .model_route import ModelBodyRoute
from .rate_limits import RouteClass, limited
from .seats import SeatRequest, SeatSecret
from .services import games_of, profiles_of, services
from .table_options import CORRESPONDENCE_CLOCKS, TableOptions, table_hints, turn_clock_seconds
from .views import locked_view

# -- moves: every move comes through the action route, matched first ----------


def answered_view(request: Request, live: LiveGame, since: int | None = None) -> dict[str, Any]:
    """The game's view in the reader's language, at the games' time."""
    return locked_view(live, request_language(request, live.lang), games_of(request).now(), since)


def drawn(request: Request, live: LiveGame, since: int | None) -> bytes:
    """The game's view as JSON, encoded with orjson (several times faster than the standard library's)."""
    return orjson.dumps(answered_view(request, live, since))


async def act(request: Request, game_id: str, body: ActionIn) -> Response:
    """Answers the game with every step since `at` (the seat's action and the bots' turns)."""
    live = await games_of(request).change(game_id, Move(body.seat, body.token, body.action, body.at))
    return action_answer(drawn(request, live, body.at), request.headers.get("accept-encoding", ""))


def add_move_route(app_router: APIRouter) -> None:
    """The action route, on the app's own router before any other is included: a request is matched
    against the routes in order, and matching through an included router (FastAPI's `_IncludedRouter`,
    which checks its routes' version on every request) cost about 2% of a move."""
    app_router.add_api_route(
        "/api/games/{game_id}/actions",
        act,
        methods=["POST"],
        summary="A human seat acts; the bots then play",
        response_model=dict[str, Any],
        route_class_override=ModelBodyRoute,  # every move: served without FastAPI's dependency solving
    )

game_router = APIRouter()


@game_router.get("/api/games/options", summary="What a new game can be: games, rule sets, bot levels, seats")
def options() -> dict[str, Any]:
    return {
        "languages": list(LANGUAGES),
        "games": [
            {
                "id": info.id,
                # the form's groups: the seeds' games, then the classics played by their known rules
                "group": "app" if info.id in SEED_GAMES else "classic",
                "rules": list(info.variants),
                "switches": [  # rules set one by one: the words of their choices make a rule set's name
                    {"id": switch.id, "choices": list(switch.words), "default": switch.word_of(info.default)}
                    for switch in info.switches
                ],
                "levels": list(player_levels(info.id)),
                "default_level": default_level(info.id),
                "min_players": info.default.min_players,
                "max_players": info.default.max_players,
            }
            for info in GAMES.values()
        ],
    }


@game_router.post("/api/games", status_code=201, summary="Start a game", dependencies=[limited(RouteClass.GAMES)])
def create(request: Request, body: NewGame) -> dict[str, Any]:
    """Answers the game's id and URL, a secret token for each human seat played on this device (an
    action for a seat must carry that seat's token), and an invite code and link for each friend's seat:
    the first to claim it (POST .../seats/{seat}/claim) gets the seat's token, which this answer never holds."""
    lang = body.lang or request_language(request)
    request.state.game_lang = lang  # a reader who chose no language is refused in the new game's
    services(request).access.check_creation(body.creation_password, body.public)
    asked = [
        (SeatRequest(player.name, player.kind, player.level, player.invited), player.profile) for player in body.players
    ]
    seats = profiles_of(request).seat_requests(request, asked)
    table = TableOptions(turn_clock_seconds(body.turn_clock), body.public, table_hints(seats, body.hints_allowed))
    creator = client_key(request.scope)
    if table.turn_clock in CORRESPONDENCE_CLOCKS.values():
        services(request).access.check_correspondence(games_of(request).correspondence_games_by(creator))
    live, seat_secrets = games_of(request).create(body.game, body.rules, seats, body.seed, lang, table, creator)
    profiles_of(request).link_holders(live.id, enumerate(seat.holder for seat in seats))
    game_url = services(request).game_url(request, live.id)
    return {
        "id": live.id,
        "url": f"/game/{live.id}",
        "watch": game_url,
        "seats": [
            {
                "seat": index,
                "name": seat.name,
                "kind": seat.kind,
                "token": secret.token,
                "invite": secret.invite,
                "link": seat_link(game_url, index, secret),
            }
            for index, (seat, secret) in enumerate(zip(live.seats, seat_secrets))
        ],
    }


def seat_link(game_url: str, seat: int, secret: SeatSecret) -> str | None:
    """The link that gives a seat to whoever opens it: the friend's invite, or a seat of this device's
    to play on another one (the secret stays in the fragment, which browsers never send)."""
    if secret.invite is not None:
        return f"{game_url}#seat={seat}&invite={secret.invite}"
    return None if secret.token is None else f"{game_url}#seat={seat}&token={secret.token}"


@game_router.get(
    "/api/games/{game_id}", summary="A game now, and the steps since an event index", response_model=dict[str, Any]
)
async def read(
    request: Request,
    game_id: str,
    since: int | None = Query(None, ge=0, description="also answer every step after this many events"),
) -> Response:
    games, daily = games_of(request), services(request).daily

    def read_game() -> Response:
        live = games.get(game_id, fresh=True)
        daily.check_reader(live, request)  # a daily challenge is its seat's own until its day ends
        return Response(drawn(request, live, since), media_type="application/json")

    # a local database answers well under a millisecond: on the loop; one across the network, in a thread
    return read_game() if games.storage.is_local else await run_in_threadpool(read_game)


@game_router.post("/api/games/{game_id}/bots", summary="A seat of the game lets the bots play until a human is to move")
async def bots(request: Request, game_id: str, body: SeatProof, since: int | None = Query(None, ge=0)) -> dict[str, Any]:
    live = await games_of(request).change(game_id, BotsTurn(body.seat, body.token))
    return answered_view(request, live, since)


@game_router.post(
    "/api/games/{game_id}/hint", summary="The seat to move asks for the best choices for its dice",
    dependencies=[limited(RouteClass.HINTS)],
)
async def hint(request: Request, game_id: str, body: SeatProof) -> dict[str, Any]:
    return await games_of(request).hint(game_id, body.seat, body.token)


@game_router.post(
    "/api/games/{game_id}/rematch", summary="The same seats (and tokens) in a new game",
    dependencies=[limited(RouteClass.GAMES)],
)
async def rematch(request: Request, game_id: str, body: SeatIn) -> dict[str, Any]:
    live = await games_of(request).change(game_id, Rematch(body.seat, body.token))
    new = live.rematch
    assert new is not None, "set by Rematch.prepare"
    await run_in_threadpool(profiles_of(request).link_rematch, game_id, new)
    return {"id": new, "url": f"/game/{new}"}


@game_router.post("/api/games/{game_id}/clock", summary="The turn clock ran out: the computer plays the turn")
async def clock(request: Request, game_id: str, body: ClockIn) -> dict[str, Any]:
    """Any browser of the game (players and spectators) sends this when its countdown reaches 0.
    Refused (409) before the deadline by the server's time, or if the game moved on since `at`."""
    live = await games_of(request).change(game_id, ClockTurn(body.at))
    return answered_view(request, live, body.at)


@game_router.websocket("/api/games/{game_id}/live")
async def live(websocket: WebSocket, game_id: str, since: int = 0, lang: str | None = None) -> None:
    """Pushes the game's steps to a player's or spectator's browser as they happen (see web/live.py)."""
    language = negotiate((lang, websocket.cookies.get("lang")), websocket.headers.get("accept-language"))
    found = services(websocket)
    await follow_game(websocket, found, game_id, language, since)
