"""The daily challenge with two server processes on one PostgreSQL (two apps in this process): a profile's
ranked try of a day is one across them (the database's unique key), both deal the same dice (the secret is
made once and shared), and the rollover of a try left unfinished is played and ranked once."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta

from fastapi.testclient import TestClient
from test_daily import bearer, claim_name, read, start

from cubilete.storage import Storage
from cubilete.web import create_app
from cubilete.web.daily_rollover import DailyRollover


def test_two_processes_share_the_dice_one_ranked_try_and_one_rollover(postgres_url):
    with TestClient(create_app(postgres_url)) as one, TestClient(create_app(postgres_url)) as two:
        ana = claim_name(one, "Ana")
        started = start(one, "generala", ana)
        again = two.post("/api/daily/generala/start", headers=bearer(ana))
        assert again.status_code == 409 and again.json()["code"] == "daily_already_started"
        storage = Storage(postgres_url)
        try:  # the same insert a process makes when its check raced another's start: refused by the key
            date = read(one, started).json()["daily"]["date"]
            assert not storage.daily.start(started["id"], date, "generala", ana["id"])
            other = start(two, "generala", name="Zoe")  # an unranked game: a row to point a second try at
            assert not storage.daily.start(other["id"], date, "generala", ana["id"])
        finally:
            storage.close()
        seeds = [client.app.state.services.daily.seed(date, "generala") for client in (one, two)]
        assert seeds[0] == seeds[1]
        view = read(one, started).json()
        act = {"seat": 0, "token": started["seats"][0]["token"], "at": view["events"], "action": {"type": "roll"}}
        assert one.post(f"/api/games/{started['id']}/actions", json=act).status_code == 200
        for client in (one, two):
            client.app.state.services.games.now = lambda: datetime.now(UTC) + timedelta(days=1)

        def sweep(client) -> int:
            return client.portal.call(DailyRollover(client.app.state.services.daily).sweep)

        with ThreadPoolExecutor(2) as pool:
            ranked = list(pool.map(sweep, (one, two)))
        assert sum(ranked) <= 1  # the lifespan's own sweepers may have ranked it: never twice
        rows = one.get("/api/daily/generala/board", params={"date": date}).json()["rows"]
        assert [row["name"] for row in rows] == ["Ana"]
        views = [read(client, started, headers={}).json() for client in (one, two)]
        assert views[0]["is_over"] and views[0]["events"] == views[1]["events"]
        assert sum(sweep(client) for client in (one, two)) == 0
