"""Storing games as events: rows per action, refused saves, the old schema's games, the cache, times."""

from __future__ import annotations

import asyncio
import gc
import json
import sqlite3
import weakref
from datetime import UTC, datetime

import pytest
from fastapi.testclient import TestClient
from harness import chosen_seed, run_async
from sqlalchemy import JSON, Boolean, Column, DateTime, MetaData, String, Table, create_engine, event, inspect, text
from sqlalchemy.exc import StatementError

from cubilete.engine.dice_seeds import LegacySeed
from cubilete.engine.events import replay
from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.storage import EventConflict, SaveFailed, Storage
from cubilete.storage.connections import DatabaseUnusable
from cubilete.storage.tables import UtcDateTime
from cubilete.web import create_app
from cubilete.web.broker import LocalBroker
from cubilete.web.catch_up import StaleRequest
from cubilete.web.changes import Change, Move
from cubilete.web.game_cache import GameCache
from cubilete.web.games import Games
from cubilete.web.live_game import StateHistory
from cubilete.web.seats import SeatRequest
from cubilete.web.tables import TableGate

ANA = {"name": "Ana", "kind": "human"}
LUIS = {"name": "Luis", "kind": "human"}


def act_now(games: Games, game_id: str, token: str, action: dict, at: int | None):
    """Seat 0's move, made on an event loop of its own as the action route makes it; answers the game."""
    return run_async(games.change(game_id, Move(0, token, action, at)))


def create(client, players=(ANA,), **extra) -> dict:
    response = client.post("/api/games", json={"game": "penta", "players": list(players), **chosen_seed(players, 7), **extra})
    assert response.status_code == 201, response.text
    return response.json()


def act(client, created, action, seat=0, at=None, **options):
    body = {"seat": seat, "token": created["seats"][seat]["token"], "action": action, "at": at}
    return client.post(f"/api/games/{created['id']}/actions", json=body, **options)


def stored_events(database: str, game_id: str) -> list[tuple[int, dict]]:
    engine = create_engine(database)
    with engine.connect() as connection:
        rows = connection.execute(
            text('SELECT "index", event FROM events WHERE game_id = :id ORDER BY "index"'), {"id": game_id}
        ).all()
    engine.dispose()
    return [(index, event if isinstance(event, dict) else json.loads(event)) for index, event in rows]


# -- events as rows ------------------------------------------------------------------------------


def test_each_action_appends_its_events_as_rows(database):
    with TestClient(create_app(database)) as client:
        created = create(client)
        assert stored_events(database, created["id"]) == []
        act(client, created, {"type": "roll"}, at=0)
        view = act(client, created, {"type": "keep", "held": [0, 1]}, at=1).json()
        steps = client.get(f"/api/games/{created['id']}", params={"since": 0}).json()["steps"]
    assert view["events"] == 3
    assert stored_events(database, created["id"]) == [(step["index"], step["event"]) for step in steps]
    assert stored_events(database, created["id"])[1] == (1, {"seat": 0, "action": {"type": "keep", "held": [0, 1]}})
    columns = {column["name"] for column in inspect(create_engine(database)).get_columns("games")}
    assert "record" not in columns and {"game", "rules", "players", "seed", "format"} <= columns


def test_the_database_refuses_a_second_event_at_the_same_index(database):
    storage = Storage(database)
    match = Match(rules_for("penta"), ["Ana"], seed=3)
    storage.insert("g", "en", [], match.to_json())
    match.roll()
    storage.append("g", 0, [match.events[0].to_json()], finished=False)
    with pytest.raises(EventConflict):
        storage.append("g", 0, [{"roll": [6, 6, 6, 6, 6]}, {"roll": [1, 1, 1, 1, 1]}], finished=False)
    assert storage.events_since("g", 0) == [match.events[0].to_json()]
    storage.close()


