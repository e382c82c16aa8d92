"""Games that never got a move are deleted once unchanged for the configured age, by the sweep the app
runs as it starts and then periodically; a game with a move (a single roll) is never deleted that way.
The game service's clock is moved forward instead of waiting."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from fastapi.testclient import TestClient

from cubilete.web import create_app

NEW_GAME = {"game": "penta", "players": [{"name": "Ana", "kind": "human"}]}
DAY = timedelta(hours=24)


def new_game(client, rolled: bool) -> str:
    created = client.post("/api/games", json=NEW_GAME).json()
    if rolled:
        move = {"seat": 0, "token": created["seats"][0]["token"], "action": {"type": "roll"}}
        assert client.post(f"/api/games/{created['id']}/actions", json=move).status_code == 200
    return created["id"]


def status(client, game_id: str) -> int:
    return client.get(f"/api/games/{game_id}").status_code


def later(client, elapsed: timedelta) -> None:
    client.app.state.services.games.now = lambda: datetime.now(UTC) + elapsed


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_a_game_without_a_move_is_deleted_after_the_age_and_a_played_one_is_kept(kind, request):
    database = request.getfixturevalue("database" if kind == "sqlite" else "postgres_url")
    with TestClient(create_app(database)) as client:
        unplayed, played = new_game(client, rolled=False), new_game(client, rolled=True)
        games = client.app.state.services.games
        later(client, DAY - timedelta(minutes=1))
        assert games.expire_unplayed(DAY) == 0 and status(client, unplayed) == 200
        later(client, DAY + timedelta(minutes=1))
        assert games.expire_unplayed(DAY) == 1
        assert status(client, unplayed) == 404  # gone from the database and from the process's memory
        assert status(client, played) == 200
        later(client, 100 * DAY)
        assert games.expire_unplayed(DAY) == 0 and status(client, played) == 200


def test_the_app_sweeps_as_it_starts(database):
    with TestClient(create_app(database)) as client:
        unplayed, played = new_game(client, rolled=False), new_game(client, rolled=True)
    with TestClient(create_app(database, unplayed_max_age=None)) as client:  # no sweep: both still there
        assert (status(client, unplayed), status(client, played)) == (200, 200)
    with TestClient(create_app(database, unplayed_max_age=timedelta(0))) as client:
        assert (status(client, unplayed), status(client, played)) == (404, 200)
