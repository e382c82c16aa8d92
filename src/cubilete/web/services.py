"""What the routers reach through the app (`app.state`, set once by `create_app`): the game service,
the broker that tells other processes, who is at each table, where links point, and the per-client
request budgets."""

from __future__ import annotations

from dataclasses import dataclass

from starlette.requests import HTTPConnection

from .access import Access
from .addresses import LinkBase
from .broker import Broker
from .games import Games
from .presence import Presence
from .rate_limits import RequestRates


@dataclass(frozen=True)
class Services:
    games: Games
    broker: Broker
    links: LinkBase
    rates: RequestRates
    access: Access  # who may create games, whether open tables are listed
    presence: Presence  # the seats whose pages are connected

    def link_base(self, connection: HTTPConnection) -> str:
        """The scheme, host and port links in answers to this request start with."""
        url = connection.url
        return self.links.for_request(url.scheme, connection.headers.get("host"), url.port)


def services(connection: HTTPConnection) -> Services:
    """The app's services, for a request or a WebSocket."""
    found: Services = connection.app.state.services
    return found


def games_of(connection: HTTPConnection) -> Games:
    return services(connection).games
