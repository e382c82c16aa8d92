"""Who is told when a game changes: every browser following it, whichever process accepted the change.

A broker carries one fact per message, "game G now has N events" (or, as SEATS_CHANGED,
"game G's seats changed"); followers then read what they have not seen from the game itself.
The in-process broker serves one server process; redis_broker.py has the same interface for several.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Protocol

log = logging.getLogger(__name__)

Listener = Callable[[int], None]
SEATS_CHANGED = -1  # published instead of an event count: the game's seats changed (read them again)


class Broker(Protocol):
    def publish(self, game_id: str, events: int) -> None:
        """The game now has `events` events."""

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        """Call `listener(events)` after each publish for the game (from any thread); answers the unsubscribe."""

    def close(self) -> None: ...


class LocalBroker:
    """Publishes to the listeners of this process, in the publisher's thread."""

    def __init__(self) -> None:
        self._listeners = Listeners()

    def publish(self, game_id: str, events: int) -> None:
        self._listeners.tell(game_id, events)

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(game_id, listener)

    def close(self) -> None:
        self._listeners.clear()


class Listeners:
    """The listeners of each game, safe to change and call from any thread."""

    def __init__(self) -> None:
        self._by_game: dict[str, list[Listener]] = {}
        self._lock = threading.Lock()

    def add(self, game_id: str, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._by_game.setdefault(game_id, []).append(listener)

        def remove() -> None:
            with self._lock:
                listeners = self._by_game.get(game_id, [])
                if listener in listeners:
                    listeners.remove(listener)
                if not listeners:
                    self._by_game.pop(game_id, None)

        return remove

    def tell(self, game_id: str, events: int) -> None:
        with self._lock:
            listeners = list(self._by_game.get(game_id, ()))
        for listener in listeners:
            try:
                listener(events)
            except Exception:  # one broken follower must not stop the others nor the move
                log.exception("a listener of game %s failed", game_id)

    def clear(self) -> None:
        with self._lock:
            self._by_game.clear()


def open_broker(url: str | None) -> Broker:
    """The broker at `url` (redis://...), or the in-process one when there is none."""
    if url is None:
        return LocalBroker()
    from .redis_broker import RedisBroker

    return RedisBroker(url)