def test_the_event_loop_writes_on_after_a_refused_and_a_failed_write(database):
    """Neither a taken index nor a failed write stops the next moves from being stored."""
    storage = Storage(database)
    match = Match(rules_for("penta"), ["Ana"], seed=3)
    storage.insert("g", "en", [], match.to_json())
    match.roll()
    failing = []

    def fail_once(_connection, _cursor, statement, *_rest) -> None:
        if failing and statement.startswith("INSERT"):
            failing.clear()
            raise sqlite3.OperationalError("attempt to write a readonly database")  # as a disk gone read-only would

    event.listen(storage.engine, "before_cursor_execute", fail_once)

    async def moves() -> None:
        storage.append("g", 0, [match.events[0].to_json()], finished=False)
        with pytest.raises(EventConflict):
            storage.append("g", 0, [{"roll": [6, 6, 6, 6, 6]}], finished=False)
        storage.append("g", 1, [{"seat": 0, "action": {"type": "keep", "held": [0]}}], finished=False)
        failing.append(True)
        with pytest.raises(SaveFailed):
            storage.append("g", 2, [{"roll": [1, 1, 1, 1]}], finished=False)
        storage.append("g", 2, [{"roll": [2, 2, 2, 2]}], finished=False)

    run_async(moves())
    assert [index for index, _event in stored_events(database, "g")] == [0, 1, 2]
    assert stored_events(database, "g")[2] == (2, {"roll": [2, 2, 2, 2]})
    storage.close()


def test_a_move_that_cannot_be_saved_is_refused_translated_and_forgotten(database, tmp_path):
    with TestClient(create_app(database)) as writer:
        created = create(writer, players=(ANA,), lang="es")
        act(writer, created, {"type": "roll"}, at=0)
        path = tmp_path / "games.sqlite3"
        with TestClient(create_app(f"sqlite:///file:{path}?mode=ro&uri=true")) as read_only:
            before = read_only.get(f"/api/games/{created['id']}").json()
            refused = act(read_only, created, {"type": "keep", "held": [0]}, at=1, headers={"Accept-Language": "es"})
            assert refused.status_code == 503
            assert refused.json()["detail"] == "could not save the move, try again"
            assert refused.json()["message"] == "no se pudo guardar la jugada, inténtalo de nuevo"
            assert read_only.get(f"/api/games/{created['id']}").json() == before
        # The refused keep rolled no dice: the same keep now rolls what an uninterrupted game rolls.
        accepted = act(writer, created, {"type": "keep", "held": [0]}, at=1).json()
    match = Match(rules_for("penta"), ["Ana"], seed=7)
    match.roll()
    match.act(match.state.keep_values([match.state.dice[0]]))
    match.roll()
    assert accepted["table"]["dice"] == list(match.state.dice)
    assert len(stored_events(database, created["id"])) == 3


def test_a_failed_save_after_several_steps_puts_every_step_back(database):
    storage = Storage(database)
    games = Games(storage, TableGate(), LocalBroker())
    live, secrets = games.create("penta", None, [SeatRequest("Ana", "human")], 5, "en")
    act_now(games, live.id, secrets[0].token, {"type": "roll"}, None)
    state, events, history = live.state, list(live.match.events), len(live.history)

    def full_disk(*_args, **_kwargs):
        raise SaveFailed("save_failed")

    storage.append_together = full_disk
    with pytest.raises(SaveFailed):
        act_now(games, live.id, secrets[0].token, {"type": "keep", "held": [1, 2]}, None)
    assert (live.state, live.match.events, live.match.rolls, len(live.history)) == (state, events, 1, history)
    assert live.history[len(live.history) - 1] == state
    storage.close()


def test_another_process_that_stored_first_makes_the_move_stale(database):
    first = Games(Storage(database), TableGate(), LocalBroker())
    live, secrets = first.create("penta", None, [SeatRequest("Ana", "human")], 5, "en")
    second = Games(Storage(database), TableGate(), LocalBroker())
    copy = second.get(live.id)
    act_now(first, live.id, secrets[0].token, {"type": "roll"}, 0)
    second.catch_up = lambda _live, **_: None  # as if the other process had stored it during the catch-up
    with pytest.raises(StaleRequest) as refused:
        act_now(second, live.id, secrets[0].token, {"type": "roll"}, 0)
    assert refused.value.code == "stale"
    assert copy.match.events == [] and copy.state.is_chance


