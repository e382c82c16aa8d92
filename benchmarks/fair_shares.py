"""What one client address could take of a server (issue 32, items 4, 7 and 8), measured in-process on a
fresh SQLite database, on this checkout's code and, with `--peer-src`, on another's (e.g. the release
before) in the same run:

- a stranger's seat reserved for a profile: the answer's status (201: accepted, 403: refused);
- one sweep of the correspondence games, none of them due: the CPU seconds it takes and the games it reads;
- `GET /api/open-tables` with one address's public games and a friend's older one: its median time and
  whether the friend's table is listed;
- with `--postgres URL`, the open tables' query alone (`Storage.open_tables`, median of 21) over `--tables`
  open games of one address with 10 events each, on PostgreSQL, in a schema of its own dropped afterwards.

    PYTHONPATH=src python benchmarks/fair_shares.py [--correspondence 3000] [--tables 5000] [--peer-src ../old/src]
        [--postgres postgresql://postgres@127.0.0.1:5432/test]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import quote

ANA = {"name": "Ana", "kind": "human"}
FRIEND = {"name": "Friend", "kind": "human", "invited": True}
ATTACKER, FRIENDLY = ("203.0.113.5", 40000), ("198.51.100.7", 40000)


def create(client, **extra) -> dict:
    response = client.post("/api/games", json={"game": "penta", "players": [ANA, FRIEND], **extra})
    assert response.status_code == 201, response.text
    return response.json()


def stranger_reservation(client) -> int:
    for name in ("Beto", "Mallory"):
        assert client.post("/api/profiles", json={"name": name}).status_code == 201
    mallory = client.post("/api/profiles", json={"name": "Mallory2"}).json()
    reserved = {"name": "Beto", "kind": "human", "profile": "Beto"}
    body = {"game": "penta", "players": [ANA, reserved], "turn_clock": "1d"}
    return client.post("/api/games", json=body, headers={"Authorization": f"Bearer {mallory['secret']}"}).status_code


def sweep_cost(app, client, games: int) -> tuple[float, int]:
    """CPU seconds of one sweep over `games` correspondence games an hour into their turns, and the games
    read. They are created from addresses of 50 games each (the bound per address is 100)."""
    from fastapi.testclient import TestClient

    from cubilete.web.correspondence import CorrespondenceSweeper

    service = client.app.state.services.games
    for index in range(games):
        address = TestClient(app, client=(f"10.{index // 50 // 256}.{index // 50 % 256}.1", 40000))
        created = create(address, turn_clock="7d")
        roll = {"seat": 0, "token": created["seats"][0]["token"], "action": {"type": "roll"}}
        assert client.post(f"/api/games/{created['id']}/actions", json=roll).status_code == 200
    service.now = lambda: datetime.now(UTC) + timedelta(hours=1)
    swept = CorrespondenceSweeper(service, lambda live: None)
    read, find = [], service.find

    async def counted(game_id):
        read.append(game_id)
        return await find(game_id)

    service.find = counted
    started = time.process_time()
    client.portal.call(swept.sweep)
    return time.process_time() - started, len(read)


def open_tables(app, client, tables: int) -> tuple[float, bool]:
    """The median seconds of GET /api/open-tables over `tables` public games of one address, and whether a
    friend's table (made first, from another address) is listed."""
    from fastapi.testclient import TestClient

    friend = TestClient(app, client=FRIENDLY)  # the app's lifespan runs once, in `client`
    friends = create(friend, public=True)
    for _ in range(tables):
        create(client, public=True)
    times = []
    for _ in range(21):
        started = time.perf_counter()
        listed = friend.get("/api/open-tables").json()
        times.append(time.perf_counter() - started)
    return statistics.median(times), any(table["id"] == friends["id"] for table in listed)


def open_tables_query(postgres: str, tables: int) -> float:
    """The median seconds of the open tables' query over `tables` open games of one address, on PostgreSQL."""
    import psycopg

    from cubilete.storage import Storage

    admin = psycopg.connect(postgres, autocommit=True)
    schema = f"cubilete_bench_{secrets.token_hex(6)}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        url = postgres.replace("postgresql://", "postgresql+psycopg://", 1) + "?options=" + quote(f"-csearch_path={schema}")
        storage = Storage(url)
        record = {"format": 2, "game": "penta", "rules": {"name": "seed"}, "players": 2, "dice": {"key": "k"},
                  "events": [{"roll": [1, 2, 3, 4, 5]}] * 10}
        seats = [{"name": "Ana", "kind": "human"}, {"name": "", "kind": "human", "open": True}]
        creator = {"creator": ATTACKER[0]} if "creator" in Storage.insert.__code__.co_varnames else {}  # older code: none
        for index in range(tables):
            storage.insert(f"g{index:05}", "en", seats, record, {"turn_clock": 0, "public": True}, **creator)
        with storage.engine.begin() as connection:
            connection.exec_driver_sql("ANALYZE")
        times = []
        for _ in range(21):
            started = time.perf_counter()
            storage.lobby.listed()
            times.append(time.perf_counter() - started)
        storage.close()
        return statistics.median(times)
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


def measure(correspondence: int, tables: int) -> dict:
    from fastapi.testclient import TestClient

    from cubilete.web import NO_RATE_LIMITS, create_app

    with tempfile.TemporaryDirectory() as directory:
        app = create_app(f"sqlite:///{Path(directory) / 'games.sqlite3'}", rate_limits=NO_RATE_LIMITS)
        with TestClient(app, client=ATTACKER) as client:
            status = stranger_reservation(client)
            cpu, read = sweep_cost(app, client, correspondence)
            median, friend_listed = open_tables(app, client, tables)
    return {"reservation": status, "sweep_cpu_s": round(cpu, 3), "sweep_read": read,
            "open_tables_ms": round(median * 1000, 1), "friend_listed": friend_listed}


def run(src: str, args: argparse.Namespace) -> dict:
    command = [sys.executable, __file__, "--measure", "--correspondence", str(args.correspondence),
               "--tables", str(args.tables), *(("--postgres", args.postgres) if args.postgres else ())]
    environment = os.environ | {"PYTHONPATH": src}
    return json.loads(subprocess.run(command, env=environment, capture_output=True, text=True, check=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--correspondence", type=int, default=3000, help="correspondence games (default: 3000)")
    parser.add_argument("--tables", type=int, default=5000, help="one address's public games (default: 5000)")
    parser.add_argument("--peer-src", help="another checkout's src directory, measured too")
    parser.add_argument("--postgres", help="a PostgreSQL URL: the open tables' query is timed there too")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure:
        figures = measure(args.correspondence, args.tables)
        if args.postgres:
            figures["open_tables_query_postgres_ms"] = round(open_tables_query(args.postgres, args.tables) * 1000, 1)
        print(json.dumps(figures))
        return
    here = str(Path(__file__).resolve().parents[1] / "src")
    rows = [("this checkout", run(here, args))]
    if args.peer_src:
        rows.append((args.peer_src, run(args.peer_src, args)))
    print(f"{args.correspondence} correspondence games, {args.tables} public games of one address")
    for label, figures in rows:
        print(f"{label}: {figures}")


if __name__ == "__main__":
    main()
