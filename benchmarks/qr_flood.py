"""Another player's moves while clients flood the server with QR code requests: one client with the
per-client rate limits off (`--no-rate-limits`, as before issue 25) and on, in one run; or, with
`--addresses N`, N client addresses each within its own budget (issue 32, item 6), on this checkout and
another's (`--peer-src`) in one run.

    pip install -e '.[bench]'
    PYTHONPATH=src python benchmarks/qr_flood.py [--seconds 10] [--flooders 8] [--think 0.05]
    PYTHONPATH=src python benchmarks/qr_flood.py --addresses 40 --seconds 60 [--peer-src OLD/src]

Each stretch runs on a fresh server process (a temporary SQLite file) on a free loopback port, in which
one player plays a two-seat Penta game (web_load.Player: random legal moves), thinking --think seconds
between moves. The stretches by default: no flood (limits on), a flood with the limits off, a flood with
the default limits, the flood being --flooders connections from the same address asking QR codes of
distinct invite links as fast as they are answered. With --addresses N: no flood, then, per code
measured, N addresses (127.0.0.2 onwards, the client sockets bound to them: the server counts a client
by its peer address, web/clients.py) each asking --per-minute QR codes a minute at an even pace, within
its own budget. Printed per stretch: the player's moves, their p50, p90 and p99, the QR requests
answered 200 and 429 per second, the server's CPU-seconds per second (psutil: user + system), and the
machine's load average at the end (a shared machine's other work slows every stretch alike).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import secrets
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import aiohttp
from peers import THIS_SRC, add_peer_option, sources
from web_load import Player, Server, Tally, client_session, serving_sqlite

from cubilete.web.rate_limits import QR_CODES_PER_MINUTE

QR_LINK = "http://192.168.1.20:8000/game/{game}#seat=1&token={token}"  # an invite link's length
Statuses = dict[int, int]
Flood = Callable[[Server, float, Statuses], Awaitable[None]]  # the server, when it ends, the answers' statuses


async def ask_qr(http: aiohttp.ClientSession, server: Server, statuses: Statuses) -> None:
    link = QR_LINK.format(game=secrets.token_urlsafe(9), token=secrets.token_urlsafe(18))
    async with http.get(f"{server.base}/api/qr", params={"text": link}) as response:
        await response.read()
        statuses[response.status] = statuses.get(response.status, 0) + 1


def one_address(connections: int) -> Flood:
    """`connections` connections from one address, each asking as soon as the last code came."""

    async def flood(server: Server, until: float, statuses: Statuses) -> None:
        async with client_session(connections) as http:

            async def ask() -> None:
                while time.perf_counter() < until:
                    await ask_qr(http, server, statuses)

            await asyncio.gather(*(ask() for _ in range(connections)))

    return flood


def many_addresses(addresses: int, per_minute: int) -> Flood:
    """`addresses` client addresses, each asking `per_minute` codes a minute at an even pace (a late answer
    is followed at once by the next request due, never by more than the pace allows)."""
    every = 60.0 / per_minute

    async def from_address(server: Server, host: str, until: float, statuses: Statuses) -> None:
        connector = aiohttp.TCPConnector(limit=1, local_addr=(host, 0))
        async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=120)) as http:
            due = time.perf_counter() + random.uniform(0, every)  # the addresses' requests spread over a period
            while due < until:
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                await ask_qr(http, server, statuses)
                due += every

    async def flood(server: Server, until: float, statuses: Statuses) -> None:
        hosts = [f"127.0.0.{2 + index}" for index in range(addresses)]
        await asyncio.gather(*(from_address(server, host, until, statuses) for host in hosts))

    return flood


async def play(server: Server, until: float, think: float, tally: Tally) -> None:
    async with client_session(1) as http:
        player = Player(http, server.base, "penta", seed=7)
        await player.new_game()
        while time.perf_counter() < until:
            await player.act(tally)
            await asyncio.sleep(think)


async def stretch(server: Server, args: argparse.Namespace, flood: Flood | None) -> str:
    tally, statuses = Tally(), {}
    cpu_before = server.cpu_seconds()
    started = time.perf_counter()
    until = started + args.seconds
    tasks = [play(server, until, args.think, tally)]
    if flood is not None:
        tasks.append(flood(server, until, statuses))
    await asyncio.gather(*tasks)
    seconds = time.perf_counter() - started
    cpu = (server.cpu_seconds() - cpu_before) / seconds
    moves = sorted(tally.latencies)
    p50, p90, p99 = (1000 * statistics.quantiles(moves, n=100)[index] for index in (49, 89, 98))
    qr = f"{statuses.get(200, 0) / seconds:7.1f} {statuses.get(429, 0) / seconds:7.1f}"
    return f"{len(moves):6d} {p50:8.1f} {p90:8.1f} {p99:8.1f}   {qr}   {cpu:6.2f}  {tally.errors or ''}"


def stretches(args: argparse.Namespace) -> list[tuple[str, tuple[str, ...], Flood | None, Path]]:
    """Each stretch: its name, the server's options, the flood (None: none) and the tree served."""
    if args.addresses:
        flood = many_addresses(args.addresses, args.per_minute)
        return [("no flood", (), None, THIS_SRC)] + [
            (f"{args.addresses} addresses, {label}", (), flood, src) for label, src in sources(args).items()
        ]
    flood = one_address(args.flooders)
    return [
        ("no flood, limits on", (), None, THIS_SRC),
        ("QR flood, limits off", ("--no-rate-limits",), flood, THIS_SRC),
        ("QR flood, limits on", (), flood, THIS_SRC),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="each stretch's length (default: 10)")
    parser.add_argument("--flooders", type=int, default=8, help="the flood's concurrent connections (default: 8)")
    parser.add_argument("--think", type=float, default=0.05, help="the player's pause between moves (default: 0.05 s)")
    parser.add_argument("--addresses", type=int, help="flood from this many addresses (127.0.0.2 on), each in its budget")
    parser.add_argument("--per-minute", type=int, default=QR_CODES_PER_MINUTE,
                        help=f"each address's QR codes a minute with --addresses (default: {QR_CODES_PER_MINUTE})")
    add_peer_option(parser)
    args = parser.parse_args()
    print(f"{'stretch':<30} {'moves':>6} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8}   {'QR 200/s':>7} {'429/s':>7}"
          f"   {'CPU/s':>6}")
    with tempfile.TemporaryDirectory() as folder:
        for name, options, flood, src in stretches(args):
            with serving_sqlite(name, options, Path(folder), src) as server:
                print(f"{name:<30} {asyncio.run(stretch(server, args, flood))}", flush=True)
    print(f"load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
