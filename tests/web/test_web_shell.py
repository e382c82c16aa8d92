"""The installable app: its web manifest and icons, the service worker's script and what it keeps,
and the pages' links to them."""

from __future__ import annotations

import json
import re
import shutil
import struct
from pathlib import Path

from cubilete.web import shell
from cubilete.web.i18n import messages

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
HEX_COLOR = re.compile(r"#[0-9a-f]{6}")


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk comes first
    return width, height


# -- the manifest and its icons ------------------------------------------------------------


def test_the_manifest_is_served_as_a_web_manifest_with_the_fields_an_install_needs(client):
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/manifest+json"
    manifest = response.json()
    assert manifest["name"] == manifest["short_name"] == "cubilete"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert HEX_COLOR.fullmatch(manifest["theme_color"]) and HEX_COLOR.fullmatch(manifest["background_color"])


def test_the_manifest_speaks_the_readers_language(client):
    spanish = client.get("/manifest.webmanifest?lang=es").json()
    assert spanish["lang"] == "es"
    assert spanish["description"] == messages("es")[shell.DESCRIPTION] != shell.DESCRIPTION
    indonesian = client.get("/manifest.webmanifest", headers={"Accept-Language": "id-ID,id;q=0.9"}).json()
    assert indonesian["lang"] == "id" and indonesian["description"] == messages("id")[shell.DESCRIPTION]


def test_every_icon_of_the_manifest_exists_with_the_size_and_type_it_declares(client):
    icons = client.get("/manifest.webmanifest").json()["icons"]
    pngs = {}
    for icon in icons:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon
        assert response.headers["content-type"] == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(response.content)
            assert icon["sizes"] == f"{width}x{height}"
            pngs[(icon["sizes"], icon["purpose"])] = response.content
        else:
            assert icon["sizes"] == "any" and response.text.startswith("<svg")
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= set(pngs)
    assert pngs[("512x512", "maskable")] != pngs[("512x512", "any")]


def test_every_page_links_the_manifest_in_its_language_and_the_theme_colours(client):
    manifest = client.get("/manifest.webmanifest").json()
    for path in ("/?lang=id", "/rules/5000?lang=id", "/game/nope?lang=id"):
        html = client.get(path).text
        assert '<link rel="manifest" href="/manifest.webmanifest?lang=id">' in html
        assert '<script type="module" src="/static/js/shell.js"></script>' in html
        light = re.search(r'media="\(prefers-color-scheme: light\)" content="(#\w+)"', html)
        dark = re.search(r'media="\(prefers-color-scheme: dark\)" content="(#\w+)"', html)
        assert light and dark and light[1] == manifest["theme_color"] == shell.THEME_COLORS["light"]
        assert dark[1] == shell.THEME_COLORS["dark"] != light[1]


# -- the service worker ------------------------------------------------------------------------


def kept_addresses(script: str) -> list[str]:
    return json.loads(re.search(r"const SHELL = (\[.*?\]);", script, re.S)[1])


def test_the_service_worker_is_served_at_the_root_never_from_a_stale_http_cache(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    assert f'const VERSION = "{shell.shell_version()}";' in response.text
    assert "__SHELL__" not in response.text and "__VERSION__" not in response.text


def test_the_worker_keeps_the_whole_shell_and_every_address_it_keeps_answers(client):
    kept = kept_addresses(client.get("/sw.js").text)
    static = Path(shell.__file__).parent / "static"
    for folder in ("css", "js", "icons", "sounds"):
        for file in (static / folder).iterdir():
            assert f"/static/{folder}/{file.name}" in kept
    assert {"/", "/?lang=es", "/?lang=id", "/?lang=en", "/rules/penta", "/static/icon.svg"} <= set(kept)
    assert not [address for address in kept if address.startswith("/api/")]  # the API never comes from a cache
    for address in kept:
        assert client.get(address).status_code == 200, address


def test_a_release_that_changes_any_file_of_the_shell_is_a_new_worker(tmp_path, monkeypatch):
    package = tmp_path / "web"
    source = Path(shell.__file__).parent
    for part in ("static", "locales"):
        shutil.copytree(source / part, package / part)
    shutil.copy(source / "service_worker.js", package)
    monkeypatch.setattr(shell, "_package", lambda: package)
    versions = []
    for change in (None, package / "static" / "css" / "app.css", package / "locales" / "id" / "LC_MESSAGES" / "messages.po"):
        if change is not None:
            change.write_text(change.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        shell.shell_version.cache_clear()
        versions.append(shell.shell_version())
    shell.shell_version.cache_clear()
    assert len(set(versions)) == 3


def test_the_pages_security_policy_lets_the_worker_and_the_manifest_come_from_the_app_only(client):
    policy = client.get("/").headers["content-security-policy"]
    assert "worker-src 'self';" in policy and "manifest-src 'self';" in policy
    assert "media-src" not in policy and "blob:" not in policy  # the sounds are fetched and played with Web Audio
