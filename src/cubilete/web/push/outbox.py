"""The pushes on their way out: a bounded queue that one worker thread sends from with pywebpush
(aes128gcm encryption, a VAPID-signed request, timeouts), never on the event loop nor in a move's way.

A push service that answers 404 or 410 says the subscription is gone: it is forgotten. One that
answers 429 or 5xx, or cannot be reached, is asked again after each of RETRY_DELAYS, then the push is
dropped (logged). Any other refusal (400, 403, 413) would be refused again: dropped at once.

pywebpush and requests are imported by the worker with its first push, not with this module: they
weigh about 38 MB of a process's memory, and many servers push nothing for hours, or ever
(benchmarks/import_memory.py)."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from ...storage import DatabaseError
from ...storage.push import PushStore, Subscription
from .keys import VapidKeys

if TYPE_CHECKING:
    import requests

log = logging.getLogger(__name__)
RETRY_DELAYS = (5.0, 30.0, 120.0)  # seconds before each new try after a failure
SEND_TIMEOUT = (3.05, 10.0)  # seconds to connect, then to be answered
MOST_WAITING = 10_000  # pushes waiting to be sent; beyond, new ones are dropped (logged)
TIME_TO_LIVE = 24 * 3600  # a phone that is off gets the push within a day, or never
URGENT_TIME_TO_LIVE = 3600
CLAIMS_LAST = 12 * 3600  # a VAPID JWT's lifetime (RFC 8292: at most 24 hours)
CLOSE_WAIT = 1.0  # seconds `close` waits for the push in hand; the pushes still waiting are dropped (logged)
GONE = (404, 410)


@dataclass(frozen=True)
class Delivery:
    """One push to one subscription."""

    subscription: Subscription
    payload: bytes
    urgent: bool = False  # your turn: Urgency high, a shorter time to live
    tries: int = 0


class Outbox:
    def __init__(
        self,
        keys: VapidKeys,
        store: PushStore,
        contact: str,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        most_waiting: int = MOST_WAITING,
    ) -> None:
        self.keys, self.store, self.contact = keys, store, contact  # contact: the JWT's sub (mailto: or https:)
        self.retry_delays, self.most_waiting = retry_delays, most_waiting
        self._waiting: list[tuple[float, int, Delivery]] = []  # (when due, order, delivery), a heap
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._closed = False
        self._session: requests.Session | None = None  # the worker's, made with its first push
        self._thread = threading.Thread(target=self._send_all, name="push-outbox", daemon=True)

    def start(self) -> None:
        """(By the app's lifespan.) Start the worker; the pushes put before wait for it."""
        self._thread.start()

    def put(self, delivery: Delivery, delay: float = 0.0) -> None:
        with self._changed:
            if self._closed:
                return
            if len(self._waiting) >= self.most_waiting:
                log.warning("push dropped: %d pushes are waiting already", len(self._waiting))
                return
            heapq.heappush(self._waiting, (time.monotonic() + delay, next(self._order), delivery))
            self._changed.notify()

    def close(self) -> None:
        """Stop the worker after the push in hand (waited for CLOSE_WAIT at most: a push service may take
        seconds to answer); the pushes still waiting are dropped, and counted in the log."""
        with self._changed:
            self._closed = True
            dropped, self._waiting = len(self._waiting), []
            self._changed.notify()
        if dropped:
            log.warning("stopping: %d pushes dropped unsent", dropped)
        if self._thread.is_alive():
            self._thread.join(CLOSE_WAIT)
        if self._thread.is_alive():
            log.warning("stopping: the push outbox is left to end with the process (a push in hand)")
        elif self._session is not None:
            self._session.close()

    def _send_all(self) -> None:
        while (delivery := self._next()) is not None:
            try:
                self._send(delivery)
            except Exception:  # one bad push must not stop the others
                log.exception("push to %s failed", _service(delivery))

    def _next(self) -> Delivery | None:
        """The next push due, waiting for it; None once closed."""
        with self._changed:
            while not self._closed:
                now = time.monotonic()
                if self._waiting and self._waiting[0][0] <= now:
                    return heapq.heappop(self._waiting)[2]
                self._changed.wait(self._waiting[0][0] - now if self._waiting else None)
            return None

    def _send(self, delivery: Delivery) -> None:
        import requests  # on first use (see the module's docstring)
        from pywebpush import WebPusher

        if self._session is None:
            self._session = requests.Session()
        endpoint = delivery.subscription.endpoint
        url = urlsplit(endpoint)
        headers = self.keys.headers(f"{url.scheme}://{url.netloc}", self.contact, int(time.time()) + CLAIMS_LAST)
        headers["Urgency"] = "high" if delivery.urgent else "normal"
        ttl = URGENT_TIME_TO_LIVE if delivery.urgent else TIME_TO_LIVE
        pusher = WebPusher(delivery.subscription.info(), requests_session=self._session)
        try:
            response = pusher.send(
                delivery.payload, headers, ttl=ttl, content_encoding="aes128gcm", timeout=SEND_TIMEOUT
            )
        except requests.RequestException as error:
            self._again(delivery, f"{type(error).__name__}")
            return
        status = response.status_code
        if status in GONE:
            log.info("push subscription gone (%d at %s): forgotten", status, _service(delivery))
            try:
                self.store.forget_endpoint(endpoint)
            except DatabaseError as error:
                log.warning("could not forget a gone push subscription: %s", error)
        elif status == 429 or status >= 500:
            self._again(delivery, f"answer {status}")
        elif status >= 300:
            log.warning("push refused by %s (%d): dropped", _service(delivery), status)

    def _again(self, delivery: Delivery, why: str) -> None:
        if delivery.tries >= len(self.retry_delays):
            log.warning("push to %s dropped after %d tries (%s)", _service(delivery), delivery.tries + 1, why)
            return
        self.put(replace(delivery, tries=delivery.tries + 1), self.retry_delays[delivery.tries])


def _service(delivery: Delivery) -> str:
    """The push service's host (an endpoint's path identifies the subscriber: not logged)."""
    return urlsplit(delivery.subscription.endpoint).netloc
