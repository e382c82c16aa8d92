"""Group commit: the changes made on the event loop during one of its turns are stored together, in one
transaction; each request is answered once that transaction is committed. A local database (SQLite) is
written on the loop itself, at the start of its next turn (well under a millisecond); a database over
the network (PostgreSQL) by one writer thread while the loop goes on: the changes made meanwhile are the
next group, stored as soon as the writer is done.

Why (benchmarks/web_load.py, 50 games played flat out, several moves per turn of the loop):
- on SQLite most of what storing a move cost was its commit (the write-ahead log's writes and locks):
  storing them together raised the actions per server CPU-second by 23-24% in Penta and 5000 (measured
  back to back), and lowered their p99 latency from about 60 ms to 38;
- on PostgreSQL every move ran in a worker thread with its own round trips (insert, commit, the Redis
  publish): making it on the loop and storing it with the others more than doubled the actions per
  server CPU-second (Penta: about 570 to 1,300).

What stays true (web/games.py, `Games._change`, the one path of every change of a game):
- a change is acknowledged only once stored, and a refused one is undone before anyone acts on it:
  a game has at most one change under way, and any other change of that game waits for it to be
  settled (`LiveGame.changing`);
- one change whose event index another process took first is refused alone, the others stored;
- when the database fails, every change of the group is undone and refused.
A reader may see a change up to one turn of the loop before it is stored (and, if the write fails,
undone: the next request of whoever saw it is then stale).

The writer is a daemon thread, started with the first group and stopped by `close`, which waits
CLOSE_WAIT at most for the group in hand: a write to a frozen database must not keep a stopping
process alive (its transaction is then lost with the process, as in a crash: nothing half-stored).
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Sequence
from datetime import datetime

from ..storage import Append, Storage

log = logging.getLogger(__name__)
CLOSE_WAIT = 1.0  # seconds `close` waits for the group the writer thread is storing

Outcome = datetime | BaseException  # the time a change was stored, or the error that refused it
Waiting = tuple[Append, "asyncio.Future[Outcome]"]  # a change's events, and where its outcome is told
Group = tuple[asyncio.AbstractEventLoop, list[Waiting]]  # for the writer thread: a group, and its loop


class GroupCommit:
    """The changes waiting to be stored together, and their storing (on the loop, or by the writer thread)."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._waiting: list[Waiting] = []
        self._writing = False  # a group is being stored by the writer thread
        self._groups: queue.SimpleQueue[Group | None] = queue.SimpleQueue()  # for the writer; None: stop
        self._writer: threading.Thread | None = None  # (a database over the network) started with the first group

    async def store(self, append: Append) -> Outcome:
        """(On the event loop.) Store `append` with the other changes of this turn of the loop; answers the
        time it was stored, or the error that refused it."""
        loop = asyncio.get_running_loop()
        outcome: asyncio.Future[Outcome] = loop.create_future()
        if not self._waiting and not self._writing:
            loop.call_soon(self._store, loop)
        self._waiting.append((append, outcome))
        return await outcome

    def close(self) -> None:
        """Stop the writer thread once the group in hand is stored, waiting CLOSE_WAIT at most."""
        if self._writer is None:
            return
        self._groups.put(None)
        self._writer.join(CLOSE_WAIT)
        if self._writer.is_alive():
            log.warning("stopping: a group of changes still being stored is left to end with the process")

    def _store(self, loop: asyncio.AbstractEventLoop) -> None:
        changes, self._waiting = self._waiting, []
        if self._storage.is_local:
            self._answer(changes, self._append(changes))
            return
        self._writing = True
        if self._writer is None:
            self._writer = threading.Thread(target=self._write_all, name="group-commit", daemon=True)
            self._writer.start()
        self._groups.put((loop, changes))

    def _write_all(self) -> None:
        """The writer thread: each group in turn, its outcomes told on the loop, until `close`."""
        while (group := self._groups.get()) is not None:
            loop, changes = group
            outcomes = self._append(changes)
            try:
                loop.call_soon_threadsafe(self._written, loop, changes, outcomes)
            except RuntimeError:  # the loop is closed: nobody waits for these outcomes any more
                return

    def _written(self, loop: asyncio.AbstractEventLoop, changes: list[Waiting], outcomes: list[Outcome]) -> None:
        self._writing = False
        self._answer(changes, outcomes)
        if self._waiting:  # the changes made while the writer stored these
            self._store(loop)

    def _append(self, changes: Sequence[Waiting]) -> list[Outcome]:
        try:
            return list(self._storage.append_together([append for append, _outcome in changes]))
        except Exception as unexpected:  # not the database's (which append_together answers): refuse them all
            return [unexpected] * len(changes)

    @staticmethod
    def _answer(changes: Sequence[Waiting], outcomes: Sequence[Outcome]) -> None:
        for (_append, answer), outcome in zip(changes, outcomes, strict=True):
            if not answer.done():  # (cancelled only when the loop is shut down)
                answer.set_result(outcome)
