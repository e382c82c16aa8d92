"""The HTTP routes: HTML pages, static files and the JSON API (documented at /docs).

Handlers that may wait for the solver are plain functions, which FastAPI runs in worker
threads, so that the event loop keeps serving other requests meanwhile.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from importlib.resources import files
from typing import Any, AsyncIterator, Literal

from fastapi import FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StringConstraints
from typing_extensions import Annotated

from ..engine.errors import CubileteError, IllegalAction, NotYourTurn, UnknownBox
from ..engine.games import GAMES, game_info
from ..players import player_levels
from .broker import open_broker
from .i18n import LANGUAGES, messages, negotiate, translate_engine_message
from .pages import render_page, rules_html
from .sessions import GameNotFound, Games, SeatRefused, SeatRequest, StaleRequest
from .storage import SaveFailed, Storage
from .views import game_view, hint_view, unfinished_view
from .warmup import WARMER

Language = Literal["es", "id", "en"]
Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=24)]


def describe_problem(problem: dict[str, Any]) -> str:
    """One validation problem in words: where in the body, and what is wrong."""
    if problem["type"] == "json_invalid":
        reason = problem.get("ctx", {}).get("error", "")
        return f"the request body is not valid JSON: {reason} (at character {problem['loc'][-1]})"
    where = ".".join(str(part) for part in problem["loc"][1:]) or "body"
    return f"{where}: {problem['msg']}"


class PlayerIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: Name
    kind: Literal["human", "bot"]
    level: str | None = Field(None, description="a bot's level, see GET /api/games/options")


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
    players: list[PlayerIn] = Field(min_length=1, max_length=6)
    seed: int | None = Field(None, ge=0, lt=2**63, description="the dice seed; default: random")
    lang: Language | None = None


class ActionIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int = Field(description="the seat acting, 0 first")
    token: str = Field(description="that seat's token, returned when the game was created")
    at: int | None = Field(None, description="the number of events the client has seen; a mismatch is refused")
    action: dict[str, Any] = Field(
        description='{"type": "roll"}, {"type": "keep", "held": [0, 2]}, {"type": "score", "box": "chance"},'
        ' {"type": "bank"}, {"type": "set_aside", "held": [1]} or {"type": "auto"} (score as the computer would)'
    )


class SeatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")
    seat: int | None = None
    token: str | None = None


_STATUS = (
    (GameNotFound, 404),
    (SaveFailed, 503),
    (SeatRefused, 403),
    (StaleRequest, 409),
    (NotYourTurn, 409),
    (UnknownBox, 400),
    (IllegalAction, 409),
    (CubileteError, 400),
)


def create_app(database_url: str | None = None, broker_url: str | None = None) -> FastAPI:
    """The app on a database (default: SQLite in the user's data directory) and a broker that
    tells other server processes of each change (default: none, one process)."""
    storage = Storage(database_url)
    broker = open_broker(broker_url)
    games = Games(storage, WARMER, broker)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        yield
        broker.close()
        storage.close()

    app = FastAPI(
        title="cubilete", description="Penta, Generala and 5000: play in the browser.", lifespan=lifespan
    )
    app.mount("/static", StaticFiles(directory=str(files(__package__).joinpath("static"))), name="static")

    def request_language(request: Request, *preferred: str | None) -> str:
        return negotiate(
            (request.query_params.get("lang"), request.cookies.get("lang"), *preferred),
            request.headers.get("accept-language"),
        )

    @app.exception_handler(CubileteError)
    def refuse(request: Request, error: CubileteError) -> JSONResponse:
        status = next(code for kind, code in _STATUS if isinstance(error, kind))
        lang = request_language(request)
        return JSONResponse(
            {"detail": str(error), "message": translate_engine_message(lang, str(error))}, status_code=status
        )

    @app.exception_handler(RequestValidationError)
    def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = [describe_problem(problem) for problem in error.errors()]
        detail = "; ".join(problems)
        return JSONResponse({"detail": detail, "message": detail}, status_code=422)

    # -- pages ---------------------------------------------------------------------

    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def home(request: Request) -> str:
        return render_page("index", request_language(request), {})

    @app.get("/game/{game_id}", response_class=HTMLResponse, include_in_schema=False)
    def game_page(request: Request, game_id: str) -> HTMLResponse:
        try:
            live = games.get(game_id)
        except GameNotFound:
            lang = request_language(request)
            return HTMLResponse(render_page("missing", lang, {}), status_code=404)
        return HTMLResponse(render_page("game", request_language(request, live.lang), {"id": game_id}))

    @app.get("/rules/{game}", response_class=HTMLResponse, include_in_schema=False)
    def rules(request: Request, game: str) -> str:
        info = game_info(game)
        lang = request_language(request)
        return render_page("rules", lang, {"game": info.id}, rules_html(info.id, lang))

    # -- API -----------------------------------------------------------------------

    @app.get("/api/i18n/{lang}", summary="Every message of the app in one language")
    def catalog(lang: Language) -> dict[str, str]:
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
        seats = [SeatRequest(player.name, player.kind, player.level) for player in body.players]
        live, tokens = games.create(body.game, body.rules, seats, body.seed, lang)
        return {
            "id": live.id,
            "url": f"/game/{live.id}",
            "seats": [
                {"seat": index, "name": seat.name, "kind": seat.kind, "token": token}
                for index, (seat, token) in enumerate(zip(live.seats, tokens))
            ],
        }

    @app.get("/api/games", summary="Unfinished games, most recently played first")
    def unfinished() -> list[dict[str, Any]]:
        return [unfinished_view(stored) for stored in games.unfinished()]

    @app.get("/api/games/{game_id}", summary="A game now, and the steps since an event index")
    def read(
        request: Request,
        game_id: str,
        since: int | None = Query(None, ge=0, description="also answer every step after this many events"),
    ) -> dict[str, Any]:
        live = games.get(game_id)
        return game_view(live, request_language(request, live.lang), since)

    @app.post("/api/games/{game_id}/actions", summary="A human seat acts; the bots then play")
    def act(request: Request, game_id: str, body: ActionIn) -> dict[str, Any]:
        """Answers the game with every step since `at` (the seat's action and the bots' turns)."""
        live = games.act(game_id, body.seat, body.token, body.action, body.at)
        return game_view(live, request_language(request, live.lang), body.at)

    @app.post("/api/games/{game_id}/bots", summary="Let the bots play until a human is to move")
    def bots(
        request: Request, game_id: str, since: int | None = Query(None, ge=0)
    ) -> dict[str, Any]:
        live = games.advance_bots(game_id)
        return game_view(live, request_language(request, live.lang), since)

    @app.get("/api/games/{game_id}/hint", summary="The best choices for the dice on the table")
    def hint(game_id: str) -> dict[str, Any]:
        return hint_view(games.hint(game_id))

    @app.post("/api/games/{game_id}/rematch", summary="The same seats (and tokens) in a new game")
    def rematch(game_id: str, body: SeatIn) -> dict[str, Any]:
        new = games.rematch(game_id, body.seat, body.token)
        return {"id": new.id, "url": f"/game/{new.id}"}

    return app
