"""The daily challenge (docs/daily.md): every UTC day each game has one challenge, the same dice for everyone
on the server. Its dice are common dice (engine/dice_seeds.py `CommonSeed`: the same choices meet the same
dice) seeded by HMAC-SHA256(the server's daily secret, "daily/<date>/<game>"); the secret is made once per
install and kept in the database (storage/daily.py), so every process deals the same dice.

Penta and Generala are played solo; 5000 against one computer seat at level "optimal" (its two-player table
is 14 MB, solved once per install in seconds and then loaded in 0.02 s: docs/daily.md). A profile has
one ranked try per game and day (the database's unique key refuses a second, across processes); a player
without a profile may play, unranked. The table has no hints (hints "off") and is never public; its game
stays secret until the day ends (web/daily_secrecy.py). A ranked try is ranked when its game ends, by its
review's mean loss per decision (analysis/review.py), and its choices are kept, one row per decision (the
position's digest and the action), so that each player sees how the day's others chose on the same dice.
Ranking, and finishing the tries their players left when the day ended, is web/daily_rollover.py's."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import HTTPConnection

from ..engine.dice_seeds import MAX_CHOSEN_SEED, CommonSeed
from ..engine.errors import CubileteError, IllegalAction, UnknownGame
from ..engine.games import SEED_GAMES, Rules, rules_for
from ..engine.protocol import GameState
from ..storage.admin import delete_games
from ..storage.daily import DailyStore
from .daily_secrecy import check_reader, day_end, is_secret, proven_seat
from .games import Games
from .live_game import LiveGame
from .profiles import Profile, ProfileRefused, Profiles
from .reviews import ReviewCache
from .seats import BOT, HUMAN, SeatRequest, SeatSecret
from .table_options import HINTS_OFF, DailyMark, TableOptions

DAILY_GAMES = SEED_GAMES  # Yahtzee, Yatzy and Kniffel have no challenge
DAILY_BOTS = {"5000": (SeatRequest("cubilete", BOT, "optimal"),)}  # the computer seats of each game's table
PLAYER_SEAT = 0
STREAK_DAYS_READ = 400  # a streak is counted over the profile's latest days played, at most this many


class DailyAlreadyStarted(CubileteError):
    """The profile started today's ranked try of this game already (HTTP 409)."""


class DailyNotATry(CubileteError):
    """The game is no daily challenge of this game (HTTP 404)."""


def canonical(value: Any) -> str:
    """A JSON value's one text: sorted keys, no spaces."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def position_key(state: GameState) -> str:
    """The digest of a state's canonical JSON: the same position on the same dice, whoever reached it."""
    return hashlib.sha256(canonical(state.to_json()).encode()).hexdigest()


