"""Every table of cubilete, as the newest migration leaves them (migrations/versions/), to query: the
migrations (schema.py) make them, and a test checks that these and theirs are the same
(tests/web/test_schema_drift.py). Only storage/ queries them: the web app calls the stores."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    TypeDecorator,
    UniqueConstraint,
    false,
)

from ..engine.validation import Record
from .name_keys import LONGEST_KEY

STORED_GAME = Record("stored game")  # a row the app could not have written (edited by hand, a bad disk)


class UtcDateTime(TypeDecorator[datetime]):
    """Times stored and read as timezone-aware UTC (SQLite keeps no zone: read back as UTC)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is not None and value.tzinfo is None:
            raise ValueError("a stored time must carry its zone")
        return None if value is None else value.astimezone(UTC)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


metadata = MetaData()
games_table = Table(
    "games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("lang", String(8), nullable=False),
    Column("seats", JSON, nullable=False),
    Column("game", String(16)),
    Column("rules", JSON),
    Column("players", JSON),
    Column("seed", BigInteger),  # format-1 records: the integer seed of the legacy dice
    Column("dice", JSON),  # format-2 records: the dice key, a client's seed or the server's secret
    Column("format", Integer),
    Column("table_options", JSON),
    Column("finished", Boolean, nullable=False, index=True),
    Column("rematch", String(32)),
    Column("seats_version", Integer, nullable=False),
    Column("open_seats", Integer, nullable=False),
    Column("created", UtcDateTime, nullable=False),
    Column("updated", UtcDateTime, nullable=False),
    Column("creator", String(64), index=True),  # the creating client's address (migration 0010): its bounds
    # a correspondence game's next moment for the sweeper (its reminder, then its deadline); None: none
    Column("clock_due", UtcDateTime, index=True),
    # the open tables (migration 0010), whatever else is unfinished: covering, their rows are never read to rank them
    Index("ix_games_open", "finished", "open_seats", "creator", "updated", "id"),
)
events_table = Table(
    "events",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("index", Integer, nullable=False),
    Column("event", JSON, nullable=False),
    Column("created", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("game_id", "index", name="pk_events"),
)
PUSH_PROFILE_KEY = "fk_push_subscriptions_profile"  # migration 0009 adds it
# A record's fields besides its events: "seed" (format 1) or "dice" (format 2), never both.
HEADER = ("format", "game", "rules", "players", "seed", "dice")

# -- the players' records (migration 0006): each finished game's result per seat ----------------------
seat_summaries_table = Table(
    "seat_summaries",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("version", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("place", Integer, nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("total_loss", Float, nullable=False),
    Column("unit", String(16), nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="pk_seat_summaries"),
)

# -- profiles (migration 0007); every row of a profile goes with it (ON DELETE CASCADE, migration 0009) ---
profiles_table = Table(
    "profiles",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(24), nullable=False),
    Column("name_key", String(LONGEST_KEY), nullable=False, unique=True),  # NFKC, without case: unique (name_keys.py)
    Column("name_skeleton", String(LONGEST_KEY), nullable=False, index=True),  # its look-alikes' (migration 0010)
    Column("seat_key", String(64), nullable=False),  # hex: the key its seats' tokens are derived from
    Column("created", UtcDateTime, nullable=False),
    Column("hidden_from_boards", Boolean, nullable=False, server_default=false()),  # migration 0012
)
profile_keys_table = Table(  # the device secrets, as their SHA-256 digests
    "profile_keys",
    metadata,
    Column("secret_sha256", String(64), primary_key=True),
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("created", UtcDateTime, nullable=False),
)
passkeys_table = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(1400), primary_key=True),  # base64url
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("public_key", LargeBinary, nullable=False),
    Column("sign_count", BigInteger, nullable=False),
    Column("created", UtcDateTime, nullable=False),
)
profile_seats_table = Table(  # which profile a seat belongs to: the link goes with either
    "profile_seats",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False, index=True),
    # the game the seat's token was derived for: a rematch keeps the seats' tokens, so its first game's
    Column("token_game", String(32), nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="pk_profile_seats"),
)
passkey_challenges_table = Table(
    "passkey_challenges",
    metadata,
    Column("challenge", String(64), primary_key=True),  # base64url
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=True),  # None: a sign-in
    Column("expires", UtcDateTime, nullable=False, index=True),
)

