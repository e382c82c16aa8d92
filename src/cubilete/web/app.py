"""The HTTP routes: HTML pages, static files and the JSON API (documented at /docs).

Handlers that may wait for the solver are plain functions, which FastAPI runs in worker
threads, so that the event loop keeps serving other requests meanwhile. The two routes
every move goes through (an action, reading a game) run on the event loop when they need
neither the solver nor a database across the network: the hop to a worker thread and
back would cost them more than their own work.
"""

from __future__ import annotations

import io
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Annotated, Any, Literal

import orjson
import segno
from fastapi import FastAPI, Query, Request, WebSocket
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException

from ..engine.errors import CubileteError, IllegalAction, NotYourTurn, UnknownBox
from ..engine.games import GAMES, game_info
from ..players import default_level, player_levels
from .addresses import LinkBase
from .broker import open_broker
from .chances import chances_router
from .compression import Compression, action_answer
from .i18n import LANGUAGES, messages, negotiate, refusal_json, request_language
from .live import follow_game
from .model_route import BODY_PARSE_ERROR, ModelBodyRoute
from .pages import render_page, rules_html
from .record_routes import record_router
from .review_routes import review_router
from .security import Protections
from .sessions import (
    GameNotFound,
    Games,
    HintsOff,
    LiveGame,
    SeatRefused,
    SeatRequest,
    SeatTaken,
    StaleRequest,
    TableOptions,
    table_hints,
)
from .shell import shell_router
from .storage import SaveFailed, Storage
from .views import game_view
from .warmup import WARMER

Language = Literal["es", "id", "en"]
NAME_LENGTH = 24
MAX_PLAYERS = 6
MAX_SEED = 2**63 - 1
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NAME_LENGTH)]
Token = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
QR_MAX_TEXT = 512
# A test hook: every turn clock lasts this fraction of its seconds (CUBILETE_CLOCK_SCALE=0.1: 30 s become 3 s).
CLOCK_SCALE_VARIABLE = "CUBILETE_CLOCK_SCALE"


