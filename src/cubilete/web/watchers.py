"""Who else is told of a game's changes stored by this process, besides its pages (the broker): the
watchers of `Games.watchers`, such as Web Push's notifier. Each is called holding the game's lock, so
it must only note what happened and return; one that fails is logged and the change stands."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from .live_game import LiveGame
    from .seats import Seat

log = logging.getLogger(__name__)


class Watcher(Protocol):
    def stored(self, live: LiveGame, first: int) -> None:
        """The game's events from index `first` on were stored by this process."""

    def seats_stored(self, live: LiveGame, before: tuple[Seat, ...]) -> None:
        """The game's seats, which were `before`, were changed by this process."""


def tell_stored(watchers: Iterable[Watcher], live: LiveGame, first: int) -> None:
    _tell(watchers, lambda watcher: watcher.stored(live, first))


def tell_seats_stored(watchers: Iterable[Watcher], live: LiveGame, before: tuple[Seat, ...]) -> None:
    _tell(watchers, lambda watcher: watcher.seats_stored(live, before))


def _tell(watchers: Iterable[Watcher], call: Callable[[Watcher], None]) -> None:
    """`call(watcher)` for each watcher; one that fails does not stop the others nor the change."""
    for watcher in watchers:
        try:
            call(watcher)
        except Exception:
            log.exception("a watcher of the games failed")
