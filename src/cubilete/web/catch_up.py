"""Catching a game's copy up with what other processes stored: their events, seats and rematch.

What the database holds is read without the game's lock, then applied holding it: the event loop may
wait for a game's lock (to draw a view, to make a move), never for the database, so no thread holds
that lock across a read. A catch-up's news counts as read only if it succeeds: after a database
failure the next read tries again (`LiveGame.take_news` / `give_back_news`)."""

from __future__ import annotations

from typing import Any

from ..engine.errors import CubileteError
from ..engine.events import event_from_json
from ..storage import Storage
from .live_game import LiveGame
from .seats import Seat
from .turn_clock import TurnClock


class GameNotFound(CubileteError):
    """No game has this id."""


class StaleRequest(CubileteError):
    """The request was made for an earlier moment of the game."""


class CatchUp:
    def __init__(self, storage: Storage, turns: TurnClock) -> None:
        self.storage = storage
        self.turns = turns

    def __call__(self, live: LiveGame, *, for_change: bool = False, unheard: bool = False) -> None:
        """(Without the game's lock; in a worker thread on a server database.) Apply what other processes
        stored since this copy was made. `for_change`: the game's change under way catches up before its
        check; any other catch-up leaves a game with a change under way to that change. `unheard`: read
        even without news (a copy just loaded: a move stored before it listened was not heard). One catch-up of a
        game at a time: a reader that comes while one runs waits for it, then draws what it applied (its
        news was taken: without the wait, that reader drew the copy from before)."""
        with live.catching_up:
            self._catch_up(live, for_change, unheard)

    def _catch_up(self, live: LiveGame, for_change: bool, unheard: bool) -> None:
        news = live.take_news()
        if not (news.news or news.seats or for_change or unheard):  # the catch-up it waited for applied it all
            return
        try:
            seats = self._stored_seats(live) if news.seats else None
            first = len(live.match.events)
            events = [event_from_json(event) for event in self.storage.events_since(live.id, first)]
            with live.lock:
                if not for_change and live.changing is not None:
                    live.give_back_news(news)  # the change under way catches up if it must
                    return
                if seats is not None:
                    _set_seats(live, seats)
                if len(live.match.events) < first:  # a refused change went back meanwhile: read again next time
                    live.give_back_news(news)
                    return
                for event in events[len(live.match.events) - first :]:  # another catch-up may have applied some
                    live.replay(event)
                asks_rematch = live.state.is_over and live.rematch is None
            if asks_rematch and (rematch := self.storage.rematch_of(live.id)) is not None:
                with live.lock:
                    live.rematch = live.rematch or rematch
            self.turns.keep(live)
        except BaseException:
            live.give_back_news(news)
            raise

    def seats(self, live: LiveGame) -> None:
        """(Without the game's lock.) Read the game's seats again (another process changed them)."""
        seats = self._stored_seats(live)
        with live.lock:
            _set_seats(live, seats)

    def _stored_seats(self, live: LiveGame) -> tuple[list[dict[str, Any]], int]:
        stored = self.storage.seats(live.id)
        if stored is None:
            raise GameNotFound("game_not_found", id=live.id)
        return stored


def _set_seats(live: LiveGame, stored: tuple[list[dict[str, Any]], int]) -> None:
    """(Holding the game's lock.) The stored seats, unless this copy has them or newer ones."""
    seats, version = stored
    if version > live.seats_version:
        live.set_seats(tuple(Seat.from_json(seat) for seat in seats), version)