def validation_refusal(problem: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A request validation problem (pydantic's error) as a refusal code and its parameters."""
    kind, where = problem["type"], tuple(problem["loc"][1:])
    if kind == "json_invalid":
        return "bad_json", {"position": problem["loc"][-1]}
    if where[:1] == ("players",) and where[2:] == ("name",):
        if kind == "string_too_short":
            return "blank_name", {}
        if kind == "string_too_long":
            return "name_too_long", {"most": NAME_LENGTH}
    if where == ("players",) and kind in ("too_short", "too_long"):
        return "players_count", {"low": 1, "high": MAX_PLAYERS}
    if where[:1] == ("players",) and where[2:] == ("kind",):
        return "player_kind", {}
    if where == ("seed",):
        return "bad_seed", {"most": MAX_SEED}
    if where == ("lang",):
        return "language_choice", {"languages": list(LANGUAGES)}
    place = ".".join(str(part) for part in where) or "body"
    return "invalid_request", {"detail": f"{place}: {problem['msg']}"}


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name
    kind: Literal["human", "bot"]
    level: str | None = Field(None, description="a bot's level, see GET /api/games/options")
    invited: bool = Field(
        False, description="a friend's seat, played from an invite link; in a public game, open to anyone to join"
    )


class NewGame(BaseModel):
    model_config = ConfigDict(
        extra="forbid",
        json_schema_extra={
            "example": {
                "game": "penta",
                "rules": "seed",
                "players": [{"name": "Ana", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "optimal"}],
                "seed": 7,
                "lang": "es",
            }
        },
    )
    game: str = Field(description="penta, generala or 5000")
    rules: str | None = Field(None, description="a rule set of the game; default: the seed rules")
    players: list[PlayerIn] = Field(min_length=1, max_length=MAX_PLAYERS)
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="the dice seed; default: random")
    lang: Language | None = None
    turn_clock: Literal[0, 30, 60, 300] = Field(0, description="seconds per turn, 0 for no clock")
    public: bool = Field(False, description="listed for anyone on the server to join a free seat")
    hints_allowed: bool = Field(
        False,
        description="with friends' seats: hints and win chances on for everyone (a friend sees it before taking"
        " the seat); without, they are off. Games without friends always have them",
    )


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(description="the seat acting, 0 first")
    token: Token = Field(description="that seat's token, returned when the game was created")
    at: int | None = Field(None, description="the number of events the client has seen; a mismatch is refused")
    action: dict[str, Any] = Field(
        description='{"type": "roll"}, {"type": "keep", "held": [0, 2]}, {"type": "score", "box": "chance"},'
        ' {"type": "bank"}, {"type": "set_aside", "held": [1]} or {"type": "auto"} (score as the computer would)'
    )


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    token: Token | None = None


class ClockIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    at: int = Field(description="the number of events the browser saw when its countdown reached 0")


class TokenIn(BaseModel):
    """The token of the seat named in the path."""

    model_config = ConfigDict(extra="forbid")
    token: Token


class JoinIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name


class SeatProof(BaseModel):
    """A seat and its token: required wherever a request acts for a seat."""

    model_config = ConfigDict(extra="forbid")
    seat: int
    token: Token


_STATUS = (
    (GameNotFound, 404),
    (SaveFailed, 503),
    (SeatRefused, 403),
    (HintsOff, 403),
    (StaleRequest, 409),
    (SeatTaken, 409),
    (NotYourTurn, 409),
    (UnknownBox, 400),
    (IllegalAction, 409),
    (CubileteError, 400),
)


def create_app(
    database_url: str | None = None,
    broker_url: str | None = None,
    *,
    public_url: str | None = None,
    listen_host: str = "127.0.0.1",
    clock_scale: float | None = None,
) -> FastAPI:
    """The app on a database (default: SQLite in the user's data directory) and a broker that tells
    other server processes of each change (default: none, one process); `public_url` (behind a
    proxy) or the address it listens on decide where links point. `clock_scale` (default: the
    CUBILETE_CLOCK_SCALE variable, else 1) shortens the turn clocks for tests."""
    storage = Storage(database_url)
    on_event_loop = storage.is_local  # a write to a local file takes well under a millisecond
    broker = open_broker(broker_url)
    if clock_scale is None:
        clock_scale = float(os.environ.get(CLOCK_SCALE_VARIABLE, "1"))
    games = Games(storage, WARMER, broker, clock_scale=clock_scale)
    links = LinkBase(public_url, listen_host)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        games.close()
        broker.close()
        storage.close()

    def link_base(request: Request) -> str:
        return links.for_request(request.url.scheme, request.headers.get("host"), request.url.port)

    app = FastAPI(
        title="cubilete", description="Penta, Generala and 5000: play in the browser.", lifespan=lifespan
    )
    app.state.games = games
    app.add_middleware(Protections)
    app.add_middleware(Compression)

    def refusal_language(request: Request, body_lang: Any = None) -> str:
        """The game's language when the request is about a game (or creates one), else the request's."""
        game_lang = getattr(request.state, "game_lang", None)
        game_id = request.path_params.get("game_id")
        if game_lang is None and game_id is not None:
            try:
                game_lang = games.get(game_id).lang
            except CubileteError:  # no such game, or one that cannot be loaded: the request's language
                pass
        return game_lang if game_lang in LANGUAGES else request_language(request, body_lang)

    def refusal(request: Request, code: str, params: dict[str, Any], status: int, body_lang: Any = None) -> JSONResponse:
        """Every refusal's answer: its code and parameters, the player's text and the English one."""
        return JSONResponse(refusal_json(refusal_language(request, body_lang), code, params), status_code=status)

    @app.exception_handler(CubileteError)
    def refuse(request: Request, error: CubileteError) -> JSONResponse:
        status = next(code for kind, code in _STATUS if isinstance(error, kind))
        return refusal(request, error.code, error.params, status)

    @app.exception_handler(RequestValidationError)
    def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        code, params = validation_refusal(error.errors()[0])
        body = error.body if isinstance(error.body, dict) else {}
        return refusal(request, code, params, 422, body.get("lang"))

    @app.exception_handler(HTTPException)
    async def http_refusal(request: Request, error: HTTPException) -> Response:
        """A body FastAPI cannot decode (not UTF-8, nested too deep) is refused in the player's language;
        FastAPI answers the others (an unknown address, a method a route does not take)."""
        if error.status_code == 400 and error.detail == BODY_PARSE_ERROR:
            return refusal(request, "body_unreadable", {}, 400)
        return await http_exception_handler(request, error)

    # -- moves: every move comes through the action route, matched first ----------
    # (a request is matched against the routes in order)

    def drawn(request: Request, live: LiveGame, since: int | None) -> bytes:
        """The game's view as JSON, encoded with orjson (several times faster than the standard library's)."""
        with live.lock:  # never a view torn by a move being made
            return orjson.dumps(game_view(live, request_language(request, live.lang), since))

    async def act(request: Request, game_id: str, body: ActionIn) -> Response:
        """Answers the game with every step since `at` (the seat's action and the bots' turns)."""

        live = await games.act(game_id, body.seat, body.token, body.action, body.at)
        return action_answer(drawn(request, live, body.at), request.headers.get("accept-encoding", ""))

    app.router.add_api_route(
        "/api/games/{game_id}/actions",
        act,
        methods=["POST"],
        summary="A human seat acts; the bots then play",
        response_model=dict[str, Any],
        route_class_override=ModelBodyRoute,  # every move: served without FastAPI's dependency solving
    )

    # -- pages ---------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def home(request: Request) -> str:
        return render_page("index", request_language(request), {})

    @app.get("/game/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    def game_page(request: Request, game_id: str) -> HTMLResponse:
        """In the reader's language (a friend's may differ from the creator's)."""
        lang = request_language(request)
        try:
            games.get(game_id)
        except GameNotFound:
            return HTMLResponse(render_page("missing", lang, {}), status_code=404)
        return HTMLResponse(render_page("game", lang, {"id": game_id}))

    @app.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
    def rules(request: Request, game: str) -> str:
        info = game_info(game)
        lang = request_language(request)
        return render_page("rules", lang, {"game": info.id}, rules_html(info.id, lang))

    # -- API -----------------------------------------------------------------------

    @app.get("/api/i18n/{lang}", summary="Every message of the app in one language")
    def catalog(lang: Language) -> dict[str, str | dict[str, str]]:
        return messages(lang)

    @app.get("/api/games/options", summary="What a new game can be: games, rule sets, bot levels, seats")
    def options() -> dict[str, Any]:
        return {
            "languages": list(LANGUAGES),
            "games": [
                {
                    "id": info.id,
                    "rules": list(info.variants),
                    "levels": list(player_levels(info.id)),
                    "default_level": default_level(info.id),
                    "min_players": info.default.min_players,
                    "max_players": info.default.max_players,
                }
                for info in GAMES.values()
            ],
        }

    @app.post("/api/games", status_code=201, summary="Start a game")
    def create(request: Request, body: NewGame) -> dict[str, Any]:
        """Answers the game's id and URL, and a secret token for each human seat:
        an action for a seat must carry that seat's token."""
        lang = body.lang or request_language(request)
        request.state.game_lang = lang  # refusals of this request speak the new game's language
        seats = [SeatRequest(player.name, player.kind, player.level, player.invited) for player in body.players]
        table = TableOptions(body.turn_clock, body.public, table_hints(seats, body.hints_allowed))
        live, tokens = games.create(body.game, body.rules, seats, body.seed, lang, table)
        game_url = f"{link_base(request)}/game/{live.id}"
        return {
            "id": live.id,
            "url": f"/game/{live.id}",
            "watch": game_url,
            "seats": [
                {
                    "seat": index,
                    "name": seat.name,
                    "kind": seat.kind,
                    "token": token,
                    "link": None if token is None else f"{game_url}#seat={index}&token={token}",
                }
                for index, (seat, token) in enumerate(zip(live.seats, tokens))
            ],
        }

    @app.get("/api/qr", summary="A QR code of a short text (an invite link), as SVG", include_in_schema=False)
    def qr_code(text: str = Query(min_length=1, max_length=QR_MAX_TEXT)) -> Response:
        svg = io.BytesIO()
        segno.make(text, error="m").save(svg, kind="svg", scale=4, xmldecl=False, dark="#000", light="#fff")
        return Response(svg.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=86400"})

    @app.get(
        "/api/games/{game_id}", summary="A game now, and the steps since an event index", response_model=dict[str, Any]
    )
    async def read(
        request: Request,
        game_id: str,
        since: int | None = Query(None, ge=0, description="also answer every step after this many events"),
    ) -> Response:
        def read_game() -> Response:
            return Response(drawn(request, games.get(game_id), since), media_type="application/json")

        return read_game() if on_event_loop else await run_in_threadpool(read_game)

    @app.post("/api/games/{game_id}/bots", summary="A seat of the game lets the bots play until a human is to move")
    async def bots(
        request: Request, game_id: str, body: SeatProof, since: int | None = Query(None, ge=0)
    ) -> dict[str, Any]:
        live = await games.advance_bots(game_id, body.seat, body.token)
        with live.lock:
            return game_view(live, request_language(request, live.lang), since)

    @app.post("/api/games/{game_id}/hint", summary="The seat to move asks for the best choices for its dice")
    def hint(game_id: str, body: SeatProof) -> dict[str, Any]:
        return games.hint(game_id, body.seat, body.token)

    @app.post("/api/games/{game_id}/rematch", summary="The same seats (and tokens) in a new game")
    async def rematch(game_id: str, body: SeatIn) -> dict[str, Any]:
        new = await games.rematch(game_id, body.seat, body.token)
        return {"id": new.id, "url": f"/game/{new.id}"}

    @app.post("/api/games/{game_id}/clock", summary="The turn clock ran out: the computer plays the turn")
    async def clock(request: Request, game_id: str, body: ClockIn) -> dict[str, Any]:
        """Any browser of the game (players and spectators) sends this when its countdown reaches 0.
        Refused (409) before the deadline by the server's time, or if the game moved on since `at`."""
        live = await games.clock(game_id, body.at)
        with live.lock:
            return game_view(live, request_language(request, live.lang), body.at)

    @app.post("/api/games/{game_id}/seats/{seat}/bot", summary="A player hands their seat to the computer")
    async def hand_to_bot(request: Request, game_id: str, seat: int, body: TokenIn) -> dict[str, Any]:
        live = await games.hand_to_bot(game_id, seat, body.token, leave=False)
        with live.lock:
            return game_view(live, request_language(request, live.lang))

    @app.post("/api/games/{game_id}/seats/{seat}/leave", summary="A player leaves; the computer plays their seat")
    async def leave(request: Request, game_id: str, seat: int, body: TokenIn) -> dict[str, Any]:
        live = await games.hand_to_bot(game_id, seat, body.token, leave=True)
        with live.lock:
            return game_view(live, request_language(request, live.lang))

    @app.post("/api/games/{game_id}/seats/{seat}/claim", summary="The holder of an invite link takes the seat")
    async def claim(game_id: str, seat: int, body: TokenIn) -> dict[str, Any]:
        """A public game's invited seat is open to anyone until claimed: the page claims it on opening the link."""
        await games.claim(game_id, seat, body.token)
        return {"id": game_id, "seat": seat}

    @app.post("/api/games/{game_id}/seats/{seat}/join", summary="Take an open seat of a public game")
    async def join(game_id: str, seat: int, body: JoinIn) -> dict[str, Any]:
        """Answers the seat's token (only this answer ever holds it); 409 if someone claimed it first."""
        _live, token = await games.join(game_id, seat, body.name)
        return {"id": game_id, "url": f"/game/{game_id}", "seat": seat, "token": token}

    @app.get("/api/open-tables", summary="Public games with seats anyone may join")
    def open_tables() -> list[dict[str, Any]]:
        """Never a token: each game's seated players' names and the numbers of its open seats."""
        return [
            {
                "id": table.id,
                "game": table.game,
                "rules": table.rules,
                "turn_clock": table.turn_clock,
                "hints": table.hints,
                "players": [seat["name"] for seat in table.seats if not seat.get("open")],
                "open_seats": [index for index, seat in enumerate(table.seats) if seat.get("open")],
            }
            for table in games.open_tables()
        ]

    @app.websocket("/api/games/{game_id}/live")
    async def live(websocket: WebSocket, game_id: str, since: int = 0, lang: str | None = None) -> None:
        """Pushes the game's steps to a player's or spectator's browser as they happen (see web/live.py)."""
        language = negotiate((lang, websocket.cookies.get("lang")), websocket.headers.get("accept-language"))
        await follow_game(websocket, games, broker, game_id, language, since)

    # After the app's own routes, so that the action route is matched first.
    app.include_router(review_router(games))
    app.include_router(record_router(games))
    app.include_router(chances_router(games))
    app.include_router(shell_router())
    app.mount("/static", StaticFiles(directory=str(files(__package__).joinpath("static"))), name="static")

    return app
