"""The seats of a game: who sits where (a human, a bot, a seat open to anyone), and the secret tokens
that let a request act for a human seat. A token is given once, when the seat is made or joined; only
its SHA-256 digest is stored, and requests are checked against it in constant time."""

from __future__ import annotations

import hashlib
import hmac
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

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name, "kind": self.kind, "level": self.level, "token_sha256": self.token_sha256,
            "open": self.open, "left": self.left,
        }

    @classmethod
    def from_json(cls, data: Any) -> Seat:
        """A seat as `to_json` stored it (seats stored before `open` and `left` lack them); anything
        else is an InvalidRecord."""
        fields = STORED_SEAT.fields(data, ("name", "kind"), ("level", "token_sha256", "open", "left"))
        if fields["kind"] not in (HUMAN, BOT):
            raise STORED_SEAT.refuse(f"a seat is {HUMAN} or {BOT}, not {describe(fields['kind'])}")
        level, token = (
            None if fields.get(name) is None else STORED_SEAT.text(fields[name], name) for name in ("level", "token_sha256")
        )
        return cls(
            STORED_SEAT.text(fields["name"], "name"), fields["kind"], level, token,
            STORED_SEAT.boolean(fields.get("open", False), "open"), STORED_SEAT.boolean(fields.get("left", False), "left"),
        )

    def to_bot(self, left: bool) -> Seat:
        """The seat played by the computer from now on; its token no longer acts."""
        return replace(self, kind=BOT, level=ADVICE_LEVEL, token_sha256=None, open=False, left=left)


@dataclass(frozen=True)
class SeatRequest:
    """A seat as asked for when creating a game."""

    name: str
    kind: str
    level: str | None = None
    invited: bool = False  # a friend's seat (invite link); open to anyone in a public game


def digest_token(token: str) -> str:
    """What is stored of a seat's token."""
    return hashlib.sha256(token.encode()).hexdigest()


def check_seat_token(seats: Sequence[Seat], seat: int, token: str) -> None:
    """Refuse (SeatRefused) unless `token` is the token of the human seat `seat`."""
    if not 0 <= seat < len(seats):
        raise SeatRefused("seat_range", last=len(seats) - 1, seat=seat)
    expected = seats[seat].token_sha256
    if expected is None:
        raise SeatRefused("bot_seat", seat=seat, name=seats[seat].name)
    if not hmac.compare_digest(expected, digest_token(token)):
        raise SeatRefused("wrong_token", seat=seat, name=seats[seat].name)


def with_seat(seats: tuple[Seat, ...], index: int, seat: Seat) -> tuple[Seat, ...]:
    """The seats, with `seat` at `index`."""
    return seats[:index] + (seat,) + seats[index + 1 :]
