"""The review of a game for the web: analysis.review's JSON for the seats people played (a seat
handed to the computer with its player's decisions before, and the turn from which the computer
played it), each decision's turn number, and any past decision's position with its options ranked.

A review is computed once per game and number of events (it only changes when the game moves
on) and kept in a small in-memory cache; it reads a snapshot of the match taken under the
game's lock, so a move made meanwhile is neither blocked nor half seen.
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from typing import Any

from ..analysis.review import review
from ..engine.actions import action_to_json
from ..engine.errors import IllegalAction
from ..engine.events import ActionEvent
from .families import web_family
from .live_game import LiveGame
from .seats import HUMAN
from .views import state_view

CACHED_REVIEWS = 64


class ReviewCache:
    """Review JSON by (game id, events, seats reviewed), the least recently used leaving first."""

    def __init__(self, capacity: int = CACHED_REVIEWS) -> None:
        self.capacity = capacity
        self._reviews: OrderedDict[tuple[str, int, tuple[int, ...]], dict[str, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def review(self, live: LiveGame) -> dict[str, Any]:
        with live.lock:  # the match as it is now: its events may grow once the lock is released
            match = copy.copy(live.match)
            match.events = list(live.match.events)
            seats = reviewed_seats(live)
            handed = {index: seat.computer_from for index, seat in enumerate(live.seats) if seat.computer_from is not None}
        key = (live.id, len(match.events), seats)
        with self._lock:
            cached = self._reviews.get(key)
            if cached is not None:
                self._reviews.move_to_end(key)
                return cached
        result = review(match, seats, handed).to_json()
        turns = turn_numbers(live, len(match.events))
        for decision in result["decisions"]:
            decision["turn"] = turns[decision["index"]]
        result |= {
            "id": live.id,
            "events": len(match.events),
            "seats": [
                {"name": seat.name, "kind": seat.kind, "computer_from_turn": computer_turn(turns, handed.get(index))}
                for index, seat in enumerate(live.seats)
            ],
        }
        with self._lock:
            self._reviews[key] = result
            while len(self._reviews) > self.capacity:
                self._reviews.popitem(last=False)
        return result


def reviewed_seats(live: LiveGame) -> tuple[int, ...]:
    """The seats people played (a seat handed or left to the computer included); every seat in a game of bots."""
    people = tuple(
        index for index, seat in enumerate(live.seats)
        if seat.kind == HUMAN or seat.left or seat.computer_from is not None
    )
    return people or tuple(range(len(live.seats)))


def computer_turn(turns: list[int], computer_from: int | None) -> int | None:
    """The turn from which the computer played a handed seat, once it has played an event of it."""
    return None if computer_from is None or computer_from >= len(turns) else turns[computer_from]


def turn_numbers(live: LiveGame, events: int) -> list[int]:
    """For each of the first `events` events, the number of the mover's turn it belongs to (1 first)."""
    family = web_family(live.match.rules.game)
    started = [0] * live.match.initial.num_players
    numbers = []
    for index in range(events):
        state = live.history[index]
        mover = state.current_player
        assert mover is not None  # a state an event follows has someone to move
        if family.turn_start(state):
            started[mover] += 1
        numbers.append(started[mover])
    return numbers


def position(live: LiveGame, index: int, lang: str) -> dict[str, Any]:
    """The position before event `index`, a past decision (never the one to come: that is a hint,
    for the seat to move alone), with every option ranked and the one taken marked."""
    with live.lock:
        events = len(live.match.events)
        event = live.match.events[index] if 0 <= index < events else None
        state = live.history[index] if event is not None else None
    if not isinstance(event, ActionEvent) or state is None:
        raise IllegalAction("review_no_decision", index=index, events=events)
    family = web_family(state.game)
    return {
        "index": index,
        "seat": state.current_player,
        "turn": turn_numbers(live, index + 1)[index],
        "chosen": action_to_json(event.action),
        "by_clock": event.by_clock,
        "position": state_view(state, index, lang),
        "options": family.rank(state, event.action),
    }
