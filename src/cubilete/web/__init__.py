"""The web app: `cubilete serve` runs it; `create_app` builds it for a database URL."""

from .access import Access
from .app import create_app
from .socket_limits import SocketLimits

__all__ = ["Access", "SocketLimits", "create_app"]
