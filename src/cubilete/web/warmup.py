"""Load or build the solvers' tables of a rule set in the background, once per rule set.

The first advice for a score-sheet rule set, or the first move of a strong 5000 bot,
may take seconds (the solver computes its tables, then keeps them on disk). Each game
family's players module knows which tables its optimal player needs (`players.prepare`),
so warming up asks for those, silently (no progress callback). The server
starts that work when a game of the rule set is created or loaded; requests that need
the tables (bots, the auto-score, hints) wait for it in a worker thread, never on the
event loop.
"""

from __future__ import annotations

import logging
import threading

from ..engine.games import Rules
from ..players import prepare

log = logging.getLogger(__name__)


class TableWarmer:
    def __init__(self) -> None:
        self._ready: dict[Rules, threading.Event] = {}
        self._lock = threading.Lock()

    def start(self, rules: Rules) -> threading.Event:
        """Start warming this rule set's tables unless already started; the event is set when done."""
        with self._lock:
            ready = self._ready.get(rules)
            if ready is None:
                ready = self._ready[rules] = threading.Event()
                threading.Thread(target=self._warm, args=(rules, ready), daemon=True).start()
        return ready

    def wait(self, rules: Rules) -> None:
        self.start(rules).wait()

    @staticmethod
    def _warm(rules: Rules, ready: threading.Event) -> None:
        try:
            prepare("optimal", rules)
        except Exception as error:  # a request that needs the tables meets the error itself
            log.info("no solver tables prepared for %s/%s: %s", rules.game, rules.name, error)
        finally:
            ready.set()


# The tables are cached per process, so one warmer serves every app of the process.
WARMER = TableWarmer()
