"""Game states as the JSON the client draws: everything read from the engine, nothing decided here."""

from __future__ import annotations

import threading
from collections import OrderedDict
from datetime import datetime
from typing import Any

from ..engine.actions import Score
from ..engine.games import family_of
from ..engine.protocol import GameState
from .daily_secrecy import daily_view
from .families import web_family
from .live_game import LiveGame
from .seat_names import shown_name

MAX_STEPS = 100  # a client further behind gets the game as it is, not its whole history
KEPT_STATE_VIEWS = 1024  # every browser of a game asks for the same few states: each is drawn once


def locked_view(live: LiveGame, lang: str, now: datetime, since: int | None = None) -> dict[str, Any]:
    """`game_view`, drawn holding the game's lock: never a view torn by a move being made."""
    with live.lock:
        return game_view(live, lang, now, since)


def game_view(live: LiveGame, lang: str, now: datetime, since: int | None = None) -> dict[str, Any]:
    """The game at `now` (the games' clock: a turn clock's time, whether a daily challenge is still secret),
    and with `since` every step after that event index (the last MAX_STEPS at most). Drawn holding the
    game's lock (`locked_view`)."""
    events = len(live.match.events)
    view = {
        "id": live.id,
        "game": live.match.rules.game,
        "family": family_of(live.match.rules.game).id,
        "rules": live.match.rules.name,
        "lang": live.lang,
        "seats": [
            {
                "name": shown_name(seat.name, lang), "kind": seat.kind, "level": seat.level, "open": seat.open, "left": seat.left,
                "unclaimed": seat.unclaimed, "profile": seat.profile,
            }
            for seat in live.seats
        ],
        "seats_version": live.seats_version,
        "rematch": live.rematch,
        "clock": clock_view(live, now),
        "hints": live.table.hints,
        # the game page hides hints, the live bar, watch and invite links and reactions at a daily table
        "daily": daily_view(live.table.daily, now),
        **STATE_VIEWS.view(live.state, events, lang),
    }
    if since is not None:
        view["steps"] = [
            {
                "index": index,
                "seat": live.mover(index),
                "event": live.match.events[index].to_json(),
                "by_clock": live.match.events[index].by_clock,
                **STATE_VIEWS.view(live.history[index + 1], index + 1, lang),
            }
            for index in range(max(since, events - MAX_STEPS, 0), events)
        ]
    return view


def clock_view(live: LiveGame, now: datetime) -> dict[str, Any] | None:
    """The turn clock of the seat to move (None without one): when its turn started, when the computer
    may play it, and the server's time now, for the browsers to count down whatever their own clocks say."""
    if live.turn_started is None or live.deadline is None:
        return None
    return {
        "seconds": live.table.turn_clock,
        "turn_started": live.turn_started[1].isoformat(),
        "deadline": live.deadline.isoformat(),
        "now": now.isoformat(),
    }


def state_view(state: GameState, events: int, lang: str) -> dict[str, Any]:
    legal = state.legal_actions()
    return {
        "events": events,
        "current_player": state.current_player,
        "is_over": state.is_over,
        "scores": list(state.scores()),
        "ranking": list(state.ranking()),
        "to_roll": state.is_chance,
        "must_score": bool(legal) and all(isinstance(action, Score) for action in legal),
        "table": web_family(state.game).table(state, legal, lang),
    }


class StateViews:
    """The latest state views drawn, by state (states are immutable: a view never goes stale).

    A state is known by its identity, and kept with its view so that the identity cannot be reused.
    The views are shared: callers copy them into their answers and change nothing in them.
    """

    def __init__(self, capacity: int) -> None:
        self._capacity = capacity
        self._views: OrderedDict[tuple[int, int, str], tuple[GameState, dict[str, Any]]] = OrderedDict()
        self._lock = threading.Lock()

    def view(self, state: GameState, events: int, lang: str) -> dict[str, Any]:
        key = (id(state), events, lang)
        with self._lock:
            kept = self._views.get(key)
            if kept is not None and kept[0] is state:
                self._views.move_to_end(key)
                return kept[1]
        drawn = state_view(state, events, lang)
        with self._lock:
            self._views[key] = (state, drawn)
            if len(self._views) > self._capacity:
                self._views.popitem(last=False)
        return drawn


STATE_VIEWS = StateViews(KEPT_STATE_VIEWS)
