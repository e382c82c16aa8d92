"""What a broker does while it cannot hear the other processes: news they publish then is lost, so the
games this process holds are compared with the database instead.

The broker counts as deaf from the moment its connection fails, or when it has had no answer (not even
to its pings) for LAPSE_SECONDS, as when Redis is frozen or the network drops packets. While deaf, every
CHECK_SECONDS, and once more as soon as it hears again (news published from then on arrives), it reads
from the database what the games held here missed and tells their followers in this process, as if the
broker had: a game's readers are never more than a few seconds behind the database.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Iterable

from .broker import News, StoredNews

log = logging.getLogger(__name__)
LAPSE_SECONDS = 3.0  # no answer from the broker for this long (it is pinged every second): deaf
CHECK_SECONDS = 2.0  # while deaf, the database is read this often


def _nothing_stored() -> Iterable[tuple[str, News]]:
    return ()


class BrokerWatch:
    """Whether a broker hears the other processes; while it does not, the news read from the database.
    Used from the broker's one listening thread."""

    def __init__(
        self,
        tell: Callable[[str, News], None],
        clock: Callable[[], float] = time.monotonic,
        lapse: float = LAPSE_SECONDS,
        every: float = CHECK_SECONDS,
    ) -> None:
        self._tell = tell  # tells the followers of a game in this process
        self._clock = clock
        self._lapse = lapse
        self._every = every
        self._stored_news: StoredNews = _nothing_stored
        self._last_heard = clock()
        self._last_check = -math.inf
        self._deaf = False
        self._read_failed = False  # the last read of the database failed (said once, not every check)

    def read_missed_news_from(self, stored_news: StoredNews) -> None:
        self._stored_news = stored_news

    @property
    def deaf(self) -> bool:
        return self._deaf

    def heard(self) -> None:
        """The broker answered (a message, a pong, a subscription confirmed)."""
        self._last_heard = self._clock()

    def lost(self, reason: object) -> None:
        """The broker's connection failed: deaf until it answers again."""
        self._last_heard = -math.inf
        self._become_deaf(reason)

    def tick(self) -> None:
        """(Often, at least twice a second.) While deaf, read the news from the database when due, and
        once more as soon as the broker answers again: then hearing again if that read succeeded."""
        now = self._clock()
        hearing = now - self._last_heard <= self._lapse
        if not hearing:
            self._become_deaf(f"no answer for {self._lapse:g} s")
        if not self._deaf:
            return
        back = hearing and self._last_check < self._last_heard  # not read since it answered again
        if (back or now - self._last_check >= self._every) and self._catch_up(now) and hearing:
            self._deaf = False
            # a warning as its start was: the host's log shows when the outage ended
            log.warning("the broker answers again: the games held here are caught up")

    def _become_deaf(self, reason: object) -> None:
        if not self._deaf:
            log.warning("cannot hear other processes (%s): reading their games' news from the database", reason)
        self._deaf = True

    def _catch_up(self, now: float) -> bool:
        self._last_check = now
        try:
            for game_id, news in self._stored_news():
                self._tell(game_id, news)
        except Exception as error:  # the database may be down too: read again at the next check
            if not self._read_failed:
                log.warning("could not read the games' news from the database: %s", error)
            self._read_failed = True
            return False
        self._read_failed = False
        return True
