"""gzip for the text the server sends (pages, styles, scripts, JSON, the QR code's SVG) to browsers
that accept it. A plain ASGI middleware around Starlette's GZipMiddleware, which already leaves
alone WebSockets, images, sounds and answers already encoded.

The action route (every move goes through it) compresses its own answers, and only the large ones,
those that carry a bot's turn (about 10 KB in Penta, 0.9 KB gzipped): a player's own move answers
1.5 to 4 KB, which arrive in one round trip compressed or not, while compressing each would cost the
server about twice the CPU of letting it through, and even passing each through GZipMiddleware
costs a move more than the compressing of the few large ones (benchmarks/compression.py).
"""

from __future__ import annotations

import gzip
import re

from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

# Below about one network packet, compressing saves no round trip.
MINIMUM_SIZE = 1400
ACTION_MINIMUM_SIZE = 8192
ACTION_ROUTE = re.compile(r"/api/games/[^/]+/actions")
# zlib's own default: level 9 (Starlette's) costs more CPU for hardly fewer bytes on this text.
LEVEL = 6


class Compression:
    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=MINIMUM_SIZE, compresslevel=LEVEL)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or ACTION_ROUTE.fullmatch(scope["path"]):
            await self.app(scope, receive, send)
        else:
            await self.gzip(scope, receive, send)


def action_answer(body: bytes, accept_encoding: str) -> Response:
    """The action route's JSON answer: gzipped from ACTION_MINIMUM_SIZE for a client that accepts it."""
    if len(body) < ACTION_MINIMUM_SIZE or "gzip" not in accept_encoding:
        return Response(body, media_type="application/json")
    headers = {"Content-Encoding": "gzip", "Vary": "Accept-Encoding"}
    return Response(gzip.compress(body, LEVEL, mtime=0), media_type="application/json", headers=headers)
