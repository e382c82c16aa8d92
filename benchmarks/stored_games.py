"""What storing games costs the server, without HTTP: time per action and memory across many games.

    .venv/bin/python benchmarks/stored_games.py [--games 2000] [--cached 500] [--database URL]

Plays whole solo Penta games through the web app's `Games` (each action stored as its
events, as a request would), a few games at a time, and prints the median and p99 time
of one action, the process's RSS after each tenth of the games, and how many games
stayed in memory. Memory should level off once the cache is full. Last, the median time of
the check a process makes every 2 s while it cannot hear Redis (`Games.stored_news`: every
game in memory compared with the database, web/broker_watch.py).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import tempfile
import time
from pathlib import Path

from cubilete.engine.actions import action_to_json
from cubilete.storage import Storage
from cubilete.web.broker import LocalBroker
from cubilete.web.changes import Move
from cubilete.web.games import Games
from cubilete.web.seats import SeatRequest
from cubilete.web.tables import TableGate


def rss_mb() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


async def play_one(games: Games, seed: int, timings: list[float]) -> None:
    choose = random.Random(seed)
    live, secrets = games.create("penta", None, [SeatRequest("Ana", "human")], seed, "en")
    while not live.state.is_over:
        state = live.state
        if state.is_chance:
            intention = {"type": "roll"}
        else:
            legal = state.legal_actions()
            scores = legal[-len(state.score_options()) :]
            intention = action_to_json(choose.choice(scores if choose.random() < 0.4 else legal))
        start = time.perf_counter()
        live = await games.change(live.id, Move(0, secrets[0].token, intention, len(live.match.events)))
        timings.append(time.perf_counter() - start)


async def play(games: Games, count: int, timings: list[float]) -> None:
    for seed in range(count):
        await play_one(games, seed, timings)
        if (seed + 1) % max(1, count // 10) == 0:
            print(f"after {seed + 1:>6} games: RSS {rss_mb():.0f} MB, {len(games._live)} games in memory")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--cached", type=int, default=500, help="games kept in memory")
    parser.add_argument("--database", help="default: a SQLite file in a temporary directory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database or f"sqlite:///{Path(folder) / 'games.sqlite3'}"
        games = Games(Storage(url), TableGate(), LocalBroker(), cached_games=args.cached)
        timings: list[float] = []
        print(f"RSS at start: {rss_mb():.0f} MB")
        asyncio.run(play(games, args.games, timings))
        timings.sort()
        print(
            f"{len(timings)} actions: median {statistics.median(timings) * 1000:.2f} ms,"
            f" p99 {timings[int(len(timings) * 0.99)] * 1000:.2f} ms per action (stored, no HTTP)"
        )
        checks = []
        for _check in range(20):
            start = time.perf_counter()
            games.stored_news()
            checks.append(time.perf_counter() - start)
        print(f"a deaf process's check of its {len(games._live)} games: median {statistics.median(checks) * 1000:.2f} ms")


if __name__ == "__main__":
    main()
