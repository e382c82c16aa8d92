"""Who is told when a game changes: every browser following it, whichever process accepted the change.

A broker carries one fact per message, its `News`: "game G now has N events" (`EventsStored`),
"game G's seats changed" (`SEATS_CHANGED`); followers then read what they have not seen from the
game itself. The third, "in process P, pages of these seats of game G are connected" (`SeatsPresent`,
web/presence.py), is the whole fact, and is not stored; so is the fourth, "seat S of game G reacted"
(`Reacted`, web/reactions.py). The in-process broker serves one server process; redis_broker.py has
the same interface for several (each news crossing as a versioned, typed message: web/wire.py), and
open_broker.py picks one. A broker that may miss news (Redis restarting) reads it from the database
meanwhile (broker_watch.py).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Protocol

from ..engine.errors import CubileteError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class EventsStored:
    """The game now has this many events."""

    events: int


@dataclass(frozen=True, slots=True)
class SeatsChanged:
    """The game's seats changed: read them again."""


@dataclass(frozen=True, slots=True)
class Reacted:
    """The seat showed the table a preset reaction (web/reactions.py); not stored."""

    seat: int
    key: str


@dataclass(frozen=True, slots=True)
class SeatsPresent:
    """The seats of the game whose pages are connected to the process `origin`, and those of them whose
    pages are all hidden (web/presence.py)."""

    origin: str
    seats: tuple[int, ...]
    hidden: tuple[int, ...] = ()


SEATS_CHANGED = SeatsChanged()
News = EventsStored | SeatsChanged | SeatsPresent | Reacted
Listener = Callable[[News], None]
StoredNews = Callable[[], Iterable[tuple[str, News]]]
"""What the database holds beyond this process's copies of its games, as each game's news."""


class Broker(Protocol):
    def start(self) -> None:
        """(By the app's lifespan.) Start the threads it needs, if any."""

    def publish(self, game_id: str, news: News) -> None:
        """Tell every follower of the game, in every process."""

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        """Call `listener(news)` after each publish for the game (from any thread); answers the unsubscribe."""

    def answers(self) -> bool:
        """Whether the broker answers now (a readiness check)."""

    def read_missed_news_from(self, stored_news: StoredNews) -> None:
        """Where to read the news the broker may miss (while it cannot hear the other processes), to tell
        this process's listeners."""

    def tell_here(self, game_id: str, news: News) -> None:
        """Tell the game's followers in this process only of news it read from the database itself (as
        missed news is told): its pages redraw, as they would on the broker's word."""

    def close(self) -> None: ...


class BrokerUnreachable(CubileteError):
    """The broker does not answer at start: the server does not start."""


class ForeignMessageVersion(CubileteError):
    """A live process of this install speaks messages this one neither reads nor is read by (web/wire.py,
    web/running_processes.py): the server does not start."""


class LocalBroker:
    """Publishes to the listeners of this process, in the publisher's thread."""

    def __init__(self) -> None:
        self._listeners = Listeners()

    def start(self) -> None:
        """Nothing to start: it publishes in the publisher's thread."""

    def publish(self, game_id: str, news: News) -> None:
        self._listeners.tell(game_id, news)

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(game_id, listener)

    def answers(self) -> bool:
        return True  # it is this process

    def read_missed_news_from(self, stored_news: StoredNews) -> None:
        """Nothing to read: in one process no news is missed."""

    def tell_here(self, game_id: str, news: News) -> None:
        self._listeners.tell(game_id, news)

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

    def tell(self, game_id: str, news: News) -> None:
        with self._lock:
            listeners = list(self._by_game.get(game_id, ()))
        for listener in listeners:
            try:
                listener(news)
            except Exception:  # one broken follower must not stop the others nor the move
                log.exception("a listener of game %s failed", game_id)

    def clear(self) -> None:
        with self._lock:
            self._by_game.clear()
