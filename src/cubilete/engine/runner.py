"""Play a game: the runner owns the dice, drives players and keeps a replayable record.

Randomness lives only here. Roll number k of a match is a pure function of the
match's dice seed and k (dice_seeds.py), or with common dice (CommonSeed) of the seed,
the seat and how many dice that seat rolled before, so a record needs only its seed and
events to be replayed, and a match resumed from storage rolls exactly what it would have.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from .actions import Action, action_from_json, action_to_json
from .dice_seeds import ChosenSeed, CommonSeed, DiceSeed, LegacySeed, SecretSeed, dice_seed_from_json
from .errors import CubileteError, IllegalAction
from .games import Rules, new_state, rules_from_json
from .protocol import GameState
from .validation import Record

RECORD_FORMAT = 2
LEGACY_RECORD_FORMAT = 1  # the seed is an integer for Python's random (LegacySeed)
RECORD = Record("game record")
RECORD_FIELDS = ("format", "game", "rules", "players", "events")
# Marks an app may add to an event without changing the game; a record keeps them through a replay.
# "clock": the computer played this step for the seat because its turn clock ran out.
EVENT_MARKS = ("clock",)


StateT = TypeVar("StateT", contravariant=True)


class Player(Protocol[StateT]):
    """Anything that picks an action for the seat to move: bots, solvers, test scripts.

    A player knows the states of its game (`Player[SheetState]`); code that seats players of
    whichever game it is given holds `Player[Any]`.
    """

    def choose(self, state: StateT) -> Action: ...


class Match:
    """A game in progress: its state, its dice seed, and every event so far.

    `seed` is an integer a client chose (its dice replay, and anyone who knows it knows
    them), a dice seed read from a record, or None for a fresh secret nobody can predict.
    """

    def __init__(self, rules: Rules, names: Sequence[str], seed: int | DiceSeed | None = None) -> None:
        self.rules = rules
        self.names = tuple(names)
        self.dice_seed: DiceSeed = (
            SecretSeed() if seed is None else ChosenSeed(seed) if isinstance(seed, int) else seed
        )
        self.initial = new_state(rules, len(self.names))
        self.state: GameState = self.initial
        self.events: list[dict[str, Any]] = []
        self.rolls = 0
        self.drawn = [0] * len(self.names)  # dice each seat has rolled (what common dice follow)

    @property
    def seed_chosen_by_client(self) -> bool:
        """True when whoever chose the seed can predict the dice (replays); False for a secret."""
        return self.dice_seed.chosen_by_client

    @property
    def seed(self) -> int | None:
        """The integer seed a client chose, to replay the game; None when the dice are secret."""
        return None if isinstance(self.dice_seed, SecretSeed) else self.dice_seed.seed

    def roll(self) -> GameState:
        """Resolve the pending roll with this match's dice."""
        if not self.state.is_chance:
            raise IllegalAction("no_roll_pending")
        count, seat = self.state.dice_to_roll, self.state.current_player or 0  # a roll has a seat
        if isinstance(self.dice_seed, CommonSeed):
            dice = self.dice_seed.dice(self.drawn[seat], count)
        else:
            dice = self.dice_seed.roll(self.rolls, count)
        self.drawn[seat] += count
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

    def advance(self, players: Sequence[Player[Any] | None], max_steps: int | None = None) -> GameState:
        """Roll and let bots act until a human seat (None) is to act or roll, or the game ends.

        Humans roll through `roll`, so that apps can show a roll button.
        """
        steps = 0
        while not self.state.is_over and (max_steps is None or steps < max_steps):
            seat = self.state.current_player
            player = None if seat is None else players[seat]
            if player is None:
                break
            if self.state.is_chance:
                self.roll()
            else:
                self.act(player.choose(self.state))
            steps += 1
        return self.state

    def to_json(self) -> dict[str, Any]:
        """The record to store server-side: it holds a secret seed, so never send it to a client."""
        seed_field: dict[str, Any]
        if isinstance(self.dice_seed, LegacySeed):
            version, seed_field = LEGACY_RECORD_FORMAT, {"seed": self.dice_seed.seed}
        else:
            version, seed_field = RECORD_FORMAT, {"dice": self.dice_seed.to_json()}
        return {
            "format": version,
            "game": self.state.game,
            "rules": self.rules.to_json(),
            "players": list(self.names),
            **seed_field,
            "events": list(self.events),
        }

    @classmethod
    def from_json(cls, data: Any) -> Match:
        """Replay a record event by event; a record that breaks a rule is an InvalidRecord."""
        data = RECORD.fields(data, RECORD_FIELDS, ("seed", "dice"))
        version = RECORD.integer(data["format"], "format", LEGACY_RECORD_FORMAT, RECORD_FORMAT)
        if version == LEGACY_RECORD_FORMAT:
            dice_seed: DiceSeed = LegacySeed(RECORD.fields(data, (*RECORD_FIELDS, "seed"))["seed"])
        else:
            dice_seed = dice_seed_from_json(RECORD.fields(data, (*RECORD_FIELDS, "dice"))["dice"])
        rules = rules_from_json(data["game"], data["rules"])
        names = [RECORD.text(name, "a player's name") for name in RECORD.array(data["players"], "players")]
        if not rules.min_players <= len(names) <= rules.max_players:
            allowed = f"{rules.min_players} to {rules.max_players}"
            raise RECORD.refuse(f"{rules.game} is played by {allowed} players, not {len(names)}")
        match = cls(rules, names, dice_seed)
        for number, event in enumerate(RECORD.array(data["events"], "events")):
            match._replay(number, event)
        return match

    def _replay(self, number: int, event: Any) -> None:
        """Apply one recorded event; any refusal makes the record invalid."""
        is_roll = "roll" in RECORD.fields(event, (), ("roll", "seat", "action", *EVENT_MARKS))
        event = RECORD.fields(event, ("roll",) if is_roll else ("seat", "action"), EVENT_MARKS)
        for mark in EVENT_MARKS:
            if mark in event:
                RECORD.boolean(event[mark], mark)
        try:
            if is_roll:
                recorded = list(RECORD.dice(event["roll"], "the dice"))
                self.roll()
            else:
                self.act(action_from_json(event["action"]), RECORD.integer(event["seat"], "seat"))
        except CubileteError as error:
            raise RECORD.refuse(f"event {number}: {error}") from None
        if is_roll and self.events[-1]["roll"] != recorded:
            raise RECORD.refuse(f"roll {self.rolls} does not match the record's seed")
        keep_marks(event, self.events[-1])


def keep_marks(source: dict[str, Any], replayed: dict[str, Any]) -> None:
    """Copy the marks (EVENT_MARKS) of an event onto its replay."""
    for mark in EVENT_MARKS:
        if source.get(mark) is True:
            replayed[mark] = True


def play(rules: Rules, players: Sequence[Player[Any]], seed: int | DiceSeed | None = None) -> Match:
    """Play a whole game between bots and return the finished match."""
    match = Match(rules, [f"player {seat + 1}" for seat in range(len(players))], seed)
    match.advance(players)
    return match
