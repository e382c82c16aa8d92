"""The action path's writes (Storage.append, run on the driver's cursor) on every database cubilete
supports: what is appended reads back the same, a taken index is a conflict that stores nothing."""

from __future__ import annotations

import pytest

from cubilete.web.storage import EventConflict, Storage

RECORD = {"format": 2, "game": "penta", "rules": {"name": "seed"}, "players": 2, "dice": {"key": "k"}, "events": []}
ROLL = {"type": "roll", "dice": [6, 6, 1, 2, 3]}
KEEP = {"type": "keep", "held": [0, 1]}
SCORE = {"type": "score", "box": "sixes", "clock": True}


@pytest.fixture(params=["sqlite", "postgresql"])
def storage(request, tmp_path):
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}" if request.param == "sqlite" else request.getfixturevalue("postgres_url")
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
