"""The seats of a game: who sits where (a human, a bot, a seat open to anyone), and the secret tokens
that let a request act for a human seat. A token is given once, when the seat is made, claimed or
joined; only its SHA-256 digest is stored, and requests are checked against it in constant time.

A friend's seat is made without a token: its creator gets an invite code (a separate secret, also
stored as a digest) for the friend's link, and whoever claims the seat with it first gets the seat's
token, which the creator never sees. The claim is a seat change, stored only if the seats are still
the version it was made from, so of two claims (in any processes) one gets the seat."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..engine.errors import CubileteError
from ..engine.validation import Record, describe
from ..players.table import ADVICE_LEVEL

HUMAN, BOT = "human", "bot"
STORED_SEAT = Record("stored seat")


class SeatRefused(CubileteError):
    """The request may not act for this seat (wrong token, or a bot's seat)."""


class SeatTaken(CubileteError):
    """Someone else claimed the open seat first."""


@dataclass(frozen=True)
class Seat:
    name: str
    kind: str
    level: str | None = None
    token_sha256: str | None = None  # human seats only; the token itself is never stored
    open: bool = False  # a public game's friend seat nobody has claimed yet: anyone may join it
    left: bool = False  # the player left: a bot plays the seat
    invite_sha256: str | None = None  # a friend's seat: the digest of its invite code, kept once claimed
    computer_from: int | None = None  # a player's seat handed to the computer: the events played before
    # the name of the profile the seat belongs to (taken signed in, or reserved for it), as it was then: the
    # table links the seat to the profile's page without asking the database at every view
    profile: str | None = None

    def to_json(self) -> dict[str, Any]:
        stored = {
            "name": self.name, "kind": self.kind, "level": self.level, "token_sha256": self.token_sha256,
            "open": self.open, "left": self.left, "invite_sha256": self.invite_sha256,
            "computer_from": self.computer_from,
        }
        # only where there is one: a game without profiles stays readable by 0.4.0 (a rollback)
        return stored if self.profile is None else stored | {"profile": self.profile}

    @classmethod
    def from_json(cls, data: Any) -> Seat:
        """A seat as `to_json` stored it (seats stored before `open`, `left`, `computer_from` and `profile`
        lack them); anything else is an InvalidRecord."""
        fields = STORED_SEAT.fields(
            data, ("name", "kind"), ("level", "token_sha256", "open", "left", "invite_sha256", "computer_from", "profile")
        )
        if fields["kind"] not in (HUMAN, BOT):
            raise STORED_SEAT.refuse(f"a seat is {HUMAN} or {BOT}, not {describe(fields['kind'])}")
        level, token, invite, profile = (
            None if fields.get(name) is None else STORED_SEAT.text(fields[name], name)
            for name in ("level", "token_sha256", "invite_sha256", "profile")
        )
        handed = fields.get("computer_from")
        return cls(
            STORED_SEAT.text(fields["name"], "name"), fields["kind"], level, token,
            STORED_SEAT.boolean(fields.get("open", False), "open"), STORED_SEAT.boolean(fields.get("left", False), "left"), invite,
            None if handed is None else STORED_SEAT.integer(handed, "computer_from", 0), profile,
        )

    @property
    def unclaimed(self) -> bool:
        """A human seat nobody holds yet (a friend's seat before its invite is claimed, or an open seat)."""
        return self.kind == HUMAN and self.token_sha256 is None

    def claimed_with(self, token: str) -> Seat:
        """The seat held from now on by the holder of `token` (it is no longer open to others)."""
        return replace(self, token_sha256=digest_token(token), open=False)

    def to_bot(self, left: bool, events: int) -> Seat:
        """The seat played by the computer from now on (after `events` events); its token no longer acts."""
        return replace(self, kind=BOT, level=ADVICE_LEVEL, token_sha256=None, open=False, left=left, computer_from=events)

    def in_rematch(self) -> Seat:
        """The seat in the next game: one handed to the computer is the computer's from its start."""
        return self if self.computer_from is None else replace(self, computer_from=0)


@dataclass(frozen=True)
class SeatHolder:
    """The profile a seat belongs to from the moment it is taken (web/profiles.py): the seat's token is
    derived from the profile's seat key, so that every device signed in to the profile can be given it;
    the seat takes the profile's name, which everyone then reads."""

    profile_id: str
    name: str
    seat_key: bytes
    here: bool = True  # played on the requesting device; False: reserved for a friend's profile

    def token(self, game_id: str, seat: int) -> str:
        mac = hmac.new(self.seat_key, f"{game_id}/{seat}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).rstrip(b"=").decode()


def seat_token(holder: SeatHolder | None, game_id: str, seat: int) -> str:
    """A new seat's token: a profile's derived one, else a random one."""
    return secrets.token_urlsafe(18) if holder is None else holder.token(game_id, seat)


@dataclass(frozen=True)
class SeatRequest:
    """A seat as asked for when creating a game."""

    name: str
    kind: str
    level: str | None = None
    invited: bool = False  # a friend's seat (invite link); open to anyone in a public game
    holder: SeatHolder | None = None  # the profile the (human) seat belongs to


@dataclass(frozen=True)
class SeatSecret:
    """What the creator of a game is given for a seat: the token of a seat played on the creating device,
    the invite code of a friend's seat (never its token), nothing for a bot."""

    token: str | None = None
    invite: str | None = None
    reserved_sha256: str | None = None  # a seat reserved for a friend's profile: held from the start, by them

    @classmethod
    def for_request(cls, request: SeatRequest, game_id: str, seat: int) -> SeatSecret:
        holder = request.holder
        if request.kind != HUMAN:
            return cls()
        if holder is not None and not holder.here:
            return cls(reserved_sha256=digest_token(holder.token(game_id, seat)))
        if request.invited:
            return cls(invite=secrets.token_urlsafe(18))
        return cls(token=seat_token(holder, game_id, seat))

    def seat(self, request: SeatRequest, public: bool) -> Seat:
        """The seat as stored: digests only; a public game's friend's seat is open to anyone until claimed."""
        return Seat(
            request.name,
            request.kind,
            request.level if request.kind == BOT else None,
            self.reserved_sha256 if self.token is None else digest_token(self.token),
            open=public and self.invite is not None,
            invite_sha256=None if self.invite is None else digest_token(self.invite),
            profile=None if request.holder is None else request.holder.name,
        )


def digest_token(token: str) -> str:
    """What is stored of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_seat_token(seats: Sequence[Seat], seat: int, token: str) -> None:
    """Refuse (SeatRefused) unless `token` is the token of the human seat `seat`."""
    check_seat_range(seats, seat)
    expected = seats[seat].token_sha256
    if expected is None:
        code = "seat_unclaimed" if seats[seat].unclaimed else "bot_seat"
        raise SeatRefused(code, seat=seat, number=seat + 1, name=seats[seat].name)
    if not hmac.compare_digest(expected, digest_token(token)):
        raise SeatRefused("wrong_token", seat=seat, number=seat + 1, name=seats[seat].name)


def check_invite(seats: Sequence[Seat], seat: int, invite: str) -> None:
    """Refuse unless `invite` is the invite code of seat `seat` (SeatRefused) and nobody claimed the
    seat yet (SeatTaken: by its invite, from the open tables, or handed to a bot)."""
    check_seat_range(seats, seat)
    expected = seats[seat].invite_sha256
    if expected is None or not hmac.compare_digest(expected, digest_token(invite)):
        raise SeatRefused("wrong_invite", seat=seat, number=seat + 1)
    if not seats[seat].unclaimed:
        raise SeatTaken("invite_claimed", seat=seat, number=seat + 1, name=seats[seat].name)


def check_seat_range(seats: Sequence[Seat], seat: int) -> None:
    if not 0 <= seat < len(seats):
        raise SeatRefused("seat_range", last=len(seats) - 1, seat=seat)


def with_seat(seats: tuple[Seat, ...], index: int, seat: Seat) -> tuple[Seat, ...]:
    """The seats, with `seat` at `index`."""
    return seats[:index] + (seat,) + seats[index + 1 :]
