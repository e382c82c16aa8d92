"""Issue 32's live-socket abuse, items 2 and 3, as the audit did them, against a real `cubilete serve` (a
temporary SQLite file, the default bounds) for this checkout and, in the same run, another checkout's code
(the peer: e.g. 970d6c2, before issue 32). Only loopback traffic: each client socket is bound to its own
127/8 source address, which the server counts as a client of its own.

    PYTHONPATH=src python benchmarks/live_abuse.py [--peer-src OLD_CHECKOUT/src] [--seconds 10] [--watchers 60]

Item 2, spectators lock players out: a public two-seat Penta game (Ana, and Beto who claims his invited
seat); --spectators-per-address (31) spectator pages from each of 127.0.0.2 to 127.0.0.5 (they send
nothing), then --pages-per-seat (2) pages per seat from 127.0.0.1 that prove their seat as the page does
(`{"type": "seats", ...}` on opening). Printed: the spectator pages held and closed, and the players'
pages that follow the game (they received its view and are still open --hold seconds later) or were closed.

Item 3, visibility flips redraw the game for everyone: another such game, --watchers spectator pages
(30 per address from 127.0.0.2 up, the per-address bound) following it, and Ana's page (127.0.0.1, its
seat proven) sending `{"type": "visible", "visible": false}` then `true`, alternating, for --seconds, once
per --pauses: with no pause (as fast as the client's loop sends them), then 2 ms between two flips (a
pace the server before issue 32 kept up with; flat out, it fell behind). Each stretch starts once the
server and the pages are quiet (the server compiles its kernels in a thread as it starts). Printed: the
flips sent; in the stretch, the messages and bytes (as decoded: the socket may compress them) the
watching pages got and the server process's CPU seconds (user + system, psutil); after it, how long
until the server and the pages were quiet for 1 s (a server behind works through its backlog), and the
messages, bytes and CPU seconds of that time. Both codes read the typed messages this page sends as the
old page's untyped ones (by their key).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import Counter
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path

import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from harness import Server, free_port  # noqa: E402
from peers import add_peer_option, sources  # noqa: E402

PLAYERS = [{"name": "Ana", "kind": "human"}, {"name": "Beto", "kind": "human", "invited": True}]
PLAYER_ADDRESS = "127.0.0.1"
CROWD_ADDRESSES = ("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5")
SOCKETS_PER_ADDRESS = 30  # the servers' per-address bound on live sockets (both codes)
FIRST_MESSAGE_WITHIN = 15.0  # seconds: past the 5 s a page beyond the spectators' bound has to prove a seat
QUIET_SECONDS = 1.0
QUIET_WITHIN = 60.0


@dataclass
class Page:
    """One browser page's live socket: what it received, and the close code if the server closed it."""

    connection: ClientConnection | None = None
    messages: int = 0
    bytes: int = 0
    closed: int | None = None  # the server's close code; -1: closed without one, or never opened
    reader: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def following(self) -> bool:
        return self.closed is None and self.connection is not None and self.connection.state is State.OPEN

    def got(self, message: str | bytes) -> None:
        self.messages += 1
        self.bytes += len(message.encode() if isinstance(message, str) else message)

    async def read(self) -> None:
        assert self.connection is not None
        with suppress(ConnectionClosed):  # how a close other than 1000 or 1001 ends the iteration
            async for message in self.connection:
                self.got(message)
        self.closed = self.connection.close_code or -1

    async def close(self) -> None:
        if self.connection is not None:
            with suppress(Exception):
                await asyncio.wait_for(self.connection.close(), 5)
        if self.reader is not None:
            self.reader.cancel()


async def open_page(server: Server, game_id: str, address: str, seats: dict[str, str] | None = None) -> Page:
    """A page following the game from `address`, once its first message came (or the server closed it);
    a seat's page says its seats on opening, as live.js does."""
    page = Page()
    url = f"ws://127.0.0.1:{server.port}/api/games/{game_id}/live?since=0&lang=en"
    try:
        page.connection = await connect(url, local_addr=(address, 0), max_size=None, open_timeout=30)
        if seats is not None:
            await page.connection.send(json.dumps({"type": "seats", "seats": seats}))
        page.got(await asyncio.wait_for(page.connection.recv(), FIRST_MESSAGE_WITHIN))
    except ConnectionClosed as closed:
        page.closed = closed.rcvd.code if closed.rcvd else -1
        return page
    except (OSError, TimeoutError):
        page.closed = -1
        return page
    page.reader = asyncio.create_task(page.read())
    return page


