"""The games kept in memory: at most a fixed number, the least recently used leaving first,
finished games before unfinished ones. The database holds every game; this is only a cache."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Generic, TypeVar

Value = TypeVar("Value")


class GameCache(Generic[Value]):
    def __init__(
        self, capacity: int, is_finished: Callable[[Value], bool], on_evict: Callable[[Value], None]
    ) -> None:
        if capacity < 1:
            raise ValueError("a cache holds at least one game")
        self.capacity = capacity
        self._is_finished = is_finished
        self._on_evict = on_evict
        self._playing: OrderedDict[str, Value] = OrderedDict()
        self._finished: OrderedDict[str, Value] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> Value | None:
        """The value, now the most recently used (filed again as finished if it has ended)."""
        with self._lock:
            value = self._playing.pop(key, None)
            if value is None:
                value = self._finished.pop(key, None)
            if value is not None:
                self._file(key, value)
            return value

    def add(self, key: str, value: Value) -> Value:
        """Keep `value` unless the key is already kept; answers the value kept."""
        with self._lock:
            kept = self._playing.get(key, self._finished.get(key))
            if kept is not None:
                return kept
            self._file(key, value)
            evicted = []
            while len(self) > self.capacity:
                oldest = self._finished if self._finished else self._playing
                evicted.append(oldest.popitem(last=False)[1])
        for old in evicted:
            self._on_evict(old)
        return value

    def values(self) -> list[Value]:
        """Every value kept, now."""
        with self._lock:
            return [*self._playing.values(), *self._finished.values()]

    def discard(self, key: str) -> Value | None:
        """Forget the value of the key (its game is gone); answers it, or None if none was kept."""
        with self._lock:
            value = self._playing.pop(key, None)
            return self._finished.pop(key, None) if value is None else value

    def __len__(self) -> int:
        return len(self._playing) + len(self._finished)

    def __contains__(self, key: str) -> bool:
        return key in self._playing or key in self._finished

    def _file(self, key: str, value: Value) -> None:
        (self._finished if self._is_finished(value) else self._playing)[key] = value
