"""What monitors and proxies ask: `/healthz` (liveness: the process answers, and nothing else is asked)
and `/readyz` (readiness: the database answers a trivial query and takes a write that changes nothing,
and the broker a ping when there is one; else 503 with the code of the part that failed). A process asked
to stop answers 503 server_stopping at once, before it stops taking connections (cli/stopping_server.py),
so that a proxy checking it sends its requests to another process first.

A readiness check runs at most once a second, whoever asks, and callers in between get its answer:
asking often costs a stranger's requests, never the database's. Each part has READY_TIMEOUT to answer
and at most one thread waiting for it, so a database that hangs makes the answer 503, not a pile of
waiting threads."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

import anyio
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from ..storage import Storage
from .broker import Broker
from .refusals import refusal
from .tables import TableGate

READY_TIMEOUT = 2.0  # seconds each part (database, broker) has to answer a readiness check
CHECK_INTERVAL = 1.0  # seconds a readiness answer is given again before the parts are asked anew


class _Part:
    """A part the server needs, its check, and the refusal code when it fails."""

    def __init__(self, code: str, answers: Callable[[], bool]) -> None:
        self.code = code
        self.answers = answers
        self.waiting = anyio.CapacityLimiter(1)  # one thread per part, even while the part hangs

    async def is_ready(self) -> bool:
        with anyio.move_on_after(READY_TIMEOUT):
            return await anyio.to_thread.run_sync(self.answers, abandon_on_cancel=True, limiter=self.waiting)
        return False


class Readiness:
    """The last readiness answer: None when ready, else the code of the first part that failed."""

    def __init__(self, parts: Sequence[_Part]) -> None:
        self._parts = parts
        self._lock = anyio.Lock()
        self._checked = -math.inf
        self._failure: str | None = None

    async def failure(self) -> str | None:
        async with self._lock:
            if time.monotonic() - self._checked >= CHECK_INTERVAL:
                self._failure = await self._check()
                self._checked = time.monotonic()
            return self._failure

    async def _check(self) -> str | None:
        for part in self._parts:
            if not await part.is_ready():
                return part.code
        return None


def health_router(storage: Storage, broker: Broker, tables: TableGate) -> APIRouter:
    router = APIRouter()
    readiness = Readiness([
        _Part("database_unavailable", storage.answers),
        _Part("database_read_only", storage.takes_writes),
        _Part("broker_unavailable", broker.answers),
    ])

    # HEAD (what uptime monitors send) beside GET, out of the schema: one operation per path there
    @router.head("/healthz", include_in_schema=False)
    @router.get("/healthz", summary="Liveness: the process answers")
    async def alive() -> dict[str, str]:
        return {"status": "alive"}

    @router.head("/readyz", include_in_schema=False)
    @router.get(
        "/readyz",
        summary="Readiness: the database answers and takes writes, and the broker answers",
        responses={503: {"description": "not ready: the refusal's code names the part that failed"}},
    )
    async def ready(request: Request) -> JSONResponse:
        failed = "server_stopping" if tables.closed else await readiness.failure()
        if failed is None:
            return JSONResponse({"status": "ready"})
        return refusal(request, failed, {}, 503)

    return router
