"""The review API's speed: GET /api/games/{id}/review for a whole game, with the solver tables loaded.

    .venv/bin/python benchmarks/review_api.py [--games 5]

The app runs in this process (FastAPI's TestClient, a temporary SQLite database). Each game is a
human seat against the optimal bot: in Penta the human rerolls everything twice and lets the
computer score (many decisions cost something); in 5000 the human banks at 350 points or more.
"fresh" is the first request for the game, with solvers.sheet.options' remembered turns forgotten first
(every turn of the review computed as it walks it); "cached" asks again (the app's review cache).
The median over the games is printed, with the number of decisions reviewed.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from cubilete.solvers.sheet import options as sheet_options
from cubilete.web import create_app

HUMAN = {"name": "Ana", "kind": "human"}
BOT = {"name": "Bot", "kind": "bot", "level": "optimal"}


class Game:
    def __init__(self, client: TestClient, game: str, seed: int) -> None:
        self.client = client
        body = {"game": game, "players": [HUMAN, BOT], "seed": seed}
        self.created = client.post("/api/games", json=body).json()
        self.id = self.created["id"]

    def act(self, action: dict) -> dict:
        body = {"seat": 0, "token": self.created["seats"][0]["token"], "action": action}
        return self.client.post(f"/api/games/{self.id}/actions", json=body).json()

    def play_penta(self) -> None:
        view = {"is_over": False}
        while not view["is_over"]:
            for action in ({"type": "roll"}, {"type": "keep", "held": []}, {"type": "keep", "held": []}):
                self.act(action)
            view = self.act({"type": "auto"})

    def play_five_thousand(self) -> None:
        view = self.client.get(f"/api/games/{self.id}").json()
        while not view["is_over"]:
            table = view["table"]
            bank = table["can_bank"] and table["turn_points"] >= 350
            view = self.act({"type": "bank" if bank else "roll"})

    def timed_review(self) -> tuple[float, int]:
        started = time.perf_counter()
        review = self.client.get(f"/api/games/{self.id}/review").json()
        return time.perf_counter() - started, len(review["decisions"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder, TestClient(create_app(f"sqlite:///{Path(folder) / 'g.db'}")) as client:
        for game in ("penta", "5000"):
            warm = Game(client, game, 0)  # loads the tables and runs every code path once
            warm.play_penta() if game == "penta" else warm.play_five_thousand()
            warm.timed_review()
            fresh, cached, decisions = [], [], []
            for seed in range(1, args.games + 1):
                played = Game(client, game, seed)
                played.play_penta() if game == "penta" else played.play_five_thousand()
                sheet_options.forget_turns()
                sheet_options.position.cache_clear()
                seconds, count = played.timed_review()
                fresh.append(seconds)
                cached.append(played.timed_review()[0])
                decisions.append(count)
            print(f"{game:<6} human against the bot, {statistics.median(decisions):.0f} decisions:"
                  f" fresh {1000 * statistics.median(fresh):6.1f} ms,"
                  f" cached {1000 * statistics.median(cached):5.1f} ms (median of {args.games} games)")


if __name__ == "__main__":
    main()
