"""What anyone on the network can make a server spend on the solver's tables (issue 25, item 1): N games
created, each with a Penta `duel` bot (one per rule set, as the attack did), then the live bar of each.

    PYTHONPATH=src .venv/bin/python benchmarks/table_builds.py [--games 5] [--chances] [--source DIR]

A real `cubilete serve` (tests/harness.py) on a temporary SQLite database, its solved tables in
$CUBILETE_CACHE_DIR if set (else a temporary directory: every table is solved first). `--source DIR`
serves another checkout (PYTHONPATH=DIR/src), e.g. main's for the figures before a change;
`--option` passes a `serve` option (e.g. `--option=--table-memory-mb=4096`). The server's RSS and CPU
seconds (psutil) are printed after it starts, after the creations (with the slowest creation), once its
CPU has stood still for --settle seconds (the work the creations started, done) or --most seconds
have passed, and, with --chances, after one GET /chances per game (their status codes, the slowest).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from harness import Server, free_port  # noqa: E402

from cubilete.engine.games import GAMES  # noqa: E402

PENTA_RULE_SETS = tuple(GAMES["penta"].variants)


def request(url: str, body: dict | None = None) -> tuple[int, dict, float]:
    """The status, the JSON answer and the seconds it took."""
    data = None if body is None else json.dumps(body).encode()
    ask = urllib.request.Request(url, data, {"Content-Type": "application/json"} if data else {})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(ask, timeout=600) as answer:
            status, payload = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, payload = error.code, error.read()
    return status, json.loads(payload), time.perf_counter() - started


def report(process: psutil.Process, moment: str) -> None:
    times = process.cpu_times()
    print(f"{moment:<34} RSS {process.memory_info().rss / 2**20:7.0f} MB   CPU {times.user + times.system:7.1f} s")


def settle(process: psutil.Process, still: float, most: float) -> float:
    """Wait until the process's CPU time has not grown for `still` seconds (or `most` passed): the seconds waited."""
    started = last_change = time.monotonic()
    last = sum(process.cpu_times()[:2])
    while time.monotonic() - last_change < still and time.monotonic() - started < most:
        time.sleep(0.5)
        now = sum(process.cpu_times()[:2])
        if now - last > 0.05 * 0.5:  # more than 5% of a core: still working
            last, last_change = now, time.monotonic()
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=len(PENTA_RULE_SETS), help="games created (default: 5)")
    parser.add_argument("--chances", action="store_true", help="then ask each game's live bar once")
    parser.add_argument("--source", type=Path, help="serve this checkout (default: the installed package)")
    parser.add_argument("--option", action="append", default=[], help="a `cubilete serve` option")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds of still CPU that end a wait")
    parser.add_argument("--most", type=float, default=300.0, help="seconds a wait lasts at most")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        env = {"CUBILETE_CACHE_DIR": os.environ.get("CUBILETE_CACHE_DIR", str(Path(scratch) / "cache"))}
        if args.source is not None:
            env["PYTHONPATH"] = str(args.source.resolve() / "src")
        database = f"sqlite:///{Path(scratch) / 'games.sqlite3'}"
        server = Server(database, free_port(), Path(scratch) / "server.log", env=env, options=tuple(args.option))
        server.start()
        try:
            process = psutil.Process(server.process.pid)  # type: ignore[union-attr]
            settle(process, args.settle, args.most)
            report(process, "started (kernels compiled)")
            games, slowest = [], 0.0
            for index in range(args.games):
                rules = PENTA_RULE_SETS[index % len(PENTA_RULE_SETS)]
                body = {
                    "game": "penta",
                    "rules": rules,
                    "players": [{"name": "Ana", "kind": "human"}, {"name": "Bot", "kind": "bot", "level": "duel"}],
                }
                status, game, seconds = request(f"{server.url}/api/games", body)
                assert status == 201, game
                games.append(game)
                slowest = max(slowest, seconds)
            report(process, f"{args.games} games created")
            print(f"  slowest creation {slowest * 1000:.1f} ms")
            waited = settle(process, args.settle, args.most)
            report(process, f"then still (after {waited:.0f} s)")
            if args.chances:
                answers = [request(f"{server.url}/api/games/{game['id']}/chances") for game in games]
                report(process, f"{args.games} live bars asked")
                statuses = [status for status, _, _ in answers]
                print(f"  statuses {statuses}, slowest {max(seconds for _, _, seconds in answers):.2f} s")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
