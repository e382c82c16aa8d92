"""A daily challenge's dice stay secret until its day ends (UTC): until then its view, steps, review,
record and live socket are served only to a request that proves its seat, then to anyone.

A page proves its seat on a read with the header `X-Cubilete-Seat: <seat>:<token>` (web/static/js/api.js
sends it for a seat this browser holds), and on the live socket with the seat message a seat's page sends
on opening (web/live.py)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from starlette.requests import HTTPConnection

from ..engine.errors import CubileteError
from .live_game import LiveGame
from .seats import SeatRefused, check_seat_token
from .table_options import DailyMark

SEAT_PROOF_HEADER = "x-cubilete-seat"


class DailySecret(CubileteError):
    """The daily challenge is still its player's own (HTTP 403)."""


def day_end(day: str) -> datetime:
    """When the UTC day `day` (YYYY-MM-DD) ends: the next midnight, UTC."""
    return datetime.combine(date.fromisoformat(day) + timedelta(days=1), time(0), UTC)


def is_secret(mark: DailyMark | None, now: datetime) -> bool:
    return mark is not None and now < day_end(mark.date)


def daily_view(mark: DailyMark | None, now: datetime) -> dict[str, Any] | None:
    """A game view's "daily": null, or its day, whether it is a ranked try, and whether it is still secret."""
    return None if mark is None else {"date": mark.date, "ranked": mark.ranked, "secret": is_secret(mark, now)}


def proven_seat(connection: HTTPConnection) -> tuple[int, str] | None:
    """The seat and token the request's X-Cubilete-Seat header names, if it is well formed."""
    seat, _, token = connection.headers.get(SEAT_PROOF_HEADER, "").partition(":")
    return (int(seat), token) if seat.isdigit() and token else None


def check_reader(live: LiveGame, proof: tuple[int, str] | None, now: datetime) -> None:
    """Refuse (DailySecret) a reader of a daily challenge still secret, unless `proof` is its seat's."""
    mark = live.table.daily
    if mark is None or not is_secret(mark, now):
        return
    if proof is not None:
        try:
            check_seat_token(live.seats, *proof)
            return
        except SeatRefused:
            pass
    raise DailySecret("daily_secret", ends_at=day_end(mark.date).isoformat())
