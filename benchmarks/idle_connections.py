"""Connections a stranger opens and leaves idle, or whose headers never end: what a server holds of them
with its connection bounds lifted (as before issue 25) and with `cubilete serve`'s defaults, in one run.

    pip install -e '.[bench]'
    PYTHONPATH=src python benchmarks/idle_connections.py [--idle 3000] [--slow 200] [--wait 12]

Two stretches, each on a fresh server process (a temporary SQLite file) on a free loopback port: bounds
off (`--max-connections 100000 --idle-timeout 3600 --header-timeout 3600`) and the defaults (1000
connections, 5 s idle, 10 s for a request's headers). In each, --idle connections are opened and send
nothing, --slow connections send a request line and one header and never finish, then the script waits
--wait seconds. Printed per stretch: how many of each the server still holds open, the server's open
file descriptors and RSS, and how long a new client's `GET /healthz` takes then (or that it failed).
"""

from __future__ import annotations

import argparse
import resource
import socket
import tempfile
import time
import urllib.request
from pathlib import Path

from web_load import Server, serving_sqlite

BOUNDS_OFF = ("--max-connections", "100000", "--idle-timeout", "3600", "--header-timeout", "3600")
SLOW_HEADERS = b"GET / HTTP/1.1\r\nHost: cubilete\r\n"  # the blank line that ends them never comes


def open_connections(server: Server, count: int, first_bytes: bytes) -> list[socket.socket]:
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", server.port), timeout=5)
        if first_bytes:
            connection.sendall(first_bytes)
        connection.setblocking(False)
        connections.append(connection)
    return connections


def still_open(connections: list[socket.socket]) -> int:
    """Those the server has not closed: reading finds nothing yet, rather than the end of the stream
    (or a refusal's answer followed by it)."""
    held = 0
    for connection in connections:
        try:
            while connection.recv(65536):
                pass
        except BlockingIOError:
            held += 1
        except OSError:
            pass
    return held


def new_client_wait(server: Server) -> str:
    started = time.perf_counter()
    try:
        urllib.request.urlopen(f"{server.base}/healthz", timeout=10).close()
    except OSError as error:
        return f"failed ({type(error).__name__})"
    return f"{1000 * (time.perf_counter() - started):.0f} ms"


def stretch(server: Server, args: argparse.Namespace) -> str:
    idle = open_connections(server, args.idle, b"")
    slow = open_connections(server, args.slow, SLOW_HEADERS)
    time.sleep(args.wait)  # the bounds under test are timeouts: their effect is what is left after a while
    held_idle, held_slow = still_open(idle), still_open(slow)
    descriptors, rss = server.ps.num_fds(), server.rss() / 2**20
    wait = new_client_wait(server)
    for connection in idle + slow:
        connection.close()
    return f"{held_idle:>6}/{args.idle:<6} {held_slow:>6}/{args.slow:<6} {descriptors:>7} {rss:>7.0f}   {wait}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=3000, help="idle connections opened (default: 3000)")
    parser.add_argument("--slow", type=int, default=200, help="connections whose headers never end (default: 200)")
    parser.add_argument("--wait", type=float, default=12.0, help="seconds before counting (default: 12)")
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 4 * (args.idle + args.slow))), hard))
    print(f"{'stretch':<12} {'idle held':>13} {'slow held':>13} {'fds':>7} {'RSS MB':>7}   new client's /healthz")
    with tempfile.TemporaryDirectory() as folder:
        for name, options in (("bounds off", BOUNDS_OFF), ("defaults", ())):
            with serving_sqlite(name, options, Path(folder)) as server:
                print(f"{name:<12} {stretch(server, args)}", flush=True)


if __name__ == "__main__":
    main()
