"""Where an action's cost goes as a process holds more games: a turn played (a roll, then a box scored,
which gives the other seat its turn) does the same work with 1,000 games held as with 10: the same
database statements (the game's own writes, no reload), the same games loaded, nothing asked of
presence for a seat nobody can be told about (no push subscription, no page open), and a round of the
correspondence sweep reads none of the games. Work is counted, never timed."""

from __future__ import annotations

import shutil
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event

from cubilete.storage import Storage
from cubilete.storage.push import Owner, Subscription
from cubilete.web import create_app
from cubilete.web.broker import LocalBroker
from cubilete.web.correspondence import CorrespondenceSweeper
from cubilete.web.games import Games
from cubilete.web.presence import Presence
from cubilete.web.push.reachable import REFRESH_SECONDS, Reachable
from cubilete.web.seats import HUMAN, SeatRequest
from cubilete.web.services import Services
from cubilete.web.tables import TableGate

HELD = (10, 1000)
# the statements of the app's own timers, whose rounds may fall in a measured turn: the correspondence
# sweep (measured on its own below), the daily challenges' sweep, the rating job's catch-up at start, and
# the notifier's read of who has a subscription (at most every REFRESH_SECONDS, in its own thread)
TIMERS = ("games.clock_due <=", "FROM daily_tries", "games.finished IS 1", "push_subscriptions.id >=")
NOTIFIER_WAIT = 10.0  # seconds, at most, for the notifier to take the turn's note


class Work(Counter[str]):
    """What the process did: database statements, games loaded, presence followed, notes the notifier
    looked at (whether their seat may be reached)."""


@contextmanager
def counted(services: Services, monkeypatch: pytest.MonkeyPatch) -> Iterator[Work]:
    work = Work()
    engine = services.games.storage.engine

    def statement(_connection, _cursor, statement: str, _parameters, _context, _executemany) -> None:
        if not any(mark in statement for mark in TIMERS):
            work["statements"] += 1

    def spied(owner: type, name: str) -> None:
        original = getattr(owner, name)

        def spy(*args, **kwargs):
            work[name] += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, spy)

    spied(Storage, "load")
    spied(Presence, "follow")
    spied(Reachable, "may_reach")
    event.listen(engine, "before_cursor_execute", statement)
    try:
        yield work
    finally:
        event.remove(engine, "before_cursor_execute", statement)
        monkeypatch.undo()


def hold_games(services: Services, count: int) -> list[tuple[str, list[str]]]:
    """`count` new Penta games of two human seats, held by the process; their ids and seat tokens,
    the least recently used first."""
    seats = [SeatRequest("Ana", HUMAN), SeatRequest("Beto", HUMAN)]
    made = []
    for _ in range(count):
        live, secrets = services.games.create("penta", None, seats, None, "en")
        made.append((live.id, [secret.token or "" for secret in secrets]))
    return made


def play_a_turn(client: TestClient, game_id: str, token: str) -> None:
    """Seat 0 rolls, then scores a box: the other seat's turn."""
    rolled = client.post(f"/api/games/{game_id}/actions", json={"seat": 0, "token": token, "action": {"type": "roll"}})
    assert rolled.status_code == 200, rolled.text
    box = rolled.json()["table"]["options"][0]["box"]
    scored = client.post(
        f"/api/games/{game_id}/actions", json={"seat": 0, "token": token, "action": {"type": "score", "box": box}}
    )
    assert scored.status_code == 200, scored.text


def notifier_took(work: Work, notes: int) -> None:
    """Wait (bounded) until the notifier looked at `notes` notes."""
    deadline = time.monotonic() + NOTIFIER_WAIT
    while work["may_reach"] < notes:
        assert time.monotonic() < deadline, f"the notifier looked at {work['may_reach']} of {notes} notes"
        time.sleep(0.01)


