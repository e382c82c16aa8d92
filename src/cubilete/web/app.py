"""The web app, assembled: its services (the game service on a database, the broker, where links
point), its middleware, its refusals, and its routers, each in a module named for its subject:
game_routes.py (games and every move), seat_routes.py, page_routes.py, review_routes.py,
record_routes.py, profile_routes.py, rating_routes.py, chances.py, shell.py, health_routes.py and push/routes.py; the static
files last. While it runs, games that never got a move are swept away (unplayed_games.py), and the expired
turns of games by correspondence are played (correspondence.py).

Lifecycle: `create_app` starts no thread and no task. The lifespan starts the broker's and the pushes'
threads, the three sweepers (unplayed games, correspondence, the daily rollover: daily_rollover.py) and the
ratings' job (ratings.py), and on the way out stops the sweepers and the job, then closes each service in turn
(a failure closing one is logged and the others are still closed); each close is bounded, so that a
process asked to stop exits within seconds whatever it is doing (docs/architecture.md, "Lifecycle")."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import timedelta
from importlib.resources import files
from typing import TYPE_CHECKING

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from ..storage import Storage
from ..storage.connections import DATABASE_TIMEOUT
from .access import Access
from .addresses import LinkBase
from .broker import Broker, BrokerUnreachable, ForeignMessageVersion
from .chances import chances_router
from .compression import Compression
from .correspondence import sweeping_correspondence
from .daily import DailyService
from .daily_rollover import sweeping_daily
from .daily_routes import daily_router
from .export_routes import export_router
from .game_routes import add_move_route, game_router
from .games import Games
from .health_routes import health_router
from .open_broker import open_broker
from .page_routes import page_router
from .passkeys import Passkeys
from .presence import Presence
from .profile_routes import my_games_router, passkey_router, profile_router
from .profiles import Profiles
from .push import PushSettings, WebPush, profile_push_router, push_router
from .rate_limits import RateLimits, RequestRates
from .rating_routes import rating_router
from .ratings import RatingJob, rating_games
from .reactions import Reactions
from .record_routes import record_router
from .refusals import add_refusal_handlers
from .request_checks import RequestChecks
from .review_routes import review_router
from .seat_routes import seat_router
from .security import BODY_TIMEOUT_SECONDS, Protections
from .services import Services
from .shell import shell_router
from .socket_limits import GameAudiences, SocketBounds, SocketLimits
from .tables import TableGate
from .unplayed_games import UNPLAYED_MAX_AGE, sweeping_unplayed

if TYPE_CHECKING:
    from .metrics import Metrics

# A test hook: every turn clock lasts this fraction of its seconds (CUBILETE_CLOCK_SCALE=0.1: 30 s become 3 s).
CLOCK_SCALE_VARIABLE = "CUBILETE_CLOCK_SCALE"
log = logging.getLogger(__name__)


def create_app(
    database_url: str | None = None,
    broker_url: str | None = None,
    *,
    public_url: str | None = None,
    listen_host: str = "127.0.0.1",
    clock_scale: float | None = None,
    socket_limits: SocketLimits | None = None,
    rate_limits: RateLimits | None = None,
    unplayed_max_age: timedelta | None = UNPLAYED_MAX_AGE,
    database_timeout: float = DATABASE_TIMEOUT,
    tables: TableGate | None = None,
    access: Access | None = None,
    push: PushSettings | None = None,
    body_timeout: float = BODY_TIMEOUT_SECONDS,
    metrics_token: str | None = None,
) -> FastAPI:
    """The app on a database (default: SQLite in the user's data directory) and a broker that tells
    other server processes of each change (default: none, one process); `public_url` (behind a
    proxy) or the address it listens on decide where links point. `clock_scale` (default: the
    CUBILETE_CLOCK_SCALE variable, else 1) shortens the turn clocks for tests. `socket_limits` bound the
    WebSockets (web/socket_limits.py), `rate_limits` the costly requests per client (web/rate_limits.py;
    default: RateLimits()); games that never got a move are deleted once `unplayed_max_age` old (None: never).
    `database_timeout`: the longest wait for the database, in seconds (storage/connections.py); beyond,
    a request is refused 503. `tables` prepares the solver's tables (default: within web/tables.py's budget);
    `access` (default: open to all) keeps creating games to those who know a password, and may hide the
    open tables (web/access.py). `push`: the push services pushes may go to, and the contact they are
    signed with (web/push/). `body_timeout`: the seconds a request body may take to arrive (web/security.py).
    `metrics_token`: serve GET /metrics to whoever brings it (web/metrics.py; default: no figures kept)."""
    storage = Storage(database_url, database_timeout)
    try:
        broker = open_broker(broker_url, storage.install.name())
    except (BrokerUnreachable, ForeignMessageVersion):
        storage.close()
        raise
    clock_scale = float(os.environ.get(CLOCK_SCALE_VARIABLE, "1")) if clock_scale is None else clock_scale
    tables = tables or TableGate()
    games = Games(storage, tables, broker, clock_scale=clock_scale)
    links, presence = LinkBase(public_url, listen_host), Presence(broker)
    profiles = Profiles(storage, games.seats_changed)  # a rename or deletion changes its seats' games
    daily = DailyService(games, profiles)
    metrics = host_metrics(games, metrics_token) if metrics_token else None
    tally = metrics.pushed if metrics else None  # each push's outcome, counted
    web_push = WebPush(storage, presence, push or PushSettings(), public_url, seat_owner=profiles.owner, tally=tally)
    games.watchers.append(web_push.notifier)
    ratings = RatingJob(games, storage.ratings)  # takes in the games this process finishes
    games.watchers.append(ratings)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        try:
            broker.start()
            web_push.start()
            async with (
                sweeping_unplayed(games, unplayed_max_age),
                sweeping_correspondence(games, web_push.notifier.quarter_left),
                sweeping_daily(daily),
                rating_games(ratings),
            ):
                yield
        finally:
            close_each(web_push.close, games.close, tables.close, broker.close, storage.close)

    app = FastAPI(
        title="cubilete", description="Penta, Generala, 5000, Yahtzee, Yatzy and Kniffel: play in the browser.", lifespan=lifespan
    )
    rates = RequestRates(rate_limits)
    app.state.services = Services(
        games, broker, links, rates, access or Access(), presence, Reactions(broker), profiles, web_push,
        GameAudiences(socket_limits), daily,
    )
    app.add_middleware(RequestChecks)  # inside Protections: given the whole body, its refusals get the headers
    app.add_middleware(Protections, body_timeout=body_timeout)
    app.add_middleware(SocketBounds, limits=socket_limits)
    app.add_middleware(Compression)
    add_refusal_handlers(app)
    include_routes(app, storage, broker, games, profiles)
    if metrics:
        metrics.serve(app)  # after the other middlewares: the outermost, it counts their refusals too
    return app


def host_metrics(games: Games, token: str) -> Metrics:
    """The figures of web/metrics.py, imported only by a host who asked for them (prometheus_client)."""
    from .metrics import Metrics

    return Metrics(games, token)


def include_routes(app: FastAPI, storage: Storage, broker: Broker, games: Games, profiles: Profiles) -> None:
    """Every route of the app, the move's first (on the app's router itself), the static files last."""
    add_move_route(app.router)
    app.include_router(health_router(storage, broker, games.tables))
    app.include_router(page_router)
    app.include_router(game_router)
    app.include_router(seat_router)
    app.include_router(push_router)
    app.include_router(profile_push_router(lambda request: profiles.required(request).id))
    app.include_router(review_router(games))
    app.include_router(record_router(games))
    app.include_router(my_games_router)  # before /api/profiles/{name}
    app.include_router(profile_router(games, profiles))
    app.include_router(rating_router(storage.ratings))
    app.include_router(passkey_router(Passkeys(storage, profiles)))
    app.include_router(export_router(games))
    app.include_router(chances_router(games))
    app.include_router(daily_router)
    app.include_router(shell_router())
    app.mount("/static", StaticFiles(directory=str(files(__package__).joinpath("static"))), name="static")


def close_each(*closes: Callable[[], None]) -> None:
    """Call each close in turn: one that fails is logged, and the others are still called."""
    for close in closes:
        try:
            close()
        except Exception:
            log.exception("stopping: %s failed", getattr(close, "__qualname__", close))
