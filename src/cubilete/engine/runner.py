"""Play a game: the runner owns the dice, drives players and keeps a replayable record.

Randomness lives only here. Roll number k of a match is a pure function of the
match's dice seed and k (dice_seeds.py), or with common dice (CommonSeed) of the seed,
the seat and how many dice that seat rolled before, so a record needs only its seed and
events to be replayed, and a match resumed from storage rolls exactly what it would have.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol, TypeVar

from .actions import Action
from .dice import Dice
from .dice_seeds import ChosenSeed, CommonSeed, DiceSeed, LegacySeed, SecretSeed, dice_seed_from_json
from .errors import CubileteError, IllegalAction
from .events import RECORD, ActionEvent, Event, RollEvent, events_from_json
from .games import Rules, new_state, rules_from_json
from .protocol import GameState

RECORD_FORMAT = 2
LEGACY_RECORD_FORMAT = 1  # the seed is an integer for Python's random (LegacySeed)
RECORD_FIELDS = ("format", "game", "rules", "players", "events")


StateT = TypeVar("StateT", contravariant=True)


class Player(Protocol[StateT]):
    """Anything that picks an action for the seat to move: bots, solvers, test scripts.

    A player knows the states of its game (`Player[SheetState]`); code that seats players of
    whichever game it is given holds `Player[Any]`.
    """

    def choose(self, state: StateT) -> Action: ...


class Checkpoint(NamedTuple):
    """Where a match was (`Match.checkpoint`), to go back to with `Match.rewind`."""

    events: int
    state: GameState
    rolls: int
    drawn: tuple[int, ...]


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
        self.events: list[Event] = []
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

    def roll(self, *, by_clock: bool = False) -> GameState:
        """Resolve the pending roll with this match's dice; `by_clock` when a turn clock rolled for the seat."""
        dice, seat = self._next_dice(), self.state.current_player or 0  # a roll has a seat
        self.state = self.state.apply_roll(dice)
        self.drawn[seat] += len(dice)
        self.rolls += 1
        self.events.append(RollEvent(dice, by_clock))
        return self.state

    def _next_dice(self) -> Dice:
        """The dice the pending roll shows: those of this match's seed at this point."""
        if not self.state.is_chance:
            raise IllegalAction("no_roll_pending")
        count, seat = self.state.dice_to_roll, self.state.current_player or 0  # a roll has a seat
        if isinstance(self.dice_seed, CommonSeed):
            return self.dice_seed.dice(self.drawn[seat], count)
        return self.dice_seed.roll(self.rolls, count)

    def act(self, action: Action, seat: int | None = None, *, by_clock: bool = False) -> GameState:
        """Apply a player's action (`by_clock`: the computer's, for a seat whose turn clock ran out);
        on error nothing changes."""
        mover = self.state.current_player
        self.state = self.state.apply(action, seat)
        assert mover is not None  # a state that took an action had a seat to move
        self.events.append(ActionEvent(mover, action, by_clock))
        return self.state

    def follow(self, event: Event) -> GameState:
        """Apply a recorded event: its dice must be the ones this match's seed gives. Any refusal
        is an InvalidRecord, and nothing changes."""
        try:
            if isinstance(event, ActionEvent):
                return self.act(event.action, event.seat, by_clock=event.by_clock)
            dice = self._next_dice()
        except CubileteError as error:
            raise RECORD.refuse(f"event {len(self.events)}: {error}") from None
        if dice != event.dice:
            raise RECORD.refuse(f"roll {self.rolls + 1} does not match the record's seed")
        return self.roll(by_clock=event.by_clock)

    def advance(
        self, players: Sequence[Player[Any] | None], max_steps: int | None = None, *, by_clock: bool = False
    ) -> GameState:
        """Roll and let bots act until a human seat (None) is to act or roll, or the game ends.

        Humans roll through `roll`, so that apps can show a roll button. `by_clock`: the players
        play for seats whose turn clock ran out, and each step is marked so.
        """
        steps = 0
        while not self.state.is_over and (max_steps is None or steps < max_steps):
            seat = self.state.current_player
            player = None if seat is None else players[seat]
            if player is None:
                break
            if self.state.is_chance:
                self.roll(by_clock=by_clock)
            else:
                self.act(player.choose(self.state), by_clock=by_clock)
            steps += 1
        return self.state

    def checkpoint(self) -> Checkpoint:
        """Where the match is now, to go back to with `rewind`."""
        return Checkpoint(len(self.events), self.state, self.rolls, tuple(self.drawn))

    def rewind(self, checkpoint: Checkpoint) -> None:
        """Put the match back as it was at `checkpoint` (a refused move, a failed save): its state, its
        events and its dice (the next roll is the one it would have made then)."""
        del self.events[checkpoint.events :]
        self.state, self.rolls, self.drawn = checkpoint.state, checkpoint.rolls, list(checkpoint.drawn)

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
            "events": [event.to_json() for event in self.events],
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
        for event in events_from_json(data["events"]):
            match.follow(event)
        return match


def play(rules: Rules, players: Sequence[Player[Any]], seed: int | DiceSeed | None = None) -> Match:
    """Play a whole game between bots and return the finished match."""
    match = Match(rules, [f"player {seat + 1}" for seat in range(len(players))], seed)
    match.advance(players)
    return match
