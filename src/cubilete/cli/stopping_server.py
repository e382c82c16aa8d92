"""uvicorn's server as `cubilete serve` runs it. Asked to stop (SIGTERM, Ctrl+C), it first refuses the
requests waiting for the solver's tables (503 server_stopping): a table build cannot be interrupted, and
those requests would hold uvicorn's graceful shutdown until it ends. /readyz answers 503 from then on, and
the server goes on taking connections for a moment (`drain`), long enough for a proxy's health check to
send the requests to another process: a proxy that cannot resend a request it sent to a closed port
(Caddy 2.6 with a POST) loses none. Then it shuts down as uvicorn does:
the other requests under way have the graceful timeout to end (serve.GRACEFUL_SHUTDOWN_SECONDS), and the
app's lifespan closes the rest, each part within its own bound."""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable
from typing import Any

import uvicorn

STARTUP_FAILURE = 3  # uvicorn's exit status when the app did not start (its lifespan failed)


class StoppingServer(uvicorn.Server):
    def __init__(self, config: uvicorn.Config, on_stop: Callable[[], None], drain: float) -> None:
        super().__init__(config)
        self._on_stop = on_stop
        self._drain = drain

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        await asyncio.to_thread(self._on_stop)  # it may wait a moment for a thread: not on the loop
        deadline = time.monotonic() + self._drain
        while time.monotonic() < deadline and not self.force_exit:  # a second Ctrl+C ends the drain
            await asyncio.sleep(0.05)
        await super().shutdown(sockets)


def serve_until_stopped(app: Any, on_stop: Callable[[], None], drain: float, **settings: Any) -> int:
    """Serve `app` in this process with uvicorn's `settings` (as `uvicorn.run` does) until asked to stop,
    calling `on_stop` first thing then and taking connections `drain` seconds more; answers the exit status."""
    server = StoppingServer(uvicorn.Config(app, **settings), on_stop, drain)
    try:
        server.run()
    except KeyboardInterrupt:  # Ctrl+C, raised again by uvicorn once it has shut down
        pass
    return 0 if server.started else STARTUP_FAILURE
