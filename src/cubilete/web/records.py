"""A player's record: the finished games a browser proves it played under a name, their results
per game and rule set, and each game's mean loss per decision from its review.

Privacy: the server lists no game to someone who holds no seat in it. So a record is built only
from the seats the asking browser proves it holds: it sends each seat it keeps ({game, seat,
token}, as in its localStorage), and a seat counts only if its token is right and the seat's name
is the player's (compared without case). A proof that fails is answered with its refusal (the
game's seat range, a bot's seat, a wrong token, no such game) and counts for nothing; the others
still count. The record names no game the browser did not send.

A game in which the seat took no decision of its own (its every choice played by its turn clock, or by
the computer it was handed to) is no game of the player's: it stays out of the record. So a seat someone
else reserved for a profile (web/profiles.py) cannot fill its record by running out its clock.

The first time a finished game is in a record, its review is computed (analysis.review) for every
seat with a token and stored (seat_summaries.py); later records only read it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool

from ..analysis.review import review
from ..engine.errors import CubileteError, InvalidRecord
from ..engine.games import GAMES
from .catch_up import GameNotFound
from .games import Games
from .i18n import refusal_message
from .live_game import LiveGame
from .seat_summaries import GameHead, SeatSummary, SummaryStore
from .seats import check_seat_token

log = logging.getLogger(__name__)

MAX_PROOFS = 500  # seats per request: a browser that holds more sends its latest ones
GAME_ORDER = {game: order for order, game in enumerate(GAMES)}


@dataclass(frozen=True)
class SeatProof:
    """A seat the browser says it holds, with the token the server gave it for that seat."""

    game: str
    seat: int
    token: str


def same_name(first: str, second: str) -> bool:
    return first.strip().casefold() == second.strip().casefold()


class PlayerRecords:
    def __init__(self, games: Games) -> None:
        self.games = games
        self.store = SummaryStore(games.storage)

    async def record(self, name: str, proofs: Sequence[SeatProof], lang: str, any_name: bool = False) -> dict[str, Any]:
        """The record of `name` over the proven seats (`any_name`: whatever their names, a profile's seats);
        `lang` is the refusals' language. The database is read in a worker thread, and the solver's tables a
        review needs are awaited on the event loop."""
        mine, other_names, refused = await run_in_threadpool(self._proven, name, proofs, lang, any_name)
        finished = [(head, seat) for head, seat in mine if head.finished]
        summaries = await run_in_threadpool(self.store.summaries, {head.id for head, _ in finished})
        for game_id in dict.fromkeys(head.id for head, seat in finished if (head.id, seat) not in summaries):
            summaries |= await self._summarize(game_id)
        reviewed = [(head, summaries[head.id, seat]) for head, seat in finished if (head.id, seat) in summaries]
        # a seat that took no decision of its own (the clock or the computer played them all) did not play
        played = sorted(
            ((head, summary) for head, summary in reviewed if summary.decisions),
            key=lambda entry: (entry[0].updated, entry[0].id),
        )
        return {
            "name": name.strip(),
            "rule_sets": _by_rule_set(played),
            "games": [_game_entry(head, summary) for head, summary in played],
            "in_progress": len(mine) - len(reviewed),
            "other_names": sorted(other_names),
            "refused": refused,
        }

    def _proven(
        self, name: str, proofs: Sequence[SeatProof], lang: str, any_name: bool
    ) -> tuple[list[tuple[GameHead, int]], set[str], list[dict[str, Any]]]:
        """The proven seats of `name`, the other names of the proven seats, and each refused proof's refusal."""
        name = name.strip()
        if not name:
            raise InvalidRecord("blank_name")
        if len(proofs) > MAX_PROOFS:
            raise InvalidRecord("record_too_many_seats", most=MAX_PROOFS, count=len(proofs))
        unique = list({(proof.game, proof.seat): proof for proof in proofs}.values())
        heads = self.store.heads({proof.game for proof in unique})
        held: list[tuple[GameHead, int]] = []
        refused: list[dict[str, Any]] = []
        for proof in unique:
            try:
                head = heads.get(proof.game)
                if head is None:
                    raise GameNotFound("game_not_found", id=proof.game)
                check_seat_token(head.seats, proof.seat, proof.token)
            except CubileteError as error:
                refused.append(_refusal(proof, error, lang))
                continue
            held.append((head, proof.seat))
        mine = [(head, seat) for head, seat in held if any_name or same_name(head.seats[seat].name, name)]
        other_names = {head.seats[seat].name for head, seat in held if not same_name(head.seats[seat].name, name)}
        return mine, other_names, refused

    async def _summarize(self, game_id: str) -> dict[tuple[str, int], SeatSummary]:
        """Review a finished game for its seats with a token and store their summaries (none if this
        process does not see the game over yet, cannot replay it, or has no room for its tables now)."""
        try:
            live = await self.games.find(game_id)
            if not live.state.is_over:  # stored as over by another process whose last moves are on their way
                return {}
            await self.games.tables.ready(live.match.rules)
            return await run_in_threadpool(self._review, live)
        except CubileteError as error:
            log.warning("game %s cannot be reviewed for a record: %s", game_id, error)
            return {}

    def _review(self, live: LiveGame) -> dict[tuple[str, int], SeatSummary]:
        """Review a finished game for its seats with a token and store their summaries."""
        game_id, state = live.id, live.state
        seats = [index for index, seat in enumerate(live.seats) if seat.token_sha256 is not None]
        result = review(live.match, seats)  # a finished match never changes: no snapshot needed
        scores, places = state.scores(), state.ranking()
        made = {
            (game_id, player.seat): SeatSummary(
                game_id, player.seat, scores[player.seat], places[player.seat], player.decisions, player.total_loss,
                result.unit,
            )
            for player in result.players
        }
        self.store.store(made.values())
        return made


def _refusal(proof: SeatProof, error: CubileteError, lang: str) -> dict[str, Any]:
    return {
        "game": proof.game,
        "seat": proof.seat,
        "code": error.code,
        "params": error.params,
        "message": refusal_message(lang, error.code, error.params),
    }


def _mean_loss(total_loss: float, decisions: int) -> float | None:
    return total_loss / decisions if decisions else None


def _game_entry(head: GameHead, summary: SeatSummary) -> dict[str, Any]:
    return {
        "id": head.id,
        "game": head.game,
        "rules": head.rules,
        "seat": summary.seat,
        "players": len(head.seats),
        "score": summary.score,
        "place": summary.place,
        "finished": head.updated.isoformat(),
        "decisions": summary.decisions,
        "total_loss": summary.total_loss,
        "mean_loss": _mean_loss(summary.total_loss, summary.decisions),
        "unit": summary.unit,
    }


def _by_rule_set(played: Sequence[tuple[GameHead, SeatSummary]]) -> list[dict[str, Any]]:
    """Per game and rule set: games, wins (first place, shared or not, in games of several players)
    out of the games with others, mean and best score, and the mean loss over all decisions."""
    groups: dict[tuple[str, str], list[tuple[GameHead, SeatSummary]]] = {}
    for head, summary in played:
        groups.setdefault((head.game, head.rules), []).append((head, summary))
    rows = []
    for (game, rules), entries in sorted(groups.items(), key=lambda item: (GAME_ORDER.get(item[0][0], 0), item[0])):
        scores = [summary.score for _, summary in entries]
        with_others = [summary for head, summary in entries if len(head.seats) > 1]
        decisions = sum(summary.decisions for _, summary in entries)
        rows.append({
            "game": game,
            "rules": rules,
            "games": len(entries),
            "with_others": len(with_others),
            "wins": sum(1 for summary in with_others if summary.place == 1),
            "mean_score": sum(scores) / len(scores),
            "best_score": max(scores),
            "decisions": decisions,
            "mean_loss": _mean_loss(sum(summary.total_loss for _, summary in entries), decisions),
            "unit": entries[0][1].unit,
        })
    return rows
