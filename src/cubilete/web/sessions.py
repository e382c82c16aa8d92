"""Games being played: seats and their tokens, the runner's match, bots, and saving.

Every game is a `Match` (the engine's runner owns the dice). Human seats act through
`act` with their secret token; bot seats are played by `make_player` when they are to
move. After every change the match record is saved, so a new process resumes exactly.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..engine.actions import Action, Keep, Roll, Score, action_from_json
from ..engine.errors import CubileteError, IllegalAction, InvalidRecord, NotYourTurn
from ..engine.games import rules_for
from ..engine.protocol import GameState
from ..engine.runner import Match, Player
from ..players import make_player, player_levels
from .families import web_family
from .storage import Storage, StoredGame
from .warmup import TableWarmer

HUMAN, BOT = "human", "bot"
AUTO_SCORE = "auto"  # the intention sent when the countdown after the last roll runs out


class GameNotFound(CubileteError):
    """No game has this id."""


class SeatRefused(CubileteError):
    """The request may not act for this seat (wrong token, or a bot's seat)."""


class StaleRequest(CubileteError):
    """The request was made for an earlier moment of the game."""


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str
    level: str | None = None
    token_sha256: str | None = None  # human seats only; the token itself is never stored

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "level": self.level, "token_sha256": self.token_sha256}


@dataclass(frozen=True)
class TableOptions:
    """How the table was set up on the new-game form (the turn clock is stored, not yet run)."""

    turn_clock: int = 0  # seconds per turn, 0 for none
    public: bool = False  # may be listed for anyone on the server to join

    def to_json(self) -> dict[str, Any]:
        return {"turn_clock": self.turn_clock, "public": self.public}


@dataclass(frozen=True)
class SeatRequest:
    """A seat as asked for when creating a game."""

    name: str
    kind: str
    level: str | None = None


def _is_auto_score(intention: Any) -> bool:
    return isinstance(intention, dict) and intention.get("type") == AUTO_SCORE


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _replay(match: Match) -> list[GameState]:
    """The state before the first event and after each event of the match."""
    states = [match.initial]
    for event in match.events:
        state = states[-1]
        if "roll" in event:
            states.append(state.apply_roll(event["roll"]))
        else:
            states.append(state.apply(action_from_json(event["action"]), event["seat"]))
    return states


@dataclass
class LiveGame:
    """A game in memory: its match, seats, and the state after each event (for animations)."""

    id: str
    lang: str
    seats: tuple[Seat, ...]
    match: Match
    rematch: str | None = None
    table: TableOptions = TableOptions()
    history: list[GameState] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    players: tuple[Player | None, ...] = ()

    def __post_init__(self) -> None:
        if not self.history:
            self.history = _replay(self.match)
        self.players = tuple(
            make_player(seat.level, self.match.rules) if seat.kind == BOT else None for seat in self.seats
        )

    @property
    def state(self) -> GameState:
        return self.match.state

    @property
    def has_bots(self) -> bool:
        return any(seat.kind == BOT for seat in self.seats)

    @property
    def bot_to_move(self) -> bool:
        state = self.state
        return not state.is_over and self.seats[state.current_player].kind == BOT

    def record(self) -> dict[str, Any]:
        """What is stored: the runner's record and the table's options."""
        return {**self.match.to_json(), "table": self.table.to_json()}

    def mover(self, index: int) -> int | None:
        """The seat that made event `index` (the seat to move before it)."""
        return self.history[index].current_player

    def check_seat_to_move(self, seat: int, token: str) -> None:
        self.check_seat(seat, token)
        state = self.state
        if not state.is_over and seat != state.current_player:
            raise NotYourTurn("not_your_turn", seat=state.current_player, name=self.seats[state.current_player].name)

    def check_seat(self, seat: int, token: str) -> None:
        if not 0 <= seat < len(self.seats):
            raise SeatRefused("seat_range", last=len(self.seats) - 1, seat=seat)
        expected = self.seats[seat].token_sha256
        if expected is None:
            raise SeatRefused("bot_seat", seat=seat, name=self.seats[seat].name)
        if not hmac.compare_digest(expected, _digest(token)):
            raise SeatRefused("wrong_token", seat=seat, name=self.seats[seat].name)

    def play(self, seat: int, intention: Any) -> None:
        """A human seat's intention: an engine action, or the auto-score after the last roll.

        Keep (sheet games) and Roll (5000) are requests to roll: the dice are rolled at once.
        Roll also resolves the roll that starts a turn. Errors leave the game unchanged.
        """
        state = self.state
        if state.is_over:
            raise IllegalAction("game_over")
        if seat != state.current_player:
            raise NotYourTurn("not_your_turn", seat=state.current_player, name=self.seats[state.current_player].name)
        action = self._action(intention, state)
        if isinstance(action, Roll) and state.is_chance:
            self._step(self.match.roll)
            return
        self._step(lambda: self.match.act(action, seat))
        if isinstance(action, (Keep, Roll)) and self.state.is_chance:
            self._step(self.match.roll)

    def _action(self, intention: Any, state: GameState) -> Action:
        if _is_auto_score(intention):
            legal = state.legal_actions()
            if not legal or not all(isinstance(action, Score) for action in legal):
                raise IllegalAction("auto_score_last_roll")
            return make_player("optimal", self.match.rules).choose(state)
        return action_from_json(intention)

    def advance_bots(self) -> None:
        """Let the bots play, one step at a time so that each state is kept, until a human is to move."""
        while self.bot_to_move:
            self._step(lambda: self.match.advance(self.players, max_steps=1))

    def _step(self, operation: Callable[[], object]) -> None:
        """Run one match operation (each adds exactly one event) and keep the state it leads to."""
        operation()
        self.history.append(self.state)


