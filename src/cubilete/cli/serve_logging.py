"""How `cubilete serve` logs: its own records, uvicorn's and Python's warnings in one format (an ISO 8601
timestamp, the level, the logger, the message) on standard error, from the level the host chooses;
each request only with --access-log. The start-up record says what the process serves from."""

from __future__ import annotations

import argparse
import logging
import logging.config
from typing import Any

LEVELS = ("debug", "info", "warning", "error")
DEFAULT_LEVEL = "info"
FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"
TIMESTAMP = "%Y-%m-%dT%H:%M:%S%z"  # ISO 8601, with the offset from UTC


def add_logging_options(parser: argparse.ArgumentParser) -> None:
    logs = parser.add_argument_group("logs")
    logs.add_argument(
        "--log-level",
        choices=LEVELS,
        default=DEFAULT_LEVEL,
        help=f"the least serious records logged, on standard error (default: {DEFAULT_LEVEL})",
    )
    logs.add_argument(
        "--access-log",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="log every request: its client address, method, path and status (default: off; a proxy in"
        " front usually logs them already)",
    )


def configure_logging(level: str) -> None:
    """One format for every logger, set before the server's modules are imported (the solvers log
    at import when they cannot cache their kernels). The level is cubilete's and uvicorn's: the
    libraries beneath (Numba's compiler, Alembic, asyncio) log only their warnings, lest debugging
    the server mean thousands of lines about compiling kernels."""
    chosen = level.upper()
    libraries = chosen if LEVELS.index(level) > LEVELS.index("warning") else "WARNING"
    logging.config.dictConfig(
        {
            "version": 1,
            "disable_existing_loggers": False,
            "formatters": {"timestamped": {"format": FORMAT, "datefmt": TIMESTAMP}},
            "handlers": {
                "stderr": {"class": "logging.StreamHandler", "formatter": "timestamped", "stream": "ext://sys.stderr"}
            },
            "root": {"handlers": ["stderr"], "level": libraries},
            "loggers": {"cubilete": {"level": chosen}, "uvicorn": {"level": chosen}, "py.warnings": {"level": chosen}},
        }
    )
    logging.captureWarnings(True)  # Python's warnings too, timestamped


def uvicorn_logging(level: str, access_log: bool) -> dict[str, Any]:
    """uvicorn's settings for its loggers, which then propagate to the handler configure_logging set.
    Without --access-log, uvicorn's lines of each live connection (the client's address and the game's
    path: "WebSocket ... [accepted]", "connection open", "connection closed") are left out too."""
    connections = logging.getLogger("uvicorn.error")
    for quiet in [f for f in connections.filters if isinstance(f, QuietConnections)]:
        connections.removeFilter(quiet)
    if not access_log:
        connections.addFilter(QuietConnections())
    return {"log_config": None, "log_level": level, "access_log": access_log}


class QuietConnections(logging.Filter):
    """Drops uvicorn's record of each WebSocket connection: a player's address belongs in the access log."""

    TEMPLATES = ("connection open", "connection closed")

    def filter(self, record: logging.LogRecord) -> bool:
        template = str(record.msg)
        return not (template in self.TEMPLATES or template.startswith('%s - "WebSocket '))


def startup_summary(database: str | None, broker: str | None, public_url: str | None, proxies: str | None) -> str:
    """What this process serves from: its version, database and broker (passwords hidden), where its
    links point, which proxies it believes, and its data and cache directories."""
    from .. import __version__
    from ..solvers.cache_dir import cache_dir
    from ..solvers.kernel_cache import kernel_cache_description
    from ..storage.connections import data_dir, database_url, shown_url

    parts = [
        f"database {shown_url(database_url(database))}",
        f"broker {shown_url(broker) if broker else 'none (this process only)'}",
        f"public URL {public_url or 'none (links follow the address each request asked)'}",
        f"forwarded headers {'from ' + proxies if proxies else 'ignored'}",
        *([f"data directory {data_dir()}"] if database is None else []),
        f"cache directory {cache_dir()}",
        f"compiled kernels {kernel_cache_description()}",
    ]
    return f"cubilete {__version__} starting: " + "; ".join(parts)
