"""The game service of one server process (`Games`): games created, loaded from the database on first
use and kept in a bounded cache, and every change of a game made and stored by one path.

A change is acknowledged only once stored; if storing fails, the game in memory goes back to what it
was. Every change is an object that checks and applies itself (web/changes.py: a move, the bots'
turns, the clock's turn, a rematch; web/seat_changes.py: a seat's change), and takes `Games.change`:
made in memory once the game's previous change is settled (in a worker thread when it may wait for the
solver or the database), then its events stored with the other changes of that turn of the event loop
in one transaction (web/group_commit.py), then announced on the broker or undone.
Several server processes may share the database: before acting, a process catches its copy up from
the stored events, and the database's unique (game, index) key refuses the second of two changes for
the same moment (StaleRequest).

A game may have a turn clock, from the table's first move on. No timer runs on the server: the deadline
is computed from the stored time of the event that gave the seat to move its turn, every browser of the game counts down to it,
and any of them asks (`ClockTurn`) when it passes; the server checks the time and the advice plays the
turn through the same path, so two processes asked at once store it once. Seats may change (handed to
a bot, left, joined from the open tables): each change is stored only if the seats are still the
version it was made from, and announced on the broker so that other processes reload them."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from starlette.concurrency import run_in_threadpool

from ..engine.dice_seeds import CommonSeed
from ..engine.errors import IllegalAction, InvalidRecord
from ..engine.games import rules_for
from ..engine.runner import Checkpoint, Match
from ..players import player_levels
from ..storage import UNPLAYED_BATCH, Append, EventConflict, OpenTable, Storage
from ..storage.database import Progress
from .broker import SEATS_CHANGED, Broker, EventsStored, News
from .catch_up import CatchUp, GameNotFound, StaleRequest
from .changes import Change
from .families import web_family
from .game_cache import GameCache
from .group_commit import GroupCommit, Outcome
from .live_game import LiveGame, new_game_id
from .seats import (
    BOT,
    HUMAN,
    SeatRequest,
    SeatSecret,
)
from .table_options import CORRESPONDENCE_CLOCKS, PLAIN_TABLE, TableOptions
from .tables import TableGate
from .turn_clock import TurnClock
from .watchers import Watcher, tell_stored

log = logging.getLogger(__name__)
# games kept in memory per process; the others are read again from the database. Beyond it, games played
# in turn are each read again at every move (1,000 games in 500 places did: issue 36)
CACHED_GAMES = 2000


class Games:
    """The games of one server process: created, loaded from storage on first use, stored with each change."""

    def __init__(
        self,
        storage: Storage,
        tables: TableGate,
        broker: Broker,
        cached_games: int = CACHED_GAMES,
        clock_scale: float = 1.0,
    ) -> None:
        self.storage = storage
        self.tables = tables
        self.broker = broker
        self.clock_scale = clock_scale  # a test hook: every turn clock lasts this fraction of its seconds
        self.now: Callable[[], datetime] = lambda: datetime.now(UTC)  # the clock's time source
        self.turns = TurnClock(storage, lambda: self.now(), clock_scale)
        self.catch_up = CatchUp(storage, self.turns)
        self.watchers: list[Watcher] = []  # told of each change stored here (web/watchers.py)
        self._live: GameCache[LiveGame] = GameCache(cached_games, lambda live: live.state.is_over, _forget)
        self._group = GroupCommit(storage)
        broker.read_missed_news_from(self.stored_news)

    def close(self) -> None:
        self._group.close()

    @property
    def held(self) -> int:
        """How many games this process holds in memory now."""
        return len(self._live)

    def create(
        self,
        game: str,
        rules_name: str | None,
        seats: Sequence[SeatRequest],
        seed: int | CommonSeed | None,
        lang: str,
        table: TableOptions = PLAIN_TABLE,
        creator: str | None = None,
    ) -> tuple[LiveGame, list[SeatSecret]]:
        """A new game and each seat's secret: a token for a seat played on the creating device, an invite
        code for a friend's seat (whose token only its claimant gets), neither for bots. Nothing is stored
        on error. `creator`: the creating client's address, stored for the per-client bounds (web/access.py)."""
        rules = rules_for(game, rules_name)
        if seed is not None and sum(request.kind == HUMAN for request in seats) > 1:
            # dice a client can choose are dice a client can foresee: the server cannot tell a hot-seat
            # game from one whose other human seats are played elsewhere, so only a lone human may choose
            raise InvalidRecord("seed_one_human")
        levels = player_levels(game)
        for request in seats:
            if request.kind == BOT and request.level not in levels:
                raise InvalidRecord("bot_level", game=game, levels=list(levels), level=str(request.level))
        game_id = new_game_id()
        seat_secrets = [SeatSecret.for_request(request, game_id, index) for index, request in enumerate(seats)]
        stored_seats = tuple(secret.seat(request, table.public) for request, secret in zip(seats, seat_secrets))
        match = Match(rules, [seat.name for seat in stored_seats], seed)
        live = LiveGame(game_id, lang, stored_seats, match, table=table)
        self.storage.insert(live.id, lang, [seat.to_json() for seat in stored_seats], match.to_json(), table.to_json(), creator)
        self.turns.keep(live)
        self.broker.publish(live.id, EventsStored(0))
        return self._remember(live), seat_secrets

    def get(self, game_id: str, *, fresh: bool = False) -> LiveGame:
        """The game, caught up with what other processes stored if it heard of any. `fresh` (a read:
        the game's view, a page's first view): on a server database, the database is asked first how
        far the game is (one indexed query), so that whatever another process acknowledged is served
        even before its news arrives; once caught up, what it found is told to the game's followers here
        (its pages redraw), as the broker would have told them."""
        live = self._live.get(game_id)
        found: list[News] = []
        if live is not None and fresh and not self.storage.is_local and live.changing is None:
            progress = self.storage.progress([game_id]).get(game_id)
            found = [] if progress is None else _news_beyond(live, progress)
            for news in found:
                live.hear(news)
        if live is None:
            stored = self.storage.load(game_id)
            if stored is None:
                raise GameNotFound("game_not_found", id=game_id)
            live = self._remember(LiveGame.from_stored(stored))
            self.catch_up(live, unheard=True)  # a move stored between the load and the subscription was not heard
        elif live.changing is None and live.is_behind():  # else the change under way catches up if it must
            self.catch_up(live)
        for news in found:
            self.broker.tell_here(game_id, news)
        return live

    def in_memory(self, game_id: str) -> LiveGame | None:
        """The game if this process holds it, without reading the database."""
        return self._live.get(game_id)

    async def find(self, game_id: str) -> LiveGame:
        """`get`, on the event loop when that takes no network round trip (a local database, or a game in
        memory with no news), else in a worker thread."""
        if not self.storage.is_local:
            live = self._live.get(game_id)
            if live is None or live.is_behind():
                return await run_in_threadpool(self.get, game_id)
            return live
        return self.get(game_id)

    def stored_news(self) -> list[tuple[str, News]]:
        """(For a broker that may have missed news.) What the database holds beyond the copies of the games in
        memory, as news of each: more events, other seats, a rematch."""
        held = self._live.values()
        stored = self.storage.progress([live.id for live in held])
        return [(live.id, news) for live in held if live.id in stored for news in _news_beyond(live, stored[live.id])]

    def start_rematch(self, live: LiveGame) -> str:
        """(Without the game's lock; web/changes.py `Rematch`.) Store the game's rematch, unless another
        process did first; answers its id."""
        match = Match(live.match.rules, live.match.names)
        new = LiveGame(new_game_id(), live.lang, tuple(s.in_rematch() for s in live.seats), match, table=live.table)
        stored = self.storage.insert_rematch(
            live.id, new.id, new.lang, [s.to_json() for s in new.seats], match.to_json(), new.table.to_json()
        )
        if stored is None:
            raise GameNotFound("game_not_found", id=live.id)
        if stored == new.id:
            self.turns.keep(new)
            self._remember(new)
            self.broker.publish(new.id, EventsStored(0))
            self.broker.publish(live.id, EventsStored(len(live.match.events)))
        return stored

    def correspondence_games_by(self, creator: str) -> int:
        """How many unfinished games by correspondence the client address `creator` created."""
        return self.storage.unfinished_on_clocks_by(creator, CORRESPONDENCE_CLOCKS.values())

    def open_tables(self, per_creator: int) -> list[OpenTable]:
        return self.storage.lobby.listed(per_creator=per_creator)

    async def hint(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """The solver's best options for the dice on the table (the family's hint view), for the seat to move."""
        live = await self.find(game_id)
        live.check_seat_to_move(seat, token)
        live.table.check_hints()
        state = live.state
        if state.is_over or state.is_chance:
            raise IllegalAction("hint_roll_first")
        await self.tables.ready(live.match.rules)
        return await run_in_threadpool(web_family(state.game).hint, state)

    async def tables_for(self, live: LiveGame) -> None:
        """Wait (on the event loop) for the solver's tables the game's moves may need."""
        await self.tables.ready(live.match.rules, live.levels)

    async def change(self, game_id: str, change: Change) -> LiveGame:
        """The one path by which a game changes (web/changes.py: a move, the bots' turns, the clock's turn, a
        seat's change, a rematch): once the game is found, `change.ready` refuses at once or waits for the
        solver's tables; once the game's previous change is settled, `change.prepare` does what needs the
        database without the game's lock; then `change.check` and `change.apply` are made in memory,
        holding the game's lock, in a worker thread if `change.in_thread`, else on the event loop. The
        events they added are stored with the other changes of this turn of the loop
        (web/group_commit.py); then they are announced to every page, or undone and the request refused.
        Answers the game once stored."""
        live = await self.find(game_id)
        await change.ready(self, live)
        # Once begun, a change is stored or undone even if its request is cancelled (the client went away).
        await asyncio.shield(self._make_and_store(live, change))
        return live

    async def _make_and_store(self, live: LiveGame, change: Change) -> None:
        while live.changing is not None:  # a game has one change under way at most: this one comes after it
            await asyncio.wait((live.changing,))
        live.changing = under_way = asyncio.get_running_loop().create_future()
        try:
            in_thread = change.in_thread(live)
            if change.must_prepare(live):
                await self._off_loop(partial(change.prepare, self, live), in_thread=in_thread)
            if in_thread:
                checkpoint = await run_in_threadpool(self._make, live, change)
            else:
                checkpoint = self._make(live, change)
            if len(live.match.events) > checkpoint.events:
                outcome = await self._group.store(self._appended(live, checkpoint))
                await self._settle(live, checkpoint, outcome)
        finally:
            live.changing = None
            under_way.set_result(None)

    async def _off_loop(self, work: Callable[[], object], *, in_thread: bool = False) -> None:
        """Run `work`, which may read or write the database: on the event loop for a local database (well
        under a millisecond) unless `in_thread`, else in a worker thread (the loop never waits on the network)."""
        if in_thread or not self.storage.is_local:
            await run_in_threadpool(work)
        else:
            work()

    def _make(self, live: LiveGame, change: Change) -> Checkpoint:
        """(`_make_and_store`'s first step.) Check, then change the game in memory; on any error it is as
        before. Answers the checkpoint the change started from."""
        with live.lock:
            change.check(self, live)
            checkpoint = live.match.checkpoint()
            try:  # a plain try: a contextlib context manager here cost about 3% of each move
                change.apply(live)
            except BaseException:
                live.rewind(checkpoint)
                raise
            return checkpoint

    async def _settle(self, live: LiveGame, checkpoint: Checkpoint, outcome: Outcome) -> None:
        """(`_make_and_store`'s last step.) The change's events were stored at `outcome`: announce them; or refused
        with it: undo them and refuse the request (another process that stored events at the same indexes
        first makes this request stale)."""
        if isinstance(outcome, datetime):
            with live.lock:
                turn = self.turns.to_time(live, checkpoint.events, outcome)
            if turn is not None:  # rare: this process never knew when the turn began
                await self._off_loop(partial(self.turns.keep, live))
            with live.lock:
                self._stored(live, checkpoint.events)
            return
        with live.lock:
            live.rewind(checkpoint)
        if not isinstance(outcome, EventConflict):
            raise outcome
        # another process stored these events: the next request starts from them
        await self._off_loop(partial(self.catch_up, live, for_change=True))
        raise StaleRequest("stale") from None

    def _appended(self, live: LiveGame, checkpoint: Checkpoint) -> Append:
        """The events a change added since `checkpoint` (and when the correspondence sweeper must look)."""
        first = checkpoint.events
        events = [event.to_json() for event in live.match.events[first:]]
        return Append(live.id, first, events, live.state.is_over, self.turns.due_after(live, first))

    def _stored(self, live: LiveGame, first: int) -> None:
        """(Holding the game's lock.) A change's events from `first` on were stored."""
        if live.state.is_over:
            self._live.get(live.id)  # filed again among the finished games (the request's `get` made it the latest)
        self.broker.publish(live.id, EventsStored(len(live.match.events)))
        tell_stored(self.watchers, live, first)

    def seats_changed(self, game_ids: Sequence[str]) -> None:
        """Games whose stored seats changed outside a seat change (a profile renamed or deleted, with a new
        seats' version: storage/profiles.py): every process, this one too, reads their seats again."""
        for game_id in game_ids:
            self.broker.publish(game_id, SEATS_CHANGED)

    def expire_unplayed(self, max_age: timedelta) -> int:
        """Delete the games that never got a move and have not changed for `max_age` (left at once, or
        made by a loop), here and in the database; answers how many."""
        cutoff = self.now() - max_age
        expired = 0
        while deleted := self.storage.delete_unplayed(cutoff):
            expired += len(deleted)
            for game_id in deleted:
                live = self._live.discard(game_id)
                if live is not None:
                    _forget(live)
            if len(deleted) < UNPLAYED_BATCH:
                break
        return expired

    def _remember(self, live: LiveGame) -> LiveGame:
        live.unsubscribe = self.broker.subscribe(live.id, live.hear)
        kept = self._live.add(live.id, live)
        if kept is not live:  # another request loaded it first
            live.stop_hearing()
        return kept


def _news_beyond(live: LiveGame, progress: Progress) -> list[News]:
    """What the database holds beyond the game's copy (`progress`), as the broker would have told it."""
    news: list[News] = []
    if progress.seats_version != live.seats_version:
        news.append(SEATS_CHANGED)
    rematched = live.state.is_over and live.rematch is None and progress.rematch is not None
    if progress.events > len(live.match.events) or rematched:
        news.append(EventsStored(progress.events))
    return news


def _forget(live: LiveGame) -> None:
    """A game leaves the cache: stop following its news."""
    live.stop_hearing()
