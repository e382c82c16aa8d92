"""`cubilete serve [--host 127.0.0.1] [--port 8000] [--open] [--database URL] [--broker URL] [--public-url URL]`:
play in the browser; with `--host 0.0.0.0`, friends on the same network join from their phones.

Several processes serve the same games when they share a PostgreSQL database and a Redis broker.
The bounds on connections and live sockets have options of their own (`cubilete serve --help`)."""

from __future__ import annotations

import argparse
import gc
import threading
import webbrowser
from typing import Any

from ..connection_limits import HEADER_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS, ConnectionLimits
from ..output import Parser

# File descriptors a server process needs beside its connections (database, logs, solver tables).
DESCRIPTOR_RESERVE = 64


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "serve", help="play Penta, Generala and 5000 in the browser", description=__doc__, environment=True
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1; 0.0.0.0 for the whole network)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    parser.add_argument("--open", action="store_true", help="open the app in the web browser")
    parser.add_argument(
        "--database",
        metavar="URL",
        help="SQLAlchemy database URL, e.g. postgresql://user@host/db (default: a SQLite file in your user data directory)",
    )
    parser.add_argument(
        "--broker",
        metavar="URL",
        help="redis://host:6379/0 to tell other server processes of each move (default: this process only)",
    )
    parser.add_argument(
        "--public-url", metavar="URL", help="the address players reach behind a proxy, used in invite links"
    )
    add_access_options(parser)
    bounds = parser.add_argument_group("bounds on connections")
    bounds.add_argument(
        "--max-connections", type=_at_least_one, default=MAX_CONNECTIONS, metavar="N",
        help=f"connections held at once; beyond, answered 503 and closed (default: {MAX_CONNECTIONS})",
    )
    bounds.add_argument(
        "--idle-timeout", type=_seconds, default=IDLE_TIMEOUT, metavar="SECONDS",
        help=f"a connection without a request under way is closed after this long (default: {IDLE_TIMEOUT:g})",
    )
    bounds.add_argument(
        "--header-timeout", type=_seconds, default=HEADER_TIMEOUT, metavar="SECONDS",
        help="a request's line and headers arrive within this long of its first byte, else 408 and closed"
        f" (default: {HEADER_TIMEOUT:g})",
    )
    # The live sockets' defaults are web/socket_limits.py's, which is imported only to serve (tests check
    # that this help gives them).
    bounds.add_argument(
        "--max-sockets-per-game", type=_at_least_one, metavar="N",
        help="browsers following one game live; beyond, closed with code 4429 (default: 100)",
    )
    bounds.add_argument(
        "--max-sockets-per-client", type=_at_least_one, metavar="N",
        help="live sockets from one address (IPv6: one /64); beyond, closed with code 4429 (default: 30)",
    )
    parser.set_defaults(run=run)


def add_access_options(parser: Parser) -> None:
    """Who may use the server (web/access.py)."""
    access = parser.add_argument_group("who may use the server")
    access.add_argument(
        "--creation-password", metavar="PASSWORD", type=_not_blank,
        help="creating a game asks this password (joining by an invite link, watching and playing do not);"
        " give it in the environment rather than here, where `ps` shows it (default: none, anyone creates games)",
    )
    access.add_argument(
        "--no-open-tables", dest="open_tables", action="store_false",
        help="list no open tables, and create no public games (default: listed)",
    )