def test_a_process_catches_up_on_what_another_stored(database):
    broker = LocalBroker()  # one broker for both, as Redis is for two processes
    first, second = Games(Storage(database), TableGate(), broker), Games(Storage(database), TableGate(), broker)
    live, secrets = first.create("penta", None, [SeatRequest("Ana", "human")], 5, "en")
    copy = second.get(live.id)
    act_now(first, live.id, secrets[0].token, {"type": "roll"}, 0)
    assert second.get(live.id).state == live.state  # heard of it, read it on the next look
    act_now(second, live.id, secrets[0].token, {"type": "keep", "held": []}, 1)
    act_now(first, live.id, secrets[0].token, {"type": "keep", "held": [0]}, 3)  # caught up before acting
    assert copy.match.events[:3] == live.match.events[:3] and len(live.match.events) == 5


# -- group commit: the moves of one turn of the event loop, stored in one transaction --------------------

ROLL = {"type": "roll"}


@pytest.fixture(params=["sqlite", "postgresql"])
def any_database(request, database) -> str:
    """Each kind of database: SQLite (a group is written on the event loop) and PostgreSQL (by a writer thread)."""
    return database if request.param == "sqlite" else request.getfixturevalue("postgres_url")


def games_of(database: str, count: int = 2) -> tuple[Storage, Games, list]:
    """A process's games (one human seat each), and their seats' secrets."""
    storage = Storage(database)
    games = Games(storage, TableGate(), LocalBroker())
    return storage, games, [games.create("penta", None, [SeatRequest("Ana", "human")], seed, "en") for seed in range(count)]


def grouped(games: Games, *moves: tuple) -> list:
    """The moves (game, its seats' secrets, action, at), made at once on an event loop: each answer, or its refusal."""

    async def together() -> list:
        return await asyncio.gather(
            *(games.change(live.id, Move(0, secrets[0].token, action, at)) for live, secrets, action, at in moves),
            return_exceptions=True,
        )

    return run_async(together())


def spy_on_groups(storage: Storage) -> list[int]:
    """The number of appends in each transaction of `append_together`."""
    sizes: list[int] = []
    store = storage.append_together
    storage.append_together = lambda appends: sizes.append(len(appends)) or store(appends)  # type: ignore[method-assign]
    return sizes


def test_the_moves_of_one_turn_of_the_loop_are_stored_in_one_transaction(any_database):
    storage, games, made = games_of(any_database, 3)
    groups = spy_on_groups(storage)
    answers = grouped(games, *((live, secrets, ROLL, 0) for live, secrets in made))
    assert answers == [live for live, _secrets in made]
    assert groups == [3]
    for live, _secrets in made:
        assert live.changing is None and len(live.match.events) == 1
        assert stored_events(any_database, live.id) == [(0, live.match.events[0].to_json())]
    storage.close()


def test_a_second_move_of_a_game_waits_until_its_first_is_stored(any_database):
    storage, games, [(live, secrets)] = games_of(any_database, 1)
    groups = spy_on_groups(storage)
    answers = grouped(games, (live, secrets, ROLL, 0), (live, secrets, {"type": "keep", "held": [0]}, 1))
    assert answers == [live, live]
    assert groups == [1, 1]
    assert [index for index, _event in stored_events(any_database, live.id)] == [0, 1, 2]
    storage.close()


def test_a_group_that_cannot_be_saved_refuses_and_undoes_every_move(database, tmp_path):
    storage, _games, made = games_of(database)
    read_only = Games(Storage(f"sqlite:///file:{tmp_path / 'games.sqlite3'}?mode=ro&uri=true"), TableGate(), LocalBroker())
    copies = [read_only.get(live.id) for live, _secrets in made]
    refusals = grouped(read_only, *((copy, secrets, ROLL, 0) for copy, (_live, secrets) in zip(copies, made)))
    assert [type(refusal) for refusal in refusals] == [SaveFailed, SaveFailed]
    for copy in copies:
        assert copy.changing is None and copy.match.events == [] and copy.match.rolls == 0 and len(copy.history) == 1
        assert stored_events(database, copy.id) == []
    storage.close()
    read_only.storage.close()


