"""Games being played: seats and their tokens, the runner's match, bots, and saving.

Every game is a `Match` (the engine's runner owns the dice). Human seats act through
`act` with their secret token; bot seats are played by `make_player` when they are to
move. A change is acknowledged only once its events are stored; if storing fails, the
game in memory goes back to what it was. Every change takes one path (`Games._change`): made in
memory (in a worker thread when it may wait for the solver), then stored with the other changes of
that turn of the event loop in one transaction (web/group_commit.py).
Games in memory are a bounded cache of the database, which several server processes may
share: before acting, a process catches its copy up from the stored events, and the
database's unique (game, index) key refuses the second of two actions for the same moment.

A game may have a turn clock. No timer runs on the server: the deadline is computed from
the stored time of the event that gave the seat to move its turn, every browser of the
game counts down to it, and any of them asks (`clock`) when it passes; the server checks
the time and plays the turn at the optimal level through the same storage path, so two
processes asked at once store it once. Seats may change during a game (handed to a bot,
left, joined from the open tables): each change is stored only if the seats are still the
version it was made from, and announced on the broker so that other processes reload them.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import secrets
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from functools import partial
from math import ceil
from typing import Any, NamedTuple

from starlette.concurrency import run_in_threadpool

from ..engine.actions import action_from_json
from ..engine.errors import CubileteError, IllegalAction, InvalidRecord, NotYourTurn
from ..engine.games import rules_for
from ..engine.protocol import GameState
from ..engine.runner import Match, Player, keep_marks
from ..players import make_player, player_levels
from ..players.table import ADVICE_LEVEL, advisor, auto_score, play_human
from .broker import SEATS_CHANGED, Broker
from .families import web_family
from .game_cache import GameCache
from .group_commit import GroupCommit, Outcome
from .storage import Append, EventConflict, OpenTable, Storage, StoredGame
from .warmup import TableWarmer

HUMAN, BOT = "human", "bot"
AUTO_SCORE = "auto"  # the intention sent when the countdown after the last roll runs out
HINTS_ALWAYS, HINTS_AGREED, HINTS_OFF = "always", "agreed", "off"  # TableOptions.hints
CACHED_GAMES = 500  # games kept in memory per process; the others are read again from the database


class GameNotFound(CubileteError):
    """No game has this id."""


class SeatRefused(CubileteError):
    """The request may not act for this seat (wrong token, or a bot's seat)."""


class StaleRequest(CubileteError):
    """The request was made for an earlier moment of the game."""


class SeatTaken(CubileteError):
    """Someone else claimed the open seat first."""


class HintsOff(CubileteError):
    """The table plays without hints and win chances (a game with friends that did not allow them)."""


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str
    level: str | None = None
    token_sha256: str | None = None  # human seats only; the token itself is never stored
    open: bool = False  # a public game's friend seat nobody has claimed yet: anyone may join it
    left: bool = False  # the player left: a bot plays the seat

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "kind": self.kind, "level": self.level, "token_sha256": self.token_sha256,
            "open": self.open, "left": self.left,
        }

    def to_bot(self, left: bool) -> Seat:
        """The seat played by the computer from now on; its token no longer acts."""
        return replace(self, kind=BOT, level=ADVICE_LEVEL, token_sha256=None, open=False, left=left)


@dataclass(frozen=True)
class TableOptions:
    """How the table was set up on the new-game form."""

    turn_clock: int = 0  # seconds per turn, 0 for none
    public: bool = False  # may be listed for anyone on the server to join
    # Hints and win chances: HINTS_ALWAYS (every seat on the creator's device, or bots; games stored
    # before this option too), HINTS_AGREED (the creator allowed them, and a friend takes a seat only
    # after being shown so) or HINTS_OFF (a game with friends that did not allow them).
    hints: str = HINTS_ALWAYS

    def to_json(self) -> dict[str, Any]:
        return {"turn_clock": self.turn_clock, "public": self.public, "hints": self.hints}

    @property
    def hints_on(self) -> bool:
        return self.hints != HINTS_OFF

    def check_hints(self) -> None:
        if not self.hints_on:
            raise HintsOff("hints_off")


