"""Who is told when a game changes: every browser following it, whichever process accepted the change.

A broker carries one fact per message, "game G now has N events"; followers then read the
steps they have not seen from the game itself. This module holds the interface and the
in-process broker (one server process); a Redis broker with the same interface serves several.
"""

from __future__ import annotations

import logging
import threading
from typing import Callable, Protocol

log = logging.getLogger(__name__)

Listener = Callable[[int], None]


class Broker(Protocol):
    def publish(self, game_id: str, events: int) -> None:
        """The game now has `events` events."""

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        """Call `listener(events)` after each publish for the game (from any thread); answers the unsubscribe."""

    def close(self) -> None: ...


class LocalBroker:
    """Publishes to the listeners of this process, synchronously, in the publisher's thread."""

    def __init__(self) -> None:
        self._listeners: dict[str, list[Listener]] = {}
        self._lock = threading.Lock()

    def publish(self, game_id: str, events: int) -> None:
        with self._lock:
            listeners = list(self._listeners.get(game_id, ()))
        for listener in listeners:
            try:
                listener(events)
            except Exception:  # one broken follower must not stop the others nor the move
                log.exception("a listener of game %s failed", game_id)

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.setdefault(game_id, []).append(listener)

        def unsubscribe() -> None:
            with self._lock:
                listeners = self._listeners.get(game_id, [])
                if listener in listeners:
                    listeners.remove(listener)
                if not listeners:
                    self._listeners.pop(game_id, None)

        return unsubscribe

    def close(self) -> None:
        with self._lock:
            self._listeners.clear()
