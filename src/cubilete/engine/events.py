"""What happened in a game, step by step: typed events, their stored JSON, and the one replay.

A match (runner.py) records one event per step: a roll with its dice, or an action with the seat
that took it. `by_clock` marks a step the computer played for the seat because its turn clock ran
out (the web app's clocks); it changes nothing in the game, only who decided. The JSON is the
stored form of games and records, unchanged since the first record: `{"roll": [3, 1, 6, 6, 2]}`
and `{"seat": 0, "action": {"type": "score", "box": "chance"}}`, with `"clock": true` added only
when set. `replay` is how every layer turns events back into states.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from .actions import Action, action_from_json, action_to_json
from .dice import Dice
from .errors import CubileteError
from .protocol import GameState
from .validation import Record

EVENT = Record("event")
RECORD = Record("game record")
CLOCK = "clock"  # the JSON key of `by_clock`


@dataclass(frozen=True, slots=True)
class RollEvent:
    """The pending roll showed these dice, in the order rolled."""

    dice: Dice
    by_clock: bool = False

    def to_json(self) -> dict[str, Any]:
        return _marked({"roll": list(self.dice)}, self.by_clock)


@dataclass(frozen=True, slots=True)
class ActionEvent:
    """The seat to move took this action."""

    seat: int
    action: Action
    by_clock: bool = False

    def to_json(self) -> dict[str, Any]:
        return _marked({"seat": self.seat, "action": action_to_json(self.action)}, self.by_clock)


Event = RollEvent | ActionEvent


def _marked(data: dict[str, Any], by_clock: bool) -> dict[str, Any]:
    if by_clock:
        data[CLOCK] = True
    return data


def event_from_json(data: Any) -> Event:
    """An event as `to_json` writes it; anything else is an InvalidRecord."""
    is_roll = "roll" in EVENT.fields(data, (), ("roll", "seat", "action", CLOCK))
    EVENT.fields(data, ("roll",) if is_roll else ("seat", "action"), (CLOCK,))
    by_clock = CLOCK in data and EVENT.boolean(data[CLOCK], CLOCK)
    if is_roll:
        return RollEvent(EVENT.dice(data["roll"], "the dice"), by_clock)
    return ActionEvent(EVENT.integer(data["seat"], "seat", 0), action_from_json(data["action"]), by_clock)


def events_from_json(data: Any) -> list[Event]:
    """A record's list of events; a refusal names the event it is about."""
    events = []
    for number, item in enumerate(RECORD.array(data, "events")):
        try:
            events.append(event_from_json(item))
        except CubileteError as error:
            raise RECORD.refuse(f"event {number}: {error}") from None
    return events


def state_after(state: GameState, event: Event) -> GameState:
    """The state after one event; a refusal of the state's (the seat not to move...) if it cannot follow."""
    if isinstance(event, RollEvent):
        return state.apply_roll(event.dice)
    return state.apply(event.action, event.seat)


def replay(initial: GameState, events: Iterable[Event]) -> Iterator[GameState]:
    """The state after each event in turn, from `initial`: what a record or a stored game went through."""
    state = initial
    for event in events:
        state = state_after(state, event)
        yield state
