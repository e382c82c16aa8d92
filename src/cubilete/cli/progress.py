"""The CLI's progress bar: a Rich adapter for the solvers' and simulations' progress callbacks."""

from __future__ import annotations

import threading
from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeRemainingColumn

PROGRESS_AFTER_SECONDS = 1.0


class ProgressBar:
    """A `Progress` callback `(done, total, label)` drawn on standard error (so --json output
    stays clean), one line per label. It appears only once the work has taken over a second
    (Numba's first compilation included, hence a timer rather than a check per call)."""

    def __init__(self, after_seconds: float | None = None) -> None:
        self.bar: Progress | None = None
        self._latest: dict[str, tuple[int, int]] = {}
        self._tasks: dict[str, TaskID] = {}
        self._lock = threading.Lock()
        delay = PROGRESS_AFTER_SECONDS if after_seconds is None else after_seconds
        self.timer = threading.Timer(delay, self._show)
        self.timer.daemon = True
        self.timer.start()

    def __call__(self, done: int, total: int, label: str) -> None:
        with self._lock:
            self._latest[label] = (done, total)
            if self.bar is not None:
                self._update(label)

    def _show(self) -> None:
        with self._lock:
            columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.percentage:>3.0f}%"),
                       TimeRemainingColumn())
            self.bar = Progress(*columns, console=Console(stderr=True), transient=True)
            for label in self._latest:
                self._update(label)
            self.bar.start()

    def _update(self, label: str) -> None:
        assert self.bar is not None
        done, total = self._latest[label]
        if label not in self._tasks:
            self._tasks[label] = self.bar.add_task(label, total=total)
        self.bar.update(self._tasks[label], completed=done, total=total)

    def close(self) -> None:
        self.timer.cancel()
        with self._lock:
            if self.bar is not None:
                self.bar.stop()

    def __enter__(self) -> ProgressBar:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()