def table_hints(seats: Sequence[SeatRequest], allowed: bool) -> str:
    """A new table's hints: always on without friends' seats; with them, on only if the creator allowed them."""
    if not any(seat.invited for seat in seats):
        return HINTS_ALWAYS
    return HINTS_AGREED if allowed else HINTS_OFF


@dataclass(frozen=True)
class SeatRequest:
    """A seat as asked for when creating a game."""

    name: str
    kind: str
    level: str | None = None
    invited: bool = False  # a friend's seat (invite link); open to anyone in a public game


def _is_auto_score(intention: Any) -> bool:
    return isinstance(intention, dict) and intention.get("type") == AUTO_SCORE


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_seat_token(seats: Sequence[Seat], seat: int, token: str) -> None:
    """Refuse (SeatRefused) unless `token` is the token of the human seat `seat`."""
    if not 0 <= seat < len(seats):
        raise SeatRefused("seat_range", last=len(seats) - 1, seat=seat)
    expected = seats[seat].token_sha256
    if expected is None:
        raise SeatRefused("bot_seat", seat=seat, name=seats[seat].name)
    if not hmac.compare_digest(expected, _digest(token)):
        raise SeatRefused("wrong_token", seat=seat, name=seats[seat].name)


def _replay(initial: GameState, events: Sequence[dict[str, Any]]) -> list[GameState]:
    """The state before the first of these events and after each one."""
    states = [initial]
    for event in events:
        state = states[-1]
        if "roll" in event:
            states.append(state.apply_roll(event["roll"]))
        else:
            states.append(state.apply(action_from_json(event["action"]), event["seat"]))
    return states


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
                self._states[:0] = _replay(self._match.initial, self._match.events[: self._start])[:-1]
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
    players: tuple[Player[Any] | None, ...] = ()
    heard: int = 0  # the most events another process (or this one) announced for the game
    news: bool = False  # something was announced since this copy was last compared with the database
    unsubscribe: Callable[[], None] | None = None
    seats_version: int = 0  # the stored seats' version this copy has
    seats_news: bool = False  # a seat change was announced since the seats were last read
    turn_started: tuple[int, datetime] | None = None  # clock games: the events at the turn's start, and when
    deadline: datetime | None = None  # clock games: when the seat to move's turn clock runs out
    changing: asyncio.Future[None] | None = None  # done once the change under way is settled (Games._change)

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
            self._keep(self.match.advance([player] * len(self.seats), max_steps=1))
            self.match.events[-1]["clock"] = True

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

    def replay(self, event: dict[str, Any]) -> None:
        """Apply an event stored by another process; its dice must be the ones this match rolls."""
        if "roll" in event:
            self._keep(self.match.roll())
            if self.match.events[-1]["roll"] != event["roll"]:
                raise InvalidRecord(
                    "invalid_record", what="game record", detail=f"roll {self.match.rolls} does not match the record's seed"
                )
        else:
            self._keep(self.match.act(action_from_json(event["action"]), event["seat"]))
        keep_marks(event, self.match.events[-1])

    def stop_hearing(self) -> None:
        """Leave the broker. The subscription refers back to this game: dropping it too lets the game
        be freed as soon as nothing else holds it, rather than at the collector's next full pass."""
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None

    def hear(self, events: int) -> None:
        """A broker's news (from any thread): the game has `events` events, or its seats changed."""
        if events == SEATS_CHANGED:
            self.seats_news = True
        else:
            self.heard = max(self.heard, events)
        self.news = True

    def is_behind(self) -> bool:
        """Whether news since the last look may mean the database has more than this copy; the news is
        then looked at."""
        if not self.news:
            return False
        self.news = False
        return self._heard_more()

    def may_be_behind(self) -> bool:
        """`is_behind`, without looking at the news (it still counts for the next `is_behind`)."""
        return self.news and self._heard_more()

    def _heard_more(self) -> bool:
        return self.seats_news or self.heard > len(self.match.events) or (self.state.is_over and self.rematch is None)

    def checkpoint(self) -> Checkpoint:
        """Where the match is now, to go back to with `rewind`."""
        return Checkpoint(len(self.match.events), self.match.state, self.match.rolls)

    def rewind(self, checkpoint: Checkpoint) -> None:
        """Put the match back as it was at the checkpoint (a refused move, a failed save)."""
        del self.match.events[checkpoint.events :]
        self.match.state, self.match.rolls = checkpoint.state, checkpoint.rolls
        self.history.truncate(checkpoint.events + 1)


