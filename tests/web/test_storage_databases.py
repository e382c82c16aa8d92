"""Every write (run on the driver's cursor) on every database cubilete supports: what is stored reads
back the same, a taken index is a conflict that stores nothing, and of two processes changing the
same thing from the same version only the first does."""

from __future__ import annotations

import pytest

from cubilete.storage import EventConflict, Storage

RECORD = {"format": 2, "game": "penta", "rules": {"name": "seed"}, "players": 2, "dice": {"key": "k"}, "events": []}
ROLL = {"type": "roll", "dice": [6, 6, 1, 2, 3]}
KEEP = {"type": "keep", "held": [0, 1]}
SCORE = {"type": "score", "box": "sixes", "clock": True}


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request, tmp_path):
    url = request.getfixturevalue("database" if request.param == "sqlite" else "postgres_url")
    storage = Storage(url)
    storage.insert("g1", "es", [{"name": "Ana", "kind": "human"}], RECORD)
    yield storage
    storage.close()


def test_appended_events_read_back_as_they_were_with_their_time(storage):
    stored_at = storage.append("g1", 0, [ROLL, KEEP], finished=False)
    later = storage.append("g1", 2, [SCORE], finished=True)

    assert storage.events_since("g1", 0) == [ROLL, KEEP, SCORE]
    assert storage.events_since("g1", 2) == [SCORE]
    assert storage.turn_time("g1", 2) == stored_at
    assert storage.turn_time("g1", 3) == later
    game = storage.load("g1")
    assert game.finished and game.updated == later


def test_an_index_already_taken_is_a_conflict_and_stores_nothing(storage):
    storage.append("g1", 0, [ROLL], finished=False)

    with pytest.raises(EventConflict):
        storage.append("g1", 0, [KEEP, SCORE], finished=True)

    assert storage.events_since("g1", 0) == [ROLL]
    assert not storage.load("g1").finished
    storage.append("g1", 1, [KEEP], finished=False)  # the connection is usable after the conflict
    assert storage.events_since("g1", 0) == [ROLL, KEEP]


def test_a_new_game_reads_back_with_its_head_seats_and_events(storage):
    record = {**RECORD, "events": [ROLL, KEEP]}
    storage.insert("g2", "id", [{"name": "Beto", "kind": "human", "open": True}], record, {"turn_clock": 30})

    game = storage.load("g2")
    assert (game.lang, game.seats, game.record, game.table_options) == (
        "id", [{"name": "Beto", "kind": "human", "open": True}], record, {"turn_clock": 30}
    )
    assert (game.finished, game.rematch, game.seats_version) == (False, None, 0)
    assert game.created == game.updated and game.created.tzinfo is not None
    assert [table.id for table in storage.lobby.listed()] == ["g2"]


def test_seats_change_only_from_the_version_they_are_at(storage):
    taken = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human"}]

    assert storage.change_seats("g1", 0, taken)
    assert not storage.change_seats("g1", 0, [{"name": "Ciro", "kind": "human"}])  # another process was first

    assert storage.seats("g1") == (taken, 1)


def test_a_game_gets_one_rematch_whoever_asks_first(storage):
    first = storage.insert_rematch("g1", "r1", "es", [{"name": "Ana", "kind": "human"}], RECORD)
    second = storage.insert_rematch("g1", "r2", "es", [{"name": "Ana", "kind": "human"}], RECORD)

    assert (first, second) == ("r1", "r1")
    assert storage.load("r2") is None and storage.load("r1").record == RECORD
    assert storage.insert_rematch("gone", "r3", "es", [], RECORD) is None
