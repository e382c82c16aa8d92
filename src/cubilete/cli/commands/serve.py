"""`cubilete serve [--host 127.0.0.1] [--port 8000] [--open] [--database URL] [--broker URL]`: play in the browser.

Several processes serve the same games when they share a PostgreSQL database and a Redis broker."""

from __future__ import annotations

import argparse
import threading
import webbrowser

import uvicorn


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "serve", help="play Penta, Generala and 5000 in the browser", description=__doc__
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ...web import create_app

    app = create_app(args.database, args.broker)
    if args.open:
        url = f"http://{'localhost' if args.host in ('0.0.0.0', '::') else args.host}:{args.port}/"
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
