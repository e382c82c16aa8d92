"""Entry point: build the parser from the command modules and run the chosen one."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Protocol

from .. import __version__
from ..engine.errors import CubileteError
from .commands import admin, advise, backup, export, play, restore, review, rules, score, serve, simulate, solve, stats
from .environment import unknown_variables
from .output import Parser, fail


class Command(Protocol):
    """A module of cubilete.cli.commands."""

    def register(self, subparsers: argparse._SubParsersAction[Parser]) -> None:
        """Add the command's parser, which sets `run(args) -> int` as its handler."""


COMMANDS: tuple[Command, ...] = (
    admin, advise, backup, export, play, restore, review, rules, score, serve, simulate, solve, stats
)


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="cubilete",
        description="Penta, Generala, 5000, Yahtzee, Yatzy and Kniffel: dice games with an exactly optimal computer player.",
    )
    parser.add_argument("--version", action="version", version=f"cubilete {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    for command in COMMANDS:
        command.register(subparsers)
    for command_parser in subparsers.choices.values():  # main() refuses a stray argument with its usage
        command_parser.set_defaults(command_parser=command_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args, stray = parser.parse_known_args(argv)
    if stray:  # argparse would print the top-level usage; the command's own says what it takes
        args.command_parser.error(f"unrecognized arguments: {' '.join(stray)}")
    if getattr(args, "reads_environment", False):
        for line in unknown_variables(parser):
            print(f"cubilete: {line}", file=sys.stderr)
    run: Callable[[argparse.Namespace], int] = args.run  # the command's, set by its register
    try:
        return run(args)
    except CubileteError as error:
        return fail(str(error))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader stopped early (`| head`): finish quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
