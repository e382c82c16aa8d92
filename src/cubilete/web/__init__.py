"""The web app: `cubilete serve` runs it; `create_app` builds it for a database URL."""

from .app import create_app
from .socket_limits import SocketLimits
from .tables import TableGate

__all__ = ["SocketLimits", "TableGate", "create_app"]
