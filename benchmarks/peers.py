"""The code a benchmark compares in one run: this checkout's, and with `--peer-src` another checkout's
(e.g. the release before a change), each served by its own `cubilete serve` processes."""

from __future__ import annotations

import argparse
from pathlib import Path

THIS_SRC = Path(__file__).resolve().parents[1] / "src"


def add_peer_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--peer-src", type=Path, help="another checkout's src/ (e.g. the release before)")


def sources(args: argparse.Namespace) -> dict[str, Path]:
    """Each code to measure, by its label."""
    return {"this checkout": THIS_SRC, **({"peer": args.peer_src} if args.peer_src is not None else {})}
