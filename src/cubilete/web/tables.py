"""The solver's tables a server process prepares for its requests: off the request threads, long builds
apart from quick loads, within a budget of memory that keeps room for the default rule sets.

Bots, hints, the auto-score, the clock's turn, the live bar, reviews and records need a rule set's
tables (each game family's players module knows which a level needs: `players.prepare`). A request
that needs them awaits `TableGate.ready`: the first request for a rule set and level hands its
preparation to one of the gate's two threads, and every request that needs it awaits that same job on
the event loop, holding no worker thread, so the other routes answer while a build runs. Creating or
loading a game prepares nothing: only a request that needs the tables does.

A job that only maps tables saved on disk, or builds small ones (`players.quick_to_prepare`: Generala's
all, Penta's once saved), goes to the loads thread; the others (Penta's duel laws not yet saved, about
20 s; any solution not yet saved) to the builds thread, one after another. So a hint whose table loads in
milliseconds never waits behind a stranger's build of the Penta duel (it waited 70.7 s).

Every table is built once per install and rule set, saved, and mapped read-only by every process
(solvers/mapped_tables.py): the operating system keeps one copy for them all, and a process keeps each
table it maps for its life (the duel's laws of a Penta rule set: an 847 MB file). So before a job
starts, the gate adds up what the tables will map (`players.table_memory`: the files' sizes, or an
estimate made without solving anything before they are saved) and refuses a request whose tables would
take the process past its budget (`cubilete serve --table-memory-mb`): 503 tables_over_budget with
Retry-After, at once, rather than late. The default budget holds every table of every rule set the server
offers, so that a server serves the live bar of each: mapped pages are the page cache's, which the
kernel takes back under the unit's memory limit rather than stopping the process
(benchmarks/mapped_under_limit.py), and what a stranger can make the server spend is each rule set's
build, once per install, one at a time. A host may set a smaller budget; the gate then keeps room for
the default rule sets' (each game's `seed`) tables at every level: a request for another rule set's may
use only what that room leaves. One request for `no-bonus` cannot take the budget from every `seed`
player.

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
import time
from collections.abc import Callable, Hashable, Iterable, Mapping
from concurrent.futures import Future

from ..engine.errors import CubileteError
from ..engine.games import GAMES, SEED_GAMES, Rules
from ..players import player_levels, prepare, quick_to_prepare, table_memory
from ..players.table import ADVICE_LEVEL

log = logging.getLogger(__name__)

# Every table of every rule set offered, at every level: 7,356 MB by the estimates of a fresh install, 5,890 MB
# once the files are saved (benchmarks/rule_set_tables.py); tests/web/test_web_tables.py checks it holds them.
TABLE_MEMORY_MB = 8192
# A refused request may try again this much later: tables already held stay for the life of the
# process, so what frees the budget is a build that fails, or a restart with a larger one.
RETRY_AFTER = 300  # seconds
CLOSE_WAIT = 0.5  # seconds `close` waits for the threads: a build under way ends with the process
DEFAULT_RULE_SETS = tuple(GAMES[game].default for game in SEED_GAMES)  # the budget keeps room for these
THREAD_NAMES = {False: "solver-tables", True: "solver-loads"}  # by whether the jobs are quick

Prepare = Callable[[str, Rules], None]
Memory = Callable[[str, Rules], Mapping[Hashable, int]]
Quick = Callable[[str, Rules], bool]
Job = tuple[Rules, str, Mapping[Hashable, int], Future[None]]


class TablesOverBudget(CubileteError):
    """The tables a request needs would take the process past its budget of table memory."""


class ServerStopping(CubileteError):
    """The process is stopping: the tables a request waits for will not be prepared by it."""


class TableGate:
    """The tables of one server process: prepared on request, one long build and one quick job at a time,
    within `budget_mb`, room kept for the `reserved` rule sets' tables. `prepare`, `memory` and `quick` are
    the players' (tests give others: real duel tables take minutes)."""

    def __init__(
        self,
        budget_mb: int = TABLE_MEMORY_MB,
        prepare: Prepare = prepare,
        memory: Memory = table_memory,
        quick: Quick = quick_to_prepare,
        reserved: Iterable[Rules] = DEFAULT_RULE_SETS,
    ) -> None:
        self.budget = budget_mb * 2**20
        self._prepare, self._memory, self._quick = prepare, memory, quick
        self._reserved_rules = frozenset(reserved)
        # every table of the reserved rule sets, at every level, with its bytes
        self._reserved = {
            key: size
            for rules in self._reserved_rules
            for level in player_levels(rules.game)
            for key, size in memory(level, rules).items()
        }
        self._queues: dict[bool, queue.SimpleQueue[Job | None]] = {quick: queue.SimpleQueue() for quick in THREAD_NAMES}
        self._threads: dict[bool, threading.Thread] = {}  # each started with its first job
        self._jobs: dict[tuple[Rules, str], Future[None]] = {}
        self._held: dict[Hashable, int] = {}  # every table prepared or on its way, with its bytes
        self._under_way: set[tuple[Rules, str]] = set()  # the jobs the threads are preparing
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

    @property
    def closed(self) -> bool:
        """Whether the process is stopping (close was called): /readyz then answers 503 server_stopping."""
        return self._closed

    def close(self) -> None:
        """Fail every job not yet prepared (ServerStopping), its waiting requests with it, log the tables
        abandoned, and stop the threads: at once when idle, else they are left to end with the process
        (waited for CLOSE_WAIT in all at most). Later requests for tables not prepared are refused the same way."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            threads, self._threads, under_way = self._threads, {}, set(self._under_way)
            abandoned = [(rules, level) for (rules, level), job in self._jobs.items() if not job.done()]
            for key in abandoned:
                self._jobs[key].set_exception(ServerStopping("server_stopping"))
        for quick in threads:
            self._queues[quick].put(None)  # wakes an idle thread; a busy one stops after its job
        deadline = time.monotonic() + CLOSE_WAIT
        for thread in threads.values():
            if thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))
        if abandoned:
            log.warning("stopping: abandoned the tables of %s", ", ".join(
                f"{rules.game}/{rules.name} {level}" + (" (being built)" if (rules, level) in under_way else " (queued)")
                for rules, level in abandoned
            ))
        for thread in threads.values():
            if thread.is_alive():
                log.warning("stopping: the %s thread is left to end with the process", thread.name)

    def _room(self, rules: Rules) -> int:
        """The bytes a job for this rule set may bring the tables held to: the budget, less (for a rule
        set not reserved) the reserved tables not held yet."""
        if rules in self._reserved_rules:
            return self.budget
        return self.budget - sum(size for key, size in self._reserved.items() if key not in self._held)

    def _job(self, rules: Rules, level: str) -> Future[None]:
        with self._lock:
            job = self._jobs.get((rules, level))
            if job is not None:
                return job
            if self._closed:
                raise ServerStopping("server_stopping")
            tables = {key: size for key, size in self._memory(level, rules).items() if key not in self._held}
            needed, held, room = sum(tables.values()), sum(self._held.values()), self._room(rules)
            if held + needed > room:
                log.warning(
                    "refused the %s tables of %s/%s: %d MB beside the %d MB held pass the %d MB left to them"
                    " (budget %d MB)",
                    *(level, rules.game, rules.name, needed >> 20, held >> 20, room >> 20, self.budget >> 20),
                )
                raise TablesOverBudget("tables_over_budget", minutes=RETRY_AFTER // 60)
            quick = self._quick(level, rules)
            self._held |= tables
            job = self._jobs[rules, level] = Future()
            if quick not in self._threads:
                # a daemon thread: an executor's would hold the server's exit until the build ends
                thread = threading.Thread(target=self._run, args=(quick,), name=THREAD_NAMES[quick], daemon=True)
                self._threads[quick] = thread
                thread.start()
            self._queues[quick].put((rules, level, tables, job))
            return job

    def _run(self, quick: bool) -> None:
        """A thread of the gate (quick jobs, or long builds): each job in turn, until `close`."""
        while (next_job := self._queues[quick].get()) is not None:
            rules, level, tables, job = next_job
            with self._lock:
                if self._closed:  # its job failed already
                    return
                self._under_way.add((rules, level))
            log.info("preparing the %s tables of %s/%s", level, rules.game, rules.name)
            try:
                self._prepare(level, rules)
            except BaseException as error:
                log.exception("the %s tables of %s/%s could not be prepared", level, rules.game, rules.name)
                with self._lock:  # the next request tries again
                    self._under_way.discard((rules, level))
                    del self._jobs[rules, level]
                    for key in tables:
                        self._held.pop(key, None)
                    if not job.done():  # (failed already if the gate was closed meanwhile)
                        job.set_exception(error)
            else:
                with self._lock:
                    self._under_way.discard((rules, level))
                    if not job.done():
                        job.set_result(None)