class Checkpoint(NamedTuple):
    events: int
    state: GameState
    rolls: int


class Games:
    """The games of one server process: created, loaded from storage on first use, stored with each change."""

    def __init__(
        self,
        storage: Storage,
        warmer: TableWarmer,
        broker: Broker,
        cached_games: int = CACHED_GAMES,
        clock_scale: float = 1.0,
    ) -> None:
        self.storage = storage
        self.warmer = warmer
        self.broker = broker
        self.clock_scale = clock_scale  # a test hook: every turn clock lasts this fraction of its seconds
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)  # the clock's time source
        self._live: GameCache[LiveGame] = GameCache(cached_games, lambda live: live.state.is_over, _forget)
        self._group = GroupCommit(storage)

    def close(self) -> None:
        self._group.close()

    def create(
        self,
        game: str,
        rules_name: str | None,
        seats: Sequence[SeatRequest],
        seed: int | None,
        lang: str,
        table: TableOptions = TableOptions(),
    ) -> tuple[LiveGame, list[str | None]]:
        """A new game and each seat's token (None for bots); nothing is stored on error."""
        rules = rules_for(game, rules_name)
        if seed is not None and any(request.invited for request in seats):
            # dice a client can choose are dice a client can foresee: only for games on one device
            raise InvalidRecord("seed_one_device")
        levels = player_levels(game)
        for request in seats:
            if request.kind == BOT and request.level not in levels:
                raise InvalidRecord("bot_level", game=game, levels=list(levels), level=str(request.level))
        tokens = [secrets.token_urlsafe(18) if request.kind == HUMAN else None for request in seats]
        stored_seats = tuple(
            Seat(request.name, request.kind, request.level if request.kind == BOT else None,
                 None if token is None else _digest(token), open=table.public and request.invited)
            for request, token in zip(seats, tokens)
        )
        match = Match(rules, [seat.name for seat in stored_seats], seed)
        live = LiveGame(secrets.token_urlsafe(9), lang, stored_seats, match, table=table)
        self.storage.insert(live.id, lang, [seat.to_json() for seat in stored_seats], match.to_json(), table.to_json())
        self._time_turn(live)
        self.broker.publish(live.id, 0)
        return self._remember(live), tokens

    def get(self, game_id: str) -> LiveGame:
        """The game, caught up with what other processes stored if it heard of any."""
        live = self._live.get(game_id)
        if live is None:
            stored = self.storage.load(game_id)
            if stored is None:
                raise GameNotFound("game_not_found", id=game_id)
            live = self._remember(_from_storage(stored))
            with live.lock:  # a move stored between the load and the subscription was not heard
                self._catch_up(live)
        elif live.changing is None and live.is_behind():  # else the change under way catches up if it must
            with live.lock:
                self._catch_up(live)
        return live

    async def find(self, game_id: str) -> LiveGame:
        """`get`, on the event loop when that takes no network round trip (a local database, or a game in
        memory with no news), else in a worker thread."""
        if not self.storage.is_local:
            live = self._live.get(game_id)
            if live is None or live.may_be_behind():
                return await run_in_threadpool(self.get, game_id)
            return live
        return self.get(game_id)

    async def act(self, game_id: str, seat: int, token: str, intention: Any, at: int | None) -> LiveGame:
        """A human seat's move, then the bots' turns until a human is to move. Answers once stored."""
        live = await self.find(game_id)
        needs_solver = live.needs_solver(intention)
        if needs_solver:
            live.check_seat_to_move(seat, token)  # refused at once, before any wait for the solver's tables
            await self._tables(live)

        def check() -> None:
            self._check_act(live, seat, token, at)

        await self._change(live, partial(live.play_then_bots, seat, intention), check, in_thread=needs_solver)
        return live

    async def advance_bots(self, game_id: str, seat: int, token: str) -> LiveGame:
        """Only a human seat of the game may set its bots going (a game of bots alone has none)."""
        live = await self.find(game_id)
        if any(s.kind == HUMAN for s in live.seats):
            live.check_seat(seat, token)
        await self._tables(live)
        await self._change(live, live.advance_bots, partial(self._catch_up, live), in_thread=True)
        return live

    async def rematch(self, game_id: str, seat: int | None, token: str | None) -> LiveGame:
        """The next game with the same seats and tokens; asking twice, or in two processes, gives the same game."""
        live = await self.find(game_id)

        def check_then_start() -> None:
            if any(s.kind == HUMAN for s in live.seats):
                live.check_seat(seat if seat is not None else -1, token or "")
            self._catch_up(live)
            if not live.state.is_over:
                raise IllegalAction("rematch_not_over")
            if live.rematch is None:
                live.rematch = self._start_rematch(live)

        await self._change(live, _no_events, check_then_start, in_thread=True)
        assert live.rematch is not None, "set by check_then_start"
        return await self.find(live.rematch)

    def _start_rematch(self, live: LiveGame) -> str:
        """(Holding the game's lock.) Store the rematch, unless another process did first; answers its id."""
        match = Match(live.match.rules, live.match.names)
        new = LiveGame(secrets.token_urlsafe(9), live.lang, live.seats, match, table=live.table)
        stored = self.storage.insert_rematch(
            live.id, new.id, new.lang, [s.to_json() for s in new.seats], match.to_json(), new.table.to_json()
        )
        if stored is None:
            raise GameNotFound("game_not_found", id=live.id)
        if stored == new.id:
            self._time_turn(new)
            self._remember(new)
            self.broker.publish(new.id, 0)
            self.broker.publish(live.id, len(live.match.events))
        return stored

    async def clock(self, game_id: str, at: int) -> LiveGame:
        """Any browser of the game says the turn clock ran out: if it did (server time), the computer
        plays the seat to move's turn, then the bots theirs. Refused while time is left."""
        live = await self.find(game_id)
        with live.lock:
            self._check_clock(live, at)  # refused at once, before any wait for the solver's tables
        await self._tables(live)

        def check() -> None:
            self._catch_up(live)
            self._check_clock(live, at)

        def play_then_bots() -> None:
            if not live.bot_to_move:
                live.play_turn_for_clock()
            live.advance_bots()

        await self._change(live, play_then_bots, check, in_thread=True)
        return live

    async def hand_to_bot(self, game_id: str, seat: int, token: str, leave: bool) -> LiveGame:
        """A player gives their seat to the computer (`leave`: and leaves the game); the bots then play."""
        live = await self.find(game_id)
        live.check_seat(seat, token)  # refused at once, before any wait for the solver's tables
        await self._tables(live)

        def to_bot(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
            live.check_seat(seat, token)
            if live.state.is_over:
                raise IllegalAction("game_over")
            return _with_seat(seats, seat, seats[seat].to_bot(leave))

        await self._change(live, live.advance_bots, partial(self._change_seats, live, to_bot), in_thread=True)
        return live

    async def join(self, game_id: str, seat: int, name: str) -> tuple[LiveGame, str]:
        """Someone takes an open seat of a public game under their name; answers the seat's new token."""
        live = await self.find(game_id)
        token = secrets.token_urlsafe(18)
        if not live.table.public:
            raise SeatRefused("game_not_open")

        def claim(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
            if not 0 <= seat < len(seats):
                raise SeatRefused("seat_range", last=len(seats) - 1, seat=seat)
            if live.state.is_over:
                raise IllegalAction("game_over")
            if not seats[seat].open:
                raise SeatTaken("seat_taken", seat=seat)
            return _with_seat(seats, seat, replace(seats[seat], name=name, token_sha256=_digest(token), open=False))

        await self._change(live, _no_events, partial(self._change_seats, live, claim), in_thread=True)
        return live, token

    async def claim(self, game_id: str, seat: int, token: str) -> LiveGame:
        """The holder of an invite link takes their seat: it is no longer open to others."""
        live = await self.find(game_id)
        live.check_seat(seat, token)

        def claimed(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
            live.check_seat(seat, token)
            return _with_seat(seats, seat, replace(seats[seat], open=False))

        if live.seats[seat].open:
            await self._change(live, _no_events, partial(self._change_seats, live, claimed), in_thread=True)
        return live

    def open_tables(self) -> list[OpenTable]:
        return self.storage.open_tables()

    def hint(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """The solver's best options for the dice on the table (the family's hint view), for the seat to move."""
        live = self.get(game_id)
        live.check_seat_to_move(seat, token)
        live.table.check_hints()
        state = live.state
        if state.is_over or state.is_chance:
            raise IllegalAction("hint_roll_first")
        self.warmer.wait(live.match.rules)
        return web_family(state.game).hint(state)

    async def _tables(self, live: LiveGame) -> None:
        """Wait (in a worker thread) for the solver's tables the game's moves may need."""
        await run_in_threadpool(self.warmer.wait, live.match.rules, live.levels)

    async def _change(
        self, live: LiveGame, change: Callable[[], object], check: Callable[[], object], *, in_thread: bool
    ) -> None:
        """The one path by which a game changes (a move, the bots' turns, the auto-score, the clock's turn, a
        seat's change): once the game's previous change is settled, `check` (refusals, catching up, a seat
        change) then `change` are made in memory, holding the game's lock: in a worker thread if they may
        wait for the solver or the database (`in_thread`), else on the event loop. The events they added are
        stored with the other changes of this turn of the loop (web/group_commit.py); then they are announced
        to every page, or undone and the request refused. Answers once stored."""
        # Once begun, a change is stored or undone even if its request is cancelled (the client went away).
        await asyncio.shield(self._make_and_store(live, change, check, in_thread))

    async def _make_and_store(
        self, live: LiveGame, change: Callable[[], object], check: Callable[[], object], in_thread: bool
    ) -> None:
        while live.changing is not None:  # a game has one change under way at most: this one comes after it
            await asyncio.wait((live.changing,))
        live.changing = under_way = asyncio.get_running_loop().create_future()
        try:
            if in_thread:
                checkpoint = await run_in_threadpool(self._make, live, change, check)
            else:
                checkpoint = self._make(live, change, check)
            if len(live.match.events) > checkpoint.events:
                outcome = await self._group.store(self._appended(live, checkpoint))
                self._settle(live, checkpoint, outcome)
        finally:
            live.changing = None
            under_way.set_result(None)

    @staticmethod
    def _make(live: LiveGame, change: Callable[[], object], check: Callable[[], object]) -> Checkpoint:
        """(`_change`'s first step.) Check, then change the game in memory; on any error it is as before.
        Answers the checkpoint the change started from."""
        with live.lock:
            check()
            checkpoint = live.checkpoint()
            try:  # a plain try: a contextlib context manager here cost about 3% of each move
                change()
            except BaseException:
                live.rewind(checkpoint)
                raise
            return checkpoint

    def _settle(self, live: LiveGame, checkpoint: Checkpoint, outcome: Outcome) -> None:
        """(`_change`'s last step.) The change's events were stored at `outcome`: announce them; or refused
        with it: undo them and refuse the request (another process that stored events at the same indexes
        first makes this request stale)."""
        with live.lock:
            if isinstance(outcome, datetime):
                self._stored(live, checkpoint.events, outcome)
                return
            live.rewind(checkpoint)
            if not isinstance(outcome, EventConflict):
                raise outcome
            self._catch_up(live)  # another process stored these events: the next request starts from them
        raise StaleRequest("stale") from None

    def _check_clock(self, live: LiveGame, at: int) -> None:
        """(Holding the game's lock.) Refuse the clock's turn unless the game is at `at` events and the seat to
        move's turn clock ran out by the server's time."""
        if at != len(live.match.events):
            raise StaleRequest("stale_request", events=len(live.match.events), at=at)
        if live.state.is_over:
            raise IllegalAction("game_over")
        if live.deadline is None:
            raise IllegalAction("no_turn_clock")
        left = (live.deadline - self.now()).total_seconds()
        if left > 0:
            raise IllegalAction("clock_running", seconds=ceil(left))

    def _check_act(self, live: LiveGame, seat: int, token: str, at: int | None) -> None:
        """(Holding the game's lock.) Refuse a move unless the token is the seat's and `at` is the number
        of events, once caught up with what other processes stored."""
        live.check_seat(seat, token)
        if at != len(live.match.events):  # the client may have seen events stored by another process
            self._catch_up(live)
        if at is not None and at != len(live.match.events):
            raise StaleRequest("stale_request", events=len(live.match.events), at=at)

    @staticmethod
    def _appended(live: LiveGame, checkpoint: Checkpoint) -> Append:
        """The events a change added since `checkpoint`."""
        first = checkpoint.events
        return Append(live.id, first, live.match.events[first:], live.state.is_over)

    def _stored(self, live: LiveGame, first: int, stored: datetime) -> None:
        """(Holding the game's lock.) A change's events from `first` on were stored at `stored`."""
        self._time_turn(live, first, stored)
        if live.state.is_over:
            self._live.get(live.id)  # filed again among the finished games (the request's `get` made it the latest)
        self.broker.publish(live.id, len(live.match.events))

    def _catch_up(self, live: LiveGame) -> None:
        """Apply the events (and seats) other processes stored since this copy was made (holding the game's lock)."""
        if live.seats_news:
            live.seats_news = False
            self._reload_seats(live)
        for event in self.storage.events_since(live.id, len(live.match.events)):
            live.replay(event)
        if live.state.is_over and live.rematch is None:
            live.rematch = self.storage.rematch_of(live.id)
        self._time_turn(live)

    def _time_turn(self, live: LiveGame, stored_from: int | None = None, stored_at: datetime | None = None) -> None:
        """Keep the turn clock's deadline (holding the game's lock): the time the turn started is the
        time its first event's predecessor was stored (`stored_at` if among the events just stored)."""
        state = live.state
        if not live.table.turn_clock or state.is_over or state.num_players < 2:
            live.turn_started = live.deadline = None
            return
        start = live.turn_start()
        if live.turn_started is not None and live.turn_started[0] == start:
            return
        if stored_at is not None and stored_from is not None and start - 1 >= stored_from:
            began = stored_at
        else:
            began = self.storage.turn_time(live.id, start) or self.now()
        live.turn_started = (start, began)
        live.deadline = began + timedelta(seconds=live.table.turn_clock * self.clock_scale)

    def _change_seats(self, live: LiveGame, change: Callable[[tuple[Seat, ...]], tuple[Seat, ...]]) -> None:
        """Store `change(seats)` as the game's seats (holding the game's lock) and tell the other
        processes. If another process changed them first, the change is made again on theirs
        (and may then be refused, like a seat claimed twice)."""
        for _attempt in range(3):
            seats = change(live.seats)
            if self.storage.change_seats(live.id, live.seats_version, [seat.to_json() for seat in seats]):
                live.set_seats(seats, live.seats_version + 1)
                self.broker.publish(live.id, SEATS_CHANGED)
                return
            self._reload_seats(live)
        raise StaleRequest("stale")

    def _reload_seats(self, live: LiveGame) -> None:
        stored = self.storage.seats(live.id)
        if stored is None:
            raise GameNotFound("game_not_found", id=live.id)
        seats, version = stored
        if version != live.seats_version:
            live.set_seats(tuple(Seat(**seat) for seat in seats), version)

    def _remember(self, live: LiveGame) -> LiveGame:
        for level in live.levels:  # for bots, hints, auto-scores and reviews
            self.warmer.start(live.match.rules, level)
        live.unsubscribe = self.broker.subscribe(live.id, live.hear)
        kept = self._live.add(live.id, live)
        if kept is not live:  # another request loaded it first
            live.stop_hearing()
        return kept


def _no_events() -> None:
    """The change of a request that adds no events (a seat's change, a rematch): its check does it all."""


def _forget(live: LiveGame) -> None:
    """A game leaves the cache: stop following its news."""
    live.stop_hearing()


def _with_seat(seats: tuple[Seat, ...], index: int, seat: Seat) -> tuple[Seat, ...]:
    return seats[:index] + (seat,) + seats[index + 1 :]


def _from_storage(stored: StoredGame) -> LiveGame:
    seats = tuple(Seat(**seat) for seat in stored.seats)
    table = TableOptions(**stored.table_options)
    return LiveGame(
        stored.id, stored.lang, seats, Match.from_json(stored.record), stored.rematch, table,
        seats_version=stored.seats_version,
    )
