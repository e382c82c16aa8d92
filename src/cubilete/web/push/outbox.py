"""The pushes on their way out: bounded queues that worker threads send from with pywebpush (aes128gcm
encryption, a VAPID-signed request, short timeouts), never on the event loop nor in a move's way.

Each push service (an endpoint's host) has a lane of its own, a queue and a worker thread, while there
are lanes left (LANES; later hosts share one by their name's checksum): a service that never answers
holds only its own pushes, never another's (one sender for all held a push to another service 99.9 s).

A push service that answers 404 or 410 says the subscription is gone: it is forgotten. One that
answers 429 or 5xx, or cannot be reached, is asked again after each of RETRY_DELAYS, then the push is
dropped (logged). Any other refusal (400, 403, 413) would be refused again: dropped at once. Each
attempt's outcome is told to `tally` (web/metrics.py, when the host asked for the figures): `sent`,
`gone`, `refused`, `unanswered` or `error`.

pywebpush and requests are imported by a worker with its first push, not with this module: they
weigh about 38 MB of a process's memory, and many servers push nothing for hours, or ever
(benchmarks/import_memory.py)."""

from __future__ import annotations

import heapq
import itertools
import logging
import threading
import time
import zlib
from collections.abc import Callable
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
SEND_TIMEOUT = (3.05, 5.0)  # seconds to connect, then to be answered (push services answer in well under 1 s)
LANES = 8  # push services sent to apart, each by a thread of its own (the known ones are four)
MOST_WAITING = 10_000  # pushes waiting to be sent, in every lane; beyond, new ones are dropped (logged)
TIME_TO_LIVE = 24 * 3600  # a phone that is off gets the push within a day, or never
URGENT_TIME_TO_LIVE = 3600
CLAIMS_LAST = 12 * 3600  # a VAPID JWT's lifetime (RFC 8292: at most 24 hours)
CLOSE_WAIT = 1.0  # seconds `close` waits for the pushes in hand; the pushes still waiting are dropped (logged)
GONE = (404, 410)


@dataclass(frozen=True)
class Delivery:
    """One push to one subscription."""

    subscription: Subscription
    payload: bytes
    urgent: bool = False  # your turn: Urgency high, a shorter time to live
    tries: int = 0


class Lane:
    """The pushes to one push service (or to the services sharing it), and the worker that sends them."""

    def __init__(self, send_all: Callable[[Lane], None]) -> None:
        self.waiting: list[tuple[float, int, Delivery]] = []  # (when due, order, delivery), a heap
        self.session: requests.Session | None = None  # the worker's, made with its first push
        self.thread = threading.Thread(target=send_all, args=(self,), name="push-outbox", daemon=True)


