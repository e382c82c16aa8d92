"""A game's readers catch up from the database whatever its broker or database does: while a process
cannot hear Redis, and once it hears it again, it compares the games it holds with the database
(web/broker_watch.py); a catch-up the database failed is tried again on the next read.

The two-process test stops and restarts a Redis of its own (never the shared one) and skips, saying
why, when PostgreSQL is unreachable (conftest.py)."""

from __future__ import annotations

import json
import time

import pytest
from harness import run_async
from sqlalchemy.exc import OperationalError
from test_server_processes import act, eventually

from cubilete.engine.actions import action_to_json
from cubilete.storage import Storage
from cubilete.web.broker import SEATS_CHANGED, EventsStored, LocalBroker
from cubilete.web.broker_watch import BrokerWatch
from cubilete.web.changes import Move
from cubilete.web.games import Games
from cubilete.web.seat_changes import HandToBot
from cubilete.web.seats import SeatRequest
from cubilete.web.tables import TableGate

ANA, LUIS = {"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}


# -- two processes, one PostgreSQL database, a Redis that stops and starts again ---------------------


def follow(follower, events: int, seconds: float = 15) -> dict:
    """The first view a WebSocket follower is pushed with at least `events` events (or the last within `seconds`)."""
    deadline, view = time.monotonic() + seconds, {"events": -1}
    while view["events"] < events and time.monotonic() < deadline:
        try:
            view = json.loads(follower.recv(timeout=max(deadline - time.monotonic(), 0.01)))
        except TimeoutError:
            break
    return view


def play_turn(server, created: dict, seat: int, at: int) -> dict:
    """The seat rolls, then scores its first box: the turn passes. Answers the view after it."""
    status, view = act(server, created, {"type": "roll"}, at, seat)
    assert status == 200, view
    status, view = act(server, created, {"type": "score", "box": view["table"]["options"][0]["box"]}, at + 1, seat)
    assert status == 200, view
    return view


@pytest.mark.parametrize("outage", ["restart", "freeze"])
@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_a_process_that_cannot_hear_redis_still_follows_what_another_stores(
    outage, postgres_url, own_redis, start_server
):
    """Redis stops and starts again on its port, or freezes (SIGSTOP: connections open, no answers) and
    thaws: either way the second process's GET and WebSocket follow what the first stores meanwhile."""
    from websockets.sync.client import connect

    go_away, come_back = (
        (own_redis.stop, own_redis.start) if outage == "restart" else (own_redis.freeze, own_redis.thaw)
    )
    first, second = start_server(postgres_url, own_redis.url), start_server(postgres_url, own_redis.url)
    created = first.api("POST", "/api/games", {"game": "penta", "players": [ANA, LUIS]})
    path = f"/api/games/{created['id']}"
    with connect(f"ws://127.0.0.1:{second.port}{path}/live?since=0") as follower:
        assert follow(follower, 0)["events"] == 0  # the second process holds the game, Luis follows it there
        go_away()
        after_ana = play_turn(first, created, seat=0, at=0)  # Ana's whole turn, told to nobody
        assert after_ana["current_player"] == 1
        while_down = eventually(lambda: second.api("GET", path), lambda view: view == first.api("GET", path))
        assert while_down["events"] == after_ana["events"] and while_down["current_player"] == 1
        assert follow(follower, after_ana["events"])["events"] == after_ana["events"]

        assert act(first, created, {"type": "roll"}, after_ana["events"], seat=1)[0] == 200  # just before it is back
        come_back()
        stored = first.api("GET", path)
        assert eventually(lambda: second.api("GET", path), stored.__eq__) == stored
        assert follow(follower, stored["events"])["events"] == stored["events"]

        box = stored["table"]["options"][0]["box"]
        after_luis = act(first, created, {"type": "score", "box": box}, stored["events"], seat=1)[1]
        assert follow(follower, after_luis["events"])["current_player"] == 0
        caught_up = eventually(lambda: second.api("GET", path), lambda view: view["events"] == after_luis["events"])
        assert caught_up["current_player"] == 0


# -- the watch: while deaf, the database is read every few seconds, and once more when the broker is back ----


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def watching(reads: list[str], fails: list[bool]) -> tuple[BrokerWatch, Clock, list[tuple[str, object]]]:
    """A watch (lapse 3 s, a read every 2 s) whose database reads are counted in `reads` and fail while
    `fails` holds True; answers it, its clock, and what it told."""
    clock, told = Clock(), []

    def stored_news():
        reads.append("read")
        if fails and fails[0]:
            raise OperationalError("SELECT", {}, Exception("the database is down too"))
        return [("g", EventsStored(5))]

    watch = BrokerWatch(lambda game_id, news: told.append((game_id, news)), clock, lapse=3, every=2)
    watch.read_missed_news_from(stored_news)
    return watch, clock, told


def test_a_watch_reads_the_database_only_while_the_broker_is_silent_and_once_when_it_answers_again():
    reads: list[str] = []
    watch, clock, told = watching(reads, [])
    for now in (1, 2, 3):  # answers every second: nothing read
        clock.now = now
        watch.heard()
        watch.tick()
    assert reads == [] and not watch.deaf
    clock.now = 6.5  # silent for 3.5 s (frozen, or packets dropped)
    watch.tick()
    assert watch.deaf and told == [("g", EventsStored(5))]
    clock.now = 7.5
    watch.tick()
    assert len(reads) == 1  # the next read is due 2 s after the last
    clock.now = 8.5
    watch.tick()
    assert len(reads) == 2
    clock.now = 9
    watch.heard()  # back: news published from now on arrives; what was missed before is read once more
    watch.tick()
    assert len(reads) == 3 and not watch.deaf
    clock.now = 11
    watch.heard()
    watch.tick()
    assert len(reads) == 3


def test_a_watch_stays_deaf_until_a_read_succeeds_after_the_broker_is_back():
    reads: list[str] = []
    fails = [True]
    watch, clock, told = watching(reads, fails)
    watch.lost(ConnectionError("Redis restarts"))
    watch.tick()
    assert watch.deaf and reads == ["read"] and told == []
    clock.now = 1
    watch.heard()
    watch.tick()  # back, but the database fails the read: still reading it
    assert watch.deaf and len(reads) == 2
    clock.now = 1.5
    watch.tick()
    assert len(reads) == 2  # not before the next check is due
    fails[0] = False
    clock.now = 3
    watch.heard()
    watch.tick()
    assert not watch.deaf and len(reads) == 3 and told == [("g", EventsStored(5))]


def test_the_stored_news_are_what_the_database_holds_beyond_the_copies_in_memory(database):
    first, second = (
        Games(Storage(database), TableGate(), LocalBroker()),
        Games(Storage(database), TableGate(), LocalBroker()),
    )
    live, secrets = first.create("penta", None, [SeatRequest("Ana", "human"), SeatRequest("Luis", "human")], None, "en")
    behind, level = second.get(live.id), first.create("penta", None, [SeatRequest("Bea", "human")], 6, "en")[0]
    second.get(level.id)
    assert second.stored_news() == []
    run_async(first.change(live.id, Move(0, secrets[0].token, {"type": "roll"}, 0)))
    run_async(first.change(live.id, HandToBot(1, secrets[1].token, leave=True)))
    assert sorted(second.stored_news(), key=repr) == sorted(
        [(live.id, SEATS_CHANGED), (live.id, EventsStored(1))], key=repr
    )
    assert behind.match.events == []  # told, not yet read: the next read catches up


# -- a catch-up the database fails is tried again ------------------------------------------------------


def test_a_copy_read_during_a_database_outage_is_caught_up_after_it(database):
    broker = LocalBroker()  # one broker for both, as Redis is for two processes
    first, second = Games(Storage(database), TableGate(), broker), Games(Storage(database), TableGate(), broker)
    live, secrets = first.create("penta", None, [SeatRequest("Ana", "human")], 5, "en")
    copy = second.get(live.id)
    read_events, down = second.storage.events_since, [True]

    def events_since(game_id: str, first_index: int):
        if down[0]:
            raise OperationalError("SELECT", {}, Exception("the database is restarting"))
        return read_events(game_id, first_index)

    second.storage.events_since = events_since  # type: ignore[method-assign]
    while not live.state.is_over:  # the other process plays the game to its end, and says so
        action = {"type": "roll"} if live.state.is_chance else action_to_json(live.state.legal_actions()[-1])
        run_async(first.change(live.id, Move(0, secrets[0].token, action, len(live.match.events))))
    for _read in range(2):  # each read during the outage fails, none is answered from the stale copy
        with pytest.raises(OperationalError):
            second.get(live.id)
    down[0] = False
    assert second.get(live.id) is copy
    assert copy.match.events == live.match.events and copy.state.is_over
