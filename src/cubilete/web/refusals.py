"""Every refusal the app answers, in one shape: its code and parameters, the player's text and the
English one, with an HTTP status by kind. The player's language is the game's when the request is
about a game (or creates one), else the request's."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException

from ..engine.errors import CubileteError, IllegalAction, NotYourTurn, UnknownBox
from ..storage import SaveFailed
from .access import CreationRefused
from .api_models import validation_refusal
from .games import GameNotFound, StaleRequest
from .i18n import LANGUAGES, refusal_json, request_language
from .model_route import BODY_PARSE_ERROR
from .seats import SeatRefused, SeatTaken
from .services import games_of
from .table_options import HintsOff

_STATUS = (
    (GameNotFound, 404),
    (SaveFailed, 503),
    (SeatRefused, 403),
    (HintsOff, 403),
    (CreationRefused, 403),
    (StaleRequest, 409),
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


def refuse(request: Request, error: CubileteError) -> JSONResponse:
    status = next(code for kind, code in _STATUS if isinstance(error, kind))
    return refusal(request, error.code, error.params, status)


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


def refusal(request: Request, code: str, params: dict[str, Any], status: int, body_lang: Any = None) -> JSONResponse:
    """Every refusal's answer: its code and parameters, the player's text and the English one."""
    return JSONResponse(refusal_json(refusal_language(request, body_lang), code, params), status_code=status)


def refusal_language(request: Request, body_lang: Any = None) -> str:
    """The game's language when the request is about a game (or creates one), else the request's."""
    game_lang = getattr(request.state, "game_lang", None)
    game_id = request.path_params.get("game_id")
    if game_lang is None and game_id is not None:
        try:
            game_lang = games_of(request).get(game_id).lang
        except CubileteError:  # no such game, or one that cannot be loaded: the request's language
            pass
    return game_lang if game_lang in LANGUAGES else request_language(request, body_lang)
