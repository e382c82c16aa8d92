"""Profiles (optional): a name claimed on this server, held by device secrets, to which seats belong
(stored by storage/profiles.py).

A profile is made with one device secret, shown once as the recovery code; entering it on another
device, or signing in with a passkey (passkeys.py), gives that device a secret of its own. Only the
secrets' SHA-256 digests are stored, and a request's secret (`Authorization: Bearer …`) is looked up by
its digest, so a stolen database signs no one in. A seat that belongs to a profile has a token derived
from the profile's seat key (seats.SeatHolder), so every device of the profile can be given it: "my
games" and the record then follow the player with the ordinary seat tokens. Deleting a profile
deletes its secrets, passkeys, seat links and push subscriptions; its seats stay in their games, named,
held by whoever holds their tokens (docs/profiles.md).
"""

from __future__ import annotations

import hmac
import re
import secrets
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from starlette.requests import HTTPConnection

from ..engine.errors import CubileteError, InvalidRecord
from ..storage import Storage
from ..storage.name_keys import LONGEST_KEY, name_key, name_skeleton
from ..storage.profiles import NameLooksAlike, NameTaken, SeatLink, StoredProfile
from .api_models import NAME_LENGTH
from .seats import HUMAN, SeatHolder, SeatRequest, digest_token
from .table_options import HINTS_AGREED, form_turn_clock

BEARER = "bearer "
MAX_SECRET = 128  # a longer Authorization header is no secret of ours: not even hashed
DEVICE_ID_LENGTH = 16  # hex digits of the secret's digest: 64 bits, no two devices of a profile share them
DEVICE_ID = re.compile(f"[0-9a-f]{{{DEVICE_ID_LENGTH}}}")
RESERVED_NAMES = {"me"}  # /api/profiles/me is the signed-in device's own profile
PLAYED_WITH_SHOWN = 8  # the home page's "played lately"
UNSEEN = {"Cc", "Cf", "Zl", "Zp"}  # Unicode's control, format (invisible) and line or paragraph separators


class ProfileRefused(CubileteError):
    """The request needs a profile, and its device secret is missing or belongs to none (HTTP 401)."""


class ProfileNotFound(CubileteError):
    """No profile has this name."""


class DeviceNotFound(CubileteError):
    """The profile has no device of this id."""


class ProfileSeatRefused(CubileteError):
    """A seat reserved for a profile its creator never played with (HTTP 403)."""


class ProfileNameRefused(CubileteError):
    """A name no profile may have (its characters)."""


class ProfileNameTaken(CubileteError):
    """Another profile has this name (without case)."""


@dataclass(frozen=True)
class Profile:
    id: str
    name: str


@dataclass(frozen=True)
class Device:
    """A device signed in to a profile: the start of its secret's digest (a public id: no secret), when
    it was signed in, and whether it is the one asking."""

    id: str
    created: str
    current: bool


@dataclass(frozen=True)
class ProfileSeat:
    game: str
    seat: int
    token: str  # derived from the profile's seat key


def check_name(name: str) -> None:
    """A reserved name is refused as taken, and one holding an invisible or control character (a zero-width
    space, a soft hyphen, a right-to-left override) or a `/` (its page's address could not reach it) is
    refused. Profiles compare names by their key (NFKC, without case) and refuse look-alikes of a taken
    name (storage/name_keys.py)."""
    if any(unicodedata.category(character) in UNSEEN or character == "/" for character in name):
        raise ProfileNameRefused("name_characters")
    if max(len(name_key(name)), len(name_skeleton(name))) > LONGEST_KEY:  # NFKC makes a «ﷺ» 18 letters
        raise ProfileNameRefused("name_too_long", most=NAME_LENGTH)
    if name_key(name) in RESERVED_NAMES:
        raise ProfileNameTaken("name_taken", name=name.strip())


def _name_refusal(taken: NameTaken, name: str) -> ProfileNameTaken:
    return ProfileNameTaken("name_look_alike" if isinstance(taken, NameLooksAlike) else "name_taken", name=name)