def turn_work(database: str, held: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Work, Work]:
    """The work of one turn in the game least recently used of `held`, and of one correspondence sweep."""
    with TestClient(create_app(database, unplayed_max_age=None)) as client:
        services: Services = client.app.state.services  # type: ignore[attr-defined]
        games = hold_games(services, held)
        game_id, tokens = games[0]
        with counted(services, monkeypatch) as turn:
            play_a_turn(client, game_id, tokens[0])
            notifier_took(turn, 1)  # "your turn" for seat 1, who has no subscription and no page
        sweeper = CorrespondenceSweeper(services.games, services.push.notifier.quarter_left)
        with counted(services, monkeypatch) as sweep:
            client.portal.call(sweeper.sweep)  # on the app's loop (a browser test's may run in this thread)
    return turn, sweep


def test_a_turn_costs_the_same_with_a_thousand_games_held_as_with_ten(tmp_path, migrated_database, monkeypatch):
    measured = {}
    for held in HELD:
        database = tmp_path / f"held-{held}.sqlite3"
        shutil.copy(migrated_database, database)
        measured[held] = turn_work(f"sqlite:///{database}", held, monkeypatch)
    (few_turn, few_sweep), (many_turn, many_sweep) = measured[HELD[0]], measured[HELD[-1]]
    assert many_turn == few_turn
    assert many_turn["load"] == 0  # the game is held: never read again
    assert many_turn["follow"] == 0  # a seat nobody can be told about costs presence nothing
    assert many_turn["may_reach"] == 1  # one note looked at: the seat given the turn
    assert many_sweep["load"] == few_sweep["load"] == 0  # no game is due: none is read
    assert many_sweep["statements"] == few_sweep["statements"] == 0  # beside the one indexed query: no write


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_notifier_knows_the_subscribed_seats_of_any_process_within_its_refresh(database):
    """A subscription stored by this process is known at once; one stored by another process (its own
    store on the same database) once REFRESH_SECONDS passed; a seat's profile is asked for only while some
    profile has a subscription."""
    here, elsewhere = Storage(database), Storage(database)
    games = Games(here, TableGate(), LocalBroker())
    try:
        game_id = games.create("penta", None, [SeatRequest("Ana", HUMAN), SeatRequest("Beto", HUMAN)], None, "en")[0].id
        clock, owners_asked = Clock(), []
        reachable = Reachable(here.push, clock)

        def seat_owner(game: str, seat: int) -> str | None:
            owners_asked.append((game, seat))
            return None

        def subscribe(storage: Storage, seat: int) -> None:
            subscription = Subscription(f"https://fcm.googleapis.com/fcm/send/{seat}", "p" * 87, "a" * 22, "en")
            storage.push.add(Owner(game_id, seat), subscription, 5, 5)

        assert reachable.may_reach(game_id, 0)  # nothing read yet: the worker reads
        assert reachable.owner(game_id, 0, seat_owner) == (False, None)
        assert not reachable.may_reach(game_id, 0)  # read a moment ago: the note is dropped, no thread woken
        subscribe(here, 0)
        assert reachable.may_reach(game_id, 0)  # stored here: handed on at once, the worker reads again
        assert reachable.owner(game_id, 0, seat_owner) == (True, None)  # stored here: known at once
        subscribe(elsewhere, 1)
        assert not reachable.may_reach(game_id, 1)
        assert reachable.owner(game_id, 1, seat_owner) == (False, None)  # read a moment ago
        clock.now += REFRESH_SECONDS
        assert reachable.may_reach(game_id, 1)  # stale: handed on, for the worker to read again
        assert reachable.owner(game_id, 1, seat_owner) == (True, None)
        assert reachable.may_reach(game_id, 1) and reachable.may_reach(game_id, 0)
        assert owners_asked == []  # no profile has a subscription: no seat's profile is read
        reachable.forget(game_id)
        assert reachable.owner(game_id, 0, seat_owner) == (False, None)  # the game is over
    finally:
        games.close()
        here.close()
        elsewhere.close()
