"""Entry point: build the parser from the command modules and run the chosen one."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from .. import __version__
from ..engine.errors import CubileteError
from .output import fail

# Each module in cubilete.cli.commands has `register(subparsers)`, which adds the
# command's parser and sets `run(args) -> int` as its handler.
COMMANDS = ("advise", "play", "review", "rules", "score", "serve", "simulate", "solve", "stats")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse's own exit code is 2 as well
        self.print_usage(sys.stderr)
        raise SystemExit(fail(message))


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="cubilete",
        description="Penta, Generala and 5000: dice games with an exactly optimal computer player.",
    )
    parser.add_argument("--version", action="version", version=f"cubilete {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in COMMANDS:
        importlib.import_module(f"{__package__}.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except CubileteError as error:
        return fail(str(error))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader stopped early (`| head`): finish quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
