"""A bounded lifecycle (issue 31, point 1): `create_app` starts no thread, the lifespan starts them and
leaves none behind, and the pushes' workers stop within a bound even with a full queue and a stuck
worker (a push service or a database that does not answer)."""

from __future__ import annotations

import asyncio
import threading
import time
from types import SimpleNamespace

from fastapi.testclient import TestClient
from harness import run_async

from cubilete.storage.push import Subscription
from cubilete.web import create_app
from cubilete.web.group_commit import GroupCommit
from cubilete.web.push import notifier as notifier_module
from cubilete.web.push.notifier import Notifier
from cubilete.web.push.outbox import Delivery, Outbox

SAFETY_SECONDS = 30  # a deadline for states that come at once when all is well
CLOSE_BOUND = 3.0  # seconds: a close waits about one second for the work in hand, never for the queue
ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}


def app_threads() -> set[threading.Thread]:
    """The threads running now, but for the test runner's own, once the rate limiters' timers are over:
    their store (limits' MemoryStorage) expires its counters on a one-shot Timer of 10 ms, started with
    it and after a hit, which the app neither owns nor could outlive."""
    deadline = time.monotonic() + SAFETY_SECONDS
    while any(isinstance(thread, threading.Timer) for thread in threading.enumerate()):
        assert time.monotonic() < deadline, "a Timer thread never ended"
        time.sleep(0.01)
    return {thread for thread in threading.enumerate() if thread is not threading.main_thread()}


def threads_left(before: set[threading.Thread]) -> set[str]:
    """The names of the threads still running beyond `before` once the app stopped, waiting (bounded) for
    AnyIO's worker threads, which its event loop (TestClient's) ends as it closes, a moment after."""
    deadline = time.monotonic() + SAFETY_SECONDS
    while (left := app_threads() - before) and time.monotonic() < deadline:
        if any(thread.name != "AnyIO worker thread" for thread in left):
            break
        time.sleep(0.01)
    return {thread.name for thread in left}


def test_create_app_starts_no_thread_and_its_lifespan_leaves_none_behind(database):
    before = app_threads()
    app = create_app(database)
    assert app_threads() <= before  # nothing runs before the app does (an earlier test's may have ended)
    with TestClient(app) as client:
        created = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS]}).json()
        seat = created["seats"][0]
        roll = {"seat": 0, "token": seat["token"], "action": {"type": "roll"}}
        assert client.post(f"/api/games/{created['id']}/actions", json=roll).status_code == 200
        assert {thread.name for thread in app_threads() - before} >= {"push-notifier", "push-outbox"}
    assert threads_left(before) == set()


def test_on_postgresql_and_redis_the_lifespan_starts_the_broker_and_writer_threads_and_stops_them(
    postgres_url, redis_url
):
    """Only the storage's deadline watcher runs before the app (it guards the migrations and the reads
    create_app makes: storage/deadlines.py); the lifespan stops it with the rest."""
    before = app_threads()
    app = create_app(postgres_url, redis_url)
    assert {thread.name for thread in app_threads() - before} == {"database-deadlines"}
    with TestClient(app) as client:
        created = client.post("/api/games", json={"game": "penta", "players": [ANA, LUIS]}).json()
        roll = {"seat": 0, "token": created["seats"][0]["token"], "action": {"type": "roll"}}
        assert client.post(f"/api/games/{created['id']}/actions", json=roll).status_code == 200
        running = {thread.name for thread in app_threads() - before}
        assert running >= {"redis-broker", "redis-publisher", "group-commit", "push-notifier", "push-outbox"}
    assert threads_left(before) == set()


class BlockedStore:
    """A push store whose every write waits for `release`: a database that does not answer."""

    def __init__(self) -> None:
        self.entered, self.release = threading.Event(), threading.Event()

    def forget_game(self, game_id: str) -> None:
        self.entered.set()
        assert self.release.wait(SAFETY_SECONDS), "the test never let the store go"

    forget_endpoint = forget_game


def finished_game(game_id: str) -> SimpleNamespace:
    """What the notifier reads of a finished game with no held seats: told only to forget it."""
    match = SimpleNamespace(rules=SimpleNamespace(game="penta"))
    return SimpleNamespace(id=game_id, seats=(), state=SimpleNamespace(is_over=True), match=match)


def timed_close(close) -> float:
    """Run `close` in a thread of its own and answer how long it took (a close that hangs fails the test
    instead of hanging it)."""
    closer = threading.Thread(target=close, daemon=True)
    began = time.monotonic()
    closer.start()
    closer.join(SAFETY_SECONDS)
    assert not closer.is_alive(), "close never returned"
    return time.monotonic() - began


def test_the_notifier_closes_within_a_bound_with_a_full_queue_and_a_stuck_worker(monkeypatch, caplog):
    monkeypatch.setattr(notifier_module, "MOST_WAITING", 3)
    store = BlockedStore()
    notifier = Notifier(store, presence=None, outbox=None)  # type: ignore[arg-type]
    notifier.start()
    try:
        notifier.stored(finished_game("g0"), 0)
        assert store.entered.wait(SAFETY_SECONDS)  # the worker is stuck in the database
        for number in range(1, 5):  # three fill the queue, the fourth is dropped
            notifier.stored(finished_game(f"g{number}"), 0)
        assert timed_close(notifier.close) < CLOSE_BOUND
        assert "3 push notes dropped unsent" in caplog.text
    finally:
        store.release.set()


def test_the_outbox_closes_within_a_bound_with_a_full_queue_and_a_push_in_hand(monkeypatch, caplog):
    store = BlockedStore()
    outbox = Outbox(keys=None, store=store, contact="mailto:host@example.org", most_waiting=3)  # type: ignore[arg-type]
    # the push in hand waits for a push service that does not answer (here: for the test)
    monkeypatch.setattr(outbox, "_send", lambda delivery, lane: store.forget_endpoint(delivery.subscription.endpoint))
    subscription = Subscription("https://push.example.org/x", "key", "auth", "en")
    outbox.start()
    try:
        outbox.put(Delivery(subscription, b"{}"))
        assert store.entered.wait(SAFETY_SECONDS)
        for _ in range(4):  # three fill the queue, the fourth is dropped
            outbox.put(Delivery(subscription, b"{}"))
        assert timed_close(outbox.close) < CLOSE_BOUND
        assert "3 pushes dropped unsent" in caplog.text
    finally:
        store.release.set()


def test_the_group_commit_closes_within_a_bound_while_a_write_hangs():
    """A database server that stopped answering: the writer thread is left to end with the process."""
    entered, release = threading.Event(), threading.Event()

    def hanging_write(appends):
        entered.set()
        assert release.wait(SAFETY_SECONDS), "the test never let the write go"
        return [RuntimeError("never stored")] * len(appends)

    storage = SimpleNamespace(is_local=False, append_together=hanging_write)
    group = GroupCommit(storage)  # type: ignore[arg-type]

    async def write_then_close() -> float:
        writing = asyncio.create_task(group.store(None))  # type: ignore[arg-type]
        assert await asyncio.to_thread(entered.wait, SAFETY_SECONDS)
        took = await asyncio.to_thread(timed_close, group.close)
        writing.cancel()
        return took

    try:
        assert run_async(write_then_close()) < CLOSE_BOUND
    finally:
        release.set()
