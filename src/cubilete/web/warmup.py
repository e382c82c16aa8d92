"""Build the solver's tables of a rule set in the background, once, as soon as a game needs them.

The first advice for a score-sheet rule set may take seconds (the solver computes its
table). The server starts that work when a game of the rule set is created or loaded;
requests that need advice (bots, the auto-score, hints) wait for it in a worker thread,
never on the event loop.
"""

from __future__ import annotations

import logging
import threading

from ..engine.games import Rules, new_state
from ..engine.sheet_rules import SheetRules

log = logging.getLogger(__name__)


def _warm_sheet_tables(rules: SheetRules) -> None:
    from ..solvers.sheet_advice import advise

    start = new_state(rules, 1).apply_roll((1, 2, 3, 4, 5))
    advise(start)


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
                if isinstance(rules, SheetRules):
                    threading.Thread(target=self._warm, args=(rules, ready), daemon=True).start()
                else:
                    ready.set()
        return ready

    def wait(self, rules: Rules) -> None:
        self.start(rules).wait()

    @staticmethod
    def _warm(rules: SheetRules, ready: threading.Event) -> None:
        try:
            _warm_sheet_tables(rules)
        except Exception:  # the request that needs the table will meet the error itself
            log.exception("could not prepare the solver tables of %s/%s", rules.game, rules.name)
        finally:
            ready.set()