class Outbox:
    def __init__(
        self,
        keys: VapidKeys,
        store: PushStore,
        contact: str,
        retry_delays: tuple[float, ...] = RETRY_DELAYS,
        most_waiting: int = MOST_WAITING,
        tally: Callable[[str], None] | None = None,
    ) -> None:
        self.keys, self.store, self.contact = keys, store, contact  # contact: the JWT's sub (mailto: or https:)
        self.retry_delays, self.most_waiting, self.tally = retry_delays, most_waiting, tally
        self._order = itertools.count()
        self._changed = threading.Condition()
        self._closed = False
        self._lanes = [Lane(self._send_all) for _ in range(LANES)]
        self._lane_of: dict[str, Lane] = {}  # each push service's lane, by its host

    def start(self) -> None:
        """(By the app's lifespan.) Start the workers; the pushes put before wait for them."""
        for lane in self._lanes:
            lane.thread.start()

    def put(self, delivery: Delivery, delay: float = 0.0) -> None:
        with self._changed:
            if self._closed:
                return
            waiting = sum(len(lane.waiting) for lane in self._lanes)
            if waiting >= self.most_waiting:
                log.warning("push dropped: %d pushes are waiting already", waiting)
                return
            lane = self._lane(_service(delivery))
            heapq.heappush(lane.waiting, (time.monotonic() + delay, next(self._order), delivery))
            self._changed.notify_all()

    def close(self) -> None:
        """Stop the workers after the pushes in hand (waited for CLOSE_WAIT in all at most: a push service
        may take seconds to answer); the pushes still waiting are dropped, and counted in the log."""
        with self._changed:
            self._closed = True
            dropped = sum(len(lane.waiting) for lane in self._lanes)
            for lane in self._lanes:
                lane.waiting.clear()
            self._changed.notify_all()
        if dropped:
            log.warning("stopping: %d pushes dropped unsent", dropped)
        deadline = time.monotonic() + CLOSE_WAIT
        for lane in self._lanes:
            if lane.thread.is_alive():
                lane.thread.join(max(0.0, deadline - time.monotonic()))
        in_hand = [lane for lane in self._lanes if lane.thread.is_alive()]
        if in_hand:
            log.warning("stopping: %d push senders are left to end with the process (a push in hand)", len(in_hand))
        for lane in self._lanes:
            if lane not in in_hand and lane.session is not None:
                lane.session.close()

    def _lane(self, service: str) -> Lane:
        """The service's lane: a free one for a service new to the outbox, while there are any."""
        lane = self._lane_of.get(service)
        if lane is None:
            if len(self._lane_of) < len(self._lanes):
                lane = self._lanes[len(self._lane_of)]
            else:
                lane = self._lanes[zlib.crc32(service.encode()) % len(self._lanes)]
            self._lane_of[service] = lane
        return lane

    def _send_all(self, lane: Lane) -> None:
        while (delivery := self._next(lane)) is not None:
            try:
                outcome = self._send(delivery, lane)
            except Exception:  # one bad push must not stop the others
                log.exception("push to %s failed", _service(delivery))
                outcome = "error"
            if self.tally is not None:
                self.tally(outcome)

    def _next(self, lane: Lane) -> Delivery | None:
        """The lane's next push due, waiting for it; None once closed."""
        with self._changed:
            while not self._closed:
                now = time.monotonic()
                if lane.waiting and lane.waiting[0][0] <= now:
                    return heapq.heappop(lane.waiting)[2]
                self._changed.wait(lane.waiting[0][0] - now if lane.waiting else None)
            return None

    def _send(self, delivery: Delivery, lane: Lane) -> str:
        """Send one push; answers its outcome (see the module's docstring)."""
        import requests  # on first use (see the module's docstring)
        from pywebpush import WebPusher

        if lane.session is None:
            lane.session = requests.Session()
        endpoint = delivery.subscription.endpoint
        url = urlsplit(endpoint)
        headers = self.keys.headers(f"{url.scheme}://{url.netloc}", self.contact, int(time.time()) + CLAIMS_LAST)
        headers["Urgency"] = "high" if delivery.urgent else "normal"
        ttl = URGENT_TIME_TO_LIVE if delivery.urgent else TIME_TO_LIVE
        pusher = WebPusher(delivery.subscription.info(), requests_session=lane.session)
        try:
            response = pusher.send(
                delivery.payload, headers, ttl=ttl, content_encoding="aes128gcm", timeout=SEND_TIMEOUT
            )
        except requests.RequestException as error:
            self._again(delivery, f"{type(error).__name__}")
            return "unanswered"
        status = response.status_code
        if status in GONE:
            log.info("push subscription gone (%d at %s): forgotten", status, _service(delivery))
            try:
                self.store.forget_endpoint(endpoint)
            except DatabaseError as error:
                log.warning("could not forget a gone push subscription: %s", error)
            return "gone"
        if status == 429 or status >= 500:
            self._again(delivery, f"answer {status}")
            return "unanswered"
        if status >= 300:
            log.warning("push refused by %s (%d): dropped", _service(delivery), status)
            return "refused"
        return "sent"

    def _again(self, delivery: Delivery, why: str) -> None:
        if delivery.tries >= len(self.retry_delays):
            log.warning("push to %s dropped after %d tries (%s)", _service(delivery), delivery.tries + 1, why)
            return
        self.put(replace(delivery, tries=delivery.tries + 1), self.retry_delays[delivery.tries])


def _service(delivery: Delivery) -> str:
    """The push service's host (an endpoint's path identifies the subscriber: not logged)."""
    return urlsplit(delivery.subscription.endpoint).netloc
