"""Who the notifier may push to at all: the seats and the profiles with a push subscription, as this
process knows them. Most seats have none: a seat outside them costs the notifier no database read,
presence nothing, and its worker no wake-up (`may_reach`, asked before a note is queued), however many
games the process holds.

The owners are read from the database by subscription id: every row at the first question, then only
the rows from a little before the highest id read (LOOKBACK_IDS: a subscription whose transaction
commits after a later one's id was read still shows), at most every REFRESH_SECONDS, and at once when
this process stored a subscription since (`PushStore.added`). A subscription stored by another process
is thus known here within REFRESH_SECONDS: a seat subscribes from its own page, in sight, which is not
told its turn anyway. What is known is a superset: a subscription removed still counts (the notifier then
reads the seat's subscriptions and finds none) until its game is forgotten."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable

from ...storage.push import PushStore

REFRESH_SECONDS = 2.0
LOOKBACK_IDS = 100  # far more than the subscriptions stored at the same moment

SeatOwner = Callable[[str, int], "str | None"]


class Reachable:
    def __init__(
        self, store: PushStore, clock: Callable[[], float] = time.monotonic, refresh_seconds: float = REFRESH_SECONDS
    ) -> None:
        self.store, self._clock, self._refresh_seconds = store, clock, refresh_seconds
        self._seats: dict[str, set[int]] = {}  # a game: its seats with a subscription
        self._profiles: set[str] = set()  # the profiles with a subscription
        self._highest_id: int | None = None  # of the subscriptions read
        self._read_at = -math.inf
        self._added_seen = 0  # the store's `added` at the last read
        self._lock = threading.Lock()

    def owner(self, game_id: str, seat: int, seat_owner: SeatOwner) -> tuple[bool, str | None]:
        """Whether the seat may have a subscription (its own, or its profile's), and the profile it belongs
        to; `seat_owner` (a database read) is asked only while some profile has a subscription."""
        with self._lock:
            self._refresh()
            own = seat in self._seats.get(game_id, ())
            profiles = bool(self._profiles)
        owner = seat_owner(game_id, seat) if profiles else None
        with self._lock:
            return own or owner in self._profiles, owner

    def may_reach(self, game_id: str, seat: int) -> bool:
        """Whether a note to the seat is worth handing to the notifier's worker: False only while what was
        read is fresh and neither the seat nor any profile has a subscription. Asked on the event loop, so
        it reads nothing and waits for nothing: it looks at the worker's state without the lock (each look
        is one step under the GIL), and where that state is stale hands the note on, for the worker to
        read the owners again."""
        if self._clock() - self._read_at >= self._refresh_seconds or self.store.added != self._added_seen:
            return True
        return bool(self._profiles) or seat in self._seats.get(game_id, ())

    def forget(self, game_id: str) -> None:
        """The game is over: its seats' subscriptions are dropped."""
        with self._lock:
            self._seats.pop(game_id, None)

    def _refresh(self) -> None:
        now, added = self._clock(), self.store.added
        if now - self._read_at < self._refresh_seconds and added == self._added_seen:
            return
        first = 0 if self._highest_id is None else max(0, self._highest_id - LOOKBACK_IDS)
        for row_id, game_id, seat, profile_id in self.store.owners_from(first):
            if profile_id is not None:
                self._profiles.add(profile_id)
            elif game_id is not None and seat is not None:
                self._seats.setdefault(game_id, set()).add(seat)
            self._highest_id = row_id  # read by id
        self._read_at, self._added_seen = now, added
