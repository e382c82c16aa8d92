"""A game to take home: its record and who sat where, as one JSON document that `cubilete review FILE`
reads. The web app serves it (GET /api/games/{id}/record) and `cubilete export GAME_ID` writes it.

Only a finished game is exported: a record holds the secret its dice come from (engine/dice_seeds.py),
which would tell every roll still to come. Once the game is over the secret tells nothing more. The
seats keep their names, kinds and levels; the digest of a seat's token stays on the server.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..engine.errors import CubileteError

EXPORTED_SEAT_FIELDS = ("name", "kind", "level", "left")


class RecordNotOver(CubileteError):
    """The game is not over: its record still holds the secret of the dice to come."""


def exported_game(game_id: str, record: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], over: bool) -> dict[str, Any]:
    """The document of a finished game (RecordNotOver before its end): {"id", "record", "seats"}."""
    if not over:
        raise RecordNotOver("record_not_over")
    kept = [{field: seat.get(field) for field in EXPORTED_SEAT_FIELDS} for seat in seats]
    return {"id": game_id, "record": dict(record), "seats": kept}


def export_file_name(game_id: str, game: str) -> str:
    """The name a download or `cubilete export` gives the file (game ids are URL-safe: letters, digits, - and _)."""
    return f"cubilete-{game}-{game_id}.json"
