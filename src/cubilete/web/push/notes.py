"""Which seats are told what after a change of a game (read holding the game's lock, so cheap: no
database, no network): the seat given the turn, the seats whose turn the clock played, every seat
at the game's end, the other players when a friend takes an invite, the seat to move whose
correspondence allowance is a quarter left."""

from __future__ import annotations

from dataclasses import dataclass

from ..live_game import LiveGame
from ..seats import HUMAN, Seat
from .messages import CLOCK_PLAYED, GAME_OVER, INVITE_TAKEN, REMINDER, YOUR_TURN, Note


@dataclass(frozen=True)
class Tell:
    """A note for one seat's readers. `unless_visible`: not while a page of the seat is open and visible;
    `once_turn`: once per turn (the events at its start) across processes."""

    note: Note
    seat: int
    urgent: bool = False
    unless_visible: bool = False
    once_turn: int | None = None


def after_events(live: LiveGame, first: int) -> list[Tell]:
    """(Holding the game's lock.) What to tell once the events from `first` on are stored."""
    game_id, game, seats, state = live.id, live.match.rules.game, live.seats, live.state
    if sum(_held(seat) for seat in seats) < 2:  # one player and bots: nobody keeps them waiting
        return []
    tells = []
    events = live.match.events
    clocked = sorted(
        {
            seat
            for index in range(first, len(events))
            if events[index].by_clock and (seat := live.mover(index)) is not None
        }
    )
    tells += [Tell(Note(CLOCK_PLAYED, game_id, game, seats[seat].name), seat, urgent=True) for seat in clocked]
    if state.is_over:
        ranking = state.ranking()
        winners = tuple(seat.name for seat, place in zip(seats, ranking) if place == 1)
        tells += [Tell(Note(GAME_OVER, game_id, game, seat.name, winners), index) for index, seat in enumerate(seats)]
        return tells
    to_move = state.current_player
    if to_move is not None and _held(seats[to_move]) and live.turn_start() - 1 >= first:
        tells.append(
            Tell(Note(YOUR_TURN, game_id, game, seats[to_move].name), to_move, urgent=True, unless_visible=True)
        )
    return tells


def after_seats(live: LiveGame, before: tuple[Seat, ...]) -> list[Tell]:
    """(Holding the game's lock.) A friend took an invite (or an open seat): tell the other players."""
    game_id, game, seats = live.id, live.match.rules.game, live.seats
    taken = [index for index, (was, now) in enumerate(zip(before, seats)) if was.unclaimed and _held(now)]
    return [
        Tell(Note(INVITE_TAKEN, game_id, game, seat.name, (seats[friend].name,)), index)
        for friend in taken
        for index, seat in enumerate(seats)
        if index != friend and _held(seat)
    ]


def quarter_left(live: LiveGame) -> list[Tell]:
    """The seat to move's correspondence allowance is a quarter left: remind it, once this turn."""
    state, seats = live.state, live.seats
    to_move = None if state.is_over else state.current_player
    if to_move is None or not _held(seats[to_move]):
        return []
    note = Note(REMINDER, live.id, live.match.rules.game, seats[to_move].name)
    return [Tell(note, to_move, urgent=True, once_turn=live.turn_start())]


def _held(seat: Seat) -> bool:
    """A human seat someone holds (its token was given): only seat holders subscribe."""
    return seat.kind == HUMAN and seat.token_sha256 is not None
