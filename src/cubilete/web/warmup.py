"""Load or build the solvers' tables of a rule set in the background, once per rule set and level.

The first advice for a score-sheet rule set, or the first move of a strong 5000 bot,
may take seconds (the solver computes its tables, then keeps them on disk); the first duel
of Penta, about twenty more (the law of every sheet's final total, kept in memory). Each game
family's players module knows which tables a level needs (`players.prepare`), so warming up
asks for those, silently (no progress callback): the optimal player's tables for hints and
auto-scores, and those of each bot's level. The server starts that work when a game of the
rule set is created or loaded; requests that need the tables (bots, the auto-score, hints,
the live bar) wait for it in a worker thread, never on the event loop.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable

from ..engine.games import Rules
from ..players import prepare
from ..players.table import ADVICE_LEVEL

log = logging.getLogger(__name__)


class TableWarmer:
    def __init__(self) -> None:
        self._ready: dict[tuple[Rules, str], threading.Event] = {}
        self._lock = threading.Lock()

    def start(self, rules: Rules, level: str = ADVICE_LEVEL) -> threading.Event:
        """Start warming the tables of this rule set and level unless already started; the event is set when done."""
        with self._lock:
            ready = self._ready.get((rules, level))
            if ready is None:
                ready = self._ready[rules, level] = threading.Event()
                threading.Thread(target=self._warm, args=(rules, level, ready), daemon=True).start()
        return ready

    def wait(self, rules: Rules, levels: Iterable[str] = (ADVICE_LEVEL,)) -> None:
        for ready in [self.start(rules, level) for level in levels]:
            ready.wait()

    @staticmethod
    def _warm(rules: Rules, level: str, ready: threading.Event) -> None:
        try:
            prepare(level, rules)
        except Exception as error:  # a request that needs the tables meets the error itself
            log.info("no solver tables prepared for %s/%s (%s): %s", rules.game, rules.name, level, error)
        finally:
            ready.set()


# The tables are cached per process, so one warmer serves every app of the process.
WARMER = TableWarmer()
