"""An action's cost, side by side between trees: server CPU per action and open-loop latency.

    PYTHONPATH=src python benchmarks/action_cost.py --tree before=/path/to/old/src --tree after=src
        [--games 500,1000] [--kinds solo-penta,duel-5000] [--think 2] [--seconds 30] [--rounds 1]

Each round, each kind (`solo-penta`: one human seat, the computer none; `duel-5000` or `duel-penta`: two
human seats, one client playing both) and each number of games, every tree in turn gets a fresh `cubilete
serve` process on a SQLite file of its own, warmed up, then the open loop of benchmarks/web_load.py
(players thinking --think seconds on average, exponential) for --seconds. A row: server CPU microseconds
per action (user + system of the server process over the window: less sensitive to a shared machine's
load than latency), actions per second, p50 and p99 latency, and the load average at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import tempfile
from pathlib import Path

import web_load
from web_load import Player, Tally, Window

KINDS = {"solo-penta": ("penta", ("Ana",)), "duel-penta": ("penta", web_load.NAMES), "duel-5000": ("5000", web_load.NAMES)}


class SeatsPlayer(Player):
    """web_load's player with these seats' names (all human)."""

    names: tuple[str, ...] = web_load.NAMES

    async def new_game(self) -> None:
        body = {"game": self.game, "rules": "seed", "lang": "en",
                "players": [{"name": name, "kind": "human"} for name in self.names]}
        async with self.http.post(f"{self.base}/api/games", json=body) as response:
            if response.status != 201:
                raise SystemExit(f"creating a game answered {response.status}: {await response.text()}")
            created = await response.json()
        self.id, self.tokens = created["id"], [seat["token"] for seat in created["seats"]]
        await self.reread()


async def open_loop(server: web_load.Server, games: int, seconds: float, think: float, kind: str) -> web_load.Row:
    game, names = KINDS[kind]
    tally = Tally()
    async with web_load.client_session(games) as http:
        players = [SeatsPlayer(http, server.base, game, number) for number in range(games)]
        for player in players:
            player.names = names
        await web_load.start_games(players)
        with Window([server]) as window:
            await web_load.think_then_act([(player.rng, functools.partial(player.act, tally)) for player in players],
                                          seconds, think)
    return web_load.Row(kind, games, tally, window)


def measure(label: str, src: Path, kind: str, games: int, args: argparse.Namespace, folder: Path) -> None:
    database = f"sqlite:///{folder / f'{label}-{kind}-{games}.sqlite3'}"
    with web_load.running(label, web_load.serve_args(database, src=src), folder, src) as server:
        web_load.warm_up([server], KINDS[kind][0])
        row = asyncio.run(open_loop(server, games, args.seconds, args.think, kind))
    per_action = 1e6 * row.window.cpu / max(1, len(row.tally.latencies))
    load = ", ".join(f"{figure:.1f}" for figure in os.getloadavg())
    print(f"{label:<10}{kind:<12}{games:>6}{per_action:>11.0f}{row.rate:>9.1f}{row.percentile(50):>9.1f}"
          f"{row.percentile(99):>9.1f}   {load}   {row.tally.refusals}/{sum(row.tally.errors.values())}", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tree", action="append", required=True, help="LABEL=SRC, a tree's src folder")
    parser.add_argument("--games", default="500,1000")
    parser.add_argument("--kinds", default="solo-penta,duel-5000")
    parser.add_argument("--think", type=float, default=2.0)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    trees = [(label, Path(src).resolve()) for label, _, src in (tree.partition("=") for tree in args.tree)]
    print(f"{'tree':<10}{'kind':<12}{'games':>6}{'µs CPU/act':>11}{'per s':>9}{'p50 ms':>9}{'p99 ms':>9}"
          f"   load average   409s/errors", flush=True)
    with tempfile.TemporaryDirectory() as folder:
        for _round in range(args.rounds):
            for kind in args.kinds.split(","):
                for games in map(int, args.games.split(",")):
                    for label, src in trees:
                        measure(label, src, kind, games, args, Path(folder))


if __name__ == "__main__":
    main()
