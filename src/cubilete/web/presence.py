"""Who is at the table: the seats whose pages follow the game live, told to the other players so that
they see who is away. Nothing is stored: presence comes from the live sockets alone.

A page proves the seats it plays with their tokens over its socket (web/live.py), and says whether it
is visible (a page in a background tab or a locked phone is not); each process counts its own sockets
per seat, and tells the others through the broker which seats its pages hold of each game, and which
of those only hidden pages hold (`SeatsPresent`, one message when that changes). A process that starts following a game
announces its own set; every process following it that did not know the newcomer answers with its
set, so both know each other's. A seat is present while any page of it, in any process, is connected;
visible while any of those pages is visible (push then does not tell it that it is its turn).
(A process that dies without a word leaves its seats present to the others until their pages reload.)
"""

from __future__ import annotations

import secrets
import threading
from collections.abc import Callable, Iterable

from .broker import Broker, News, SeatsPresent


class GamePresence:
    """One game's presence in this process: each local follower's seats, and each other process's set."""

    def __init__(self, unsubscribe: Callable[[], None]) -> None:
        self.unsubscribe = unsubscribe
        self.followers: dict[int, frozenset[int]] = {}  # a local follower's id: its seats
        self.hidden: set[int] = set()  # the local followers whose pages are hidden
        self.others: dict[str, SeatsPresent] = {}  # another process: the seats its pages hold

    def local(self) -> frozenset[int]:
        return frozenset[int]().union(*self.followers.values())

    def local_visible(self) -> frozenset[int]:
        return frozenset[int]().union(*(seats for follower, seats in self.followers.items() if follower not in self.hidden))

    def news(self, origin: str) -> SeatsPresent:
        """This process's seats of the game, as told to the others."""
        seats = self.local()
        return SeatsPresent(origin, tuple(sorted(seats)), tuple(sorted(seats - self.local_visible())))


class Presence:
    """The seats present at the games this process follows live."""

    def __init__(self, broker: Broker) -> None:
        self._broker = broker
        self._origin = secrets.token_hex(6)  # this process, in its messages
        self._games: dict[str, GamePresence] = {}
        self._lock = threading.Lock()
        self._next_id = 0

    def follow(self, game_id: str) -> int:
        """A page starts following the game (before it listens to the broker itself, so that presence
        news is known here when the page draws its view); answers its follower id, for `claim` and `leave`."""
        with self._lock:
            self._next_id += 1
            follower = self._next_id
            game = self._games.get(game_id)
            first = game is None
            if game is None:
                game = self._games[game_id] = GamePresence(lambda: None)
            game.followers[follower] = frozenset()
        if first:
            game.unsubscribe = self._broker.subscribe(game_id, lambda news: self._heard(game_id, news))
            self._announce(game_id, game.news(self._origin))  # the others answer with theirs
        return follower

    def claim(self, game_id: str, follower: int, seats: Iterable[int]) -> None:
        """The follower's page plays these seats (their tokens checked)."""
        self._change(game_id, follower, frozenset(seats))

    def show(self, game_id: str, follower: int, visible: bool) -> None:
        """The follower's page became visible, or hidden (a page is visible until it says otherwise)."""
        self._change(game_id, follower, None, visible)

    def leave(self, game_id: str, follower: int) -> None:
        """The follower's page disconnected."""
        self._change(game_id, follower, None)

    def present(self, game_id: str) -> frozenset[int]:
        """The seats with a page connected, in any process."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                return frozenset()
            return game.local().union(*(frozenset(news.seats) for news in game.others.values()))

    def visible(self, game_id: str) -> frozenset[int]:
        """The seats with a visible page, in any process (known for the games this process follows)."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                return frozenset()
            others = (frozenset(news.seats) - frozenset(news.hidden) for news in game.others.values())
            return game.local_visible().union(*others)

    def _change(self, game_id: str, follower: int, seats: frozenset[int] | None, visible: bool | None = None) -> None:
        """A follower's new seats, or its page's visibility, or (neither) it left."""
        with self._lock:
            game = self._games.get(game_id)
            if game is None or follower not in game.followers:
                return
            before = game.news(self._origin)
            if seats is not None:
                game.followers[follower] = seats
            elif visible is not None:
                (game.hidden.discard if visible else game.hidden.add)(follower)
            else:
                del game.followers[follower]
                game.hidden.discard(follower)
            after = game.news(self._origin)
            last = not game.followers
            if last:
                del self._games[game_id]
        if last:
            game.unsubscribe()
        if after != before:
            self._announce(game_id, after)

    def _announce(self, game_id: str, news: SeatsPresent) -> None:
        self._broker.publish(game_id, news)

    def _heard(self, game_id: str, news: News) -> None:
        """(From the broker's thread.) Another process's seats of a game followed here."""
        if not isinstance(news, SeatsPresent) or news.origin == self._origin:
            return
        with self._lock:
            game = self._games.get(game_id)
            if game is None:
                return
            newcomer = news.origin not in game.others
            game.others[news.origin] = news
            ours = game.news(self._origin)
        if newcomer:
            self._announce(game_id, ours)
