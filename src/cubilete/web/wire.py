"""The messages between server processes (the Redis broker's wire form): each `News` as a JSON object with
the message version `v`, its `type`, then its fields:

    {"v": 2, "type": "events", "events": 12}                              EventsStored(12)
    {"v": 2, "type": "seats"}                                             SEATS_CHANGED
    {"v": 2, "type": "present", "origin": "9f2c", "seats": [0, 2], "hidden": [2]}   SeatsPresent
    {"v": 2, "type": "reaction", "seat": 1, "key": "wow"}                 Reacted(1, "wow")

Processes one release apart run side by side during a rolling upgrade, so a process reads the messages of
MESSAGE_VERSION and of the version before it, and writes only its own. Version 1 (up to 0.2.0, and main
until 0.3.0) is untyped text: "12", "seats", "present ORIGIN 0,2/2" (after "/": the hidden seats, which
0.2.0 does not send), "reacted 1 wow". Fields a message of a known type has beyond its own are ignored, so
a release may add one without a new version. Any other message (another version or type, or malformed)
is ignored and logged once per (version, type) by the process's `WireReader`: a process of the next
release would otherwise log each of its messages here. A process does not start beside a live process of
the install whose messages neither reads (web/running_processes.py).
"""

from __future__ import annotations

import logging
from typing import Any

import orjson

from .broker import SEATS_CHANGED, EventsStored, News, Reacted, SeatsChanged, SeatsPresent
from .reactions import REACTIONS

log = logging.getLogger(__name__)
MESSAGE_VERSION = 2  # the untyped text of 0.2.0 counts as 1
MOST_LOGGED_KINDS = 32  # unreadable (version, type) pairs logged by one process; then one line says no more
MOST_SHOWN = 40  # characters of a foreign version or type shown in the log
SEAT_LIMIT = 100  # a seat number is below it (a game has six seats at most)
ORIGIN_LIMIT = 64  # characters of a process's name in its presence (web/presence.py makes 12)


def talks_with(version: int) -> bool:
    """Whether a process of this message version may run beside one of `version` (web/running_processes.py
    asks at start): one of them reads the other's messages, as in a rolling upgrade."""
    return abs(version - MESSAGE_VERSION) <= 1


class UnreadableMessage(ValueError):
    """A message this process does not read, of this version and type (as far as they can be told)."""

    def __init__(self, version: object, kind: object, reason: str) -> None:
        super().__init__(reason)
        self.version, self.kind = str(version)[:MOST_SHOWN], str(kind)[:MOST_SHOWN]


def encoded(news: News) -> bytes:
    """The news as this version writes it."""
    return orjson.dumps({"v": MESSAGE_VERSION, **_typed(news)})


def _typed(news: News) -> dict[str, Any]:
    match news:
        case EventsStored(events):
            return {"type": "events", "events": events}
        case SeatsChanged():
            return {"type": "seats"}
        case SeatsPresent(origin, seats, hidden):
            return {"type": "present", "origin": origin, "seats": list(seats), "hidden": list(hidden)}
        case Reacted(seat, key):
            return {"type": "reaction", "seat": seat, "key": key}


def decoded(data: bytes) -> News:
    """The news of a message of this version or the one before; an UnreadableMessage for anything else."""
    if not data.startswith(b"{"):  # version 1's text never does
        return _decoded_v1(data)
    try:
        message = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise UnreadableMessage("?", "?", "not JSON") from None
    if not isinstance(message, dict):
        raise UnreadableMessage("?", "?", "not a JSON object")
    version, kind = message.get("v"), message.get("type")
    if version != MESSAGE_VERSION or type(version) is not int:
        raise UnreadableMessage(version, kind, "another version")
    try:
        return _decoded_v2(kind, message)
    except KeyError as missing:
        raise UnreadableMessage(version, kind, f"no field {missing}") from None
    except (TypeError, ValueError) as error:
        raise UnreadableMessage(version, kind, str(error)) from None