def test_a_move_whose_request_is_cancelled_once_made_is_still_undone_when_it_cannot_be_saved(database, tmp_path):
    storage, _games, [(live, secrets)] = games_of(database, 1)
    read_only = Games(Storage(f"sqlite:///file:{tmp_path / 'games.sqlite3'}?mode=ro&uri=true"), TableGate(), LocalBroker())
    copy = read_only.get(live.id)

    async def move_then_leave() -> None:
        move = asyncio.create_task(read_only.change(live.id, Move(0, secrets[0].token, ROLL, 0)))
        while not copy.match.events:  # until the move is made in memory, then the client goes away
            await asyncio.sleep(0)
        move.cancel()
        with pytest.raises(asyncio.CancelledError):
            await move
        while copy.changing is not None:  # the failed group is settled all the same
            await asyncio.sleep(0)

    run_async(move_then_leave())
    assert copy.match.events == [] and copy.match.rolls == 0 and len(copy.history) == 1
    storage.close()
    read_only.storage.close()


def test_a_move_another_process_stored_first_is_refused_alone_in_its_group(any_database):
    storage, first, made = games_of(any_database)
    second = Games(Storage(any_database), TableGate(), LocalBroker())  # hears nothing of the first's moves
    copies = [second.get(live.id) for live, _secrets in made]
    (taken, taken_secrets), (_free, free_secrets) = made
    act_now(first, taken.id, taken_secrets[0].token, ROLL, 0)
    stale, stored = grouped(second, (copies[0], taken_secrets, ROLL, 0), (copies[1], free_secrets, ROLL, 0))
    assert isinstance(stale, StaleRequest) and stale.code == "stale"
    assert stored is copies[1] and stored_events(any_database, copies[1].id) == [(0, copies[1].match.events[0].to_json())]
    assert copies[0].match.events == taken.match.events  # caught up with what the other process stored
    assert stored_events(any_database, taken.id) == [(0, taken.match.events[0].to_json())]
    storage.close()
    second.storage.close()


def test_a_change_made_in_a_worker_thread_waits_until_the_games_change_under_way_is_stored(any_database):
    storage, games, [(live, secrets)] = games_of(any_database, 1)
    seen: list = []

    class Look(Change):  # made in a worker thread, as a bot's turn or the clock's
        def apply(self, live) -> None:
            seen.append(stored_events(any_database, live.id))

    async def move_then_worker() -> None:
        move = asyncio.create_task(games.change(live.id, Move(0, secrets[0].token, ROLL, 0)))
        while not live.match.events:  # until the move is made in memory; it is then stored by the group commit
            await asyncio.sleep(0)
        assert live.changing is not None and stored_events(any_database, live.id) == []
        await games.change(live.id, Look())
        await move

    run_async(move_then_worker())
    assert seen == [[(0, live.match.events[0].to_json())]]
    storage.close()


# -- the schema before migrations ----------------------------------------------------------------------


