"""Options from the environment, for the commands a host runs as a service (`cubilete serve`, `admin`,
`backup`): each of their options may also be set by a variable, CUBILETE_ and the option's long name
in capitals (--max-connections: CUBILETE_MAX_CONNECTIONS), but --database by CUBILETE_DATABASE_URL.
So a secret (the database's password, the creation password) stays out of `ps` and of unit files.

The command line wins over the environment; an empty variable counts as unset; a flag's variable is
1, true, yes or on to give the flag (0, false, no or off not to). A value the option would refuse is
refused naming its variable. Options taking several values have no variable."""

from __future__ import annotations

import argparse
import difflib
import os
from collections.abc import Callable
from typing import Any

PREFIX = "CUBILETE_"
# The names hosts expect (the issue's, and other services' DATABASE_URL), where the rule gives another.
NAMED = {"--database": "CUBILETE_DATABASE_URL"}
GIVEN_WORDS = ("1", "true", "yes", "on")
NOT_GIVEN_WORDS = ("0", "false", "no", "off")
EPILOG = (
    "Every option may also be set by the environment variable in brackets after its help (a flag's: 1 or 0);"
    " the command line wins. Hosting guide: docs/hosting.md."
)


# Variables read elsewhere than an option: the solvers' table folder, and the test suite's own.
OTHER_VARIABLES = ("CUBILETE_CACHE_DIR", "CUBILETE_CLOCK_SCALE")
TEST_PREFIX = "CUBILETE_TEST_"


class BadVariable(Exception):
    """An environment variable holds a value its option refuses: the message names the variable."""


class _Unset:
    """The value of an option neither the command line nor the environment gave, while parsing."""


_UNSET = _Unset()


def variable_of(action: argparse.Action) -> str | None:
    """The variable that sets this option, None for what has none (positionals, --help, lists)."""
    takes_one = isinstance(action, argparse._StoreAction) and action.nargs in (None, "?")
    is_flag = isinstance(action, (argparse._StoreConstAction, argparse.BooleanOptionalAction))  # store_true too
    long_name = next((name for name in action.option_strings if name.startswith("--")), None)
    if long_name is None or not (takes_one or is_flag):
        return None
    return NAMED.get(long_name, PREFIX + long_name[2:].upper().replace("-", "_"))


class EnvironmentHelp(argparse.HelpFormatter):
    """Help that names each option's variable."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        help_text = super()._get_help_string(action)
        variable = variable_of(action)
        if help_text is None or variable is None:
            return help_text
        return f"{help_text} [env: {variable}]"


def parse_with_environment(
    parser: argparse.ArgumentParser, parse: Callable[[], tuple[argparse.Namespace, list[str]]]
) -> tuple[argparse.Namespace, list[str]]:
    """`parse()` (argparse's own parse of `parser`), then each option the command line left out taken
    from its variable when that is set; raises BadVariable for a value the option refuses."""
    from_environment = {
        action: os.environ[variable]
        for action in parser._actions
        if (variable := variable_of(action)) is not None and os.environ.get(variable, "").strip()
    }
    defaults = {action: action.default for action in from_environment}
    for action in from_environment:  # marks what the command line leaves out
        action.default = _UNSET
    try:
        parsed, rest = parse()
    finally:
        for action, default in defaults.items():
            action.default = default
    for action, text in from_environment.items():
        if getattr(parsed, action.dest, None) is _UNSET:
            setattr(parsed, action.dest, _value(parser, action, text))
    return parsed, rest


def _value(parser: argparse.ArgumentParser, action: argparse.Action, text: str) -> Any:
    variable = variable_of(action)
    if isinstance(action, (argparse._StoreConstAction, argparse.BooleanOptionalAction)):
        word = text.strip().lower()
        if word in GIVEN_WORDS + NOT_GIVEN_WORDS:
            given = action.const if isinstance(action, argparse._StoreConstAction) else True
            not_given = action.default if isinstance(action, argparse._StoreConstAction) else False
            return given if word in GIVEN_WORDS else not_given
        raise BadVariable(
            f"{variable}: 1, true, yes or on gives {action.option_strings[0]}; 0, false, no or off"
            f" does not, not {text!r}"
        )
    try:
        value = parser._get_value(action, text)
        parser._check_value(action, value)
    except argparse.ArgumentError as error:
        raise BadVariable(f"{variable}: {error.message}") from None
    return value


def unknown_variables(parser: argparse.ArgumentParser) -> list[str]:
    """A line for each CUBILETE_ variable of the environment that no option of any command reads (a
    misspelled CUBILETE_DATABSE_URL would otherwise leave the server on its SQLite file unsaid), with
    the known name it is closest to."""
    known = {*OTHER_VARIABLES, *_variables(parser)}
    lines = []
    for name in sorted(os.environ):
        if name.startswith(PREFIX) and name not in known and not name.startswith(TEST_PREFIX):
            closest = difflib.get_close_matches(name, sorted(known), n=1)
            hint = f" (did you mean {closest[0]}?)" if closest else ""
            lines.append(f"{name} is no cubilete setting{hint}: ignored")
    return lines


def _variables(parser: argparse.ArgumentParser) -> set[str]:
    """The variables of the parser's options and of its commands' options."""
    found = set()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in action.choices.values():
                found |= _variables(command)
        elif (variable := variable_of(action)) is not None:
            found.add(variable)
    return found
