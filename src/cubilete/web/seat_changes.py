"""The changes of a game's seats (web/changes.py): a seat handed to the computer (and left,
`HandToBot`), an open seat joined (`Join`), a friend's invite claimed (`Claim`). They differ only in
their seats (`seats`): each is stored in `prepare`, without the game's lock, only if the stored seats
are still the version it was made from, and announced on the broker so that other processes reload
them."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from ..engine.errors import IllegalAction
from .broker import SEATS_CHANGED
from .catch_up import StaleRequest
from .changes import Change
from .live_game import LiveGame
from .seats import Seat, SeatRefused, SeatTaken, check_invite, check_seat_range, with_seat
from .watchers import tell_seats_stored

if TYPE_CHECKING:
    from .games import Games

STORE_ATTEMPTS = 3  # a seat change made again on the seats another process stored first, at most this often


class SeatChange(Change, ABC):
    """A change of the game's seats, stored before any move it brings."""

    @abstractmethod
    def seats(self, live: LiveGame, seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
        """(Holding the game's lock.) The game's seats after the change, made from `seats`; or a refusal."""

    def prepare(self, games: Games, live: LiveGame) -> None:
        """Store the changed seats and tell the other processes. If another process changed them first,
        the change is made again on theirs (and may then be refused, like a seat claimed twice)."""
        for _attempt in range(STORE_ATTEMPTS):
            with live.lock:
                seats, version = self.seats(live, live.seats), live.seats_version
            if games.storage.change_seats(live.id, version, [seat.to_json() for seat in seats]):
                with live.lock:
                    before = live.seats
                    live.set_seats(seats, version + 1)
                    games.broker.publish(live.id, SEATS_CHANGED)
                    tell_seats_stored(games.watchers, live, before)
                return
            games.catch_up.seats(live)
        raise StaleRequest("stale")


@dataclass(frozen=True)
class HandToBot(SeatChange):
    """A player gives their seat to the computer (`leave`: and leaves the game); the bots then play."""

    seat: int
    token: str
    leave: bool

    async def ready(self, games: Games, live: LiveGame) -> None:
        live.check_seat(self.seat, self.token)  # refused at once, before any wait for the solver's tables
        live.table.check_not_daily("daily_seat_kept")  # the computer would make the rest of its decisions
        await games.tables_for(live)

    def seats(self, live: LiveGame, seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
        live.check_seat(self.seat, self.token)
        if live.state.is_over:
            raise IllegalAction("game_over")
        return with_seat(seats, self.seat, seats[self.seat].to_bot(self.leave, len(live.match.events)))

    def apply(self, live: LiveGame) -> None:
        live.advance_bots()


@dataclass(frozen=True)
class Join(SeatChange):
    """Someone takes an open seat of a public game under their name, with a new `token` (web/seats.py
    `seat_token`: a profile's, if they are signed in, and then the seat is that `profile`'s)."""

    seat: int
    name: str
    token: str
    profile: str | None = None

    async def ready(self, games: Games, live: LiveGame) -> None:
        if not live.table.public:
            raise SeatRefused("game_not_open")

    def seats(self, live: LiveGame, seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
        check_seat_range(seats, self.seat)
        if live.state.is_over:
            raise IllegalAction("game_over")
        if not seats[self.seat].open:
            raise SeatTaken("seat_taken", seat=self.seat, number=self.seat + 1)  # players count seats from 1
        joined = replace(seats[self.seat].claimed_with(self.token), name=self.name, profile=self.profile)
        return with_seat(seats, self.seat, joined)


@dataclass(frozen=True)
class Claim(SeatChange):
    """The holder of a friend's invite code takes the seat, once, with a new `token` that nobody else ever
    gets. A second claim is refused (SeatTaken), in this process or another. A claim for a profile renames
    the seat to the profile's `name`, and the seat says it is that profile's."""

    seat: int
    invite: str
    token: str
    name: str | None = None

    async def ready(self, games: Games, live: LiveGame) -> None:
        check_invite(live.seats, self.seat, self.invite)  # refused at once if this process knows it is taken

    def seats(self, live: LiveGame, seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
        check_invite(seats, self.seat, self.invite)
        claimed = seats[self.seat].claimed_with(self.token)
        return with_seat(seats, self.seat, claimed if self.name is None else replace(claimed, name=self.name, profile=self.name))
