"""Group commit: the changes made on the event loop during one of its turns are stored together, in one
transaction, at the start of its next turn; each request is answered once that transaction is committed.

Why: on a local database (SQLite) most of what storing a move cost was its commit (the write-ahead
log's writes and locks), and 50 games played flat out make several moves per turn of the loop. Storing
them together raised the actions per server CPU-second at 50 games by 23-24% in Penta and 5000
(benchmarks/web_load.py, measured back to back), and lowered their p99 latency from about 60 ms to 38.

What stays true (web/sessions.py, `Games.act_grouped`):
- a change is acknowledged only once stored, and a refused one is undone before anyone acts on it:
  a game has at most one change waiting here, and any other change of that game, on the loop or in a
  worker thread, waits for it (`UnsavedChange.stored`, `UnsavedChange.saved`);
- one change whose event index another process took first is refused alone, the others stored;
- when the database fails, every change of the group is undone and refused.
A reader may see a change up to one turn of the loop before it is stored (and, if the write fails,
undone: the next request of whoever saw it is then stale).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from datetime import datetime

from .storage import Append, Storage

# Told once the change is stored (its time) or refused (the error): answers the error for its request, if any.
Settle = Callable[[datetime | BaseException], BaseException | None]


class UnsavedChange:
    """A change made in memory whose events wait for the group's commit."""

    __slots__ = ("append", "settle", "stored", "saved")

    def __init__(self, append: Append, settle: Settle, stored: asyncio.Future[None]) -> None:
        self.append = append
        self.settle = settle
        self.stored = stored  # done once settled: for the request on the loop (its error, if refused)
        self.saved = threading.Event()  # set once settled: for worker threads


class GroupCommit:
    """The changes waiting for the next turn of the event loop, and their storing."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._waiting: list[UnsavedChange] = []

    def add(self, append: Append, settle: Settle) -> UnsavedChange:
        """(On the event loop.) Store `append` with the other changes of this turn of the loop."""
        loop = asyncio.get_running_loop()
        change = UnsavedChange(append, settle, loop.create_future())
        if not self._waiting:
            loop.call_soon(self._store)
        self._waiting.append(change)
        return change

    def _store(self) -> None:
        changes, self._waiting = self._waiting, []
        try:
            outcomes: list[datetime | BaseException] = list(
                self._storage.append_together([change.append for change in changes])
            )
        except Exception as unexpected:  # not the database's (which append_together answers): refuse them all
            outcomes = [unexpected] * len(changes)
        for change, outcome in zip(changes, outcomes, strict=True):
            try:
                refusal = change.settle(outcome)
            except Exception as failure:  # settling must not leave the others waiting
                refusal = failure
            change.saved.set()
            if refusal is None:
                change.stored.set_result(None)
            else:
                change.stored.set_exception(refusal)
