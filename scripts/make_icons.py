"""Draw the app's PNG icons from static/icon.svg, once: the PNGs are committed, and the app needs no
image library at run time.

Writes web/static/icons/icon-192.png and icon-512.png (the SVG as it is, on a transparent
background) and icon-maskable-512.png (for launchers that cut icons to their own shape: the red
fills the whole square and the pips shrink to stay inside the central safe circle, 80 % of the
width). Chromium draws them: the browser the browser tests already use.

    .venv/bin/python scripts/make_icons.py [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
STATIC = ROOT / "src" / "cubilete" / "web" / "static"
sys.path.insert(0, str(ROOT / "tests"))
from harness import CHROMIUM_ARGS, chromium_path  # noqa: E402

MASKABLE_SCALE = 0.8  # the pips' group, shrunk about the centre into the safe circle


def maskable(svg: str) -> str:
    """The icon with its red square bled to the edges and its pips scaled into the safe zone."""
    full_bleed = re.sub(r'<rect [^>]*fill="(#[0-9a-f]+)"/>', r'<rect width="64" height="64" fill="\1"/>', svg)
    offset = 32 * (1 - MASKABLE_SCALE)
    return full_bleed.replace("<g ", f'<g transform="translate({offset:g} {offset:g}) scale({MASKABLE_SCALE:g})" ', 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chromium", default=chromium_path())
    args = parser.parse_args()
    svg = (STATIC / "icon.svg").read_text(encoding="utf-8")
    output = STATIC / "icons"
    output.mkdir(exist_ok=True)
    drawings = [("icon-192.png", svg, 192), ("icon-512.png", svg, 512), ("icon-maskable-512.png", maskable(svg), 512)]
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        for name, drawing, size in drawings:
            page = browser.new_page(viewport={"width": size, "height": size})
            sized = drawing.replace("<svg ", f'<svg width="{size}" height="{size}" ', 1)
            page.set_content(f"<html><body style='margin:0'>{sized}</body></html>")
            page.locator("svg").screenshot(path=str(output / name), omit_background=True)
            page.close()
            print(f"wrote {output / name}")
        browser.close()


if __name__ == "__main__":
    main()