class Games:
    """The games of one server: created, loaded from storage on first use, saved after changes."""

    def __init__(self, storage: Storage, warmer: TableWarmer) -> None:
        self.storage = storage
        self.warmer = warmer
        self._live: dict[str, LiveGame] = {}
        self._lock = threading.Lock()

    def create(
        self,
        game: str,
        rules_name: str | None,
        seats: Sequence[SeatRequest],
        seed: int | None,
        lang: str,
        table: TableOptions = TableOptions(),
    ) -> tuple[LiveGame, list[str | None]]:
        """A new game and each seat's token (None for bots); nothing is stored on error."""
        rules = rules_for(game, rules_name)
        levels = player_levels(game)
        for request in seats:
            if request.kind == BOT and request.level not in levels:
                raise InvalidRecord("bot_level", game=game, levels=list(levels), level=str(request.level))
        tokens = [secrets.token_urlsafe(18) if request.kind == HUMAN else None for request in seats]
        stored_seats = tuple(
            Seat(request.name, request.kind, request.level if request.kind == BOT else None,
                 None if token is None else _digest(token))
            for request, token in zip(seats, tokens)
        )
        match = Match(rules, [seat.name for seat in stored_seats], seed)
        live = self._remember(LiveGame(secrets.token_urlsafe(9), lang, stored_seats, match, table=table))
        self.storage.insert(live.id, lang, [seat.to_json() for seat in stored_seats], live.record())
        return live, tokens

    def get(self, game_id: str) -> LiveGame:
        with self._lock:
            live = self._live.get(game_id)
        if live is not None:
            return live
        stored = self.storage.load(game_id)
        if stored is None:
            raise GameNotFound("game_not_found", id=game_id)
        return self._remember(_from_storage(stored))

    def act(self, game_id: str, seat: int, token: str, intention: Any, at: int | None) -> LiveGame:
        live = self.get(game_id)
        if live.has_bots or _is_auto_score(intention):
            self.warmer.wait(live.match.rules)
        with live.lock:
            live.check_seat(seat, token)
            if at is not None and at != len(live.match.events):
                raise StaleRequest("stale_request", events=len(live.match.events), at=at)
            live.play(seat, intention)
            live.advance_bots()
            self._save(live)
        return live

    def advance_bots(self, game_id: str, seat: int, token: str) -> LiveGame:
        """Only a human seat of the game may set its bots going (a game of bots alone has none)."""
        live = self.get(game_id)
        if any(s.kind == HUMAN for s in live.seats):
            live.check_seat(seat, token)
        self.warmer.wait(live.match.rules)
        with live.lock:
            if live.bot_to_move:
                live.advance_bots()
                self._save(live)
        return live

    def rematch(self, game_id: str, seat: int | None, token: str | None) -> LiveGame:
        """The next game with the same seats and tokens; asking twice gives the same game."""
        live = self.get(game_id)
        with live.lock:
            if any(s.kind == HUMAN for s in live.seats):
                live.check_seat(seat if seat is not None else -1, token or "")
            if not live.state.is_over:
                raise IllegalAction("rematch_not_over")
            if live.rematch is None:
                match = Match(live.match.rules, live.match.names)
                new = self._remember(LiveGame(secrets.token_urlsafe(9), live.lang, live.seats, match, table=live.table))
                self.storage.insert(new.id, new.lang, [s.to_json() for s in new.seats], new.record())
                self.storage.set_rematch(live.id, new.id)
                live.rematch = new.id
        return self.get(live.rematch)

    def hint(self, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """The solver's best options for the dice on the table (the family's hint view), for the seat to move."""
        live = self.get(game_id)
        live.check_seat_to_move(seat, token)
        state = live.state
        hint = web_family(state.game).hint
        if hint is None:
            raise IllegalAction("hints_sheet_only")
        if state.is_over or state.is_chance:
            raise IllegalAction("hint_roll_first")
        self.warmer.wait(live.match.rules)
        return hint(state)

    def _save(self, live: LiveGame) -> None:
        self.storage.save_record(live.id, live.record(), live.state.is_over)

    def _remember(self, live: LiveGame) -> LiveGame:
        if live.has_bots or web_family(live.match.rules.game).hint is not None:  # bots, hints, auto-scores
            self.warmer.start(live.match.rules)
        with self._lock:
            return self._live.setdefault(live.id, live)


def _from_storage(stored: StoredGame) -> LiveGame:
    seats = tuple(Seat(**seat) for seat in stored.seats)
    table = TableOptions(**stored.record.get("table", {}))
    return LiveGame(stored.id, stored.lang, seats, Match.from_json(stored.record), stored.rematch, table)
