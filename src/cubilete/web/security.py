"""Protections on every HTTP response: security headers (on an unexpected failure's 500 too), a bound
on request bodies and on how long a body may take to arrive, and a refusal of JSON bodies holding text
no UTF-8 can carry (refused in the request's language, like the app's refusals). A plain ASGI
middleware, so that it also sees requests the app refuses."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

from starlette.requests import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .i18n import refusal_json, request_language

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
# A JSON escape of a surrogate (\\ud800 to \\udfff), or a surrogate's raw UTF-8 bytes (ED A0 80 to ED BF BF,
# which no UTF-8 allows but Python's JSON reader decodes): only then can a body hold a lone one.
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]|\xed[\xa0-\xbf]")


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


class _BodyDeadlines:
    """The requests still reading their bodies and when each must have it, watched by one timer for
    all of them: a timer per request cost about as much as the rest of this middleware, on every move."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self._interval = min(1.0, timeout / 4)  # a slow body is refused at most this late
        self._reading: dict[asyncio.Task[Any], float] = {}
        self._expired: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._watching = False

    def start(self) -> asyncio.Task[Any]:
        """The current request starts reading its body."""
        loop, task = asyncio.get_running_loop(), asyncio.current_task()
        assert task is not None, "a request is served by a task"
        if loop is not self._loop:  # a new event loop (tests start one per client): nothing of the old one is kept
            self._loop, self._watching = loop, False
            self._reading.clear()
            self._expired.clear()
        self._reading[task] = loop.time() + self.timeout
        if not self._watching:
            self._watching = True
            loop.call_later(self._interval, self._watch)
        return task

    def ran_out(self, task: asyncio.Task[Any]) -> bool:
        """Whether the request's time ran out: then it was cancelled for it, which is taken back."""
        if task not in self._expired:
            return False
        task.uncancel()
        return True

    def stop(self, task: asyncio.Task[Any]) -> None:
        """The request no longer reads its body (it has it, was refused, or ran out of time)."""
        self._reading.pop(task, None)
        self._expired.discard(task)

    def _watch(self) -> None:
        assert self._loop is not None
        now = self._loop.time()
        for task, deadline in list(self._reading.items()):
            if deadline <= now:
                del self._reading[task]
                self._expired.add(task)
                task.cancel()
        self._watching = bool(self._reading)
        if self._watching:
            self._loop.call_later(self._interval, self._watch)


class _BodyRefused(Exception):
    """A refused body; `unread`: some of it may still be on its way, so the connection is closed with the
    answer (else a body trickling in, a byte every few seconds, holds it for ever)."""

    def __init__(self, status: int, code: str, unread: bool = True, **params: Any) -> None:
        self.status, self.code, self.unread, self.params = status, code, unread, params


def given_first(first: Message, receive: Receive) -> Receive:
    """A receive that gives `first` (a message a middleware already read, e.g. the whole body), then the
    client's next messages (its disconnect)."""
    given = False

    async def again() -> Message:
        nonlocal given
        if not given:
            given = True
            return first
        return await receive()

    return again


class Protections:
    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY_BYTES, body_timeout: float = BODY_TIMEOUT_SECONDS) -> None:
        self.app = app
        self.max_body = max_body
        self.body_deadlines = _BodyDeadlines(body_timeout)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = _DOCS_HEADERS if scope["path"].startswith(_DOCS_PATHS) else _PAGE_HEADERS

        started = False

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":  # no route sets these headers itself
                message["headers"] = [*message.get("headers", ()), *extra]
                started = True
            await send(message)

        declared = next((value for name, value in scope["headers"] if name == b"content-length"), None)
        try:
            if declared is not None and declared.isdigit() and int(declared) > self.max_body:
                raise self._too_large()
            body = await self._read_body(receive)
            if _SURROGATE_ESCAPE.search(body) and _holds_lone_surrogate(body):
                raise _BodyRefused(400, "body_unreadable", unread=False)
        except _BodyRefused as refusal:
            await _refuse(scope, send_with_headers, refusal)
            return
        try:
            await self.app(scope, given_first({"type": "http.request", "body": body, "more_body": False}, receive), send_with_headers)
        except Exception:
            # Starlette's own 500 would be sent outside this middleware, without the headers; the
            # error still goes on to be logged.
            if not started:
                await _internal_error(send_with_headers)
            raise

    async def _read_body(self, receive: Receive) -> bytes:
        """The whole body, refused once it grows past the bound or has not arrived in time."""
        chunks, size, more = [], 0, True
        task = self.body_deadlines.start()
        try:
            while more:
                message = await receive()
                if message["type"] != "http.request":
                    raise _BodyRefused(400, "body_cut_short")
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > self.max_body:
                    raise self._too_large()
                chunks.append(chunk)
                more = message.get("more_body", False)
        except asyncio.CancelledError:
            if self.body_deadlines.ran_out(task):
                raise _BodyRefused(408, "body_too_slow", seconds=f"{self.body_deadlines.timeout:g}") from None
            raise
        finally:
            self.body_deadlines.stop(task)
        return b"".join(chunks)

    def _too_large(self) -> _BodyRefused:
        return _BodyRefused(413, "body_too_large", most=self.max_body // 1024)


def _holds_lone_surrogate(body: bytes) -> bool:
    """Whether a JSON body holds a lone surrogate (\\ud800 alone): text that no database, JSON answer or
    page can carry. A body that is not JSON is left to the route to refuse."""
    try:
        json.dumps(json.loads(body), ensure_ascii=False).encode()
    except UnicodeEncodeError:
        return True
    except (ValueError, RecursionError):
        return False
    return False


async def _internal_error(send: Send) -> None:
    """Starlette's answer to an unexpected failure, sent from here."""
    text = b"Internal Server Error"
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(text)).encode())]
    await send({"type": "http.response.start", "status": 500, "headers": headers})
    await send({"type": "http.response.body", "body": text})


async def _refuse(scope: Scope, send: Send, refusal: _BodyRefused) -> None:
    lang = request_language(Request(scope))
    body = json.dumps(refusal_json(lang, refusal.code, refusal.params)).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if refusal.unread:
        headers.append((b"connection", b"close"))  # uvicorn closes the connection once the answer is sent
    await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
