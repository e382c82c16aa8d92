"""Read your writes across processes: once one process acknowledged a move, a read through any other
process serves it, without waiting for the broker's news (two apps in one test process, sharing one
PostgreSQL database and one Redis, as two server processes do)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from harness import next_action

from cubilete.web import create_app

ANA = {"name": "Ana", "kind": "human"}
TRIES = 200



def test_a_move_acknowledged_by_one_process_is_served_by_the_other_on_the_next_read(postgres_url, redis_url):
    with TestClient(create_app(postgres_url, redis_url)) as reader, TestClient(create_app(postgres_url, redis_url)) as mover:
        stale, view, created = [], {"is_over": True}, {}
        for _try in range(TRIES):
            if view["is_over"]:
                created = mover.post("/api/games", json={"game": "penta", "players": [ANA]}).json()
                view = reader.get(f"/api/games/{created['id']}").json()  # the reader holds the game in memory
            body = {"seat": 0, "token": created["seats"][0]["token"], "action": next_action(view), "at": view["events"]}
            answer = mover.post(f"/api/games/{created['id']}/actions", json=body)
            assert answer.status_code == 200, answer.text
            view = reader.get(f"/api/games/{created['id']}").json()
            if view["events"] != answer.json()["events"]:
                stale.append((answer.json()["events"], view["events"]))
                view = answer.json()
        assert stale == []
