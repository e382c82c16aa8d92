"""The player's record: POST /api/players/record for a player with many finished games.

    .venv/bin/python benchmarks/player_record.py [--games 100]

The app runs in this process (FastAPI's TestClient, a temporary SQLite database). Each game is
"Ana" (a human seat, played here by the casual computer player through the app's own Games)
against the optimal bot, in Penta. The record is then asked for with every game's seat:
"first" reviews each game and stores its summaries; "stored" (the median of 5 requests) reads
them; "restarted" is a new app on the same database, with nothing in memory.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from cubilete.engine.actions import action_to_json
from cubilete.engine.games import rules_for
from cubilete.players import make_player, prepare
from cubilete.web import create_app
from cubilete.web.changes import Move
from cubilete.web.seats import SeatRequest

SEATS = [SeatRequest("Ana", "human"), SeatRequest("Bot", "bot", "optimal")]


def play_games(client: TestClient, count: int) -> list[dict]:
    games = client.app.state.services.games
    chooser = make_player("casual", rules_for("penta"))
    proofs = []
    for seed in range(count):
        live, secrets = games.create("penta", None, SEATS, seed, "en")
        token = secrets[0].token
        asyncio.run(games.change(live.id, Move(0, token, {"type": "roll"}, None)))  # the human starts; the bot answers each turn
        while not live.state.is_over:
            state = live.state
            action = {"type": "roll"} if state.is_chance else action_to_json(chooser.choose(state))
            asyncio.run(games.change(live.id, Move(0, token, action, None)))
        proofs.append({"game": live.id, "seat": 0, "token": token})
    return proofs


def timed(client: TestClient, proofs: list[dict]) -> tuple[float, dict]:
    started = time.perf_counter()
    answer = client.post("/api/players/record", json={"name": "Ana", "seats": proofs}).json()
    return time.perf_counter() - started, answer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    prepare("optimal", rules_for("penta"))
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{Path(folder) / 'games.sqlite3'}"
        with TestClient(create_app(url)) as client:
            proofs = play_games(client, args.games)
            first, answer = timed(client, proofs)
            stored = statistics.median(timed(client, proofs)[0] for _ in range(5))
        with TestClient(create_app(url)) as client:
            restarted, again = timed(client, proofs)
    assert again == answer and len(answer["games"]) == args.games
    decisions = sum(game["decisions"] for game in answer["games"])
    print(f"record of {args.games} Penta games ({decisions} decisions): first {first * 1000:.0f} ms"
          f" (each game reviewed), stored {stored * 1000:.1f} ms, restarted {restarted * 1000:.1f} ms")


if __name__ == "__main__":
    main()
