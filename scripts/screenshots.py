"""Take the README's screenshots: the Penta, Generala and 5000 tables on a 375x667 phone screen.

Starts `cubilete serve` on a free port with a temporary database, plays a few turns of each game
through the API (fixed seeds, so the pictures are reproducible), opens each table in headless
Chromium and saves docs/screenshots/{penta,generala,5000}.png.

    .venv/bin/python scripts/screenshots.py [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import json
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

OUTPUT = Path(__file__).resolve().parent.parent / "docs" / "screenshots"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SETTINGS = json.dumps({"autoScore": False, "autoScoreSeconds": 3, "botPaceMs": 0})


class Api:
    def __init__(self, url: str) -> None:
        self.url = url

    def __call__(self, method: str, path: str, body: dict | None = None) -> dict:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            f"{self.url}{path}", data=data, method=method, headers={"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=300) as response:
            return json.load(response)

    def play(self, created: dict, action: dict) -> dict:
        view = self("GET", f"/api/games/{created['id']}")
        seat = view["current_player"]
        body = {"seat": seat, "token": created["seats"][seat]["token"], "action": action}
        return self("POST", f"/api/games/{created['id']}/actions", body)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(database: Path) -> tuple[subprocess.Popen, str]:
    port = free_port()
    command = [sys.executable, "-m", "cubilete.cli.main", "serve", "--port", str(port), "--database", f"sqlite:///{database}"]
    server = subprocess.Popen(command)
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            urllib.request.urlopen(f"{url}/api/games/options", timeout=1)
            return server, url
        except OSError:
            time.sleep(0.1)
    server.terminate()
    raise SystemExit("cubilete serve did not start")


def sheet_turns(api: Api, created: dict, turns: int) -> None:
    """Whole turns: roll three times, then let the computer score (the auto-score)."""
    for _ in range(turns):
        api.play(created, {"type": "roll"})
        for _ in range(2):
            api.play(created, {"type": "keep", "held": []})
        api.play(created, {"type": "auto"})


def penta(api: Api) -> tuple[str, dict]:
    human, bot = {"name": "Ana", "kind": "human"}, {"name": "Robot", "kind": "bot", "level": "optimal"}
    created = api("POST", "/api/games", {"game": "penta", "players": [human, bot], "seed": 11, "lang": "es"})
    sheet_turns(api, created, 6)
    api.play(created, {"type": "roll"})
    return "penta", created


def generala(api: Api) -> tuple[str, dict]:
    players = [{"name": "Sari", "kind": "human"}, {"name": "Budi", "kind": "human"}]
    created = api("POST", "/api/games", {"game": "generala", "players": players, "seed": 5, "lang": "id"})
    sheet_turns(api, created, 8)
    api.play(created, {"type": "roll"})
    return "generala", created


def five_thousand(api: Api) -> tuple[str, dict]:
    """Play until both are in the game and Ana has just rolled points she may not bank yet."""
    players = [{"name": "Ana", "kind": "human"}, {"name": "Robot", "kind": "bot", "level": "optimal"}]
    created = api("POST", "/api/games", {"game": "5000", "players": players, "seed": 3, "lang": "en"})
    view = api("GET", f"/api/games/{created['id']}")
    for _ in range(400):
        table = view["table"]
        if table["phase"] == "decide" and min(view["scores"]) > 0 and table["must_roll_reason"]:
            break
        bank = table["can_bank"] and table["turn_points"] >= 300
        view = api.play(created, {"type": "bank" if bank else "roll"})
    return "5000", created


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        server, url = start_server(Path(folder) / "games.sqlite3")
        try:
            api = Api(url)
            tables = [penta(api), generala(api), five_thousand(api)]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
                for name, created in tables:
                    context = browser.new_context(viewport={"width": 375, "height": 667}, device_scale_factor=2)
                    context.add_init_script(f"localStorage.setItem('cubilete.settings', '{SETTINGS}')")
                    page = context.new_page()
                    page.goto(f"{url}{created['url']}#seat=0&token={created['seats'][0]['token']}")
                    page.wait_for_selector("#table[data-ready]")
                    if name != "5000":
                        page.click("[data-die='0']")
                        page.click("[data-die='1']")
                    page.wait_for_timeout(600)  # the end of the roll animation
                    page.screenshot(path=OUTPUT / f"{name}.png")
                    print(OUTPUT / f"{name}.png")
                    context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
