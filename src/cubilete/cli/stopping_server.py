"""uvicorn's server as `cubilete serve` runs it. Asked to stop (SIGTERM, Ctrl+C), it first refuses the
requests waiting for the solver's tables (503 server_stopping): a table build cannot be interrupted, and
those requests would hold uvicorn's graceful shutdown until it ends. Then it shuts down as uvicorn does:
the other requests under way have the graceful timeout to end (serve.GRACEFUL_SHUTDOWN_SECONDS), and the
app's lifespan closes the rest, each part within its own bound."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

import uvicorn

STARTUP_FAILURE = 3  # uvicorn's exit status when the app did not start (its lifespan failed)


class StoppingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, on_stop: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_stop = on_stop

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await asyncio.to_thread(self._on_stop)  # it may wait a moment for a thread: not on the loop
        await super().shutdown(sockets)


def serve_until_stopped(app: Any, on_stop: Callable[[], None], **settings: Any) -> int:
    """Serve `app` in this process with uvicorn's `settings` (as `uvicorn.run` does) until asked to stop,
    calling `on_stop` first thing then; answers the exit status."""
    server = StoppingServer(uvicorn.Config(app, **settings), on_stop)
    try:
        server.run()
    except KeyboardInterrupt:  # Ctrl+C, raised again by uvicorn once it has shut down
        pass
    return 0 if server.started else STARTUP_FAILURE
