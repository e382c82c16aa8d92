"""Where the games live: a SQL database (SQLite by default, PostgreSQL for several server
processes) holding each game's row and its events, its schema made by Alembic migrations. Storage owns
every table and all SQL: the profiles, passkeys, push subscriptions and seat summaries, ratings are queried
through the stores a Storage hands out (profiles.py, passkeys.py, push.py, seat_summaries.py,
open_tables.py, ratings.py).

Below the apps: the web app stores and reads its games here, and the CLI reads a stored game
(`cubilete review GAME_ID`). It imports only the engine.
"""

from .connections import DatabaseError
from .database import (
    DATABASE_FAILURES,
    UNPLAYED_BATCH,
    Append,
    EventConflict,
    SaveFailed,
    Storage,
    StoredGame,
    read_game,
)
from .export import RecordNotOver, export_file_name, exported_game
from .open_tables import OpenTable
from .tables import STORED_GAME

__all__ = [
    "DATABASE_FAILURES", "DatabaseError", "STORED_GAME", "UNPLAYED_BATCH", "Append", "EventConflict", "OpenTable",
    "SaveFailed", "Storage", "StoredGame", "read_game", "RecordNotOver", "export_file_name", "exported_game",
]
