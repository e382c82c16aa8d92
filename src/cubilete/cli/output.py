"""What every command shares: a report printed as text or JSON, and clean errors."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

from ..engine.errors import CubileteError
from .environment import EPILOG as ENVIRONMENT_EPILOG
from .environment import BadVariable, EnvironmentHelp, parse_with_environment

USAGE_ERROR = 2


@dataclass(frozen=True)
class Report:
    """A command's answer: the data for --json, and the same for people."""

    data: dict[str, Any]
    text: str


class CommandError(CubileteError):
    """Bad command-line input that is not an engine error (unreadable file, bad JSON...)."""

    def __init__(self, message: str) -> None:
        super().__init__("command_line", message=message)


def emit(report: Report, as_json: bool) -> None:
    print(json.dumps(report.data, ensure_ascii=False) if as_json else report.text)


def fail(message: str) -> int:
    print(f"cubilete: error: {message}", file=sys.stderr)
    return USAGE_ERROR


class Parser(argparse.ArgumentParser):
    """The parser of `cubilete` and of each command: a usage error is a clean error. With
    `environment=True` (a command a host runs as a service), each option may also come from an
    environment variable (cli/environment.py)."""

    def __init__(self, *args: Any, environment: bool = False, **kwargs: Any) -> None:
        if environment:
            kwargs.setdefault("formatter_class", EnvironmentHelp)
            kwargs.setdefault("epilog", ENVIRONMENT_EPILOG)
        super().__init__(*args, **kwargs)
        self.environment = environment
        if environment:  # main() then names the CUBILETE_ variables no option reads
            self.set_defaults(reads_environment=True)

    def parse_known_args(  # type: ignore[override]  # typeshed's overloads: one signature serves them all
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        def parse() -> tuple[argparse.Namespace, list[str]]:
            return super(Parser, self).parse_known_args(args, namespace)

        if not self.environment:
            return parse()
        try:
            return parse_with_environment(self, parse)
        except BadVariable as error:  # one line: the usage says nothing of the environment
            raise SystemExit(fail(str(error))) from None

    def error(self, message: str) -> NoReturn:  # argparse's own exit code is 2 as well
        self.print_usage(sys.stderr)
        raise SystemExit(fail(message))


def parse_json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise CommandError(f"{what} is not valid JSON: {error.msg} (line {error.lineno}, column {error.colno})") from None


def read_json_input(path: str | None, what: str) -> Any:
    """JSON from a file, or from standard input when no file is given."""
    try:
        text = Path(path).read_text(encoding="utf-8") if path else sys.stdin.read()
    except OSError as error:
        raise CommandError(f"cannot read {path}: {error.strerror}") from None
    return parse_json(text, what)