# -- Web Push (migration 0008) -----------------------------------------------------------------------
push_keys_table = Table(  # the server's VAPID key pair: one row
    "push_keys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("private_key", String(64), nullable=False),  # the raw 32-byte scalar, base64url
    Column("public_key", String(100), nullable=False),  # the uncompressed point, base64url
    Column("created", UtcDateTime, nullable=False),
)
push_subscriptions_table = Table(
    "push_subscriptions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE")),  # None: a profile's
    Column("seat", Integer),
    Column(  # a profile's subscription, for all its seats (migration 0009: it goes with the profile)
        "profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE", name=PUSH_PROFILE_KEY)
    ),
    Column("endpoint", String(1024), nullable=False),
    Column("p256dh", String(100), nullable=False),
    Column("auth", String(32), nullable=False),
    Column("lang", String(8), nullable=False),
    Column("created", UtcDateTime, nullable=False),
    UniqueConstraint("game_id", "seat", "endpoint", name="uq_push_subscriptions_seat"),
    UniqueConstraint("profile_id", "endpoint", name="uq_push_subscriptions_profile"),
    Index("ix_push_subscriptions_endpoint", "endpoint"),  # a gone endpoint is forgotten by it
)
push_sent_table = Table(  # the reminders already sent: one process sends each
    "push_sent",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("turn", Integer, nullable=False),  # the number of events when the seat's turn began
    Column("kind", String(16), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("created", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("game_id", "turn", "kind", "seat", name="pk_push_sent"),
)

# -- the daily challenge (migration 0011) --------------------------------------------------------------
daily_keys_table = Table(  # the server's secret the days' dice come from: one row, made once per install
    "daily_keys",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=False),
    Column("secret", String(64), nullable=False),  # 32 bytes, hex
    Column("created", UtcDateTime, nullable=False),
)
daily_tries_table = Table(  # a profile's ranked try of a day's challenge: one per profile, day and game
    "daily_tries",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("date", String(10), nullable=False),  # the UTC day, YYYY-MM-DD
    Column("game", String(16), nullable=False),
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
    Column("started", UtcDateTime, nullable=False),
    # the events the player made before the day's end left the rest to the computer (None: all theirs)
    Column("computer_from", Integer),
    # set once, when the try is ranked: its review's decisions and mean loss, and the final score
    Column("finished_at", UtcDateTime),
    Column("decisions", Integer),
    Column("mean_loss", Float),
    Column("score", Integer),
    UniqueConstraint("date", "game", "profile_id", name="uq_daily_tries_profile"),
    Index("ix_daily_tries_board", "date", "game", "finished_at"),
    Index("ix_daily_tries_profile", "profile_id", "date"),
)
daily_choices_table = Table(  # each decision of a ranked try, once ranked: how the day's players chose
    "daily_choices",
    metadata,
    Column("game_id", String(32), ForeignKey("daily_tries.game_id", ondelete="CASCADE"), nullable=False),
    Column("index", Integer, nullable=False),
    Column("date", String(10), nullable=False),
    Column("game", String(16), nullable=False),
    Column("position", String(64), nullable=False),  # SHA-256 hex of the state's canonical JSON before it
    Column("action", String(200), nullable=False),  # the chosen action's canonical JSON
    PrimaryKeyConstraint("game_id", "index", name="pk_daily_choices"),
    Index("ix_daily_choices_position", "date", "game", "position"),
)

# -- ratings and performance (migration 0012; docs/ratings.md) ----------------------------------------
rated_games_table = Table(  # a finished game taken into ratings and performance: once, whichever process
    "rated_games",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("created", UtcDateTime, nullable=False),
)
ratings_table = Table(  # a profile's openskill rating in one game
    "ratings",
    metadata,
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("updated", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("profile_id", "game", name="pk_ratings"),
    Index("ix_ratings_game", "game"),
)
rating_history_table = Table(  # a profile's rating after each rated game
    "rating_history",
    metadata,
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("created", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("profile_id", "game_id", name="pk_rating_history"),
)
game_performances_table = Table(  # each profile seat's performance in a finished game (daily games too)
    "game_performances",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("profile_id", String(32), ForeignKey("profiles.id", ondelete="CASCADE"), nullable=False),
    Column("game", String(16), nullable=False),
    Column("mean_loss", Float, nullable=False),
    Column("decisions", Integer, nullable=False),
    Column("score", Integer, nullable=False),
    Column("performance", Float, nullable=False),
    Column("created", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("game_id", "seat", name="pk_game_performances"),
    Index("ix_game_performances_profile", "profile_id", "game"),  # a profile's performance per game
    Index("ix_game_performances_game", "game", "profile_id"),  # a game's accuracy board
)