def _not_blank(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("a password that is not blank")
    return text


def _at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1, not {text!r}")
    return int(text)


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= 3600:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, at most 3600, not {text!r}")
    return seconds


def listening_addresses(host: str, port: int) -> list[str]:
    """The URLs to print: every LAN address when bound to all interfaces, else the one address."""
    from ...web.addresses import WILDCARDS, http_url, lan_addresses

    if host not in WILDCARDS:
        return [http_url(host, port) + "/"]
    ipv4_only = host == "0.0.0.0"
    lan = [address for address in lan_addresses() if not (ipv4_only and ":" in address)]
    return [http_url(address, port) + "/" for address in ["127.0.0.1" if ipv4_only else "::1", *lan]]


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ...solvers.sheet.warmup import compile_sheet_kernels
    from ...web import Access, SocketLimits, create_app

    # the solver's and hints' kernels compile while the first game is chosen, not at its first hint
    threading.Thread(target=compile_sheet_kernels, daemon=True).start()

    chosen = {"per_game": args.max_sockets_per_game, "per_client": args.max_sockets_per_client}
    sockets = SocketLimits(**{name: value for name, value in chosen.items() if value is not None})
    limits = ConnectionLimits(args.max_connections, args.idle_timeout, args.header_timeout)
    app = create_app(
        args.database, args.broker, public_url=args.public_url, listen_host=args.host, socket_limits=sockets,
        access=Access(args.creation_password, args.open_tables),
    )
    urls = listening_addresses(args.host, args.port)
    print("cubilete is listening on:", *(f"  {url}" for url in urls), sep="\n")
    print(data_locations(args.database))
    if args.public_url:
        print(f"Invite links point to {args.public_url}")
    print("Press Ctrl+C to stop.", flush=True)
    if args.open:
        threading.Timer(1.0, webbrowser.open, args=(urls[0],)).start()
    allow_descriptors(limits.max_connections + DESCRIPTOR_RESERVE)
    tune_collector()
    settings = server_settings(behind_proxy=args.public_url is not None, limits=limits, max_message=sockets.max_message)
    uvicorn.run(app, host=args.host, port=args.port, **settings)
    return 0


def data_locations(database: str | None) -> str:
    """Where the games and the solved tables are, for the host's backups (the password hidden)."""
    from ...solvers.cache_dir import cache_dir
    from ...storage.connections import database_url, shown_url

    return f"Games are stored in {shown_url(database_url(database))}; solved tables in {cache_dir()}"


def allow_descriptors(wanted: int) -> None:
    """Raise the process's soft limit on open files to `wanted` if it is lower (as far as the hard limit
    allows, saying so when that is short), so that the bound on connections is reached before it."""
    try:
        import resource
    except ImportError:  # Windows: no such limit
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        raised = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (raised, hard))
        if raised < wanted:
            print(f"The system allows {raised} open files: lower --max-connections below {raised - DESCRIPTOR_RESERVE}")


# Young objects are collected after this many allocations (Python's default: 700). Each pass walks
# every young object, and under load that is mostly the requests being served: at 700, passes cost
# about a sixth of a move's CPU, and at 50,000 still a tenth (benchmarks/web_load.py). Cyclic garbage
# waits longer to be freed, at most this many objects; the server's RSS under load did not change.
YOUNG_COLLECTION_THRESHOLD = 200_000


def tune_collector() -> None:
    """The garbage collector's settings for a server process, called once it has started (web_load's
    baseline server gets the same)."""
    # What exists now (modules, routes, schemas) lives as long as the process: leave it out of the
    # collector's full passes, which otherwise walk it again and again while games are played.
    gc.freeze()
    gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])


DEFAULT_LIMITS = ConnectionLimits()


def server_settings(
    behind_proxy: bool, limits: ConnectionLimits = DEFAULT_LIMITS, max_message: int | None = None
) -> dict[str, Any]:
    """uvicorn's settings for the app (benchmarks/web_load.py runs its baseline under the same);
    `max_message`: the WebSockets' bound on a message, in bytes (default: uvicorn's 16 MiB)."""
    from ..bounded_http import BoundedH11Protocol

    websockets = {} if max_message is None else {"ws_max_size": max_message}  # larger: refused unread (1009)
    return {
        **websockets,
        "log_level": "warning",
        "timeout_keep_alive": limits.idle_timeout,  # idle connections are closed soon
        # h11 rather than httptools, which would be faster but bounds no request head
        "http": BoundedH11Protocol.with_limits(limits),
        "h11_max_incomplete_event_size": 16 * 1024,  # request line and headers are bounded
        "proxy_headers": behind_proxy,  # X-Forwarded-* are read only behind a proxy (--public-url)
    }
