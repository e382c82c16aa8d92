"""The changes of a game's seats: a seat handed to the computer (and left), an open seat joined, a
friend's invite claimed. Each takes the game service's one change path (`Games.change`); the seats are
stored (`change_seats`) before the change is made in memory, without the game's lock, only if they are
still the version the change was made from, and announced on the broker so that other processes reload
them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from ..engine.errors import IllegalAction
from .broker import SEATS_CHANGED
from .catch_up import StaleRequest
from .games import Games, no_check, no_events
from .live_game import LiveGame
from .seats import Seat, SeatHolder, SeatRefused, SeatTaken, check_invite, check_seat_range, seat_token, with_seat
from .watchers import tell_seats_stored


async def hand_to_bot(games: Games, game_id: str, seat: int, token: str, leave: bool) -> LiveGame:
    """A player gives their seat to the computer (`leave`: and leaves the game); the bots then play."""
    live = await games.find(game_id)
    live.check_seat(seat, token)  # refused at once, before any wait for the solver's tables
    await games.tables_for(live)

    def to_bot(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
        live.check_seat(seat, token)
        if live.state.is_over:
            raise IllegalAction("game_over")
        return with_seat(seats, seat, seats[seat].to_bot(leave, len(live.match.events)))

    to_bot_then_store = partial(change_seats, games, live, to_bot)
    await games.change(live, live.advance_bots, no_check, in_thread=True, prepare=to_bot_then_store)
    return live


async def join(games: Games, game_id: str, seat: int, name: str, holder: SeatHolder | None = None) -> tuple[LiveGame, str]:
    """Someone (`holder`: a profile) takes an open seat of a public game under their name; answers its new token."""
    live = await games.find(game_id)
    token = seat_token(holder, game_id, seat)
    if not live.table.public:
        raise SeatRefused("game_not_open")

    def joined(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
        check_seat_range(seats, seat)
        if live.state.is_over:
            raise IllegalAction("game_over")
        if not seats[seat].open:
            raise SeatTaken("seat_taken", seat=seat, number=seat + 1)  # players count seats from 1
        return with_seat(seats, seat, replace(seats[seat].claimed_with(token), name=name))

    await games.change(live, no_events, no_check, in_thread=True, prepare=partial(change_seats, games, live, joined))
    return live, token


async def claim(
    games: Games, game_id: str, seat: int, invite: str, holder: SeatHolder | None = None
) -> tuple[LiveGame, str]:
    """The holder of a friend's invite code (`holder`: a profile) takes the seat, once: answers the seat's
    token, which nobody else ever gets. A second claim is refused (SeatTaken), in this process or another."""
    live = await games.find(game_id)
    check_invite(live.seats, seat, invite)  # refused at once if this process knows it is taken
    token = seat_token(holder, game_id, seat)

    def claimed(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
        check_invite(seats, seat, invite)
        return with_seat(seats, seat, seats[seat].claimed_with(token))

    await games.change(live, no_events, no_check, in_thread=True, prepare=partial(change_seats, games, live, claimed))
    return live, token


def change_seats(games: Games, live: LiveGame, change: Callable[[tuple[Seat, ...]], tuple[Seat, ...]]) -> None:
    """(Without the game's lock.) Store `change(seats)` as the game's seats and tell the other
    processes. If another process changed them first, the change is made again on theirs
    (and may then be refused, like a seat claimed twice)."""
    for _attempt in range(3):
        with live.lock:
            seats, version = change(live.seats), live.seats_version
        if games.storage.change_seats(live.id, version, [seat.to_json() for seat in seats]):
            with live.lock:
                before = live.seats
                live.set_seats(seats, version + 1)
                games.broker.publish(live.id, SEATS_CHANGED)
                tell_seats_stored(games.watchers, live, before)
            return
        games.catch_up.seats(live)
    raise StaleRequest("stale")
