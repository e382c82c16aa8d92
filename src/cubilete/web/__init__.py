"""The web app: `cubilete serve` runs it; `create_app` builds it for a database URL."""

from .access import Access
from .app import create_app
from .rate_limits import NO_RATE_LIMITS, RateLimits
from .socket_limits import SocketLimits
from .tables import TableGate

__all__ = ["NO_RATE_LIMITS", "Access", "RateLimits", "SocketLimits", "TableGate", "create_app"]