class Profiles:
    """The profiles of a server, in its database (sync methods: routes call them from worker threads)."""

    def __init__(self, storage: Storage, seats_changed: Callable[[Sequence[str]], None] = lambda _games: None) -> None:
        self.store = storage.profiles
        self.seats_changed = seats_changed  # Games.seats_changed: the games whose stored seats a rename changed

    def create(self, name: str) -> tuple[Profile, str]:
        """A new profile and its first device secret (refused if the name is taken)."""
        check_name(name)
        profile = Profile(secrets.token_urlsafe(12), name.strip())
        secret = secrets.token_urlsafe(32)
        try:
            self.store.create(StoredProfile(profile.id, profile.name), secrets.token_hex(32), digest_token(secret))
        except NameTaken as taken:
            raise _name_refusal(taken, profile.name) from None
        return profile, secret

    def add_device(self, profile_id: str) -> str:
        """A new device secret for the profile (a passkey's sign-in)."""
        secret = secrets.token_urlsafe(32)
        self.store.add_secret(profile_id, digest_token(secret))
        return secret

    def signed_in(self, connection: HTTPConnection) -> Profile | None:
        """The profile whose device secret the request carries (`Authorization: Bearer …`), if any."""
        return self.by_secret(self._bearer(connection))

    @staticmethod
    def _bearer(connection: HTTPConnection) -> str:
        """The device secret the request carries (`Authorization: Bearer …`), or ""."""
        header = connection.headers.get("authorization", "")
        return header[len(BEARER) :].strip() if header[: len(BEARER)].lower() == BEARER else ""

    def played_with_reader(self, connection: HTTPConnection, profile: Profile) -> bool:
        """Whether the request's signed-in profile (another one) may reserve a seat for `profile`: it has
        played with it, the rule `seat_requests` applies."""
        reader = self.signed_in(connection)
        return reader is not None and reader.id != profile.id and self.store.played_together(reader.id, profile.id)

    def required(self, connection: HTTPConnection) -> Profile:
        """The request's profile; refused (401) without a device secret of one."""
        profile = self.signed_in(connection)
        if profile is None:
            raise ProfileRefused("profile_needed")
        return profile

    def devices(self, profile: Profile, connection: HTTPConnection) -> list[Device]:
        """The profile's devices (their secrets), marking the one the request comes from."""
        mine = digest_token(self._bearer(connection))
        return [
            Device(digest[:DEVICE_ID_LENGTH], created.isoformat(), digest == mine)
            for digest, created in self.store.devices(profile.id)
        ]

    def revoke(self, profile: Profile, device_id: str) -> None:
        """The device's secret signs nothing in any more; DeviceNotFound if the profile has no such device."""
        if not DEVICE_ID.fullmatch(device_id) or not self.store.revoke(profile.id, device_id):
            raise DeviceNotFound("device_not_found", device=device_id[:DEVICE_ID_LENGTH])

    def by_secret(self, secret: str) -> Profile | None:
        if not secret or len(secret) > MAX_SECRET:
            return None
        digest = digest_token(secret)
        found = self.store.by_secret(digest)
        # the digest found by the index is compared again in constant time, as seat tokens are
        if found is None or not hmac.compare_digest(found[1], digest):
            return None
        return Profile(*found[0])

    def named(self, name: str) -> Profile:
        """The profile of this name (without case); ProfileNotFound if none."""
        found = self.store.by_name(name)
        if found is None:
            raise ProfileNotFound("profile_not_found", name=name.strip())
        return Profile(*found)

    def rename(self, profile: Profile, name: str) -> Profile:
        """The profile under its new name (refused if another profile has it); its seats keep their names,
        and say they are the profile's under its new one."""
        check_name(name)
        renamed = Profile(profile.id, name.strip())
        try:
            relabeled = self.store.rename(profile.id, renamed.name)
        except NameTaken as taken:
            raise _name_refusal(taken, renamed.name) from None
        self.seats_changed(relabeled)  # their seats link to the profile's page under its new name
        return renamed

    def delete(self, profile: Profile) -> None:
        """The profile and every row of it (storage/profiles.py); its seats stay in their games, no longer
        its (its name may be claimed by someone else)."""
        self.seats_changed(self.store.delete(profile.id))

    def device_holder(self, connection: HTTPConnection) -> SeatHolder | None:
        """What a seat the request takes needs to belong to its profile, if it is signed in to one."""
        profile = self.signed_in(connection)
        return None if profile is None else self.holder(profile)

    def seat_requests(
        self, connection: HTTPConnection, requests: Sequence[tuple[SeatRequest, str | None]]
    ) -> list[SeatRequest]:
        """A new game's seats (each with the name of the profile it is reserved for, if any), with their
        holders: the first human seat played on a signed-in device belongs to its profile; a seat reserved
        for a friend's profile ("play with Beto again") is held by that profile from the start. Either
        takes its profile's name. Only a
        signed-in device may reserve seats, and only for a profile it has played with (a stranger's devices
        would be sent its turns, and a clock's moves would fill its record)."""
        mine = self.device_holder(connection)
        creator = None if mine is None else mine.profile_id
        if creator is None and any(reserved is not None for _, reserved in requests):
            raise ProfileRefused("profile_needed")
        made = []
        for request, reserved in requests:
            if reserved is not None:
                if request.kind != HUMAN:
                    raise InvalidRecord("profile_seat_kind")
                friend = self.named(reserved)
                if friend.id != creator and not self.store.played_together(str(creator), friend.id):
                    raise ProfileSeatRefused("profile_seat_stranger", name=friend.name)
                request = replace(request, name=friend.name, invited=True, holder=self.holder(friend, here=False))
            elif mine is not None and request.kind == HUMAN and not request.invited:
                request, mine = replace(request, name=mine.name, holder=mine), None
            made.append(request)
        return made

    def played_with(self, profile: Profile) -> list[dict[str, Any]]:
        """The profiles this one played with lately, the latest first, each with its last game together as the
        new-game form sets it up again ("play again": the game, rules, turn clock and hints)."""
        return [
            {
                "name": partner.name, "game": partner.game, "rules": partner.rules,
                "turn_clock": form_turn_clock(int(partner.table_options.get("turn_clock", 0))),
                "hints_allowed": partner.table_options.get("hints") == HINTS_AGREED,
            }
            for partner in self.store.played_with(profile.id, PLAYED_WITH_SHOWN)
        ]

    def holder(self, profile: Profile, here: bool = True) -> SeatHolder:
        """What a seat taken for the profile needs: its derived token (`here`: on the requesting device)."""
        return SeatHolder(profile.id, profile.name, bytes.fromhex(self.store.seat_key(profile.id)), here)

    def link_holders(self, game_id: str, holders: Iterable[tuple[int, SeatHolder | None]]) -> None:
        """The game's seats taken with holders (seat, holder) belong to their profiles from now on."""
        self.store.link_seats(
            [SeatLink(game_id, seat, holder.profile_id, game_id) for seat, holder in holders if holder is not None]
        )

    def link_rematch(self, game_id: str, rematch_id: str) -> None:
        """A rematch's seats belong to the profiles of the game's seats, with the same tokens (asking again,
        or in two processes at once, links them once)."""
        self.store.link_rematch(game_id, rematch_id)

    def owner(self, game_id: str, seat: int) -> str | None:
        """The id of the profile the seat belongs to, if any."""
        return self.store.owner(game_id, seat)

    def seats(self, profile: Profile, most: int | None = None) -> list[ProfileSeat]:
        """The profile's seats (the `most` of the latest changed games), with their derived tokens (its
        devices keep them as any seat's token)."""
        holder = self.holder(profile)
        return [
            ProfileSeat(link.game_id, link.seat, holder.token(link.token_game, link.seat))
            for link in self.store.seat_links(profile.id, most)
        ]
