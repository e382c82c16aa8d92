"""The web app: `cubilete serve` runs it; `create_app` builds it for a database URL."""

from .app import create_app
from .socket_limits import SocketLimits

__all__ = ["SocketLimits", "create_app"]