class DailyService:
    """The daily challenges of a server, on the games' clock (`Games.now`, which tests move on)."""

    def __init__(self, games: Games, profiles: Profiles) -> None:
        self.games = games
        self.profiles = profiles
        self.store: DailyStore = games.storage.daily
        self.reviews = ReviewCache()
        self._secret: bytes | None = None

    def now(self) -> datetime:
        return self.games.now()

    def today(self) -> str:
        return self.now().astimezone(UTC).date().isoformat()

    def seed(self, date: str, game: str) -> CommonSeed:
        """The day's dice for the game: common dice from the server's secret, the date and the game."""
        if self._secret is None:
            self._secret = bytes.fromhex(self.store.secret(lambda: secrets.token_hex(32)))
        digest = hmac.new(self._secret, f"daily/{date}/{game}".encode(), hashlib.sha256).digest()
        return CommonSeed(int.from_bytes(digest[:8], "big") & MAX_CHOSEN_SEED)

    def challenge(self, game: str, connection: HTTPConnection) -> dict[str, Any]:
        """Today's challenge of the game; with a profile's secret, its try today and its streak."""
        rules, date = daily_rules(game), self.today()
        profile = self.profiles.signed_in(connection)
        mine = None if profile is None else self.store.try_of(date, game, profile.id)
        return {
            "date": date,
            "game": game,
            "rules": rules.name,
            "ends_at": _iso(day_end(date)),
            "seats": [{"name": None, "kind": HUMAN, "level": None}] + [
                {"name": bot.name, "kind": bot.kind, "level": bot.level} for bot in DAILY_BOTS.get(game, ())
            ],
            "players": self.store.started(date, game),
            "mine": None if mine is None else {"id": mine.game_id, "finished": mine.ranked, "ranked": True},
            "streak": None if profile is None else self.streak(profile),
        }

    def streak(self, profile: Profile) -> int:
        """The consecutive UTC days, ending today or yesterday, on which the profile started a ranked try."""
        days = self.store.days_played(profile.id, STREAK_DAYS_READ)
        today = self.now().astimezone(UTC).date()
        expected = today if days and days[0] == today.isoformat() else today - timedelta(days=1)
        streak = 0
        for day in days:
            if day != expected.isoformat():
                break
            streak, expected = streak + 1, expected - timedelta(days=1)
        return streak

    def start(
        self, game: str, connection: HTTPConnection, name: str | None, lang: str, creator: str | None
    ) -> tuple[LiveGame, list[SeatSecret], bool]:
        """A new try of today's challenge: ranked for the request's profile (one per day: DailyAlreadyStarted),
        else unranked under `name`. Answers the game, its seats' secrets and whether it is ranked."""
        daily_rules(game)  # a game without a challenge is refused before anything else
        profile = self.profiles.signed_in(connection)
        if profile is None and (name is None or connection.headers.get("authorization")):
            raise ProfileRefused("profile_needed")  # a wrong secret is not taken for an unranked try
        date, ranked = self.today(), profile is not None
        if profile is not None and self.store.try_of(date, game, profile.id) is not None:
            raise DailyAlreadyStarted("daily_already_started", game=game)
        player = SeatRequest(profile.name if profile is not None else str(name), HUMAN)
        seats = self.profiles.seat_requests(connection, [(player, None)] + [(bot, None) for bot in DAILY_BOTS.get(game, ())])
        table = TableOptions(hints=HINTS_OFF, daily=DailyMark(date, ranked))
        live, seat_secrets = self.games.create(game, None, seats, self.seed(date, game), lang, table, creator)
        self.profiles.link_holders(live.id, enumerate(seat.holder for seat in seats))
        if profile is not None and not self.store.start(live.id, date, game, profile.id):
            delete_games(self.games.storage, [live.id])  # another process started the profile's try first
            raise DailyAlreadyStarted("daily_already_started", game=game)
        return live, seat_secrets, ranked

    def board(self, game: str, date: str | None) -> dict[str, Any]:
        """The day's board of the game (default today): its finished ranked tries by mean loss, then score."""
        daily_rules(game)
        day = date or self.today()
        rows = self.store.board(day, game)
        return {
            "date": day,
            "game": game,
            "final": not is_secret(DailyMark(day, True), self.now()),
            "rows": [
                {"rank": rank, "name": row.name, "mean_loss": row.mean_loss, "score": row.score,
                 "decisions": row.decisions, "finished_at": _iso(row.finished_at)}
                for rank, row in enumerate(rows, 1)
            ],
        }

    def check_reader(self, live: LiveGame, connection: HTTPConnection) -> None:
        """Refuse a reader of a daily challenge still secret unless the request proves its seat."""
        check_reader(live, proven_seat(connection), self.now())

    def secret_now(self, live: LiveGame) -> bool:
        return is_secret(live.table.daily, self.now())

    async def choices(self, game: str, game_id: str, seat: int, token: str) -> dict[str, Any]:
        """For each decision of the seat's finished daily game, how the day's ranked players chose there."""
        live = await self.games.find(game_id)
        mark = live.table.daily
        if mark is None or live.match.rules.game != game:
            raise DailyNotATry("daily_not_a_try", id=game_id, game=game)
        live.check_seat(seat, token)
        if not live.state.is_over:
            raise IllegalAction("daily_not_finished")
        await self.games.tables.ready(live.match.rules)
        return await run_in_threadpool(self._choices, live, mark, seat)

    def _choices(self, live: LiveGame, mark: DailyMark, seat: int) -> dict[str, Any]:
        review = self.reviews.review(live)
        decisions = [decision for decision in review["decisions"] if decision["seat"] == seat]
        with live.lock:
            positions = [position_key(live.history[decision["index"]]) for decision in decisions]
        counts = self.store.choices(mark.date, live.match.rules.game, set(positions))
        answer = []
        for decision, position in zip(decisions, positions):
            chosen = counts.get(position)
            others = 0 if chosen is None else sum(chosen.values())
            answer.append({
                "index": decision["index"], "turn": decision["turn"], "chosen": decision["chosen"],
                "best": decision["best"], "class": decision["class"], "loss": decision["loss"], "others": others,
                "choices": [
                    {"action": json.loads(action), "share": count / others}
                    for action, count in (chosen.most_common() if chosen else [])
                ],
            })
        players = self.store.started(mark.date, live.match.rules.game, ranked_only=True)
        return {"players": players, "decisions": answer}


def daily_rules(game: str) -> Rules:
    """The rules of a game's daily challenge; a game without one is refused as an unknown game."""
    if game not in DAILY_GAMES:
        raise UnknownGame("unknown_game", game=game, games=list(DAILY_GAMES))
    return rules_for(game)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")

