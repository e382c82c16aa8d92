"""Another player's moves while one client floods the server with QR code requests: with the per-client
rate limits off (`--no-rate-limits`, as before issue 25) and on (`cubilete serve`'s defaults), in one run.

    pip install -e '.[bench]'
    PYTHONPATH=src python benchmarks/qr_flood.py [--seconds 10] [--flooders 8] [--think 0.05]

Three stretches, each on a fresh server process (a temporary SQLite file) on a free loopback port: no
flood (limits on), a flood with the limits off, a flood with the default limits. In each, one player
plays a two-seat Penta game (web_load.Player: random legal moves), thinking --think seconds between
moves, while --flooders connections from the same address ask QR codes of distinct invite links as fast
as they are answered. Printed per stretch: the player's move p50 and p90, the QR requests answered 200
and 429 per second, the server's CPU-seconds per second (psutil: user + system), and the machine's load
average at the end (a shared machine's other work slows every stretch alike).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import statistics
import tempfile
import time
from pathlib import Path

from web_load import Player, Server, Tally, client_session, serving_sqlite

QR_LINK = "http://192.168.1.20:8000/game/{game}#seat=1&token={token}"  # an invite link's length


async def flood(server: Server, connections: int, until: float, statuses: dict[int, int]) -> None:
    async with client_session(connections) as http:

        async def ask() -> None:
            while time.perf_counter() < until:
                link = QR_LINK.format(game=secrets.token_urlsafe(9), token=secrets.token_urlsafe(18))
                async with http.get(f"{server.base}/api/qr", params={"text": link}) as response:
                    await response.read()
                    statuses[response.status] = statuses.get(response.status, 0) + 1

        await asyncio.gather(*(ask() for _ in range(connections)))


async def play(server: Server, until: float, think: float, tally: Tally) -> None:
    async with client_session(1) as http:
        player = Player(http, server.base, "penta", seed=7)
        await player.new_game()
        while time.perf_counter() < until:
            await player.act(tally)
            await asyncio.sleep(think)


async def stretch(server: Server, args: argparse.Namespace, flooders: int) -> str:
    tally, statuses = Tally(), {}
    cpu_before = server.cpu_seconds()
    started = time.perf_counter()
    until = started + args.seconds
    tasks = [play(server, until, args.think, tally)]
    if flooders:
        tasks.append(flood(server, flooders, until, statuses))
    await asyncio.gather(*tasks)
    seconds = time.perf_counter() - started
    cpu = (server.cpu_seconds() - cpu_before) / seconds
    moves = sorted(tally.latencies)
    p50, p90 = (1000 * statistics.quantiles(moves, n=10)[index] for index in (4, 8))
    qr = f"{statuses.get(200, 0) / seconds:7.0f} {statuses.get(429, 0) / seconds:7.0f}"
    return f"{len(moves):6d} {p50:8.1f} {p90:8.1f}   {qr}   {cpu:6.2f}  {tally.errors or ''}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each stretch's length (default: 10)")
    parser.add_argument("--flooders", type=int, default=8, help="the flood's concurrent connections (default: 8)")
    parser.add_argument("--think", type=float, default=0.05, help="the player's pause between moves (default: 0.05 s)")
    args = parser.parse_args()
    print(f"{'stretch':<24} {'moves':>6} {'p50 ms':>8} {'p90 ms':>8}   {'QR 200/s':>7} {'429/s':>7}   {'CPU/s':>6}")
    with tempfile.TemporaryDirectory() as folder:
        for name, options, flooders in (
            ("no flood, limits on", (), 0),
            ("QR flood, limits off", ("--no-rate-limits",), args.flooders),
            ("QR flood, limits on", (), args.flooders),
        ):
            with serving_sqlite(name, options, Path(folder)) as server:
                print(f"{name:<24} {asyncio.run(stretch(server, args, flooders))}", flush=True)
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
