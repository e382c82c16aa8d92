"""A bound on how long one piece of work (a read, a transaction) may hold a database server's connection.

The server's own timeouts (statement_timeout, lock_timeout: connections.py) need the server to be
running: a frozen server (SIGSTOP, a stalled host) answers nothing, and a thread waiting for it
waited for ever, holding the single writer of the moves (web/group_commit.py) and every move behind
it. So a watcher thread shuts down the socket of a connection checked out for longer than the
timeout: the waiting call then fails at once (an OperationalError, answered 503) and the pool gives
the connection up at its next checkout. The server, when it runs again, reads the end of the
connection after what was sent before it: a transaction whose COMMIT was not sent is rolled back,
never stored later. (A COMMIT sent just before the freeze is in doubt, as with any database: the
move may be stored though refused; the next request of its game reads it.) One watcher for all the
connections, waking four times a second: a timer per checkout would cost every move a thread.

Each connection taken from the pool is tried first, once its deadline runs: after the database server
restarts, every pooled connection is dead, and each process's first request would get a 503; a
connection that fails the try is given up and the pool opens another. The try costs no round trip
where it need not: a pooled connection between two uses has nothing to read, so one look at its
socket without waiting says it is still open; only where there is something to read (a restarted
server's goodbye, or a notice) or the socket is closed does a `SELECT 1` decide. (SQLAlchemy's own
`pool_pre_ping` sends its query before the checkout event, so outside any deadline: against a frozen
server that try waited for ever.)
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
import weakref
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine
from sqlalchemy.exc import DisconnectionError

log = logging.getLogger(__name__)


class ConnectionDeadlines:
    """Cuts the engine's connections held past `seconds`; `close()` stops the watcher."""

    def __init__(self, engine: Engine, seconds: float) -> None:
        self.seconds = seconds
        self._interval = min(0.25, seconds / 4)  # a connection is cut at most this late
        # by the id of the pool's record of a connection (the DBAPI connection is gone by its checkin if
        # it was invalidated): the DBAPI connection checked out, and when it must be back
        self._held: dict[int, tuple[Any, float]] = {}
        self._cut: weakref.WeakSet[Any] = weakref.WeakSet()
        self._lock = threading.Lock()
        self._stopped = threading.Event()
        event.listen(engine, "checkout", self._checked_out)
        event.listen(engine, "checkin", self._checked_in)
        self._watcher = threading.Thread(target=self._watch, name="database-deadlines", daemon=True)
        self._watcher.start()

    def close(self) -> None:
        self._stopped.set()
        self._watcher.join()

    def _checked_out(self, connection: Any, record: Any, _proxy: Any) -> None:
        with self._lock:
            if connection in self._cut:  # cut after its work was done: the pool opens another (SQLAlchemy's way)
                raise DisconnectionError("the connection was cut for holding on past its deadline")
            self._held[id(record)] = (connection, time.monotonic() + self.seconds)
        try:
            if not _nothing_to_read(connection.fileno()):
                _ping(connection)
        except Exception as error:  # dead (a restarted server) or cut (a frozen one): the pool tries another
            with self._lock:
                self._held.pop(id(record), None)
            raise DisconnectionError(f"a pooled connection did not answer: {error}") from error

    def _checked_in(self, _connection: Any, record: Any) -> None:
        with self._lock:
            self._held.pop(id(record), None)

    def _watch(self) -> None:
        while not self._stopped.wait(self._interval):
            now = time.monotonic()
            with self._lock:
                overdue = [(key, connection) for key, (connection, deadline) in self._held.items() if deadline <= now]
                for key, connection in overdue:
                    del self._held[key]
                    self._cut.add(connection)
                    _shut_down(connection)
            if overdue:
                log.warning("cut %d database connection(s) held for more than %g s", len(overdue), self.seconds)


def _nothing_to_read(fileno: int) -> bool:
    """Whether the socket is open with nothing to read, asked without waiting (MSG_PEEK leaves what there
    is to the driver): a round trip less per checkout (1.2 per move) than the ping. False where the
    system cannot ask without waiting."""
    if not hasattr(socket, "MSG_DONTWAIT"):
        return False
    peek = socket.socket(fileno=fileno)
    try:
        peek.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        peek.detach()  # the driver's socket stays open
    return False  # something to read, or the end of the connection


def _ping(connection: Any) -> None:
    """One round trip on the driver's connection (psycopg's), outside any transaction: in autocommit no
    BEGIN goes before the query and no ROLLBACK after it (three round trips, twice the CPU, before)."""
    connection.autocommit = True  # allowed: a connection checked out of the pool has no transaction open
    try:
        connection.execute("SELECT 1")
    finally:
        connection.autocommit = False


def _shut_down(connection: Any) -> None:
    """Shut the connection's socket down both ways: a call waiting on it fails at once."""
    try:
        with socket.socket(fileno=os.dup(connection.fileno())) as duplicate:  # closes the duplicate only
            duplicate.shutdown(socket.SHUT_RDWR)
    except Exception as error:  # closed by its thread meanwhile (the driver's error, or the system's)
        log.debug("could not cut a database connection: %s", error)
