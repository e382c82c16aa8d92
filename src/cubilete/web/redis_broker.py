"""The broker of several server processes: Redis publish/subscribe.

Each process subscribes once to every game's channel (a pattern) and hands each message
to its own listeners from one background thread, so subscribing to a game costs no
round trip and the Redis connection is only ever read by that thread; each news crosses as
a versioned message (web/wire.py) that processes one release apart both read. Publishing is
queued for another thread, which sends what is queued in one pipeline: the event loop,
where moves are stored (web/group_commit.py), never waits for Redis. A publish that
Redis misses (it is down) is logged, not raised: the move is already stored; the latest news
of each game Redis missed is sent again every RETRY_SECONDS until it takes it. Meanwhile,
and whenever this process cannot hear Redis, the games it holds are compared with the
database instead (broker_watch.py). Each process keeps a record of the message version it speaks beside
the channels, and does not start beside a process whose messages neither reads (running_processes.py).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable

import redis
from redis.client import PubSub

from ..storage.connections import shown_url
from .broker import (
    BrokerUnreachable,
    EventsStored,
    ForeignMessageVersion,
    Listener,
    Listeners,
    News,
    Reacted,
    SeatsPresent,
    StoredNews,
)
from .broker_watch import BrokerWatch
from .running_processes import RunningProcesses
from .wire import WireReader, encoded

log = logging.getLogger(__name__)
CONNECT_TIMEOUT = 10  # seconds to reach Redis (a socket_connect_timeout in the URL overrides it)
PING_SECONDS = 1.0  # how often the listening connection asks Redis whether it is there
RETRY_SECONDS = 1.0  # how often news Redis missed is sent again
TIMEOUT_SECONDS = 5.0  # a command to Redis that takes longer has failed
CLOSE_WAIT = 1.0  # seconds `close` waits for each thread: a stopping process does not wait for a frozen Redis
Message = tuple[str, News]  # a channel, and the news to publish on it (web/wire.py encodes it)


def channel_prefix(install: str) -> str:
    """Every channel of an install's processes starts with this (storage/install.py): installs sharing a
    Redis server, whatever their database numbers (pub/sub ignores them), never hear each other."""
    return f"cubilete:{install}:game:"


class RedisBroker:
    def __init__(self, url: str, install: str) -> None:
        """The broker of the install's processes (`install`: its name, storage/install.py); this process
        joins their records (running_processes.py) and raises ForeignMessageVersion where it may not."""
        self._prefix = channel_prefix(install)
        self._redis = redis.Redis.from_url(url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=CONNECT_TIMEOUT)
        self._listeners = Listeners()
        self._reader = WireReader()
        self._watch = BrokerWatch(self._listeners.tell)
        open_pubsub: Callable[[], PubSub] = self._redis.pubsub  # redis leaves pubsub() unannotated
        self._pubsub = open_pubsub()
        self._processes = RunningProcesses(self._redis, install)
        try:
            self._pubsub.psubscribe(f"{self._prefix}*")
            self._processes.join()
        except redis.RedisError as error:
            self._close_connections()
            raise BrokerUnreachable("broker_unreachable", url=shown_url(url), reason=str(error)) from error
        except ForeignMessageVersion:
            self._close_connections()
            raise
        self._subscribed = threading.Event()
        self._closed = threading.Event()
        self._thread = threading.Thread(target=self._listen, name="redis-broker", daemon=True)
        self._outbox: queue.SimpleQueue[Message | None] = queue.SimpleQueue()  # None: the last
        self._publisher = threading.Thread(target=self._publish_queued, name="redis-publisher", daemon=True)
        self._url = url

    def start(self) -> None:
        """(By the app's lifespan.) Start listening and publishing, once Redis confirms the subscription."""
        self._thread.start()
        self._publisher.start()
        if not self._subscribed.wait(timeout=10):
            self.close()
            raise BrokerUnreachable("broker_unreachable", url=shown_url(self._url), reason="no answer within 10 s")

    def publish(self, game_id: str, news: News) -> None:
        self._outbox.put((f"{self._prefix}{game_id}", news))

    def subscribe(self, game_id: str, listener: Listener) -> Callable[[], None]:
        return self._listeners.add(game_id, listener)

    def answers(self) -> bool:
        try:
            return bool(self._redis.ping())
        except redis.RedisError as error:
            log.warning("Redis does not answer: %s", error)
            return False

    def read_missed_news_from(self, stored_news: StoredNews) -> None:
        self._watch.read_missed_news_from(stored_news)

    def tell_here(self, game_id: str, news: News) -> None:
        self._listeners.tell(game_id, news)

    def close(self) -> None:
        self._outbox.put(None)  # what was published before is still sent, then the process's record deleted
        if self._publisher.ident is None:  # never started (the app never served): no thread deletes it
            self._processes.leave()
        elif self._publisher.is_alive() and self._publisher is not threading.current_thread():
            self._publisher.join(CLOSE_WAIT)  # a frozen Redis does not hold the stop: the record lapses
        self._closed.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(CLOSE_WAIT)
        self._close_connections()
        self._listeners.clear()

    def _close_connections(self) -> None:
        self._pubsub.close()
        self._redis.close()

    def _publish_queued(self) -> None:
        missed: dict[tuple[str, str], News] = {}  # each game's latest news of each kind Redis missed
        last = False
        while not last:
            self._processes.refresh_when_due()  # here, not where the watch ticks: a Redis that hangs holds it
            refresh = self._processes.seconds_to_refresh()
            messages = self._queued(min(RETRY_SECONDS, refresh) if missed else refresh)
            last = None in messages
            changes = [message for message in messages if message is not None]
            pipeline = self._redis.pipeline(transaction=False)
            for channel, news in [*((channel, news) for (channel, _), news in missed.items()), *changes]:
                pipeline.publish(channel, encoded(news))
            try:
                pipeline.execute()
            except redis.RedisError as error:
                if not missed:
                    log.warning("could not tell other processes of %d changes, trying again: %s", len(changes), error)
                for channel, news in changes:  # the latest of each kind says all the earlier ones did
                    if not isinstance(news, Reacted):  # a reaction is of its moment: not sent late
                        missed[(channel, _kind(news))] = news
                continue
            if missed:
                log.warning("told other processes of the changes of %d games Redis had missed", len(missed))
            missed.clear()
        self._processes.leave()

    def _queued(self, wait: float) -> list[Message | None]:
        """What is queued to publish, once there is something or after `wait` seconds."""
        try:
            messages = [self._outbox.get(timeout=wait)]
        except queue.Empty:
            return []
        while True:
            try:
                messages.append(self._outbox.get_nowait())
            except queue.Empty:
                return messages

    def _listen(self) -> None:
        pinged = time.monotonic()
        while not self._closed.is_set():
            self._watch.tick()
            try:
                if time.monotonic() - pinged >= PING_SECONDS:  # its answer tells the watch Redis is there
                    pinged = time.monotonic()
                    self._pubsub.ping()
                message = self._pubsub.get_message(timeout=0.5)
            except redis.RedisError as error:  # the next get_message reconnects and subscribes again
                self._watch.lost(error)
                self._closed.wait(1)
                continue
            if message is None:
                continue
            self._watch.heard()
            if message["type"] == "psubscribe":  # Redis confirms: from now on no publish is missed
                self._subscribed.set()
            elif message["type"] == "pmessage":
                self._deliver(message["channel"], message["data"])

    def _deliver(self, channel: bytes, data: bytes) -> None:
        news = self._reader.news(data)
        if news is not None:
            self._listeners.tell(channel.decode(errors="replace")[len(self._prefix) :], news)


def _kind(news: News) -> str:
    """What the news is of (a newer news of the same kind replaces it): events, seats, or one process's presence."""
    if isinstance(news, SeatsPresent):
        return f"present {news.origin}"
    return "events" if isinstance(news, EventsStored) else "seats"
