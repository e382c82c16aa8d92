"""`cubilete serve [--host 127.0.0.1] [--port 8000] [--open] [--database URL] [--broker URL] [--public-url URL]
[--forwarded-allow-ips ADDRESSES] [--log-level info] [--access-log]`: play in the browser; with
`--host 0.0.0.0`, friends on the same network join from their phones.

Several processes serve the same games when they share a PostgreSQL database and a Redis broker.
The bounds on connections and live sockets, the per-client rates of costly requests, the expiry of
games that never got a move and the memory for the solver's tables have options of their own
(`cubilete serve --help`)."""

from __future__ import annotations

import argparse
import gc
import logging
import threading
import webbrowser
from datetime import timedelta
from typing import Any

from ...engine.errors import CubileteError
from .. import url_options
from ..connection_limits import CONNECTIONS_PER_CLIENT, HEADER_TIMEOUT, IDLE_TIMEOUT, MAX_CONNECTIONS, ConnectionLimits
from ..language import default_language
from ..output import Parser, fail
from ..proxies import believed_proxies, proxy_settings, trusted_proxies
from ..push_options import add_push_options, push_settings
from ..serve_logging import add_logging_options, configure_logging, startup_summary, uvicorn_logging
from ..texts import Texts

# File descriptors a server process needs beside its connections (database, logs, solver tables).
DESCRIPTOR_RESERVE = 64
METRICS_TOKEN_LENGTH = 16  # a guessable token would give the figures to strangers


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "serve", help="play the games in the browser", description=__doc__, environment=True
    )
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1; 0.0.0.0 for the whole network)"
    )
    parser.add_argument("--port", type=int, default=8000, help="port to listen on (default: 8000)")
    parser.add_argument("--open", action="store_true", help="open the app in the web browser (or say so when this machine has none)")
    parser.add_argument(
        "--database", type=url_options.database_url,
        metavar="URL",
        help="SQLAlchemy database URL, e.g. postgresql://user@host/db (default: a SQLite file in $STATE_DIRECTORY, else"
        " in your user data directory)",
    )
    parser.add_argument(
        "--broker", type=url_options.broker_url,
        metavar="URL",
        help="redis://host:6379/0 to tell other server processes of each move (default: this process only)",
    )
    parser.add_argument(
        "--public-url", type=url_options.public_url, metavar="URL", help="the address players reach behind a proxy, used in invite links"
    )
    # The default is storage/connections.py's, imported only to serve (a test checks that this help gives it).
    parser.add_argument(
        "--database-timeout", type=_seconds, metavar="SECONDS",
        help="the longest wait for the database: to connect, for a statement or a lock, for a request's"
        " reads and writes; beyond, 503 database_unavailable or save_failed and nothing stored (default: 5)",
    )
    parser.add_argument(
        "--forwarded-allow-ips", type=trusted_proxies, metavar="ADDRESSES",
        help="the proxies whose X-Forwarded-Proto and X-Forwarded-For are believed: IP addresses or networks"
        " separated by commas, * for any (default: none; with --public-url, 127.0.0.1,::1)",
    )
    parser.add_argument(
        "--drain-seconds", type=_drain_seconds, default=DRAIN_SECONDS, metavar="SECONDS",
        help="asked to stop, the process answers /readyz 503 server_stopping and takes connections this long"
        " before it closes its port, so a proxy checking /readyz moves the players to another process first"
        f" (default: {DRAIN_SECONDS:g}; 0 without such a proxy)",
    )
    add_logging_options(parser)
    add_access_options(parser)
    add_push_options(parser)
    add_connection_options(parser)
    add_rate_options(parser)
    # web/tables.py's default, which is imported only to serve (tests check that this help gives it)
    parser.add_argument_group("bounds on memory").add_argument(
        "--table-memory-mb", type=_at_least_one, metavar="MB",
        help="memory for the solver's tables, counted by the files a process maps (every rule set's: about"
        " 5.9 GB; the duel's of one Penta rule set: 847 MB); a request whose tables would pass it is answered"
        " 503 tables_over_budget (default: 8192)",
    )
    parser.set_defaults(run=run)