def old_database(path) -> str:
    """A database as cubilete made it before events were rows: one row per game with its record."""
    url = f"sqlite:///{path}"
    metadata = MetaData()
    games = Table(
        "games",
        metadata,
        Column("id", String(32), primary_key=True),
        Column("lang", String(8), nullable=False),
        Column("seats", JSON, nullable=False),
        Column("record", JSON, nullable=False),
        Column("finished", Boolean, nullable=False, index=True),
        Column("rematch", String(32)),
        Column("created", DateTime(timezone=True), nullable=False),
        Column("updated", DateTime(timezone=True), nullable=False),
    )
    engine = create_engine(url)
    metadata.create_all(engine)
    match = Match(rules_for("penta"), ["Ana"], LegacySeed(11))  # a format-1 record, as stored then
    match.roll()
    match.act(match.state.keep_values([]))
    match.roll()
    seats = [{"name": "Ana", "kind": "human", "level": None, "token_sha256": "0" * 64}]
    when = datetime(2025, 3, 1, 12, 30, tzinfo=UTC)
    with engine.begin() as connection:
        connection.execute(
            games.insert(),
            [
                {"id": "kept", "lang": "es", "seats": seats, "record": match.to_json(), "finished": False,
                 "created": when, "updated": when},
                # stored today: a game without a move is swept away a day old (web/unplayed_games.py)
                {"id": "broken", "lang": "es", "seats": seats, "record": {"format": 1}, "finished": False,
                 "created": datetime.now(UTC), "updated": datetime.now(UTC)},
            ],
        )
        connection.execute(text("UPDATE games SET record = '{not json' WHERE id = 'broken'"))
    engine.dispose()
    return url


def test_an_old_database_keeps_its_games(tmp_path):
    url = old_database(tmp_path / "old.sqlite3")
    with TestClient(create_app(url)) as client:
        kept = Storage(url).load("kept")
        assert (kept.record["players"], kept.updated.isoformat()) == (["Ana"], "2025-03-01T12:30:00+00:00")
        view = client.get("/api/games/kept", params={"since": 0}).json()
        assert client.get("/api/games/broken").status_code == 400
    match = Match(rules_for("penta"), ["Ana"], LegacySeed(11))
    match.roll()
    match.act(match.state.keep_values([]))
    match.roll()
    assert view["events"] == 3 and view["table"]["dice"] == list(match.state.dice)
    assert [step["event"] for step in view["steps"]] == [event.to_json() for event in match.events]
    assert [index for index, _event in stored_events(url, "kept")] == [0, 1, 2]
    tables = set(inspect(create_engine(url)).get_table_names())
    assert {"games", "events", "alembic_version"} <= tables


def test_a_database_a_newer_cubilete_migrated_is_refused_by_name_and_left_as_it_is(database):
    Storage(database).close()
    path = database.removeprefix("sqlite:///")
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE alembic_version SET version_num = '9999'")
    with pytest.raises(DatabaseUnusable, match="9999") as refused:
        Storage(database)
    assert refused.value.code == "database_unusable" and "'9999'" in str(refused.value)
    with sqlite3.connect(path) as connection:
        assert connection.execute("SELECT version_num FROM alembic_version").fetchall() == [("9999",)]


def test_a_corrupted_row_is_left_out_of_the_open_tables_not_a_500(database):
    friend = {"name": "Beto", "kind": "human", "invited": True}
    with TestClient(create_app(database)) as client:
        body = {"game": "penta", "players": [ANA, friend], "public": True}
        good, bad = (client.post("/api/games", json=body).json() for _ in range(2))
        engine = create_engine(database)
        with engine.begin() as connection:
            connection.execute(text("UPDATE games SET rules = '{\"nom\": 1}' WHERE id = :id"), {"id": bad["id"]})
        engine.dispose()
        listed = client.get("/api/open-tables")
    assert listed.status_code == 200 and [table["id"] for table in listed.json()] == [good["id"]]


# -- bounded memory ----------------------------------------------------------------------------------


def test_the_cache_lets_the_least_recently_used_go_finished_games_first():
    evicted = []
    cache = GameCache(3, lambda value: value.endswith("!"), evicted.append)
    for key in ("a", "b!", "c"):
        cache.add(key, key)
    cache.get("a")
    cache.add("d", "d")
    assert evicted == ["b!"]  # finished, though "c" was used after it
    cache.add("e", "e")
    assert evicted == ["b!", "c"]  # "a" was used after "c"
    assert [key for key in "abcde" if key in cache] == ["a", "d", "e"]
    assert cache.add("a", "another a") == "a"


