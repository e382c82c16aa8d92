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
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from ..storage import Append, Storage

Outcome = datetime | BaseException  # the time a change was stored, or the error that refused it
Waiting = tuple[Append, "asyncio.Future[Outcome]"]  # a change's events, and where its outcome is told


class GroupCommit:
    """The changes waiting to be stored together, and their storing (on the loop, or by the writer thread)."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        self._waiting: list[Waiting] = []
        self._writing = False  # a group is being stored by the writer thread
        self._writer = None if storage.is_local else ThreadPoolExecutor(1, thread_name_prefix="group-commit")

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
        if self._writer is not None:
            self._writer.shutdown()

    def _store(self, loop: asyncio.AbstractEventLoop) -> None:
        changes, self._waiting = self._waiting, []
        if self._writer is None:
            self._answer(changes, self._append(changes))
            return
        self._writing = True
        written = loop.run_in_executor(self._writer, self._append, changes)
        written.add_done_callback(lambda done: self._written(loop, changes, done.result()))

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
