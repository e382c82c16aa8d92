"""The notifier: told by the game service of each change this process stored (the watcher interface of
`Games.watchers`), and by the correspondence sweeper of each allowance a quarter left, it works out
who is told what (notes.py) at once, holding the game's lock, drops the notes of seats without any
subscription as far as it knows (reachable.py: most seats, which then cost nothing more), and leaves the
rest to its worker thread: whether the seat has a subscription after all, whether its page is in
sight, the seat's and its profile's subscriptions, a push per subscription in its reader's language,
handed to the outbox. A change never waits for any of it.

Whether a seat's page is in sight is presence's (web/presence.py), which every process hears for the
games it follows: the notifier follows a game's presence itself (without seats) from the first time
it may tell it your turn, waiting a moment then for the other processes' answers, so that a page open
in another process counts too."""

from __future__ import annotations

import json
import logging
import queue
import threading
from collections import OrderedDict

from ...storage import DatabaseError
from ...storage.push import PushStore
from ..live_game import LiveGame
from ..presence import Presence
from ..seats import Seat
from .messages import rendered
from .notes import Tell, after_events, after_seats, quarter_left
from .outbox import Delivery, Outbox
from .reachable import Reachable, SeatOwner

log = logging.getLogger(__name__)
MOST_WAITING = 10_000  # notes waiting for the worker; beyond, new ones are dropped (logged)
MOST_FOLLOWED = 1000  # games whose presence the notifier follows; the oldest is let go beyond
PRESENCE_ANSWER_SECONDS = 0.25  # how long the other processes have to say which pages they hold
CLOSE_WAIT = 1.0  # seconds `close` waits for the note in hand; the notes still waiting are dropped (logged)


class Forget:
    """In the worker's queue: the game is over, its seats' subscriptions are dropped."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id


class Notifier:
    def __init__(
        self,
        store: PushStore,
        presence: Presence,
        outbox: Outbox,
        seat_owner: SeatOwner = lambda game_id, seat: None,
        presence_answer_seconds: float = PRESENCE_ANSWER_SECONDS,
    ) -> None:
        """`seat_owner(game_id, seat)`: the profile a seat belongs to (whose subscriptions are told too)."""
        self.store, self.presence, self.outbox, self.seat_owner = store, presence, outbox, seat_owner
        self.presence_answer_seconds = presence_answer_seconds
        self.reachable = Reachable(store)  # who has a subscription at all
        self._notes: queue.Queue[Tell | Forget | None] = queue.Queue(MOST_WAITING)
        self._followed: OrderedDict[str, int] = OrderedDict()  # a game: the notifier's presence follower
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._work, name="push-notifier", daemon=True)

    def start(self) -> None:
        """(By the app's lifespan.) Start the worker; the notes told before wait for it."""
        self._thread.start()

    def stored(self, live: LiveGame, first: int) -> None:
        """(A watcher of Games, holding the game's lock.) The game's events from `first` on were stored here."""
        tells = after_events(live, first)
        for tell in tells:
            self._put(tell)
        if live.state.is_over:
            self._put(Forget(live.id))

    def seats_stored(self, live: LiveGame, before: tuple[Seat, ...]) -> None:
        """(A watcher of Games, holding the game's lock.) The game's seats changed here from `before`."""
        for tell in after_seats(live, before):
            self._put(tell)

    def quarter_left(self, live: LiveGame) -> None:
        """(For the correspondence sweeper.) The seat to move has a quarter of its allowance left: remind
        it, once this turn whichever process is asked."""
        for tell in quarter_left(live):
            self._put(tell)

    def close(self) -> None:
        """Stop the worker after the note in hand (waited for CLOSE_WAIT at most), never blocking on a full
        queue; the notes still waiting are dropped, and counted in the log."""
        self._closed.set()
        try:
            self._notes.put_nowait(None)  # wakes an idle worker; a busy one sees `_closed`
        except queue.Full:
            pass
        if self._thread.is_alive():
            self._thread.join(CLOSE_WAIT)
        dropped = sum(item is not None for item in _drained(self._notes))
        if dropped:
            log.warning("stopping: %d push notes dropped unsent", dropped)
        if self._thread.is_alive():
            log.warning("stopping: the push notifier is left to end with the process (a note in hand)")
            return  # its followers are its own until then
        while self._followed:
            self._let_go(next(iter(self._followed)))

    def _put(self, item: Tell | Forget) -> None:
        if self._closed.is_set():
            return
        if isinstance(item, Tell) and not self.reachable.may_reach(item.note.game_id, item.seat):
            return  # most seats: no subscription, so no thread woken (about 15 us and two thread switches a note)
        try:
            self._notes.put_nowait(item)
        except queue.Full:
            log.warning("push note dropped: %d notes are waiting already", MOST_WAITING)

    def _work(self) -> None:
        while not self._closed.is_set() and (item := self._notes.get()) is not None:
            try:
                if isinstance(item, Forget):
                    self._forget(item.game_id)
                else:
                    self._tell(item)
            except DatabaseError as error:
                log.warning("a push was not sent: the database failed (%s)", error)
            except Exception:  # the worker outlives any one note
                log.exception("a push was not sent")

    def _tell(self, tell: Tell) -> None:
        note = tell.note
        reachable, owner = self.reachable.owner(note.game_id, tell.seat, self.seat_owner)
        if not reachable:  # no subscription: nothing to read, no presence to follow
            return
        if tell.unless_visible and tell.seat in self._visible(note.game_id):
            return
        if tell.once_turn is not None and not self.store.first_time(note.game_id, tell.once_turn, note.kind, tell.seat):
            return
        for subscription in self.store.recipients(note.game_id, tell.seat, owner):
            payload = json.dumps(rendered(note, subscription.lang), ensure_ascii=False).encode()
            self.outbox.put(Delivery(subscription, payload, urgent=tell.urgent))

    def _visible(self, game_id: str) -> frozenset[int]:
        """The game's seats with a page in sight, in any process."""
        if game_id not in self._followed:
            self._followed[game_id] = self.presence.follow(game_id)
            if len(self._followed) > MOST_FOLLOWED:
                self._let_go(next(iter(self._followed)))
            threading.Event().wait(self.presence_answer_seconds)  # the other processes' answers
        self._followed.move_to_end(game_id)
        return self.presence.visible(game_id)

    def _forget(self, game_id: str) -> None:
        self.store.forget_game(game_id)
        self.reachable.forget(game_id)
        self._let_go(game_id)

    def _let_go(self, game_id: str) -> None:
        follower = self._followed.pop(game_id, None)
        if follower is not None:
            self.presence.leave(game_id, follower)


def _drained(notes: queue.Queue[Tell | Forget | None]) -> list[Tell | Forget | None]:
    """What was waiting in the queue, which is left empty."""
    items = []
    while True:
        try:
            items.append(notes.get_nowait())
        except queue.Empty:
            return items
