"""What the routers reach through the app (`app.state`, set once by `create_app`): the game service,
the broker that tells other processes, who is at each table, where links point, the per-client
request budgets, the players' reactions, profiles, Web Push and the daily challenges."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from starlette.requests import HTTPConnection

from .access import Access
from .addresses import LinkBase
from .broker import Broker
from .daily import DailyService
from .games import Games
from .presence import Presence
from .profiles import Profiles
from .rate_limits import RequestRates
from .reactions import Reactions
from .socket_limits import GameAudiences

if TYPE_CHECKING:  # web/push's routes reach it through these services
    from .push import WebPush


@dataclass(frozen=True)
class Services:
    games: Games
    broker: Broker
    links: LinkBase
    rates: RequestRates
    access: Access  # who may create games, whether open tables are listed
    presence: Presence  # the seats whose pages are connected
    reactions: Reactions  # the seats' preset reactions, told to the table
    profiles: Profiles  # the names claimed on this server, and the seats that belong to them
    push: WebPush  # Web Push: the key, the subscriptions, the notifier the games tell
    audiences: GameAudiences  # the pages following each game live, within their bounds
    daily: DailyService  # the daily challenges: today's dice, the tries, the boards

    def link_base(self, connection: HTTPConnection) -> str:
        """The scheme, host and port links in answers to this request start with."""
        url = connection.url
        return self.links.for_request(url.scheme, connection.headers.get("host"), url.port)

    def game_url(self, connection: HTTPConnection, game_id: str) -> str:
        """The game's page at the address every device reaches (watch, invite and seat links start with it)."""
        return f"{self.link_base(connection)}/game/{game_id}"

    def home_data(self) -> dict[str, Any]:
        """What the home page shows of this server: its access rules, and whether friends' devices can
        reach it at all."""
        return self.access.page_data() | {"this_device_only": self.links.this_device_only}


def services(connection: HTTPConnection) -> Services:
    """The app's services, for a request or a WebSocket."""
    found: Services = connection.app.state.services
    return found


def games_of(connection: HTTPConnection) -> Games:
    return services(connection).games


def profiles_of(connection: HTTPConnection) -> Profiles:
    return services(connection).profiles
