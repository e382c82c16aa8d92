"""What makes the app installable on a phone: its web manifest, and the service worker that keeps
the app's shell for use without a connection (the worker's script is web/service_worker.js)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from functools import cache
from importlib.abc import Traversable
from importlib.resources import files
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from .. import __version__
from ..engine.games import GAMES
from ..translations import gettext
from .i18n import LANGUAGES, negotiate

# The top bar's colour in light and dark mode (app.css --card), as layout.html's theme-color says too.
THEME_COLORS = {"light": "#ffffff", "dark": "#1c222b"}
BACKGROUND_COLOR = "#f3efe6"  # the page's light background (app.css --bg), for the splash screen
DESCRIPTION = "Dice games to play alone, against bots or with friends."  # the home page's tagline
SHELL_FOLDERS = ("css", "js", "icons", "sounds")  # of web/static: everything a page loads
ICONS = (
    {"src": "/static/icons/icon-192.png", "sizes": "192x192", "type": "image/png", "purpose": "any"},
    {"src": "/static/icons/icon-512.png", "sizes": "512x512", "type": "image/png", "purpose": "any"},
    {"src": "/static/icons/icon-maskable-512.png", "sizes": "512x512", "type": "image/png", "purpose": "maskable"},
    {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml", "purpose": "any"},
)
MANIFEST_TYPE = "application/manifest+json"


def _package() -> Traversable:
    return files(__package__)


def _walk(folder: Traversable, path: str) -> Iterator[tuple[str, Traversable]]:
    """Every file below `folder`, as (its address under `path`, the file), in a stable order."""
    for entry in sorted(folder.iterdir(), key=lambda entry: entry.name):
        address = f"{path}/{entry.name}"
        if entry.is_dir():
            yield from _walk(entry, address)
        else:
            yield address, entry


def shell_files() -> list[str]:
    """The static files a page may load: its styles, scripts, icons and sounds."""
    static = _package().joinpath("static")
    found = ["/static/icon.svg"]
    for folder in SHELL_FOLDERS:
        found += [address for address, _file in _walk(static.joinpath(folder), f"/static/{folder}")]
    return found


def shell_pages() -> list[str]:
    """The pages kept: home (in the browser's language, and in each language), and the rules."""
    return ["/", *(f"/?lang={lang}" for lang in LANGUAGES), *(f"/rules/{game}" for game in GAMES)]


@cache
def shell_version() -> str:
    """A digest of everything the shell is made of: a release that changes any of it is a new worker."""
    digest = hashlib.sha256(__version__.encode())
    package = _package()
    for folder in ("static", "locales"):
        for address, file in _walk(package.joinpath(folder), folder):
            digest.update(address.encode())
            digest.update(file.read_bytes())
    digest.update(package.joinpath("service_worker.js").read_bytes())
    return digest.hexdigest()[:16]


@cache
def worker_script() -> bytes:
    template = _package().joinpath("service_worker.js").read_text(encoding="utf-8")
    shell = json.dumps([*shell_pages(), *shell_files()], indent=2)
    return template.replace("__VERSION__", shell_version()).replace("__SHELL__", shell).encode()


def manifest(lang: str) -> dict[str, Any]:
    return {
        "id": "/",
        "name": "cubilete",
        "short_name": "cubilete",
        "description": gettext(lang, DESCRIPTION),
        "lang": lang,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_COLORS["light"],
        "background_color": BACKGROUND_COLOR,
        "icons": list(ICONS),
        "categories": ["games"],
    }


def shell_router() -> APIRouter:
    router = APIRouter(include_in_schema=False)

    @router.get("/manifest.webmanifest")
    def web_manifest(request: Request) -> Response:
        lang = negotiate(
            (request.query_params.get("lang"), request.cookies.get("lang")), request.headers.get("accept-language")
        )
        return Response(json.dumps(manifest(lang), ensure_ascii=False), media_type=MANIFEST_TYPE)

    @router.get("/sw.js")
    def service_worker() -> Response:
        # Always checked with the server: a new release must reach the browser as a new worker.
        return Response(worker_script(), media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    return router