def new_game(server: Server) -> tuple[str, dict[str, str]]:
    """A public game of Ana and Beto (his invited seat claimed): its id, and each seat's token."""
    game = server.api("POST", "/api/games", {"game": "penta", "players": PLAYERS, "public": True})
    claimed = server.api("POST", f"/api/games/{game['id']}/seats/1/claim", {"invite": game["seats"][1]["invite"]})
    return game["id"], {"0": game["seats"][0]["token"], "1": claimed["token"]}


def cpu_seconds(server: Server) -> float:
    assert server.process is not None
    times = psutil.Process(server.process.pid).cpu_times()
    return times.user + times.system


@dataclass
class Lockout:
    spectators: int
    spectators_held: int
    spectators_closed: dict[int, int]
    players: int
    players_following: int
    players_closed: dict[int, int]


def closes(pages: list[Page]) -> dict[int, int]:
    """How many of the pages were closed, by close code."""
    return Counter(page.closed for page in pages if page.closed is not None)


async def lockout(server: Server, args: argparse.Namespace) -> Lockout:
    game_id, tokens = new_game(server)
    crowd = [address for address in CROWD_ADDRESSES for _ in range(args.spectators_per_address)]
    spectators = await asyncio.gather(*(open_page(server, game_id, address) for address in crowd))
    players = await asyncio.gather(*(
        open_page(server, game_id, PLAYER_ADDRESS, {seat: token})
        for seat, token in tokens.items() for _ in range(args.pages_per_seat)
    ))
    await asyncio.sleep(args.hold)  # a page let in then closed counts as closed
    try:
        return Lockout(len(spectators), sum(page.following for page in spectators), closes(spectators),
                       len(players), sum(page.following for page in players), closes(players))
    finally:
        await asyncio.gather(*(page.close() for page in [*spectators, *players]))


@dataclass
class Flood:
    flips: int
    messages: int  # the watchers', in the window
    bytes: int
    cpu: float  # the server's, in the window
    settle_seconds: float  # from the window's end until the server and the pages are quiet
    tail_messages: int
    tail_bytes: int
    tail_cpu: float
    watchers_following: int


def received(pages: list[Page]) -> tuple[int, int]:
    return sum(page.messages for page in pages), sum(page.bytes for page in pages)


async def settle(server: Server, pages: list[Page]) -> float:
    """Seconds until, for QUIET_SECONDS, the pages received nothing and the server spent under 3% of a
    core (at most QUIET_WITHIN: then says so); its kernels compile in a thread as it starts, and a
    flood's backlog keeps it busy after the flood."""
    began = time.monotonic()
    while time.monotonic() < began + QUIET_WITHIN:
        pages_before, cpu_before = received(pages), cpu_seconds(server)
        await asyncio.sleep(QUIET_SECONDS)
        if received(pages) == pages_before and cpu_seconds(server) - cpu_before < 0.03 * QUIET_SECONDS:
            return time.monotonic() - began - QUIET_SECONDS
    print(f"  (still busy {QUIET_WITHIN:.0f} s later; measuring anyway)")
    return QUIET_WITHIN


async def released(server: Server) -> None:
    """Until the server holds no socket of a client of the crowd's addresses (the last stretch's pages
    closed), so that the per-address bound lets the next stretch's pages in (at most QUIET_WITHIN)."""
    assert server.process is not None
    deadline = time.monotonic() + QUIET_WITHIN
    process = psutil.Process(server.process.pid)
    while any(connection.raddr and connection.raddr.ip in CROWD_ADDRESSES for connection in process.net_connections()):
        if time.monotonic() > deadline:
            raise SystemExit(f"the server still holds the crowd's sockets {QUIET_WITHIN:.0f} s after they closed")
        await asyncio.sleep(0.1)


