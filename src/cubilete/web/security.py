"""Protections on every HTTP response: security headers, a bound on request bodies and on how long
a body may take to arrive. A plain ASGI middleware, so that it also sees requests the app refuses."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

Scope = dict[str, Any]
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 64 * 1024
BODY_TIMEOUT_SECONDS = 15.0

# The service worker (/sw.js) and the web manifest come from the app itself; the sounds are fetched
# (connect-src) and played with Web Audio, so no media-src beyond default-src is needed.
_PAGE_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
# FastAPI's /docs and /redoc pages load their script from a CDN and start it inline.
_DOCS_POLICY = (
    "default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
    "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; img-src 'self' data: https://fastapi.tiangolo.com; "
    "worker-src 'self' blob:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
)
_DOCS_PATHS = ("/docs", "/redoc")


def _headers(policy: str) -> tuple[tuple[bytes, bytes], ...]:
    return (
        (b"content-security-policy", policy.encode()),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"x-content-type-options", b"nosniff"),
    )


# Built once: every response carries them.
_PAGE_HEADERS = _headers(_PAGE_POLICY)
_DOCS_HEADERS = _headers(_DOCS_POLICY)


class _BodyRefused(Exception):
    def __init__(self, status: int, detail: str) -> None:
        self.status, self.detail = status, detail


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that gives the body already read, then waits for the client's disconnect."""
    delivered = False

    async def replay() -> Message:
        nonlocal delivered
        if not delivered:
            delivered = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replay


class Protections:
    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY_BYTES, body_timeout: float = BODY_TIMEOUT_SECONDS) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = _DOCS_HEADERS if scope["path"].startswith(_DOCS_PATHS) else _PAGE_HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = message.get("headers", [])
                names = {name.lower() for name, _ in headers}
                message = {**message, "headers": [*headers, *(h for h in extra if h[0] not in names)]}
            await send(message)

        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_body:
            await self._refuse(send_with_headers, 413, self._too_large())
            return
        try:
            body = await self._read_body(receive)
        except _BodyRefused as refusal:
            await self._refuse(send_with_headers, refusal.status, refusal.detail)
            return
        await self.app(scope, _replay(body, receive), send_with_headers)

    async def _read_body(self, receive: Receive) -> bytes:
        """The whole body, refused once it grows past the bound or has not arrived in time."""
        chunks, size, more = [], 0, True
        try:
            async with asyncio.timeout(self.body_timeout):  # a timer, not a task per message as wait_for makes
                while more:
                    message = await receive()
                    if message["type"] != "http.request":
                        raise _BodyRefused(400, "the client left before sending the whole body")
                    chunk = message.get("body", b"")
                    size += len(chunk)
                    if size > self.max_body:
                        raise _BodyRefused(413, self._too_large())
                    chunks.append(chunk)
                    more = message.get("more_body", False)
        except TimeoutError:
            raise _BodyRefused(408, f"the request body did not arrive within {self.body_timeout:g} s") from None
        return b"".join(chunks)

    def _too_large(self) -> str:
        return f"the request body is larger than {self.max_body // 1024} KB"

    @staticmethod
    async def _refuse(send: Send, status: int, detail: str) -> None:
        body = json.dumps({"detail": detail, "message": detail}).encode()
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())],
            }
        )
        await send({"type": "http.response.body", "body": body})
