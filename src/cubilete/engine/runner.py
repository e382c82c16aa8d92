"""Play a game: the runner owns the dice, drives players and keeps a replayable record.

Randomness lives only here. Roll number k of a match is drawn from a generator
seeded with (match seed, k), so a record needs only its seed and events to be
replayed, and a match resumed from storage rolls exactly what it would have.
"""

from __future__ import annotations

import random
import secrets
from typing import Any, Protocol, Sequence

from .actions import Action, action_from_json, action_to_json
from .dice import Dice, FACES
from .errors import IllegalAction, InvalidRecord
from .games import Rules, new_state, rules_from_json
from .protocol import GameState

RECORD_FORMAT = 1
# Marks an app may add to an event without changing the game; a record keeps them through a replay.
# "clock": the computer played this step for the seat because its turn clock ran out.
EVENT_MARKS = ("clock",)


class Player(Protocol):
    """Anything that picks an action for the seat to move: bots, solvers, test scripts."""

    def choose(self, state: GameState) -> Action: ...


def roll_dice(seed: int, roll_number: int, count: int) -> Dice:
    """The dice of roll `roll_number` in the match with this seed."""
    generator = random.Random(f"cubilete/{seed}/{roll_number}")
    return tuple(generator.choice(FACES) for _ in range(count))


class Match:
    """A game in progress: its state, its seed, and every event so far."""

    def __init__(self, rules: Rules, names: Sequence[str], seed: int | None = None) -> None:
        self.rules = rules
        self.names = tuple(names)
        self.seed = secrets.randbits(63) if seed is None else seed
        self.initial = new_state(rules, len(self.names))
        self.state: GameState = self.initial
        self.events: list[dict[str, Any]] = []
        self.rolls = 0

    def roll(self) -> GameState:
        """Resolve the pending roll with this match's dice."""
        if not self.state.is_chance:
            raise IllegalAction("no_roll_pending")
        dice = roll_dice(self.seed, self.rolls, self.state.dice_to_roll)
        self.state = self.state.apply_roll(dice)
        self.rolls += 1
        self.events.append({"roll": list(dice)})
        return self.state

    def act(self, action: Action, seat: int | None = None) -> GameState:
        """Apply a player's action; on error nothing changes."""
        mover = self.state.current_player
        self.state = self.state.apply(action, seat)
        self.events.append({"seat": mover, "action": action_to_json(action)})
        return self.state

    def advance(self, players: Sequence[Player | None], max_steps: int | None = None) -> GameState:
        """Roll and let bots act until a human seat (None) is to act or roll, or the game ends.

        Humans roll through `roll`, so that apps can show a roll button.
        """
        steps = 0
        while not self.state.is_over and (max_steps is None or steps < max_steps):
            player = players[self.state.current_player]
            if player is None:
                break
            if self.state.is_chance:
                self.roll()
            else:
                self.act(player.choose(self.state))
            steps += 1
        return self.state

    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.state.game,
            "rules": self.rules.to_json(),
            "players": list(self.names),
            "seed": self.seed,
            "events": list(self.events),
        }

    @classmethod
    def from_json(cls, data: Any) -> "Match":
        """Replay a record event by event; a record that breaks a rule is rejected."""
        if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
            raise InvalidRecord("invalid_record", what="game record", detail=f"its format is {RECORD_FORMAT}")
        try:
            match = cls(rules_from_json(data["game"], data["rules"]), data["players"], data["seed"])
            for event in data["events"]:
                if "roll" in event:
                    match.roll()
                    if match.events[-1]["roll"] != event["roll"]:
                        raise InvalidRecord(
                            "invalid_record", what="game record", detail=f"roll {match.rolls} does not match the record's seed"
                        )
                else:
                    match.act(action_from_json(event["action"]), event["seat"])
                keep_marks(event, match.events[-1])
        except (KeyError, TypeError) as error:
            raise InvalidRecord("invalid_record", what="game record", detail=f"missing or bad {error}") from None
        return match


def keep_marks(source: dict[str, Any], replayed: dict[str, Any]) -> None:
    """Copy the marks (EVENT_MARKS) of an event onto its replay."""
    for mark in EVENT_MARKS:
        if source.get(mark) is True:
            replayed[mark] = True


def play(rules: Rules, players: Sequence[Player], seed: int | None = None) -> Match:
    """Play a whole game between bots and return the finished match."""
    match = Match(rules, [f"player {seat + 1}" for seat in range(len(players))], seed)
    match.advance(players)
    return match
