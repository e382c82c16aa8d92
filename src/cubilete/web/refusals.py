"""Every refusal the app answers, in one shape: its code and parameters, the player's text and the
English one, with an HTTP status by kind. The language is the reader's: the one the request chose
(`?lang=`, the cookie, a new game's `lang`), else the game's when the request is about one, else the
browser's Accept-Language."""

from __future__ import annotations

import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from ..engine.errors import CubileteError, IllegalAction, NotYourTurn, UnknownBox
from ..storage import DATABASE_FAILURES, RecordNotOver, SaveFailed
from .access import CreationRefused
from .api_models import validation_refusal
from .catch_up import GameNotFound, StaleRequest
from .daily import DailyAlreadyStarted, DailyNotATry
from .daily_secrecy import DailySecret
from .i18n import LANGUAGES, refusal_json, request_language
from .model_route import BODY_PARSE_ERROR
from .passkeys import PasskeyKnown, PasskeyRefused
from .profiles import DeviceNotFound, ProfileNameTaken, ProfileNotFound, ProfileRefused, ProfileSeatRefused
from .rate_limits import TooManyRequests
from .reactions import ReactionTooSoon
from .seats import SeatRefused, SeatTaken
from .services import games_of
from .table_options import DailyRefused, HintsOff
from .tables import RETRY_AFTER as TABLES_RETRY_AFTER
from .tables import ServerStopping, TablesOverBudget

log = logging.getLogger(__name__)
# A failing database's refusals (503) say when to try again: soon, as the database's own timeouts are a few seconds.
DATABASE_RETRY_AFTER = {"Retry-After": "5"}
STOPPING_RETRY_AFTER = "5"  # seconds: another process, or this one restarted, serves it then

_STATUS = (
    (GameNotFound, 404),
    (DailyNotATry, 404),
    (DailySecret, 403),
    (DailyAlreadyStarted, 409),
    (DailyRefused, 409),
    (ProfileNotFound, 404),
    (DeviceNotFound, 404),
    (ProfileRefused, 401),
    (PasskeyRefused, 401),
    (ProfileNameTaken, 409),
    (PasskeyKnown, 409),
    (TablesOverBudget, 503),
    (ServerStopping, 503),
    (SeatRefused, 403),
    (ProfileSeatRefused, 403),
    (HintsOff, 403),
    (ReactionTooSoon, 429),
    (CreationRefused, 403),
    (StaleRequest, 409),
    (RecordNotOver, 409),
    (SeatTaken, 409),
    (NotYourTurn, 409),
    (UnknownBox, 400),
    (IllegalAction, 409),
    (CubileteError, 400),
)


def add_refusal_handlers(app: FastAPI) -> None:
    app.add_exception_handler(CubileteError, refuse)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, malformed)  # type: ignore[arg-type]
    app.add_exception_handler(HTTPException, http_refusal)  # type: ignore[arg-type]
    app.add_exception_handler(TooManyRequests, too_many_requests)  # type: ignore[arg-type]
    for failure in DATABASE_FAILURES:  # from any route: every read of the database
        app.add_exception_handler(failure, database_unavailable)


def refuse(request: Request, error: CubileteError) -> JSONResponse:
    if isinstance(error, SaveFailed):
        return _database_failed(request, error.code)
    status = next(code for kind, code in _STATUS if isinstance(error, kind))
    answer = refusal(request, error.code, error.params, status)
    if isinstance(error, TablesOverBudget):
        answer.headers["Retry-After"] = str(TABLES_RETRY_AFTER)
    if isinstance(error, ServerStopping):
        answer.headers["Retry-After"] = STOPPING_RETRY_AFTER
    if isinstance(error, ReactionTooSoon):
        answer.headers["Retry-After"] = str(error.params["seconds"])
    return answer


def database_unavailable(request: Request, error: Exception) -> JSONResponse:
    """The database is down, frozen or too slow (its timeouts: storage/connections.py) for a read."""
    log.warning("the database failed a request to %s: %s", request.url.path, error)
    return _database_failed(request, "database_unavailable")


def _database_failed(request: Request, code: str) -> JSONResponse:
    """503, try again soon; in the language of the game if it is in memory (the database is asked nothing more)."""
    body = refusal_json(refusal_language(request, look_up_game=False), code, {})
    return JSONResponse(body, status_code=503, headers=DATABASE_RETRY_AFTER)


def malformed(request: Request, error: RequestValidationError) -> JSONResponse:
    code, params = validation_refusal(error.errors()[0])
    body = error.body if isinstance(error.body, dict) else {}
    return refusal(request, code, params, 422, body.get("lang"))


async def http_refusal(request: Request, error: HTTPException) -> Response:
    """A body FastAPI cannot decode (not UTF-8, nested too deep) is refused in the player's language;
    FastAPI answers the others (an unknown address, a method a route does not take)."""
    if error.status_code == 400 and error.detail == BODY_PARSE_ERROR:
        return refusal(request, "body_unreadable", {}, 400)
    return await http_exception_handler(request, error)


def too_many_requests(request: Request, error: TooManyRequests) -> JSONResponse:
    """In the request's language, not the game's: reading the game would cost what the limit saves."""
    body = refusal_json(request_language(request), "too_many_requests", {"seconds": error.seconds})
    return JSONResponse(body, status_code=429, headers={"Retry-After": str(error.seconds)})


def refusal(request: Request, code: str, params: dict[str, Any], status: int, body_lang: Any = None) -> JSONResponse:
    """Every refusal's answer: its code and parameters, the player's text and the English one."""
    return JSONResponse(refusal_json(refusal_language(request, body_lang), code, params), status_code=status)


def refusal_language(request: Request, body_lang: Any = None, look_up_game: bool = True) -> str:
    """The reader's language: the one the request chose (a page sends `?lang=`), else the game's when the
    request is about a game (or creates one), else the browser's. Without `look_up_game`, only a game in
    memory is asked (the database is not)."""
    chosen = (request.query_params.get("lang"), request.cookies.get("lang"), body_lang)
    if any(lang in LANGUAGES for lang in chosen):  # the game need not be read
        return request_language(request, body_lang)
    game_lang = getattr(request.state, "game_lang", None)
    game_id = request.path_params.get("game_id")
    if game_lang is None and game_id is not None:
        games = games_of(request)
        try:
            live = games.get(game_id) if look_up_game else games.in_memory(game_id)
            game_lang = None if live is None else live.lang
        except (CubileteError, *DATABASE_FAILURES):  # no such game, or none that can be loaded now
            pass
    return request_language(request, game_lang if game_lang in LANGUAGES else None)
