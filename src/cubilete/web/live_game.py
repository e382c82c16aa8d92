"""A game in memory: its match (the engine's runner owns the dice), its seats and table options, the
states it went through (for the views' animations), the news other processes announced of it, and the
checkpoint a refused change goes back to. Its lock is held by whoever changes it or draws its view.
Human seats play by the table's rules (players/table.py); bot seats by their level's player."""

from __future__ import annotations

import asyncio
import logging
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from ..engine.actions import action_from_json
from ..engine.errors import CubileteError, IllegalAction, InvalidRecord, NotYourTurn
from ..engine.events import Event, replay
from ..engine.protocol import GameState
from ..engine.runner import Checkpoint, Match, Player
from ..engine.validation import describe
from ..players import make_player
from ..players.table import ADVICE_LEVEL, advisor, auto_score, play_human
from ..storage import STORED_GAME, StoredGame
from .broker import EventsStored, News, SeatsChanged
from .i18n import LANGUAGES
from .seats import BOT, Seat, check_seat_token
from .table_options import TableOptions

log = logging.getLogger(__name__)

AUTO_SCORE = "auto"  # the intention sent when the countdown after the last roll runs out


def _is_auto_score(intention: Any) -> bool:
    return isinstance(intention, dict) and intention.get("type") == AUTO_SCORE


class StateHistory:
    """`history[i]`: the match's state before event i (and after the last one at its length).

    Only the latest states stay in memory, enough for a view to animate the last moves;
    an older one is replayed from the match's events when asked for. Safe to read while
    the game's lock is held by a request that changes it.
    """

    def __init__(self, match: Match, keep: int = 64) -> None:
        self._match = match
        self._keep = keep
        self._start = len(match.events)
        self._states = [match.state]
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return self._start + len(self._states)

    def __getitem__(self, index: int) -> GameState:
        with self._lock:
            if not 0 <= index < self._start + len(self._states):
                raise IndexError(index)
            if index < self._start:
                initial, events = self._match.initial, self._match.events[: self._start - 1]
                self._states[:0] = [initial, *replay(initial, events)]
                self._start = 0
            return self._states[index - self._start]

    def append(self, state: GameState) -> None:
        with self._lock:
            self._states.append(state)
            if len(self._states) > 2 * self._keep:
                dropped = len(self._states) - self._keep
                del self._states[:dropped]
                self._start += dropped

    def truncate(self, length: int) -> None:
        """Forget the states after the first `length` (the match has been put back to that point)."""
        with self._lock:
            if length <= self._start:
                self._start, self._states = length - 1, [self._match.state]
            else:
                del self._states[length - self._start :]


def new_game_id() -> str:
    """A new game's id, 12 URL-safe characters; never one starting with "-", which a command line
    (`cubilete export ID`, `cubilete review ID`) would take for an option."""
    while (game_id := secrets.token_urlsafe(9)).startswith("-"):
        pass
    return game_id


