"""A page's visibility, as it says it over its live socket (`{"type": "visible", "visible": false}`),
passed on to presence (web/presence.py) at most once per interval, the last word winning: each change
is news to every process following the game, and a page flipping it as fast as it can would send one
per message. A flip and its undoing within the interval pass nothing on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

VISIBILITY_INTERVAL = 1.0  # seconds between two changes passed on for one page


class PacedVisibility:
    """One page's visibility; `show(visible)` passes a change on (from the event loop's thread)."""

    def __init__(self, show: Callable[[bool], None], interval: float = VISIBILITY_INTERVAL) -> None:
        self._show = show
        self._interval = interval
        self._shown = True  # a page is visible until it says otherwise
        self._said: bool | None = None  # the page's last word, not passed on yet
        self._next = 0.0  # the event loop's time from which a change may be passed on
        self._timer: asyncio.TimerHandle | None = None

    def said(self, visible: bool) -> None:
        """The page says it is visible, or hidden: passed on now, or once the interval is over."""
        self._said = visible
        if self._timer is None:
            loop = asyncio.get_running_loop()
            self._timer = loop.call_at(max(self._next, loop.time()), self._pass_on, loop)

    def stop(self) -> None:
        """The page left: nothing more is passed on."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _pass_on(self, loop: asyncio.AbstractEventLoop) -> None:
        self._timer = None
        said, self._said = self._said, None
        if said is not None and said != self._shown:
            self._shown = said
            self._next = loop.time() + self._interval
            self._show(said)
