"""How a write is refused: another process stored first, or the database did not store it."""

from __future__ import annotations

import logging

from ..engine.errors import CubileteError

log = logging.getLogger(__name__)


class SaveFailed(CubileteError):
    """The database did not store the change (disk full, read-only, unreachable): nothing changed."""


class EventConflict(Exception):
    """Another process stored an event at this index first."""


def save_failed(error: Exception) -> SaveFailed:
    log.warning("could not save a change: %s", error)
    return SaveFailed("save_failed")
