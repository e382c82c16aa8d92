"""Every JSON loader gives a value or InvalidRecord, never another exception.

Hypothesis feeds them arbitrary JSON and valid records with a few mutations (a value
replaced, nudged or removed, a key or an item added). What a loader accepts must be a
consistent value: it writes JSON that loads back equal, and a state can go on playing.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cubilete.engine.actions import (
    Keep,
    Score,
    SetAside,
    action_from_json,
    action_to_json,
)
from cubilete.engine.dice_seeds import dice_seed_from_json
from cubilete.engine.errors import InvalidRecord
from cubilete.engine.events import ActionEvent, event_from_json, replay
from cubilete.engine.five_thousand import (
    FiveThousandRules,
    FiveThousandState,
    TurnEvent,
)
from cubilete.engine.games import GAMES, rules_for, rules_from_json, state_from_json
from cubilete.engine.runner import Match
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import SheetRules
from cubilete.engine.sheet_scoring import sheet_from_json


def fuzz(examples):
    return settings(max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def match_after(game, players, steps, seed=1):
    """A match with a chosen seed, `steps` events in, random legal actions."""
    rng = random.Random(seed)
    match = Match(rules_for(game), [f"seat {seat}" for seat in range(players)], seed)
    for _ in range(steps):
        if match.state.is_over:
            break
        if match.state.is_chance:
            match.roll()
        else:
            match.act(rng.choice(match.state.legal_actions()))
    return match


def states_of(match):
    """The state before the first event of the match and after each one."""
    return [match.initial, *replay(match.initial, match.events)]


MATCHES = [
    match_after("penta", 2, 40),
    match_after("generala", 1, 30),
    match_after("5000", 3, 200),
    match_after("5000", 2, 10_000),  # to the end
    Match(rules_for("penta"), ["Ana", "Bo"]),  # a secret seed
]
FREE = Match(GAMES["5000"].variants["free-set-aside"], ["Ana", "Bo"], 5)
FREE.advance([None, None], max_steps=0)
STATES = [state.to_json() for match in MATCHES for state in states_of(match)[::3]]
STATES += [FREE.roll().to_json()]
RECORDS = [match.to_json() for match in MATCHES]
ACTIONS = [action_to_json(action) for action in (Keep((0, 3)), Score("chance"), SetAside((1,)))]
ACTIONS += [{"type": "roll"}, {"type": "bank"}]
RULES = {game: [rules.to_json() for rules in info.variants.values()] for game, info in GAMES.items()}
SHEETS = [sheet["boxes"] for record in STATES if record["game"] == "penta" for sheet in record["sheets"]]
EVENTS = [record["last_event"] for record in STATES if record["game"] == "5000" and record["last_event"]]
MATCH_EVENTS = [event.to_json() for event in MATCHES[2].events[:6]] + [ActionEvent(1, Score("chance"), True).to_json()]


PENTA = rules_for("penta")


@dataclass(frozen=True)
class Loader:
    load: Callable[[Any], Any]
    dump: Callable[[Any], Any]
    samples: list[Any]
    is_state: bool = False


LOADERS = {
    "state": Loader(state_from_json, lambda state: state.to_json(), STATES, is_state=True),
    "sheet state": Loader(
        SheetState.from_json, SheetState.to_json, [s for s in STATES if s["game"] != "5000"], is_state=True
    ),
    "5000 state": Loader(
        FiveThousandState.from_json, FiveThousandState.to_json, [s for s in STATES if s["game"] == "5000"], is_state=True
    ),
    "game record": Loader(Match.from_json, Match.to_json, RECORDS),
    "action": Loader(action_from_json, action_to_json, ACTIONS),
    "penta rules": Loader(lambda data: rules_from_json("penta", data), lambda rules: rules.to_json(), RULES["penta"]),
    "generala rules": Loader(SheetRules.from_json, SheetRules.to_json, RULES["generala"]),
    "5000 rules": Loader(FiveThousandRules.from_json, FiveThousandRules.to_json, RULES["5000"]),
    "penta sheet": Loader(lambda filled: sheet_from_json(PENTA, filled), lambda sheet: sheet.filled(PENTA), SHEETS),
    "5000 event": Loader(lambda data: TurnEvent.from_json(data, 3), TurnEvent.to_json, EVENTS),
    "match event": Loader(event_from_json, lambda event: event.to_json(), MATCH_EVENTS),
    "dice seed": Loader(dice_seed_from_json, lambda seed: seed.to_json(), [record["dice"] for record in RECORDS]),
}


def check_loaded(loader, value):
    """What a loader accepted is consistent: its JSON loads back the same, a state plays on."""
    data = json.loads(json.dumps(loader.dump(value)))
    assert loader.dump(loader.load(data)) == data
    if loader.is_state:
        assert value.ranking() and len(value.scores()) == value.num_players
        if value.is_chance:
            assert value.chance_outcomes()
        elif not value.is_over:
            assert value.legal_actions()


def load_or_refuse(loader, data):
    try:
        value = loader.load(data)
    except InvalidRecord:
        return
    check_loaded(loader, value)


# --- arbitrary JSON ------------------------------------------------------------------------

KEYS = sorted({key for samples in (STATES, RECORDS, ACTIONS, MATCH_EVENTS) for record in samples for key in record})
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=6), children, max_size=5),
    max_leaves=15,
)


@pytest.mark.parametrize("name", LOADERS)
@fuzz(50)
@given(data=json_values)
def test_any_json_is_a_value_or_an_invalid_record(name, data):
    load_or_refuse(LOADERS[name], data)


# --- valid records, mutated --------------------------------------------------------------


def paths(value, prefix=()):
    """The path of every value inside a JSON value, itself included."""
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, child in items:
        yield from paths(child, (*prefix, key))


def nudged(value):
    """Values near this one: the off-by-one and wrong-type mistakes a record can carry."""
    if isinstance(value, bool):
        return st.sampled_from([not value, int(value), None])
    if isinstance(value, int):
        return st.sampled_from([value - 1, value + 1, -value, value * 100, float(value), str(value), True])
    if isinstance(value, str):
        return st.sampled_from(["", value + "x", value.upper(), 0])
    if isinstance(value, list):
        return st.sampled_from([value[:-1], value + value[-1:], value[::-1], {}]) if value else st.just([0])
    if isinstance(value, dict):
        return st.just(list(value.values()))
    return st.sampled_from([0, False, "", [], {}])


@st.composite
def mutations(draw, record):
    record = copy.deepcopy(record)
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(list(paths(record))))
        if not path:
            return draw(json_values)
        *parent_path, key = path
        parent = record
        for step in parent_path:
            parent = parent[step]
        kind = draw(st.sampled_from(["nudge", "replace", "remove", "add"]))
        if kind == "nudge":
            parent[key] = draw(nudged(parent[key]))
        elif kind == "replace":
            parent[key] = draw(json_values)
        elif kind == "remove":
            del parent[key]
        elif isinstance(parent, dict):
            parent[draw(st.sampled_from(KEYS) | st.text(max_size=6))] = draw(json_values)
        else:
            parent.insert(key, copy.deepcopy(parent[key]))
    return record


@pytest.mark.parametrize("name", LOADERS)
@fuzz(100)
@given(data=st.data())
def test_mutated_records_are_values_or_invalid_records(name, data):
    loader = LOADERS[name]
    load_or_refuse(loader, data.draw(st.sampled_from(loader.samples).flatmap(mutations)))


@pytest.mark.parametrize("name", LOADERS)
def test_the_samples_load(name):
    loader = LOADERS[name]
    for sample in loader.samples:
        check_loaded(loader, loader.load(sample))


@pytest.mark.parametrize(
    "name, data, words",
    [
        ("sheet state", {"held": "ab"}, "held must be a list"),
        ("sheet state", {"rolls_left": 99}, "rolls_left must be 0 to 3"),
        ("sheet state", {"held": [0, 0]}, "more than once"),
        ("sheet state", {"current": True}, "current must be a whole number"),
        ("sheet state", {"dice": [1, 2, 3]}, "no dice or 5"),
        ("sheet state", {"spare": 1}, "unknown spare"),
        ("game record", {"players": "ab"}, "players must be a list"),
        ("game record", {"players": ["Ana"] * 7}, "1 to 6 players"),
        ("game record", {"dice": {"seed": -1}}, "seed must be 0 to"),
        ("game record", {"dice": {"secret": "00"}}, "64 lower-case"),
        ("game record", {"game": "generala"}, "rules of 'penta', not of 'generala'"),
    ],
)
def test_known_holes_are_closed(name, data, words):
    loader = LOADERS[name]
    sample = next(sample for sample in loader.samples if sample["game"] == "penta")
    with pytest.raises(InvalidRecord, match=words):
        loader.load({**sample, **data})


def test_sheet_rules_need_whole_numbers():
    with pytest.raises(InvalidRecord, match="upper_bonus_points must be a whole number, not 'lots'"):
        SheetRules.from_json({**PENTA.to_json(), "upper_bonus_points": "lots"})
