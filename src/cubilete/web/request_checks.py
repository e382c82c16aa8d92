"""What a request's head and text may hold, checked before any route sees it: a head (request line and
headers) of at most MAX_HEAD_BYTES, and no NUL character in its path, its query or its JSON body's text.

h11 bounds a head only while it is incomplete (cli/commands/serve.py sets the same 16 KB there), so a
larger head sent in one piece would pass; PostgreSQL stores no NUL in text, and a NUL in a game id or a
name would reach it. Both are refused alike on every database: HTTP with a coded refusal in the
request's language (431 `head_too_large`, 400 `nul_character`), a live socket closed with 4400 and the
code as its reason. A plain ASGI middleware inside Protections (security.py), which hands it the body
whole and adds the security headers to its refusals."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from .i18n import refusal_json, request_language
from .security import given_first

MAX_HEAD_BYTES = 16 * 1024
SOCKET_BAD_REQUEST = 4400  # as live.py closes a socket whose request it refuses
_NUL_ESCAPE = b"\\u0000"  # the only way a JSON body's text holds a NUL (a raw one is no JSON)


class RequestChecks:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        refusal = _head_refusal(scope)
        if refusal is None and scope["type"] == "http":
            first = await receive()  # the whole body: Protections read it
            if first["type"] == "http.request" and _holds_nul(first.get("body", b"")):
                refusal = (400, "nul_character", {})
            receive = given_first(first, receive)
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "http":
            status, code, params = refusal
            answer = JSONResponse(refusal_json(request_language(Request(scope)), code, params), status)
            await answer(scope, receive, send)
        else:
            await receive()  # the socket's connect
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.close", "code": SOCKET_BAD_REQUEST, "reason": refusal[1]})


def _head_refusal(scope: Scope) -> tuple[int, str, dict[str, Any]] | None:
    path, query = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape"), scope["query_string"]
    size = len(path) + len(query) + sum(len(name) + len(value) + 4 for name, value in scope["headers"])
    if size > MAX_HEAD_BYTES:
        return 431, "head_too_large", {"most": MAX_HEAD_BYTES // 1024}
    if "\x00" in scope["path"] or b"%00" in query or b"\x00" in query:
        return 400, "nul_character", {}
    return None


def _holds_nul(body: bytes) -> bool:
    """Whether a JSON body's text (a key or a value) holds a NUL; a body that is no JSON is left to the route."""
    if _NUL_ESCAPE not in body:
        return False
    try:
        pending = [json.loads(body)]
    except (ValueError, RecursionError):
        return False
    while pending:  # a stack, not recursion: a body may nest as deep as JSON's reader allows
        value = pending.pop()
        if isinstance(value, str) and "\x00" in value:
            return True
        if isinstance(value, dict):
            pending.extend(value.keys())
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False
