"""The solvers' tables a server process prepares for its requests: one build at a time, on a thread of
its own, within a budget of memory.

Bots, hints, the auto-score, the clock's turn, the live bar, reviews and records need a rule set's
tables (each game family's players module knows which a level needs: `players.prepare`). A request
that needs them awaits `TableGate.ready`: the first request for a rule set and level hands its
preparation to the gate's one build thread, and every request that needs it awaits that same job on
the event loop, holding no worker thread, so the other routes answer while a build runs. Creating or
loading a game prepares nothing: only a request that needs the tables does.

The solvers keep every table they load or build for the life of the process (the duel's laws of a
Penta rule set hold about 1.7 GB). So before a job starts, the gate adds up what the tables will hold
(`players.table_memory`, an estimate made without solving anything) and refuses a request whose
tables would take the process past its budget (`cubilete serve --table-memory-mb`): 503
tables_over_budget with Retry-After, at once, rather than late.

When the process stops (`close`, from the app's lifespan), every job not yet prepared fails its
requests (503 server_stopping) and is logged as abandoned. A build under way cannot be interrupted
(the solvers' compiled loops): its thread is a daemon, waited for a moment at most, and ends with
the process.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable, Hashable, Iterable, Mapping
from concurrent.futures import Future

from ..engine.errors import CubileteError
from ..engine.games import Rules
from ..players import prepare, table_memory
from ..players.table import ADVICE_LEVEL

log = logging.getLogger(__name__)

TABLE_MEMORY_MB = 2048  # one Penta rule set's duel (about 1.7 GB) beside every rule set's solutions
# A refused request may try again this much later: tables already held stay for the life of the
# process, so what frees the budget is a build that fails, or a restart with a larger one.
RETRY_AFTER = 300  # seconds
CLOSE_WAIT = 0.5  # seconds `close` waits for the build thread: a build under way ends with the process

Prepare = Callable[[str, Rules], None]
Memory = Callable[[str, Rules], Mapping[Hashable, int]]
Job = tuple[Rules, str, Mapping[Hashable, int], Future[None]]


class TablesOverBudget(CubileteError):
    """The tables a request needs would take the process past its budget of table memory."""


class ServerStopping(CubileteError):
    """The process is stopping: the tables a request waits for will not be prepared by it."""


class TableGate:
    """The tables of one server process: prepared on request, one job at a time, within `budget_mb`.
    `prepare` and `memory` are the players' (tests give others: real duel tables take minutes)."""

    def __init__(
        self, budget_mb: int = TABLE_MEMORY_MB, prepare: Prepare = prepare, memory: Memory = table_memory
    ) -> None:
        self.budget = budget_mb * 2**20
        self._prepare, self._memory = prepare, memory
        self._queue: queue.SimpleQueue[Job | None] = queue.SimpleQueue()
        self._builder: threading.Thread | None = None  # started with the first job
        self._jobs: dict[tuple[Rules, str], Future[None]] = {}
        self._held: dict[Hashable, int] = {}  # every table prepared or on its way, with its bytes
        self._building: tuple[Rules, str] | None = None  # the job under way on the build thread
        self._closed = False
        self._lock = threading.Lock()
        self.waiting = 0  # requests awaiting a job now (on the event loop)

    @property
    def held(self) -> int:
        """The bytes of the tables prepared or on their way."""
        with self._lock:
            return sum(self._held.values())

    async def ready(self, rules: Rules, levels: Iterable[str] = (ADVICE_LEVEL,)) -> None:
        """Return once the tables of these levels are prepared, starting the jobs that are not: awaited on
        the event loop, holding no thread. Refused at once (TablesOverBudget) when they would take the
        process past its budget; a job that failed fails its requests, and the next request tries again."""
        jobs = [self._job(rules, level) for level in levels]
        for job in jobs:
            if not job.done():
                self.waiting += 1
                try:  # a request that goes away leaves the job to the others
                    await asyncio.shield(asyncio.wrap_future(job))
                finally:
                    self.waiting -= 1
            job.result()

    def prepared(self, rules: Rules, levels: Iterable[str] = (ADVICE_LEVEL,)) -> bool:
        """Whether the tables of these levels are prepared, without waiting: the jobs of those that are not
        are started (or refused at once, TablesOverBudget, as by `ready`)."""
        return all([self._job(rules, level).done() for level in levels])

    def close(self) -> None:
        """Fail every job not yet prepared (ServerStopping), its waiting requests with it, log the tables
        abandoned, and stop the build thread: at once when idle, else it is left to end with the process
        (waited for CLOSE_WAIT at most). Later requests for tables not prepared are refused the same way."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            builder, self._builder, building = self._builder, None, self._building
            abandoned = [(rules, level) for (rules, level), job in self._jobs.items() if not job.done()]
            for key in abandoned:
                self._jobs[key].set_exception(ServerStopping("server_stopping"))
        if builder is None:
            return
        self._queue.put(None)  # wakes an idle build thread; a busy one stops after its build
        if builder is not threading.current_thread():
            builder.join(CLOSE_WAIT)
        if abandoned:
            log.warning("stopping: abandoned the tables of %s", ", ".join(
                f"{rules.game}/{rules.name} {level}" + (" (being built)" if (rules, level) == building else " (queued)")
                for rules, level in abandoned
            ))
        if builder.is_alive():
            log.warning("stopping: the build thread is left to end with the process")

    def _job(self, rules: Rules, level: str) -> Future[None]:
        with self._lock:
            job = self._jobs.get((rules, level))
            if job is not None:
                return job
            if self._closed:
                raise ServerStopping("server_stopping")
            tables = {key: size for key, size in self._memory(level, rules).items() if key not in self._held}
            needed, held = sum(tables.values()), sum(self._held.values())
            if held + needed > self.budget:
                log.warning(
                    "refused the %s tables of %s/%s: %d MB beside the %d MB held pass the budget (%d MB)",
                    *(level, rules.game, rules.name, needed >> 20, held >> 20, self.budget >> 20),
                )
                raise TablesOverBudget("tables_over_budget", minutes=RETRY_AFTER // 60)
            self._held |= tables
            job = self._jobs[rules, level] = Future()
            if self._builder is None:
                # a daemon thread: an executor's would hold the server's exit until the build ends
                self._builder = threading.Thread(target=self._build, name="solver-tables", daemon=True)
                self._builder.start()
            self._queue.put((rules, level, tables, job))
            return job

    def _build(self) -> None:
        """The build thread: each job in turn, until `close`."""
        while (next_job := self._queue.get()) is not None:
            rules, level, tables, job = next_job
            with self._lock:
                if self._closed:  # its job failed already
                    return
                self._building = (rules, level)
            log.info("preparing the %s tables of %s/%s", level, rules.game, rules.name)
            try:
                self._prepare(level, rules)
            except BaseException as error:
                log.exception("the %s tables of %s/%s could not be prepared", level, rules.game, rules.name)
                with self._lock:  # the next request tries again
                    self._building = None
                    del self._jobs[rules, level]
                    for key in tables:
                        self._held.pop(key, None)
                    if not job.done():  # (failed already if the gate was closed meanwhile)
                        job.set_exception(error)
            else:
                with self._lock:
                    self._building = None
                    if not job.done():
                        job.set_result(None)
