"""Game states as the JSON the client draws: everything read from the engine, nothing decided here."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..engine.actions import Score
from ..engine.protocol import GameState
from .families import web_family
from .sessions import LiveGame


MAX_STEPS = 100  # a client further behind gets the game as it is, not its whole history


def game_view(live: LiveGame, lang: str, since: int | None = None) -> dict[str, Any]:
    """The game now, and with `since` every step after that event index (the last MAX_STEPS at most)."""
    view = {
        "id": live.id,
        "game": live.match.rules.game,
        "family": web_family(live.match.rules.game).id,
        "rules": live.match.rules.name,
        "lang": live.lang,
        "seats": [
            {"name": seat.name, "kind": seat.kind, "level": seat.level, "open": seat.open, "left": seat.left}
            for seat in live.seats
        ],
        "seats_version": live.seats_version,
        "rematch": live.rematch,
        "clock": clock_view(live),
        **state_view(live.state, len(live.match.events), lang),
    }
    if since is not None:
        view["steps"] = [
            {
                "index": index,
                "seat": live.mover(index),
                "event": live.match.events[index],
                "by_clock": live.match.events[index].get("clock") is True,
                **state_view(live.history[index + 1], index + 1, lang),
            }
            for index in range(max(since, len(live.match.events) - MAX_STEPS, 0), len(live.match.events))
        ]
    return view


def clock_view(live: LiveGame) -> dict[str, Any] | None:
    """The turn clock of the seat to move (None without one): when its turn started, when the computer
    may play it, and the server's time now, for the browsers to count down whatever their own clocks say."""
    if live.turn_started is None or live.deadline is None:
        return None
    return {
        "seconds": live.table.turn_clock,
        "turn_started": live.turn_started[1].isoformat(),
        "deadline": live.deadline.isoformat(),
        "now": datetime.now(UTC).isoformat(),
    }


def state_view(state: GameState, events: int, lang: str) -> dict[str, Any]:
    legal = state.legal_actions()
    view: dict[str, Any] = {
        "events": events,
        "current_player": state.current_player,
        "is_over": state.is_over,
        "scores": list(state.scores()),
        "ranking": list(state.ranking()),
        "to_roll": state.is_chance,
        "must_score": bool(legal) and all(isinstance(action, Score) for action in legal),
    }
    view["table"] = web_family(state.game).table(state, legal, lang)
    return view
