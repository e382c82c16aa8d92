"""A bound on every Playwright call that has no timeout of its own (evaluate, a DevTools session's send,
new_context, new_page, close...): such a call waits for ever on a page, a worker or a browser that never
answers, and the test would hang until pytest-timeout's 10 minutes, saying little.

One thread watches the call in progress; past BOUND_SECONDS it kills the worker's Chromium, so that the
call fails at once, and the call's wrapper fails the test naming it. The next test gets a new Chromium
(conftest.py's `Chromium`)."""

from __future__ import annotations

import functools
import inspect
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

BOUND_SECONDS = 60.0  # far above any such call's few seconds, even on a loaded machine


class Watchdog:
    """One thread, started and stopped by its owner (the session's browser fixture), that kills this
    process's Chromium when a watched call outlasts the bound."""

    def __init__(self, bound: float = BOUND_SECONDS, kill: Callable[[], None] | None = None) -> None:
        self.bound = bound
        self._kill = kill or kill_chromium
        self._changed = threading.Condition()
        self._call: str | None = None  # the outermost watched call in progress
        self._deadline = 0.0
        self._depth = 0  # a watched call may run another (an event handler's) inside it
        self._expired: str | None = None  # the call the watchdog killed Chromium for
        self._stopped = False
        self._thread = threading.Thread(target=self._watch, name="playwright-watchdog", daemon=True)

    def start(self) -> Watchdog:
        self._thread.start()
        return self

    def stop(self) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify()
        self._thread.join(timeout=5)

    @contextmanager
    def watching(self, call: str) -> Iterator[None]:
        """Run a call under the bound; fail the test, naming the call, if the watchdog had to end it."""
        with self._changed:
            self._depth += 1
            if self._depth == 1:
                self._call, self._deadline = call, time.monotonic() + self.bound
                self._changed.notify()
        try:
            yield
        finally:
            expired = None
            with self._changed:
                self._depth -= 1
                if self._depth == 0:
                    self._call, expired, self._expired = None, self._expired, None
            if expired is not None:  # raised over the call's own error (which the report shows too)
                pytest.fail(f"{expired} did not return within {self.bound:.0f} s: Chromium was killed "
                            "(the next test gets a new one)")

    def _watch(self) -> None:
        with self._changed:
            while not self._stopped:
                left = None if self._call is None else self._deadline - time.monotonic()
                if left is None or left > 0:
                    self._changed.wait(left)
                    continue
                # killed holding the lock: the call cannot end unreported meanwhile
                self._expired, self._call = self._call, None
                self._kill()

    def guard(self, name: str, method: Callable) -> Callable:
        @functools.wraps(method)
        def watched(*args, **kwargs):
            with self.watching(name):
                return method(*args, **kwargs)

        return watched


def unbounded_calls(classes: tuple[type, ...]) -> Iterator[tuple[type, str]]:
    """Each public method of Playwright's sync classes that takes no timeout: those the watchdog bounds."""
    for cls in classes:
        for name, member in vars(cls).items():
            if name.startswith("_") or not inspect.isfunction(member):
                continue
            if "timeout" not in inspect.signature(member).parameters:
                yield cls, name


def kill_chromium() -> None:
    """Kill every Chromium process this process started (through Playwright's driver): its calls in
    progress then fail at once."""
    for pid in _descendants(os.getpid()):
        try:
            if Path(os.readlink(f"/proc/{pid}/exe")).name.startswith(("chromium", "chrome", "headless_shell")):
                os.kill(pid, signal.SIGKILL)
        except OSError:  # gone meanwhile, or not ours to read
            pass


def _descendants(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(parent, []).append(int(entry.name))
    found, waiting = [], [root]
    while waiting:
        for child in children.get(waiting.pop(), []):
            found.append(child)
            waiting.append(child)
    return found
