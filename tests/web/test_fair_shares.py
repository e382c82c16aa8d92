"""What one client address may hold of a server (web/access.py): a few listed open tables, a bounded number
of unfinished games by correspondence. Each test does what the audit of issue 32 did from one address."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from cubilete.storage import Storage
from cubilete.web import NO_RATE_LIMITS, Access, create_app

ANA = {"name": "Ana", "kind": "human"}
FRIEND = {"name": "Friend", "kind": "human", "invited": True}
DAY = 86_400
ATTACKER, FRIENDLY = ("203.0.113.5", 40000), ("198.51.100.7", 40000)


@pytest.fixture
def app(database):
    return create_app(database, rate_limits=NO_RATE_LIMITS, access=Access(
        correspondence_games_per_client=5
    ))


def other_address(app) -> TestClient:
    """Requests from another address to the app the first client runs (its lifespan runs once)."""
    return TestClient(app, client=FRIENDLY)


def create(client, **extra) -> dict:
    response = client.post("/api/games", json={"game": "penta", "players": [ANA, FRIEND], **extra})
    assert response.status_code == 201, response.text
    return response.json()


def test_one_address_filling_the_open_tables_leaves_a_friends_table_listed(app):
    with TestClient(app, client=ATTACKER) as attacker:
        friend = other_address(app)
        friends = create(friend, public=True)
        flood = [create(attacker, public=True)["id"] for _ in range(50)]
        listed = [table["id"] for table in friend.get("/api/open-tables").json()]
    assert friends["id"] in listed
    assert sorted(set(listed) - {friends["id"]}) == sorted(flood[-3:])  # the attacker's newest 3 alone


def test_one_address_may_keep_only_so_many_unfinished_games_by_correspondence(app):
    with TestClient(app, client=ATTACKER) as attacker:
        friend = other_address(app)
        for _ in range(5):
            create(attacker, turn_clock="7d")
        refused = attacker.post("/api/games", json={"game": "penta", "players": [ANA, FRIEND], "turn_clock": "1d"})
        assert (refused.status_code, refused.json()["code"]) == (403, "correspondence_games_too_many")
        assert refused.json()["params"] == {"most": 5}
        create(attacker)  # a game without a clock of days is not counted
        create(friend, turn_clock="1d")  # another address has its own share
        storage = app.state.services.games.storage
        assert storage.unfinished_on_clocks_by(ATTACKER[0], [86_400, 604_800]) == 5
        assert storage.unfinished_on_clocks_by(FRIENDLY[0], [86_400]) == 1


def test_a_rematch_counts_in_its_games_creators_share(tmp_path):
    storage = Storage(f"sqlite:///{tmp_path / 'games.sqlite3'}")
    record = {"format": 2, "game": "penta", "rules": {"name": "seed"}, "players": 2, "dice": {"key": "k"}, "events": []}
    try:
        storage.insert("first", "en", [ANA], record, {"turn_clock": DAY}, creator=ATTACKER[0])
        assert storage.insert_rematch("first", "again", "en", [ANA], record, {"turn_clock": DAY}) == "again"
        assert storage.unfinished_on_clocks_by(ATTACKER[0], [DAY]) == 2
    finally:
        storage.close()