async def flips(server: Server, args: argparse.Namespace, pause: float) -> Flood:
    await released(server)
    game_id, tokens = new_game(server)
    addresses = [CROWD_ADDRESSES[number // SOCKETS_PER_ADDRESS] for number in range(args.watchers)]
    watchers = await asyncio.gather(*(open_page(server, game_id, address) for address in addresses))
    flipper = await open_page(server, game_id, PLAYER_ADDRESS, {"0": tokens["0"]})
    assert flipper.connection is not None and flipper.following, f"Ana's page was closed ({flipper.closed})"
    try:
        await settle(server, [*watchers, flipper])  # past the presence news of Ana's arrival
        messages_before, bytes_before = received(watchers)
        cpu_before, sent, visible = cpu_seconds(server), 0, True
        deadline = time.monotonic() + args.seconds
        while time.monotonic() < deadline:
            visible = not visible
            await flipper.connection.send(json.dumps({"type": "visible", "visible": visible}))
            sent += 1
            await asyncio.sleep(pause)  # even at 0, the watchers' readers run in this loop between flips
        cpu, (messages, size) = cpu_seconds(server), received(watchers)
        settle_seconds = await settle(server, [*watchers, flipper])
        tail_messages, tail_bytes = received(watchers)
        return Flood(sent, messages - messages_before, size - bytes_before, cpu - cpu_before, settle_seconds,
                     tail_messages - messages, tail_bytes - size, cpu_seconds(server) - cpu,
                     sum(page.following for page in watchers))
    finally:
        await asyncio.gather(*(page.close() for page in [*watchers, flipper]))


def started(src: Path, folder: Path) -> Server:
    env = {"PYTHONPATH": str(src.resolve())}
    return Server(f"sqlite:///{folder / 'games.sqlite3'}", free_port(), folder / "server.log", env=env).start()


async def both_items(server: Server, args: argparse.Namespace) -> tuple[Lockout, list[Flood]]:
    return await lockout(server, args), [await flips(server, args, pause) for pause in args.pauses]


def one_code(src: Path, args: argparse.Namespace) -> tuple[Lockout, list[Flood]]:
    with tempfile.TemporaryDirectory(prefix="live-abuse-") as folder:
        server = started(src, Path(folder))
        try:
            return asyncio.run(both_items(server, args))
        finally:
            server.stop()


def shown(codes: dict[int, int]) -> str:
    return ", ".join(f"{count} x {code}" for code, count in sorted(codes.items())) or "none"


def report(results: dict[str, tuple[Lockout, list[Flood]]], args: argparse.Namespace) -> None:
    print(f"\nItem 2: {args.spectators_per_address} spectator pages from each of {len(CROWD_ADDRESSES)} addresses,"
          f" then {args.pages_per_seat} pages per seat (2 seats), proving it")
    print(f"{'code':<15} {'spectators held':>16} {'closed (code)':>22} {'players following':>18} {'closed (code)':>16}")
    for label, (lock, _) in results.items():
        print(f"{label:<15} {f'{lock.spectators_held}/{lock.spectators}':>16} {shown(lock.spectators_closed):>22}"
              f" {f'{lock.players_following}/{lock.players}':>18} {shown(lock.players_closed):>16}")
    print(f"\nItem 3: a seat's page flipping its visibility for {args.seconds:g} s, {args.watchers} watching pages")
    print(f"{'':<24} {'in the window':>46} | {'after it, until quiet':>36} |")
    print(f"{'code':<15} {'pause s':>8} {'flips sent':>11} {'watchers got':>13} {'MB':>7} {'CPU s':>7} | {'seconds':>8}"
          f" {'watchers got':>13} {'MB':>5} {'CPU s':>6} | {'watchers open':>13}")
    for label, pause, flood in ((label, pause, flood) for label, (_, floods) in results.items()
                                for pause, flood in zip(args.pauses, floods, strict=True)):
        print(f"{label:<15} {pause:>8g} {flood.flips:>11,} {flood.messages:>13,} {flood.bytes / 1e6:>7.2f} {flood.cpu:>7.2f} |"
              f" {flood.settle_seconds:>8.1f} {flood.tail_messages:>13,} {flood.tail_bytes / 1e6:>5.2f}"
              f" {flood.tail_cpu:>6.2f} | {f'{flood.watchers_following}/{args.watchers}':>13}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spectators-per-address", type=int, default=31)
    parser.add_argument("--pages-per-seat", type=int, default=2)
    parser.add_argument("--hold", type=float, default=2.0, help="seconds the pages are left open before counting")
    parser.add_argument("--watchers", type=int, default=60, help=f"at most {SOCKETS_PER_ADDRESS * len(CROWD_ADDRESSES)}")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the visibility flips go on")
    parser.add_argument("--pauses", type=lambda text: [float(pause) for pause in text.split(",")], default=[0.0, 0.002],
                        help="item 3 once per pause: seconds between two flips, 0 as fast as the client's loop sends"
                        " them (default: 0,0.002)")
    add_peer_option(parser)
    args = parser.parse_args()
    if args.watchers > SOCKETS_PER_ADDRESS * len(CROWD_ADDRESSES):
        parser.error(f"--watchers: at most {SOCKETS_PER_ADDRESS * len(CROWD_ADDRESSES)}")
    results = {}
    for label, src in sources(args).items():
        print(f"{label}: {src}", flush=True)
        results[label] = one_code(src, args)
    report(results, args)


if __name__ == "__main__":
    main()