def test_games_beyond_the_bound_are_reloaded_from_the_database(database):
    broker = LocalBroker()
    games = Games(Storage(database), TableGate(), broker, cached_games=3)
    created = [games.create("penta", None, [SeatRequest("Ana", "human")], seed, "en") for seed in range(8)]
    rolled = [act_now(games, live.id, secrets[0].token, {"type": "roll"}, 0) for live, secrets in created]
    assert len(games._live) == 3
    assert len(broker._listeners._by_game) == 3  # evicted games are no longer followed
    (first, secrets), first_rolled = created[0], rolled[0]
    reloaded = games.get(first.id)
    assert reloaded is not first_rolled and reloaded.state == first_rolled.state
    assert reloaded.match.events == first_rolled.match.events and len(reloaded.match.events) == 1
    act_now(games, first.id, secrets[0].token, {"type": "keep", "held": [0]}, 1)
    assert len(games.get(first.id).match.events) == 3


def test_a_game_leaving_the_cache_is_freed_without_waiting_for_the_collector(database):
    games = Games(Storage(database), TableGate(), LocalBroker(), cached_games=1)
    live, secrets = games.create("penta", None, [SeatRequest("Ana", "human")], 1, "en")
    act_now(games, live.id, secrets[0].token, {"type": "roll"}, 0)
    left = weakref.ref(live)
    del live
    gc.disable()  # what a long-running server's collector has not reached yet
    try:
        games.create("penta", None, [SeatRequest("Ana", "human")], 2, "en")  # the first game leaves the cache
        assert left() is None
    finally:
        gc.enable()


def test_the_history_keeps_the_latest_states_and_replays_older_ones():
    match = Match(rules_for("penta"), ["Ana", "Luis"], seed=3)
    history = StateHistory(match, keep=4)
    while not match.state.is_over:
        if match.state.is_chance:
            match.roll()
        else:  # the first keep of each turn, then a score
            match.act(match.state.legal_actions()[0 if match.state.rolls_left == 2 else -1])
        history.append(match.state)
    assert len(history._states) <= 8
    expected = [match.initial, *replay(match.initial, match.events)]
    assert len(history) == len(expected) and [history[i] for i in range(len(history))] == expected
    history.truncate(5)
    assert len(history) == 5 and history[4] == expected[4]


# -- times --------------------------------------------------------------------------------------------


def test_times_are_stored_and_sent_in_utc_with_the_offset(database):
    with TestClient(create_app(database)) as client:
        created = create(client)
    sent = Storage(database).load(created["id"]).updated.isoformat()
    assert datetime.fromisoformat(sent).utcoffset().total_seconds() == 0 and sent.endswith("+00:00")
    stored = Storage(database).load(created["id"])
    assert stored.created.tzinfo is UTC and stored.updated >= stored.created
    with pytest.raises(ValueError, match="zone"):
        UtcDateTime().process_bind_param(datetime(2025, 1, 1), None)


def test_postgresql_urls_use_the_driver_cubilete_ships_with():
    from cubilete.storage.connections import database_url

    assert database_url("postgresql://ana@db.example/games") == "postgresql+psycopg://ana@db.example/games"
    assert database_url("postgresql+psycopg://ana@db/games") == "postgresql+psycopg://ana@db/games"
    assert database_url("sqlite:///games.sqlite3") == "sqlite:///games.sqlite3"


def test_a_write_that_fails_before_the_database_leaves_nothing_for_the_next_commit(database):
    """A value no column takes fails the write half-way (a bug, not the database failing): its first
    half is not committed with the next move."""
    storage = Storage(database)
    match = Match(rules_for("penta"), ["Ana"], seed=3)
    storage.insert("g", "en", [], match.to_json())

    async def moves() -> None:
        with pytest.raises(StatementError):
            storage.insert("half", "en", [], {**match.to_json(), "events": [{"roll": {1, 2}}]})
        storage.append("g", 0, [{"roll": [2, 2, 2, 2, 2]}], finished=False)

    run_async(moves())
    assert storage.load("half") is None
    assert stored_events(database, "g") == [(0, {"roll": [2, 2, 2, 2, 2]})]
    storage.close()