def _decoded_v2(kind: object, message: dict[str, Any]) -> News:
    if kind == "events":
        return EventsStored(_whole(message["events"], limit=None))
    if kind == "seats":
        return SEATS_CHANGED
    if kind == "present":
        origin = message["origin"]
        if not (isinstance(origin, str) and 0 < len(origin) <= ORIGIN_LIMIT):
            raise ValueError("not a process's name")
        return SeatsPresent(origin, _seats(message["seats"]), _seats(message.get("hidden", [])))
    if kind == "reaction":
        return _reaction(_whole(message["seat"], SEAT_LIMIT), message["key"])
    raise ValueError("an unknown type")


def _whole(number: object, limit: int | None) -> int:
    """A whole number from 0 (below `limit`, if any); not a boolean nor a float."""
    if type(number) is not int or number < 0 or (limit is not None and number >= limit):
        raise ValueError(f"not a whole number below {limit}: {number!r}")
    return number


def _seats(seats: object) -> tuple[int, ...]:
    if not isinstance(seats, list) or len(seats) > SEAT_LIMIT:
        raise ValueError("not a list of seats")
    return tuple(_whole(seat, SEAT_LIMIT) for seat in seats)


def _reaction(seat: int, key: object) -> Reacted:
    if not isinstance(key, str) or key not in REACTIONS:  # the page shows what it is told
        raise ValueError(f"not a reaction: {key!r}")
    return Reacted(seat, key)


def _decoded_v1(data: bytes) -> News:
    """Version 1's text: "12", "seats", "present ORIGIN 0,2/2" or "reacted 1 wow"."""
    try:
        text = data.decode()
    except UnicodeDecodeError:
        raise UnreadableMessage(1, "?", "not UTF-8") from None
    kind = text.partition(" ")[0] if " " in text else ("seats" if text == "seats" else "events")
    try:
        return _news_v1(kind, text)
    except ValueError as error:
        raise UnreadableMessage(1, kind, str(error)) from None


def _news_v1(kind: str, text: str) -> News:
    if kind == "seats":
        return SEATS_CHANGED
    if kind == "events":
        return EventsStored(_number_v1(text))
    if kind == "present":
        origin, _, numbers = text.removeprefix("present ").partition(" ")
        seats, _, hidden = numbers.partition("/")
        return SeatsPresent(origin, _numbers_v1(seats), _numbers_v1(hidden))
    if kind == "reacted":
        seat, _, key = text.removeprefix("reacted ").partition(" ")
        return _reaction(_whole(_number_v1(seat), SEAT_LIMIT), key)
    raise ValueError("an unknown type")


def _number_v1(text: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise ValueError(f"not ASCII digits: {text!r}")
    return int(text)


def _numbers_v1(text: str) -> tuple[int, ...]:
    return tuple(_whole(_number_v1(seat), SEAT_LIMIT) for seat in text.split(",") if seat)


class WireReader:
    """Reads the other processes' messages for one process (its broker's listener thread), logging each
    (version, type) it cannot read once, and at most MOST_LOGGED_KINDS of them."""

    def __init__(self) -> None:
        self._logged: set[tuple[str, str]] = set()

    def news(self, data: bytes) -> News | None:
        """The message's news, or None for one this process does not read."""
        try:
            return decoded(data)
        except UnreadableMessage as unreadable:
            self._log_once(unreadable, data)
            return None

    def _log_once(self, unreadable: UnreadableMessage, data: bytes) -> None:
        pair = (unreadable.version, unreadable.kind)
        if pair in self._logged or len(self._logged) > MOST_LOGGED_KINDS:
            return
        self._logged.add(pair)
        if len(self._logged) > MOST_LOGGED_KINDS:
            log.warning("ignoring messages of other versions or types from other processes; no more are logged")
            return
        log.warning(
            "ignoring the messages of version %s, type %s from other processes (%s; this process reads versions"
            " %d and %d), e.g. %r; logged once per version and type",
            *pair,
            unreadable,
            MESSAGE_VERSION - 1,
            MESSAGE_VERSION,
            data[:200],
        )
