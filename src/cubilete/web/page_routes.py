"""The HTML pages (home, a game, a game's rules, the daily challenges, the boards), the messages of every language, and QR codes of
invite links."""

from __future__ import annotations

import io
from typing import Any

import segno
from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, Response

from ..analysis.families import family_analysis
from ..engine.games import GAMES, game_info
from .api_models import Language
from .catch_up import GameNotFound
from .daily import DAILY_GAMES
from .i18n import messages, request_language
from .pages import PAGE_METHODS, render_page, rules_html
from .rate_limits import RouteClass, limited
from .reactions import REACTIONS
from .services import games_of, services

QR_MAX_TEXT = 512

page_router = APIRouter()


@page_router.api_route("/", methods=PAGE_METHODS, response_class=HTMLResponse, include_in_schema=False)
def home(request: Request) -> str:
    return render_page("index", request_language(request), services(request).home_data())


@page_router.api_route("/game/{game_id}", methods=PAGE_METHODS, response_class=HTMLResponse, include_in_schema=False)
def game_page(request: Request, game_id: str) -> HTMLResponse:
    """In the reader's language (a friend's may differ from the creator's), with the game's link at the
    address other devices reach (the watch link, the invites of ⚙) and the keys of the players' reactions."""
    lang = request_language(request)
    try:
        games_of(request).get(game_id)
    except GameNotFound:
        return HTMLResponse(render_page("missing", lang, {}), status_code=404)
    data = {
        "id": game_id, "link": services(request).game_url(request, game_id), "reactions": list(REACTIONS),
        "this_device_only": services(request).links.this_device_only,  # ⚙'s invites warn that nobody else reaches them
    }
    return HTMLResponse(render_page("game", lang, data))


def games_with_units(games: tuple[str, ...]) -> dict[str, Any]:
    """The games with the unit of their mean loss per decision (points, or chance to win) for the boards, and
    whether each has a daily challenge."""
    return {
        "games": [
            {"id": game, "unit": family_analysis(game).loss_unit, "daily": game in DAILY_GAMES} for game in games
        ]
    }


@page_router.api_route("/daily", methods=PAGE_METHODS, response_class=HTMLResponse, include_in_schema=False)
def daily(request: Request) -> str:
    """Today's challenge of every game; the page asks the daily API for each (its state is the player's)."""
    return render_page("daily", request_language(request), games_with_units(DAILY_GAMES))


@page_router.api_route("/boards", methods=PAGE_METHODS, response_class=HTMLResponse, include_in_schema=False)
def boards(request: Request) -> str:
    """Every game's accuracy board and ratings, and today's board of the games with a daily challenge."""
    return render_page("boards", request_language(request), games_with_units(tuple(GAMES)))


@page_router.api_route("/rules/{game}", methods=PAGE_METHODS, response_class=HTMLResponse, include_in_schema=False)
def rules(request: Request, game: str) -> str:
    info = game_info(game)
    lang = request_language(request)
    return render_page("rules", lang, {"game": info.id}, rules_html(info.id, lang))


@page_router.get("/api/i18n/{lang}", summary="Every message of the app in one language")
def catalog(lang: Language) -> dict[str, str | dict[str, str]]:
    return messages(lang)


@page_router.get(
    "/api/qr", summary="A QR code of a short text (an invite link), as SVG", include_in_schema=False,
    dependencies=[limited(RouteClass.QR_CODES)],
)
def qr_code(text: str = Query(min_length=1, max_length=QR_MAX_TEXT)) -> Response:
    svg = io.BytesIO()
    segno.make(text, error="m").save(svg, kind="svg", scale=4, xmldecl=False, dark="#000", light="#fff")
    return Response(svg.getvalue(), media_type="image/svg+xml", headers={"Cache-Control": "private, max-age=86400"})
