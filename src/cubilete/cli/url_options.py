"""The URLs a host gives `serve`, `admin`, `backup`, `review` and `export` (the database, the broker, the
public address), checked while the options are parsed: a wrong one is one line and exit 2, naming the
option or its environment variable, never a traceback from a driver met later."""

from __future__ import annotations

import argparse
from urllib.parse import urlsplit

BROKER_SCHEMES = ("redis", "rediss", "unix")  # what redis-py's from_url connects to


SERVED_DATABASE_HELP = (
    "the database `cubilete serve` uses (default: the SQLite file in $STATE_DIRECTORY, else in your user data"
    " directory)"
)


def add_database_option(parser: argparse.ArgumentParser, help_text: str = SERVED_DATABASE_HELP) -> None:
    """--database URL, checked as it is parsed (`database_url`)."""
    parser.add_argument("--database", type=database_url, metavar="URL", help=help_text)


def database_url(text: str) -> str:
    from ..storage.connections import unsupported_database  # SQLAlchemy only once a URL is given

    problem = unsupported_database(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return text


def broker_url(text: str) -> str:
    scheme = urlsplit(text).scheme
    if scheme not in BROKER_SCHEMES or not text.partition("://")[2]:
        given = f"{scheme}://" if scheme else "an address without a scheme"
        raise argparse.ArgumentTypeError(f"a redis://host:6379/0 URL, not {given}")
    return text


def public_url(text: str) -> str:
    try:
        url = urlsplit(text)
        url.port  # noqa: B018 (raises ValueError for a port out of range or not a number)
    except ValueError:
        url = None
    if url is None or url.scheme not in ("http", "https") or not url.hostname:
        raise argparse.ArgumentTypeError(f"an http:// or https:// address such as https://dice.example.org, not {text!r}")
    return text
