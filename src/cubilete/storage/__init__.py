"""Where the games live: a SQL database (SQLite by default, PostgreSQL for several server
processes) holding each game's row and its events, its schema made by Alembic migrations. Reads
go through SQLAlchemy Core, writes on the driver's own cursor (driver_writes.py says why).

Below the apps: the web app stores and reads its games here, and the CLI reads a stored game
(`cubilete review GAME_ID`). It imports only the engine.
"""

from .database import Append, OpenTable, Storage, StoredGame, read_game
from .errors import EventConflict, SaveFailed

__all__ = ["Append", "EventConflict", "OpenTable", "SaveFailed", "Storage", "StoredGame", "read_game"]
