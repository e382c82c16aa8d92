"""Who may use a server, as its host chose (`cubilete serve --creation-password`, `--no-open-tables`):
a friends' server asks a password to create a game or a profile, and may list no open tables. Joining by an invite
link, watching and playing stay open to whoever holds the link. And how much of the server one client
address may hold: its listed open tables (`--open-tables-per-client`) and its unfinished games by
correspondence (`--correspondence-games-per-client`), counted from the games' stored creator.

The password lives only in this process's memory: never stored, logged nor answered. It is compared in
constant time, so an answer's timing tells nothing of how much of a guess was right."""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import CubileteError

OPEN_TABLES_PER_CLIENT = 3  # a client address's tables listed at once (its newest): the others wait
CORRESPONDENCE_GAMES_PER_CLIENT = 100  # unfinished games by correspondence a client address may have created


class CreationRefused(CubileteError):
    """This server's host keeps game creation to those who know its password, or lists no open tables,
    or the client already has as many unfinished games by correspondence as it may."""


class HostOnly(CubileteError):
    """A request only the host may make (the process's figures, web/metrics.py) came without the host's token."""


@dataclass(frozen=True)
class Access:
    creation_password: str | None = field(default=None, repr=False)  # None: anyone may create games
    open_tables: bool = True  # whether public games are listed, and may be created
    open_tables_per_client: int = OPEN_TABLES_PER_CLIENT
    correspondence_games_per_client: int = CORRESPONDENCE_GAMES_PER_CLIENT

    def check_creation(self, password: str | None, public: bool) -> None:
        """Raises CreationRefused unless a game may be created with this password (None: none given)."""
        self.check_password(password)
        if public and not self.open_tables:
            raise CreationRefused("open_tables_off")

    def check_password(self, password: str | None, needed: str = "creation_password_needed") -> None:
        """Raises CreationRefused unless the password is the host's (or none is set): `needed` when none was
        given, creation_password_wrong when another was."""
        if self.creation_password is None:
            return
        if not password:
            raise CreationRefused(needed)
        if not hmac.compare_digest(password.encode(), self.creation_password.encode()):
            raise CreationRefused("creation_password_wrong")

    def check_correspondence(self, unfinished: int) -> None:
        """Raises CreationRefused if a client with this many unfinished games by correspondence may make no more."""
        if unfinished >= self.correspondence_games_per_client:
            raise CreationRefused("correspondence_games_too_many", most=self.correspondence_games_per_client)

    def page_data(self) -> dict[str, Any]:
        """What the home page shows of this: the password field, the open tables."""
        return {"creation_password": self.creation_password is not None, "open_tables": self.open_tables}