def add_connection_options(parser: Parser) -> None:
    """The bounds on connections, request heads and bodies, and live sockets."""
    bounds = parser.add_argument_group("bounds on connections")
    bounds.add_argument(
        "--max-connections", type=_at_least_one, default=MAX_CONNECTIONS, metavar="N",
        help=f"connections held at once; beyond, answered 503 and closed (default: {MAX_CONNECTIONS})",
    )
    bounds.add_argument(
        "--max-connections-per-client", type=_at_least_one, default=CONNECTIONS_PER_CLIENT, metavar="N",
        help="connections held at once from one address (IPv6: one /64), a believed proxy's not counted; beyond,"
        f" answered 429 and closed (default: {CONNECTIONS_PER_CLIENT})",
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
    # web/security.py's default, which is imported only to serve (a test checks that this help gives it)
    bounds.add_argument(
        "--body-timeout", type=_seconds, metavar="SECONDS",
        help="a request body arrives within this long, else 408 body_too_slow and closed (default: 15)",
    )
    # The live sockets' defaults are web/socket_limits.py's, which is imported only to serve (tests check
    # that this help gives them).
    bounds.add_argument(
        "--max-sockets-per-game", type=_at_least_one, metavar="N",
        help="browsers following one game live; beyond, closed with code 4429 unless they prove a seat (default: 100)",
    )
    bounds.add_argument(
        "--max-seat-pages-per-game", type=_at_least_one, metavar="N",
        help="beyond --max-sockets-per-game, pages that prove a seat of the game still follow it, this many"
        " more; beyond, closed with code 4429 (default: 20)",
    )
    bounds.add_argument(
        "--max-sockets-per-client", type=_at_least_one, metavar="N",
        help="live sockets from one address (IPv6: one /64); beyond, closed with code 4429 (default: 30)",
    )


def add_rate_options(parser: Parser) -> None:
    """Per-client budgets of costly requests and the expiry of unplayed games; their defaults are
    web/rate_limits.py's and web/unplayed_games.py's (tests check that this help gives them)."""
    rates = parser.add_argument_group(
        "requests per minute from one client address (IPv6: one /64); beyond, 429 with Retry-After"
    )
    for option, what, default in (
        ("--games-per-minute", "new games, with bots or not, and rematches", 30),
        ("--qr-codes-per-minute", "QR codes of invite links", 60),
        ("--hints-per-minute", "hints and the live bar's chances", 300),
        ("--reviews-per-minute", "reviews, their positions and finished games' records", 120),
        ("--reactions-per-minute", "players' reactions to the table", 20),
        ("--push-per-minute", "notification subscriptions kept or dropped", 120),
        ("--open-tables-per-minute", "the list of open tables", 60),
        ("--boards-per-minute", "a game's boards and a day's board", 60),
    ):
        rates.add_argument(option, type=_at_least_one, metavar="N", help=f"{what} (default: {default})")
    everyone = parser.add_argument_group(
        "requests per minute from every client together, in the costliest classes; beyond, 429 with Retry-After"
    )
    for option, what, default in (
        ("--qr-codes-per-minute-everyone", "QR codes", 600),
        ("--hints-per-minute-everyone", "hints and chances", 3000),
        ("--reviews-per-minute-everyone", "reviews, positions and records", 600),
        ("--open-tables-per-minute-everyone", "the list of open tables", 1200),
        ("--boards-per-minute-everyone", "the boards", 1200),
    ):
        everyone.add_argument(option, type=_at_least_one, metavar="N", help=f"{what}, all clients (default: {default})")
    rates.add_argument("--no-rate-limits", action="store_true", help="no per-client budget at all (load tests)")
    parser.add_argument(
        "--unplayed-game-hours", type=_hours, default=24.0, metavar="HOURS",
        help="a game that never got a move is deleted once unchanged this long; 0 keeps them (default: 24)",
    )


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
    access.add_argument(
        "--open-tables-per-client", metavar="N", type=_at_least_one,
        help="open tables listed at once per client address, its newest (default: 3)",
    )
    access.add_argument(
        "--correspondence-games-per-client", metavar="N", type=_at_least_one,
        help="unfinished games by correspondence (a clock of days) one client address may create (default: 100)",
    )
    access.add_argument(
        "--metrics-token", metavar="TOKEN", type=_metrics_token,
        help="serve GET /metrics (Prometheus text) to requests with `Authorization: Bearer TOKEN`, at least"
        f" {METRICS_TOKEN_LENGTH} characters; give it in the environment (default: no /metrics, nothing counted)",
    )


def per_client_shares(args: argparse.Namespace) -> dict[str, int]:
    """The bounds per client address the host chose (web/access.py has the defaults)."""
    chosen = {
        "open_tables_per_client": args.open_tables_per_client,
        "correspondence_games_per_client": args.correspondence_games_per_client,
    }
    return {name: value for name, value in chosen.items() if value is not None}


def _not_blank(text: str) -> str:
    if not text.strip():
        raise argparse.ArgumentTypeError("a password that is not blank")
    return text


def _metrics_token(text: str) -> str:
    if len(text.strip()) < METRICS_TOKEN_LENGTH:
        raise argparse.ArgumentTypeError(f"a token of at least {METRICS_TOKEN_LENGTH} characters (openssl rand -hex 16)")
    return text.strip()


def _at_least_one(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"a whole number from 1, not {text!r}")
    return int(text)


def _hours(text: str) -> float:
    try:
        hours = float(text)
    except ValueError:
        hours = -1.0
    if not 0 <= hours <= 24 * 365:
        raise argparse.ArgumentTypeError(f"a number of hours from 0 to a year's, not {text!r}")
    return hours


def _drain_seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not 0 <= seconds <= 60:
        raise argparse.ArgumentTypeError(f"a number of seconds from 0 to 60, not {text!r}")
    return seconds


def _seconds(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds <= 3600:
        raise argparse.ArgumentTypeError(f"a number of seconds above 0, at most 3600, not {text!r}")
    return seconds


def this_device_only(texts: Texts) -> str:
    """Why friends cannot join, and how to let them (also said by the form where friends' seats are chosen)."""
    return texts.t(
        "This server can be reached from this device only: friends' phones cannot open its links. "
        "To let them in, start it with cubilete serve --host 0.0.0.0"
    )


def listening_addresses(host: str, port: int) -> list[str]:
    """The URLs to print: every LAN address when bound to all interfaces, else the one address."""
    from ...web.addresses import WILDCARDS, http_url, lan_addresses

    if host not in WILDCARDS:
        return [http_url(host, port) + "/"]
    ipv4_only = host == "0.0.0.0"
    lan = [address for address in lan_addresses() if not (ipv4_only and ":" in address)]
    return [http_url(address, port) + "/" for address in ["127.0.0.1" if ipv4_only else "::1", *lan]]


def run(args: argparse.Namespace) -> int:
    configure_logging(args.log_level)  # first: importing the solvers may log
    from ...solvers.sheet.warmup import compile_sheet_kernels
    from ...web import NO_RATE_LIMITS, Access, RateLimits, SocketLimits, TableGate, create_app
    from ...web.addresses import LinkBase
    from ..stopping_server import serve_until_stopped

    # the solver's and hints' kernels compile while the first game is chosen, not at its first hint
    threading.Thread(target=compile_sheet_kernels, daemon=True).start()

    chosen = {"per_game": args.max_sockets_per_game, "per_client": args.max_sockets_per_client,
              "seat_pages": args.max_seat_pages_per_game}
    sockets = SocketLimits(**{name: value for name, value in chosen.items() if value is not None})
    limits = ConnectionLimits(
        args.max_connections, args.idle_timeout, args.header_timeout, args.max_connections_per_client
    )
    tables = TableGate() if args.table_memory_mb is None else TableGate(args.table_memory_mb)
    per_minute = {"games": args.games_per_minute, "qr_codes": args.qr_codes_per_minute,
                  "hints": args.hints_per_minute, "reviews": args.reviews_per_minute,
                  "reactions": args.reactions_per_minute, "push": args.push_per_minute,
                  "open_tables": args.open_tables_per_minute, "boards": args.boards_per_minute,
                  "qr_codes_everyone": args.qr_codes_per_minute_everyone,
                  "hints_everyone": args.hints_per_minute_everyone,
                  "reviews_everyone": args.reviews_per_minute_everyone,
                  "open_tables_everyone": args.open_tables_per_minute_everyone,
                  "boards_everyone": args.boards_per_minute_everyone}
    rates = NO_RATE_LIMITS if args.no_rate_limits else RateLimits(
        **{name: value for name, value in per_minute.items() if value is not None}
    )
    unplayed_max_age = timedelta(hours=args.unplayed_game_hours) if args.unplayed_game_hours else None
    timeout = {} if args.database_timeout is None else {"database_timeout": args.database_timeout}
    if args.body_timeout is not None:
        timeout["body_timeout"] = args.body_timeout
    try:
        app = create_app(
            args.database, args.broker, public_url=args.public_url, listen_host=args.host, socket_limits=sockets,
            rate_limits=rates, unplayed_max_age=unplayed_max_age, **timeout, tables=tables,
            access=Access(args.creation_password, args.open_tables, **per_client_shares(args)),
            push=push_settings(args), metrics_token=args.metrics_token,
        )
    except CubileteError as refusal:  # no database, no broker, another process's messages: one line, status 2
        return fail(Texts(default_language()).refusal(refusal))
    urls = listening_addresses(args.host, args.port)
    proxies = believed_proxies(args.forwarded_allow_ips, args.public_url)
    log = logging.getLogger(__name__)
    log.info(startup_summary(args.database, args.broker, args.public_url, proxies))
    log.debug("bounds: %s, %s", limits, sockets)
    print("cubilete is listening on:", *(f"  {url}" for url in urls), sep="\n")
    if LinkBase(args.public_url, args.host).this_device_only:
        print(this_device_only(Texts(default_language())))
    print("Press Ctrl+C to stop.", flush=True)
    if args.open:
        threading.Timer(1.0, open_in_browser, args=(urls[0],)).start()
    allow_descriptors(limits.max_connections + DESCRIPTOR_RESERVE)
    tune_collector()
    settings = server_settings(limits, sockets.max_message, proxies)
    logging_settings = uvicorn_logging(args.log_level, args.access_log)
    # asked to stop, the requests waiting for a table build are refused first, /readyz says so, and the
    # process takes connections --drain-seconds more before it closes its port (cli/stopping_server.py)
    return serve_until_stopped(
        app, tables.close, args.drain_seconds, host=args.host, port=args.port, **settings, **logging_settings
    )


def open_in_browser(url: str) -> None:
    """--open: the app in the web browser, or a word when this machine has none (a server, an SSH session)."""
    if not webbrowser.open(url):
        print(f"--open: no web browser found on this machine; open {url} in a browser yourself", flush=True)


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
# Once asked to stop (SIGTERM, Ctrl+C), the requests under way have this long to end; those still running
# (one waiting for a table build, a slow client's) are then cancelled and the app's lifespan closes it all,
# each part within its own bound: the process exits within 10 s whatever it is doing.
GRACEFUL_SHUTDOWN_SECONDS = 5
# Before that, asked to stop, the process answers /readyz 503 and takes connections this long by default
# (--drain-seconds): four of deploy/Caddyfile's health checks (every 250 ms), which then send every request
# to another process.
DRAIN_SECONDS = 1.0


def server_settings(
    limits: ConnectionLimits = DEFAULT_LIMITS, max_message: int | None = None, proxies: str | None = None
) -> dict[str, Any]:
    """uvicorn's settings for the app (benchmarks/web_load.py runs its baseline under the same);
    `max_message`: the WebSockets' bound on a message, in bytes (default: uvicorn's 16 MiB); `proxies`:
    those whose forwarded headers are read (default: none). Logging has settings of its own (serve_logging)."""
    from ..bounded_http import BoundedH11Protocol

    websockets = {} if max_message is None else {"ws_max_size": max_message}  # larger: refused unread (1009)
    return {
        **websockets,
        "timeout_keep_alive": limits.idle_timeout,  # idle connections are closed soon
        "timeout_graceful_shutdown": GRACEFUL_SHUTDOWN_SECONDS,
        # h11 rather than httptools, which would be faster but bounds no request head
        "http": BoundedH11Protocol.with_limits(limits, proxies),
        # request line and headers are bounded while they arrive; whole, by the app (web/request_checks.py)
        "h11_max_incomplete_event_size": 16 * 1024,
        **proxy_settings(proxies),
    }
