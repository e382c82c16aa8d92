"""gzip for the text the server sends (pages, styles, scripts, JSON, the QR code's SVG) to browsers
that accept it. A plain ASGI middleware around Starlette's GZipMiddleware, which already leaves
alone WebSockets, images, sounds and answers already encoded.

The action route (every move goes through it) answers uncompressed: its answers are a few KB, which
arrive in one round trip compressed or not, while compressing each costs the server about a tenth
of a millisecond of CPU per move (benchmarks/compression.py measures both).
"""

from __future__ import annotations

import re

from starlette.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp, Receive, Scope, Send

# Below about one network packet, compressing saves no round trip.
MINIMUM_SIZE = 1400
# zlib's own default: level 9 (Starlette's) costs more CPU for hardly fewer bytes on this text.
LEVEL = 6
UNCOMPRESSED = re.compile(r"/api/games/[^/]+/actions")


class Compression:
    def __init__(self, app: ASGIApp, minimum_size: int = MINIMUM_SIZE, uncompressed: re.Pattern[str] = UNCOMPRESSED):
        self.app = app
        self.gzip = GZipMiddleware(app, minimum_size=minimum_size, compresslevel=LEVEL)
        self.uncompressed = uncompressed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        plain = scope["type"] != "http" or self.uncompressed.fullmatch(scope["path"])
        await (self.app if plain else self.gzip)(scope, receive, send)
