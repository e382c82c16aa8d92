"""`cubilete.engine` as a library: its public names, its typing marker, its example, and its
refusals of bad values caught as the ValueErrors they also are."""

from __future__ import annotations

import doctest
from importlib.resources import files

import pytest

import cubilete.engine
from cubilete.engine import (
    CubileteError,
    IllegalAction,
    InvalidDice,
    InvalidRecord,
    Match,
    NotYourTurn,
    Score,
    UnknownBox,
    UnknownGame,
    UnknownVariant,
    new_state,
    rules_for,
)
from cubilete.engine.sheet_rules import SheetRules
from cubilete.players import make_player


def test_a_star_import_gives_every_public_name_once():
    public: dict[str, object] = {}
    exec("from cubilete.engine import *", public)
    names = cubilete.engine.__all__
    assert len(set(names)) == len(names) and set(public) - {"__builtins__"} == set(names)
    assert {"Match", "replay", "RollEvent", "ActionEvent", "rules_for", "new_state", "GameState", "InvalidRecord"} <= set(names)


def test_the_package_says_it_is_typed():
    assert files("cubilete").joinpath("py.typed").is_file()


def test_the_example_in_the_docstring_runs():
    failures, tried = doctest.testmod(cubilete.engine, raise_on_error=False)
    assert (failures, tried > 5) == (0, True)


@pytest.mark.parametrize(
    "refused, error",
    [
        (lambda: rules_for("yacht"), UnknownGame),
        (lambda: rules_for("penta", "american"), UnknownVariant),
        (lambda: make_player("grandmaster", rules_for("penta")), UnknownVariant),
        (lambda: new_state(rules_for("penta"), 0), InvalidRecord),
        (lambda: new_state(rules_for("penta"), 1).apply_roll([9, 1, 1, 1, 1]), InvalidDice),
        (lambda: new_state(rules_for("penta"), 1).apply(Score("chance")), IllegalAction),
        (lambda: rules_for("penta").box_index("sevens"), UnknownBox),
        (lambda: Match.from_json({"format": 2}), InvalidRecord),
        (lambda: SheetRules.from_json([]), InvalidRecord),
    ],
)
def test_a_refusal_of_a_bad_value_is_caught_as_a_value_error(refused, error):
    with pytest.raises(ValueError) as caught:
        refused()
    assert isinstance(caught.value, error) and caught.value.code


def test_a_seat_that_is_not_to_move_is_a_bad_value_too():
    match = Match(rules_for("penta"), ["Ana", "Bo"], seed=1)
    match.roll()
    with pytest.raises(ValueError) as caught:
        match.act(Score("chance"), seat=1)
    assert isinstance(caught.value, NotYourTurn)


def test_only_refusals_of_values_are_value_errors():
    assert not issubclass(CubileteError, ValueError)
    value_errors = (IllegalAction, NotYourTurn, InvalidDice, UnknownGame, UnknownVariant, InvalidRecord, UnknownBox)
    assert all(issubclass(error, ValueError) for error in value_errors)
    assert str(InvalidRecord("invalid_record", what="action", detail="x")) == "not a valid action: x"
