"""The stored side of Web Push (Alembic migration 0008): the server's VAPID key pair, the push
subscriptions of seats (and of profiles, for all their seats), and the reminders already sent.

Every server process shares these rows: the key pair is made by whichever process starts first (an
insert that does nothing if another process's is there, then a read), and a reminder is sent by the
process whose insert of its (game, turn, kind, seat) row succeeds. A profile's subscriptions go with the
profile (migration 0009). What is pushed, and when: web/push/."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Table, delete, func, or_, select
from sqlalchemy.engine import Connection, Engine

from .connections import conflict_insert
from .tables import push_keys_table, push_sent_table, push_subscriptions_table

KEY_ROW = 1  # the one row of push_keys
OWNER_LOCKS, ENDPOINT_LOCKS = 1, 2  # PostgreSQL's advisory locks of a subscription's owner and endpoint


class CapReached(Exception):
    """A subscription would pass a cap: its owner's endpoints, or its endpoint's owners (`most`)."""

    def __init__(self, most: int) -> None:
        super().__init__(most)
        self.most = most


@dataclass(frozen=True)
class Subscription:
    """A browser's push subscription (PushSubscription.toJSON()), checked, and its reader's language."""

    endpoint: str
    p256dh: str
    auth: str
    lang: str

    def info(self) -> dict[str, Any]:
        """As pywebpush takes it."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


@dataclass(frozen=True)
class Owner:
    """Whose subscription it is: a game's seat, or a profile (profile_id, for all its seats)."""

    game_id: str | None = None
    seat: int | None = None
    profile_id: str | None = None


class PushStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.added = 0  # subscriptions this process stored: the notifier reads the owners again (web/push/reachable.py)

    def key_pair(self, make: Callable[[], tuple[str, str]]) -> tuple[str, str]:
        """The stored (private, public) key pair; `make()`'s is stored first if there is none yet (of two
        processes storing theirs at once, the first one's is kept and both read it)."""
        stored = self._key_pair()
        if stored is None:
            private, public = make()
            row = {"id": KEY_ROW, "private_key": private, "public_key": public, "created": _now()}
            with self.engine.begin() as connection:
                connection.execute(self._insert(push_keys_table).values(row).on_conflict_do_nothing())
            stored = self._key_pair()
        assert stored is not None, "stored just now"
        return stored

    def _key_pair(self) -> tuple[str, str] | None:
        columns = push_keys_table.c
        with self.engine.connect() as connection:
            row = connection.execute(
                select(columns.private_key, columns.public_key).where(columns.id == KEY_ROW)
            ).first()
        return None if row is None else (str(row[0]), str(row[1]))

    def add(self, owner: Owner, subscription: Subscription, most_owned: int, most_of_endpoint: int) -> None:
        """Keep the subscription for the owner (again: its keys and language replaced), unless the owner
        would then have more than `most_owned` endpoints or the endpoint more than `most_of_endpoint`
        owners: then CapReached, and nothing changes. Counted and kept in one transaction that holds the
        write for this owner and endpoint, so that subscriptions arriving at once cannot pass a cap together."""
        row = {
            "game_id": owner.game_id,
            "seat": owner.seat,
            "profile_id": owner.profile_id,
            "endpoint": subscription.endpoint,
            "p256dh": subscription.p256dh,
            "auth": subscription.auth,
            "lang": subscription.lang,
            "created": _now(),
        }
        keys = ["game_id", "seat", "endpoint"] if owner.profile_id is None else ["profile_id", "endpoint"]
        upsert = self._insert(push_subscriptions_table).values(row)
        replaced = {name: upsert.excluded[name] for name in ("p256dh", "auth", "lang")}
        of_endpoint = push_subscriptions_table.c.endpoint == subscription.endpoint
        with self.engine.begin() as connection:
            if connection.dialect.name == "postgresql":  # SQLite: the upsert itself takes the database's write lock
                for space, key in ((OWNER_LOCKS, _owner_key(owner)), (ENDPOINT_LOCKS, subscription.endpoint)):
                    connection.execute(select(func.pg_advisory_xact_lock(space, func.hashtext(key))))
            connection.execute(upsert.on_conflict_do_update(index_elements=keys, set_=replaced))
            if _count(connection, _owned_by(owner)) > most_owned:
                raise CapReached(most_owned)  # the transaction is rolled back
            if _count(connection, of_endpoint) > most_of_endpoint:
                raise CapReached(most_of_endpoint)
        self.added += 1

    def remove(self, owner: Owner, endpoint: str) -> None:
        columns = push_subscriptions_table.c
        with self.engine.begin() as connection:
            connection.execute(delete(push_subscriptions_table).where(_owned_by(owner), columns.endpoint == endpoint))

    def forget_endpoint(self, endpoint: str) -> None:
        """The push service says this subscription is gone: drop it for every seat and profile."""
        with self.engine.begin() as connection:
            connection.execute(delete(push_subscriptions_table).where(push_subscriptions_table.c.endpoint == endpoint))

    def forget_game(self, game_id: str) -> None:
        """The game is over: its seats' subscriptions have nothing more to tell."""
        with self.engine.begin() as connection:
            connection.execute(delete(push_subscriptions_table).where(push_subscriptions_table.c.game_id == game_id))

    def recipients(self, game_id: str, seat: int, profile_id: str | None) -> list[Subscription]:
        """The subscriptions of a seat and of the profile that owns it, one per endpoint."""
        columns = push_subscriptions_table.c
        chosen: Any = (columns.game_id == game_id) & (columns.seat == seat)
        if profile_id is not None:
            chosen = or_(chosen, columns.profile_id == profile_id)
        query = select(columns.endpoint, columns.p256dh, columns.auth, columns.lang).where(chosen).order_by(columns.id)
        with self.engine.connect() as connection:
            rows = connection.execute(query).all()
        found: dict[str, Subscription] = {}
        for endpoint, p256dh, auth, lang in rows:
            found.setdefault(endpoint, Subscription(endpoint, p256dh, auth, lang))
        return list(found.values())

    def owners_from(self, first_id: int) -> list[tuple[int, str | None, int | None, str | None]]:
        """The owners of the subscriptions whose id is `first_id` or more, by id: (id, game_id, seat,
        profile_id), one of the two owners set."""
        columns = push_subscriptions_table.c
        query = (
            select(columns.id, columns.game_id, columns.seat, columns.profile_id)
            .where(columns.id >= first_id)
            .order_by(columns.id)
        )
        with self.engine.connect() as connection:
            return [(int(row_id), game, seat, profile) for row_id, game, seat, profile in connection.execute(query)]

    def first_time(self, game_id: str, turn: int, kind: str, seat: int) -> bool:
        """Whether this (game, turn, kind, seat) was not marked sent yet, marking it (once across processes)."""
        row = {"game_id": game_id, "turn": turn, "kind": kind, "seat": seat, "created": _now()}
        with self.engine.begin() as connection:
            # the row the insert returns, if any: PostgreSQL's rowcount is -1 here
            insert = self._insert(push_sent_table).values(row).on_conflict_do_nothing()
            inserted = connection.execute(insert.returning(push_sent_table.c.turn)).first()
        return inserted is not None

    def _insert(self, table: Table) -> Any:
        return conflict_insert(self.engine, table)


def _owned_by(owner: Owner) -> Any:
    columns = push_subscriptions_table.c
    if owner.profile_id is not None:
        return columns.profile_id == owner.profile_id
    return (columns.game_id == owner.game_id) & (columns.seat == owner.seat)


def _owner_key(owner: Owner) -> str:
    return f"profile {owner.profile_id}" if owner.profile_id is not None else f"seat {owner.game_id} {owner.seat}"


def _count(connection: Connection, where: Any) -> int:
    return int(connection.execute(select(func.count()).select_from(push_subscriptions_table).where(where)).scalar_one())


def _now() -> datetime:
    return datetime.now(UTC)
