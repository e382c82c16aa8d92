"""The live bar's speed: GET /api/games/{id}/chances at every step of a game, with the tables loaded.

    .venv/bin/python benchmarks/chances_api.py [--games 3]

The app runs in this process (FastAPI's TestClient, a temporary SQLite database). Each game is
played by bots alone to its end (Penta: two optimal bots, the bar giving the duel's chances;
5000: two, then four optimal bots); then the figures of every step are asked for (`?at=N`, N
from 0 to the last event), first
"fresh" (computed; the remembered turns forgotten first) and then "cached" (the app's
cache per game step). The median per step over every step of every game is printed, and beside
it "compute": analysis.outlook alone on the same states (no HTTP), what a fresh step costs the server.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from fastapi.testclient import TestClient

from cubilete.analysis import five_thousand as five_thousand_analysis
from cubilete.analysis.outlook import outlook
from cubilete.engine.games import rules_for
from cubilete.engine.runner import Match
from cubilete.players import make_player
from cubilete.solvers.sheet import duel as sheet_duel
from cubilete.solvers.sheet import options as sheet_options
from cubilete.web import NO_RATE_LIMITS, create_app

BOT = {"name": "Bot", "kind": "bot", "level": "optimal"}
TABLES = (("penta", 2), ("5000", 2), ("5000", 4))


def forget_turns() -> None:
    """Forget what the solvers and the outlook remember of past turns: every step is computed again."""
    sheet_options.forget_turns()
    sheet_options.position.cache_clear()
    sheet_duel.duel_turn.cache_clear()
    five_thousand_analysis._PLANNER.estimated._plans.clear()


def played_game(client: TestClient, game: str, seats: int, seed: int) -> tuple[str, int]:
    body = {"game": game, "players": [BOT] * seats, "seed": seed}
    game_id = client.post("/api/games", json=body).json()["id"]
    view = client.post(f"/api/games/{game_id}/bots", json={"seat": 0, "token": "none"}).json()
    return game_id, view["events"]


def timed_steps(client: TestClient, game_id: str, events: int) -> list[float]:
    seconds = []
    for at in range(events + 1):
        started = time.perf_counter()
        answer = client.get(f"/api/games/{game_id}/chances", params={"at": at})
        seconds.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.text
    return seconds


def compute_seconds(game: str, seats: int, seed: int) -> list[float]:
    """analysis.outlook on every state of a game of optimal bots, each state once, turns forgotten first."""
    rules = rules_for(game)
    match = Match(rules, ["Bot"] * seats, seed)
    players = [make_player("optimal", rules)] * seats
    states = [match.state]
    while not match.state.is_over:
        match.advance(players, max_steps=1)
        states.append(match.state)
    forget_turns()
    seconds = []
    for state in states:
        started = time.perf_counter()
        outlook(state)
        seconds.append(time.perf_counter() - started)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory() as folder,
        # every step of several games is asked twice: far beyond a person's budget of chances
        TestClient(create_app(f"sqlite:///{Path(folder) / 'g.db'}", rate_limits=NO_RATE_LIMITS)) as client,
    ):
        for game, seats in TABLES:
            timed_steps(client, *played_game(client, game, seats, 0))  # loads the tables, runs every path once
            fresh, cached, compute, steps = [], [], [], []
            for seed in range(1, args.games + 1):
                game_id, events = played_game(client, game, seats, seed)
                forget_turns()
                fresh += timed_steps(client, game_id, events)
                cached += timed_steps(client, game_id, events)
                compute += compute_seconds(game, seats, seed)
                steps.append(events + 1)
            print(f"{game:<6} {seats} bots, {statistics.median(steps):.0f} steps a game:"
                  f" fresh {1000 * statistics.median(fresh):5.2f} ms (max {1000 * max(fresh):6.1f}),"
                  f" cached {1000 * statistics.median(cached):5.2f} ms, compute {1000 * statistics.median(compute):5.2f} ms"
                  f" (max {1000 * max(compute):6.1f}) per step (median of {args.games} games)")


if __name__ == "__main__":
    main()
