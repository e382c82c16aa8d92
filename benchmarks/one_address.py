"""One address holding a server's connections with request bodies that trickle in (issue 32, item 1):
how many it still holds once the body timeout is past, and how many of another player's requests are
refused then. Only loopback traffic: the holder connects from 127.0.0.2, the player from 127.0.0.3.

    pip install -e '.[bench]'
    PYTHONPATH=src python benchmarks/one_address.py [--holders 1000] [--requests 224] [--wait 20] [--src PATH]

A fresh `cubilete serve` with its default bounds (a temporary SQLite file); --src serves another tree's
`src` (e.g. an older checkout, for the figure before a change). The holder opens --holders connections,
each sending `POST /api/games` with `Content-Length: 60000`, then one byte of body every 3 s; after
--wait seconds the player sends --requests `GET /api/games/options`, each on a new connection.
Printed: the holder's connections still open, and the player's requests refused (503, 429, reset).
"""

from __future__ import annotations

import argparse
import socket
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

import web_load
from web_load import serving_sqlite

HEAD = b"POST /api/games HTTP/1.1\r\nHost: cubilete\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{"
BYTE_EVERY_SECONDS = 3.0


def hold(port: int, count: int) -> list[socket.socket]:
    held = []
    for _ in range(count):
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=("127.0.0.2", 0))
            connection.sendall(HEAD)
        except OSError:
            continue
        connection.setblocking(False)
        held.append(connection)
    return held


def trickle(held: list[socket.socket], stop: threading.Event) -> None:
    while not stop.wait(BYTE_EVERY_SECONDS):
        for connection in held:
            try:
                connection.send(b" ")
            except OSError:
                pass


def still_open(held: list[socket.socket]) -> int:
    """Those the server has not closed (reading finds nothing yet, rather than an answer then the end)."""
    count = 0
    for connection in held:
        try:
            while connection.recv(65536):
                pass
        except BlockingIOError:
            count += 1
        except OSError:
            pass
    return count


def refused(port: int, requests: int) -> int:
    failures = 0
    for _ in range(requests):
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=("127.0.0.3", 0)) as player:
                player.sendall(b"GET /api/games/options HTTP/1.1\r\nHost: cubilete\r\nConnection: close\r\n\r\n")
                failures += not player.recv(64).startswith(b"HTTP/1.1 200 ")
        except OSError:
            failures += 1
    return failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--holders", type=int, default=1000, help="connections the holder opens (default: 1000)")
    parser.add_argument("--requests", type=int, default=224, help="the player's requests (default: 224)")
    parser.add_argument("--wait", type=float, default=20.0, help="seconds before the player asks (default: 20)")
    parser.add_argument("--src", type=Path, help="the tree's src to serve (default: this one's)")
    args = parser.parse_args()
    if args.src is not None:
        web_load.SRC = args.src.resolve()
    with tempfile.TemporaryDirectory() as folder, serving_sqlite("one-address", (), Path(folder)) as server:
        urllib.request.urlopen(f"{server.base}/healthz", timeout=10).close()
        held = hold(server.port, args.holders)
        stop = threading.Event()
        trickler = threading.Thread(target=trickle, args=(held, stop))
        trickler.start()
        try:
            time.sleep(args.wait)  # past the body timeout: what is left is what the bounds leave
            player_refused = refused(server.port, args.requests)
            open_now = still_open(held)
        finally:
            stop.set()
            trickler.join()
            for connection in held:
                connection.close()
    print(f"holder: {open_now}/{args.holders} connections still open after {args.wait:g} s")
    print(f"player: {player_refused}/{args.requests} requests refused")


if __name__ == "__main__":
    main()
