"""`cubilete serve [--host 127.0.0.1] [--port 8000] [--open] [--database URL] [--broker URL] [--public-url URL]`:
play in the browser; with `--host 0.0.0.0`, friends on the same network join from their phones.

Several processes serve the same games when they share a PostgreSQL database and a Redis broker."""

from __future__ import annotations

import argparse
import threading
import webbrowser
from typing import Any

from ..output import Parser


def register(subparsers: argparse._SubParsersAction[Parser]) -> None:
    parser = subparsers.add_parser(
        "serve", help="play Penta, Generala and 5000 in the browser", description=__doc__
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
    parser.set_defaults(run=run)


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
    from ...web import create_app

    # the solver's and hints' kernels compile while the first game is chosen, not at its first hint
    threading.Thread(target=compile_sheet_kernels, daemon=True).start()

    app = create_app(args.database, args.broker, public_url=args.public_url, listen_host=args.host)
    urls = listening_addresses(args.host, args.port)
    print("cubilete is listening on:", *(f"  {url}" for url in urls), sep="\n")
    if args.public_url:
        print(f"Invite links point to {args.public_url}")
    print("Press Ctrl+C to stop.", flush=True)
    if args.open:
        threading.Timer(1.0, webbrowser.open, args=(urls[0],)).start()
    uvicorn.run(app, host=args.host, port=args.port, **server_settings(behind_proxy=args.public_url is not None))
    return 0


def server_settings(behind_proxy: bool) -> dict[str, Any]:
    """uvicorn's settings for the app (benchmarks/web_load.py runs its baseline under the same)."""
    return {
        "log_level": "warning",
        "timeout_keep_alive": 5,  # idle connections are closed soon
        "http": "h11",  # rather than httptools, which would be faster but bounds no request head
        "h11_max_incomplete_event_size": 16 * 1024,  # request line and headers are bounded
        "proxy_headers": behind_proxy,  # X-Forwarded-* are read only behind a proxy (--public-url)
    }