@dataclass
class LiveGame:
    """A game in memory: its match, seats, and the state after each event (for animations)."""

    id: str
    lang: str
    seats: tuple[Seat, ...]
    match: Match
    rematch: str | None = None
    table: TableOptions = TableOptions()
    history: StateHistory = field(init=False)
    lock: threading.Lock = field(default_factory=threading.Lock)
    # one catch-up at a time (web/catch_up.py), held across its database read: worker threads alone wait
    # for it, never the event loop, which takes `lock` only
    catching_up: threading.Lock = field(default_factory=threading.Lock)
    players: tuple[Player[Any] | None, ...] = ()
    heard: int = 0  # the most events another process (or this one) announced for the game
    news: bool = False  # something was announced since this copy was last compared with the database
    unsubscribe: Callable[[], None] | None = None
    seats_version: int = 0  # the stored seats' version this copy has
    seats_news: bool = False  # a seat change was announced since the seats were last read
    turn_started: tuple[int, datetime] | None = None  # clock games: the events at the turn's start, and when
    deadline: datetime | None = None  # clock games: when the seat to move's turn clock runs out
    changing: asyncio.Future[None] | None = None  # done once the change under way is settled (Games.change)

    @classmethod
    def from_stored(cls, stored: StoredGame) -> LiveGame:
        """The game as stored; a row the app could not have written is an InvalidRecord (refused alone)."""
        try:
            seats = tuple(Seat.from_json(seat) for seat in STORED_GAME.array(stored.seats, "seats", 1))
            if stored.lang not in LANGUAGES:
                raise STORED_GAME.refuse(f"no language {describe(stored.lang)}")
            match = Match.from_json(stored.record)
            if len(seats) != len(match.names):
                raise STORED_GAME.refuse(f"{len(seats)} seats for {len(match.names)} players")
            table = TableOptions.from_json(stored.table_options)
        except CubileteError as error:  # an unknown game or rule set too, not only an InvalidRecord
            log.warning("game %s cannot be read: %s", stored.id, error)
            if isinstance(error, InvalidRecord):
                raise
            raise STORED_GAME.refuse(str(error)) from error
        return cls(stored.id, stored.lang, seats, match, stored.rematch, table, seats_version=stored.seats_version)

    def __post_init__(self) -> None:
        self.history = StateHistory(self.match)
        self.set_seats(self.seats, self.seats_version)

    def set_seats(self, seats: tuple[Seat, ...], version: int) -> None:
        self.seats, self.seats_version = seats, version
        self.players = tuple(
            # a bot seat always names its level; the advice's only stands in for a record without one
            make_player(seat.level or ADVICE_LEVEL, self.match.rules) if seat.kind == BOT else None for seat in seats
        )

    @property
    def state(self) -> GameState:
        return self.match.state

    @property
    def has_bots(self) -> bool:
        return any(seat.kind == BOT for seat in self.seats)

    @property
    def levels(self) -> tuple[str, ...]:
        """The levels whose tables its moves may wait for: the advice's (hints, auto-scores,
        clocks) and each bot's."""
        bots = {seat.level for seat in self.seats if seat.kind == BOT and seat.level}
        return (ADVICE_LEVEL, *sorted(bots - {ADVICE_LEVEL}))

    def needs_solver(self, intention: Any) -> bool:
        """Whether a human's action may wait for the solver's tables: bots answer it, or it is the auto-score."""
        return self.has_bots or _is_auto_score(intention)

    @property
    def seat_to_move(self) -> Seat:
        """The seat to act or to roll; asked only while the game is on."""
        seat = self.state.current_player
        assert seat is not None, "the game is over"
        return self.seats[seat]

    @property
    def bot_to_move(self) -> bool:
        seat = self.state.current_player  # None once the game is over
        return seat is not None and self.seats[seat].kind == BOT

    def mover(self, index: int) -> int | None:
        """The seat that made event `index` (the seat to move before it)."""
        return self.history[index].current_player

    def check_seat_to_move(self, seat: int, token: str) -> None:
        self.check_seat(seat, token)
        state = self.state
        if not state.is_over and seat != state.current_player:
            raise NotYourTurn("not_your_turn", seat=state.current_player, name=self.seat_to_move.name)

    def check_seat(self, seat: int, token: str) -> None:
        check_seat_token(self.seats, seat, token)

    def play(self, seat: int, intention: Any) -> None:
        """A human seat's intention: an engine action, or the auto-score after the last roll; played by the
        table's rules (players/table.py). Errors leave the game unchanged."""
        state = self.state
        if state.is_over:
            raise IllegalAction("game_over")
        if seat != state.current_player:
            raise NotYourTurn("not_your_turn", seat=state.current_player, name=self.seat_to_move.name)
        action = auto_score(state, self.match.rules) if _is_auto_score(intention) else action_from_json(intention)
        for after in play_human(self.match, seat, action):
            self._keep(after)

    def play_then_bots(self, seat: int, intention: Any) -> None:
        """A human seat's intention, then the bots' turns until a human is to move."""
        self.play(seat, intention)
        self.advance_bots()

    def play_turn_for_clock(self) -> None:
        """The computer plays the rest of the seat to move's turn, each step marked "clock"."""
        seat, player = self.state.current_player, advisor(self.match.rules)
        while not self.state.is_over and self.state.current_player == seat:
            self._keep(self.match.advance([player] * len(self.seats), max_steps=1, by_clock=True))

    def play_out(self, seat: int, player: Player[Any]) -> None:
        """`player` plays the seat's decisions, and the bots theirs, to the game's end (a daily challenge
        left unfinished when its day ended: web/daily.py)."""
        players = tuple(player if index == seat else bot for index, bot in enumerate(self.players))
        while not self.state.is_over:
            self._keep(self.match.advance(players, max_steps=1))

    def turn_start(self) -> int:
        """The number of events when the seat to move got its turn."""
        seat, start = self.state.current_player, len(self.match.events)
        while start > 0 and self.history[start - 1].current_player == seat:
            start -= 1
        return start

    def advance_bots(self) -> None:
        """Let the bots play, one step at a time so that each state is kept, until a human is to move."""
        while self.bot_to_move:
            self._keep(self.match.advance(self.players, max_steps=1))

    def _keep(self, state: GameState) -> GameState:
        """Keep the state a match operation led to (each adds exactly one event); answers it."""
        self.history.append(state)
        return state

    def replay(self, event: Event) -> None:
        """Apply an event stored by another process; its dice must be the ones this match rolls."""
        self._keep(self.match.follow(event))

    def stop_hearing(self) -> None:
        """Leave the broker. The subscription refers back to this game: dropping it too lets the game
        be freed as soon as nothing else holds it, rather than at the collector's next full pass."""
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None

    def hear(self, news: News) -> None:
        """A broker's news (from any thread): the game has more events, or its seats changed (who is
        connected is web/presence.py's)."""
        if isinstance(news, EventsStored):
            self.heard = max(self.heard, news.events)
        elif isinstance(news, SeatsChanged):
            self.seats_news = True
        else:
            return
        self.news = True

    def is_behind(self) -> bool:
        """Whether news since the last catch-up may mean the database has more than this copy, or a
        catch-up is under way (its news taken, not yet applied)."""
        return (self.news and self._heard_more()) or self.catching_up.locked()

    def take_news(self) -> TakenNews:
        """(A catch-up begins, holding the lock.) The news so far: news told from now on is the next catch-up's."""
        taken = TakenNews(self.news, self.seats_news)
        self.news = self.seats_news = False
        return taken

    def give_back_news(self, taken: TakenNews) -> None:
        """(The catch-up failed.) Its news still counts: the next read catches up."""
        self.news |= taken.news
        self.seats_news |= taken.seats

    def _heard_more(self) -> bool:
        return self.seats_news or self.heard > len(self.match.events) or (self.state.is_over and self.rematch is None)

    def rewind(self, checkpoint: Checkpoint) -> None:
        """Put the match back as it was at `match.checkpoint()` (a refused move, a failed save), and
        forget the states it went through since."""
        self.match.rewind(checkpoint)
        self.history.truncate(checkpoint.events + 1)


class TakenNews(NamedTuple):
    news: bool
    seats: bool
