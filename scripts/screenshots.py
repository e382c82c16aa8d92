"""Take the README's screenshots: the Penta, Generala and 5000 tables and a game's review on a
375x667 phone screen.

Starts `cubilete serve` on a free port with a temporary database, plays a few turns of each game
through the API (fixed seeds, so the pictures are reproducible), opens each table in headless
Chromium and saves docs/screenshots/{penta,generala,5000}.png; then plays a whole Penta game (one
bad choice on purpose), opens its review, taps that decision and saves docs/screenshots/review.png.

    .venv/bin/python scripts/screenshots.py [--chromium /usr/bin/chromium]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from harness import CHROMIUM_ARGS, PHONE, Server, chromium_path, free_port  # noqa: E402

OUTPUT = ROOT / "docs" / "screenshots"
LANGS = {"penta": "es", "generala": "id", "5000": "en"}  # one table in each language
SETTINGS = json.dumps({"autoScore": False, "autoScoreSeconds": 3, "botPaceMs": 0})


class Api:
    """The server's JSON API, acting for whichever seat is to move."""

    def __init__(self, server: Server) -> None:
        self.server = server

    def __call__(self, method: str, path: str, body: dict | None = None) -> dict:
        return self.server.api(method, path, body)

    def play(self, created: dict, action: dict) -> dict:
        view = self("GET", f"/api/games/{created['id']}")
        seat = view["current_player"]
        body = {"seat": seat, "token": created["seats"][seat]["token"], "action": action}
        return self("POST", f"/api/games/{created['id']}/actions", body)


def sheet_turns(api: Api, created: dict, turns: int) -> None:
    """Whole turns: roll three times, then let the computer score (the auto-score)."""
    for _ in range(turns):
        api.play(created, {"type": "roll"})
        for _ in range(2):
            api.play(created, {"type": "keep", "held": []})
        api.play(created, {"type": "auto"})


def penta(api: Api) -> tuple[str, dict]:
    """Four players: the whole sheet on the phone's screen."""
    levels = (("Robot", "optimal"), ("Luz", "casual"), ("Max", "beginner"))
    players = [{"name": "Ana", "kind": "human"}] + [{"name": name, "kind": "bot", "level": level} for name, level in levels]
    created = api("POST", "/api/games", {"game": "penta", "players": players, "seed": 11, "lang": LANGS["penta"]})
    sheet_turns(api, created, 6)
    api.play(created, {"type": "roll"})
    return "penta", created


def generala(api: Api) -> tuple[str, dict]:
    # Budi is a bot: a chosen seed (reproducible pictures) is only for a game with one human seat
    players = [{"name": "Sari", "kind": "human"}, {"name": "Budi", "kind": "bot", "level": "casual"}]
    created = api("POST", "/api/games", {"game": "generala", "players": players, "seed": 5, "lang": LANGS["generala"]})
    sheet_turns(api, created, 4)  # each of Sari's turns is followed by Budi's
    api.play(created, {"type": "roll"})
    return "generala", created


def five_thousand(api: Api) -> tuple[str, dict]:
    """Play until both are in the game and Ana has just rolled points she may not bank yet."""
    players = [{"name": "Ana", "kind": "human"}, {"name": "Robot", "kind": "bot", "level": "optimal"}]
    created = api("POST", "/api/games", {"game": "5000", "players": players, "seed": 3, "lang": LANGS["5000"]})
    view = api("GET", f"/api/games/{created['id']}")
    for _ in range(400):
        table = view["table"]
        if table["phase"] == "decide" and min(view["scores"]) > 0 and table["must_roll_reason"]:
            break
        bank = table["can_bank"] and table["turn_points"] >= 300
        view = api.play(created, {"type": "bank" if bank else "roll"})
    return "5000", created


def reviewed_penta(api: Api) -> dict:
    """A whole Penta game against the bot, Ana playing the hints' best choice but twice: the chance
    box on the first roll, and three sixes rolled again in a later turn."""
    human, bot = {"name": "Ana", "kind": "human"}, {"name": "Robot", "kind": "bot", "level": "optimal"}
    created = api("POST", "/api/games", {"game": "penta", "players": [human, bot], "seed": 11, "lang": "es"})
    api.play(created, {"type": "roll"})
    view = api.play(created, {"type": "score", "box": "chance"})
    seat = {"seat": 0, "token": created["seats"][0]["token"]}
    slipped = False
    while not view["is_over"]:
        if view["to_roll"]:
            view = api.play(created, {"type": "roll"})
            continue
        best = api("POST", f"/api/games/{created['id']}/hint", seat)["options"][0]
        if not slipped and view["table"]["dice"].count(6) >= 3 and view["table"]["can_reroll"]:
            best, slipped = {"kind": "keep", "keep": []}, True
        if best["kind"] == "score":
            action = {"type": "score", "box": best["box"]}
        else:
            dice, held = view["table"]["dice"], []
            for value in best["keep"]:
                held.append(next(i for i, die in enumerate(dice) if die == value and i not in held))
            action = {"type": "keep", "held": sorted(held)}
        view = api.play(created, action)
    return created


def review_screenshot(browser, server: Server, created: dict) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
    context.add_init_script(f"localStorage.setItem('cubilete.tokens.{created['id']}', "
                            f"'{json.dumps({'0': created['seats'][0]['token']})}')")
    page = context.new_page()
    page.goto(f"{server.url}/game/{created['id']}/review?lang=es")
    page.click(".costliest [data-decision='1']")
    page.wait_for_selector("[data-position] .options")
    page.wait_for_timeout(600)  # the end of the smooth scroll
    page.evaluate("window.scrollTo(0, 0)")  # the top bar at the top of the whole page
    page.screenshot(path=OUTPUT / "review.png", full_page=True)
    print(OUTPUT / "review.png")
    context.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chromium", default=chromium_path())
    args = parser.parse_args()
    OUTPUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        server = Server(f"sqlite:///{folder / 'games.sqlite3'}", free_port(), folder / "server.log").start()
        try:
            api = Api(server)
            tables = [penta(api), generala(api), five_thousand(api)]
            reviewed = reviewed_penta(api)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
                for name, created in tables:
                    context = browser.new_context(viewport=PHONE, device_scale_factor=2)
                    context.add_init_script(f"localStorage.setItem('cubilete.settings', '{SETTINGS}')")
                    page = context.new_page()
                    page.goto(f"{server.url}{created['url']}?lang={LANGS[name]}#seat=0&token={created['seats'][0]['token']}")
                    page.wait_for_selector("#table[data-ready]")
                    if name != "5000":
                        page.click("[data-die='0']")
                        page.click("[data-die='1']")
                    page.wait_for_timeout(600)  # the end of the roll animation
                    page.screenshot(path=OUTPUT / f"{name}.png")
                    print(OUTPUT / f"{name}.png")
                    context.close()
                review_screenshot(browser, server, reviewed)
                browser.close()
        finally:
            server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
