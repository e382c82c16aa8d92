"""The web app: `cubilete serve` runs it; `create_app` builds it for a database URL."""

from .app import create_app

__all__ = ["create_app"]
