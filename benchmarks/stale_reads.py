"""Read your writes across processes: two `cubilete serve` on one PostgreSQL database and one Redis; each
move is acknowledged by one, then the game is read at once through the other. Prints how many of those
reads were stale (fewer events than acknowledged) and the reads' latency (p50/p95/max).

    PYTHONPATH=src python benchmarks/stale_reads.py [--reads 1000] [--src OTHER_CHECKOUT/src]

`--src` runs the servers on another checkout's code (e.g. main's, for comparison). The tables live in a
schema of their own, dropped afterwards (psycopg, and the database of --database, must be there).
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from harness import Server, free_port, next_action  # noqa: E402

ANA = {"name": "Ana", "kind": "human"}


def call(url: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)



def measure(reader: Server, mover: Server, reads: int) -> tuple[int, list[float]]:
    """Moves through `mover`, each read at once through `reader`: the stale reads, and each read's seconds."""
    stale, latencies, view, created = 0, [], {"is_over": True}, {}
    for _read in range(reads):
        if view["is_over"]:
            created = call(f"{mover.url}/api/games", {"game": "penta", "players": [ANA]})
            view = call(f"{reader.url}/api/games/{created['id']}")  # the reader holds the game in memory
        body = {"seat": 0, "token": created["seats"][0]["token"], "action": next_action(view), "at": view["events"]}
        answer = call(f"{mover.url}/api/games/{created['id']}/actions", body)
        started = time.perf_counter()
        view = call(f"{reader.url}/api/games/{created['id']}")
        latencies.append(time.perf_counter() - started)
        if view["events"] != answer["events"]:
            stale, view = stale + 1, answer
    return stale, latencies


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reads", type=int, default=1000)
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    schema = f"cubilete_bench_{secrets.token_hex(6)}"
    url = args.database.replace("postgresql://", "postgresql+psycopg://", 1) + "?options=" + quote(f"-csearch_path={schema}")
    env = {"PYTHONPATH": str(args.src.resolve())}
    with psycopg.connect(args.database, autocommit=True) as admin, tempfile.TemporaryDirectory() as folder:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        servers = [Server(url, free_port(), Path(folder) / f"server{n}.log", args.broker, env) for n in range(2)]
        try:
            for server in servers:
                server.start()
            stale, latencies = measure(*servers, args.reads)
        finally:
            for server in servers:
                server.stop()
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
    ms = sorted(latency * 1000 for latency in latencies)
    print(f"code: {args.src}")
    print(f"stale reads: {stale} of {len(ms)}")
    print(f"read latency ms: p50 {statistics.median(ms):.2f}  p95 {ms[int(len(ms) * 0.95)]:.2f}  max {ms[-1]:.2f}")


if __name__ == "__main__":
    main()
