"""What gzip saves and costs on the app's answers: the pages, styles and scripts, and the action
route's answers (which the app compresses only from 8 KB, web/compression.py).

    pip install -e '.[bench]'
    PYTHONPATH=src python benchmarks/compression.py [--actions 300]

Plays Penta and 5000 in-process, two humans and a human against a bot (random legal actions, as
benchmarks/web_load.py plays them), and keeps every action answer; then sends each answer, asked
for gzip, as the action route sends it (through the app's Compression middleware, which lets the
route compress its own), and through gzip from 1400 bytes as every other route has it, and prints
the sizes and the server CPU each adds per answer (process time over a bare endpoint's, so a busy
machine slows it without changing it much).
Compare the microseconds with the CPU per action of web_load.py (1 / its "per CPU-s").
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import random
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
warnings.filterwarnings("ignore", category=DeprecationWarning)
from fastapi.testclient import TestClient  # noqa: E402
from starlette.middleware.gzip import GZipMiddleware  # noqa: E402
from starlette.responses import Response  # noqa: E402
from web_load import NAMES, random_action  # noqa: E402

from cubilete.web.app import create_app  # noqa: E402
from cubilete.web.compression import ACTION_MINIMUM_SIZE, LEVEL, MINIMUM_SIZE, Compression, action_answer  # noqa: E402

PAGES = ("/", "/rules/penta", "/static/css/app.css", "/static/js/game.js", "/static/js/sheet_table.js")


def action_answers(client: TestClient, game: str, opponent: dict[str, Any], count: int, rng: random.Random) -> list[bytes]:
    answers: list[bytes] = []
    while len(answers) < count:
        players = [{"name": NAMES[0], "kind": "human"}, opponent]
        created = client.post("/api/games", json={"game": game, "players": players, "lang": "en"}).json()
        tokens = [seat["token"] for seat in created["seats"]]
        view = client.get(f"/api/games/{created['id']}").json()
        while not view["is_over"] and len(answers) < count:
            seat = view["current_player"]
            action = random_action(view, rng, False)
            body = {"seat": seat, "token": tokens[seat], "at": view["events"], "action": action}
            answer = client.post(f"/api/games/{created['id']}/actions", json=body)
            answers.append(answer.content)
            view = answer.json()
    return answers


async def endpoint(scope: Any, receive: Any, send: Any) -> None:
    """An answer already made: the action's JSON, sent as it is."""
    await Response(scope["body"], media_type="application/json")(scope, receive, send)


async def action_route(scope: Any, receive: Any, send: Any) -> None:
    """The same answer as the action route sends it: compressed by the route itself when large."""
    await action_answer(scope["body"], "gzip, deflate, br")(scope, receive, send)


def cpu_per_answer(app: Any, answers: list[bytes], rounds: int) -> float:
    """Microseconds of this process's CPU for `app` to send each answer to a browser asking for gzip."""

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        pass

    async def run() -> float:
        started = time.process_time()
        for _ in range(rounds):
            for body in answers:
                headers = [(b"accept-encoding", b"gzip, deflate, br")]
                await app({"type": "http", "path": "/api/games/g/actions", "headers": headers, "body": body}, receive, send)
        return time.process_time() - started

    return 1e6 * asyncio.run(run()) / (rounds * len(answers))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=300, help="action answers kept per game and opponent")
    parser.add_argument("--rounds", type=int, default=20, help="times each answer goes through the middleware")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        # the app's lifespan runs: it starts the threads a game's moves are handed to, and closes them
        with TestClient(create_app(f"sqlite:///{folder}/games.sqlite3")) as client:
            print(f"gzip level {LEVEL}, from {MINIMUM_SIZE} bytes ({ACTION_MINIMUM_SIZE} on the action route)")
            print(f"{'answer':<24}{'bytes':>8}{'gzip':>8}")
            for path in PAGES:
                plain = client.get(path, headers={"Accept-Encoding": "identity"}).content
                zipped = client.get(path, headers={"Accept-Encoding": "gzip"}, follow_redirects=False)
                wire = zipped.headers.get("content-length") or str(len(zipped.content))
                print(f"{path:<24}{len(plain):>8}{wire:>8}")
            rng = random.Random(1)
            human, bot = {"name": NAMES[1], "kind": "human"}, {"name": NAMES[1], "kind": "bot", "level": "optimal"}
            for game in ("penta", "5000"):
                for against, opponent in (("a human", human), ("a bot", bot)):
                    answers = action_answers(client, game, opponent, args.actions, rng)
                    sizes = sorted(len(body) for body in answers)
                    zipped = sorted(len(gzip.compress(body, LEVEL)) for body in answers)
                    bare = cpu_per_answer(endpoint, answers, args.rounds)
                    route = cpu_per_answer(Compression(action_route), answers, args.rounds) - bare
                    everything = cpu_per_answer(GZipMiddleware(endpoint, MINIMUM_SIZE, LEVEL), answers, args.rounds) - bare
                    large = sum(size >= ACTION_MINIMUM_SIZE for size in sizes)
                    print(
                        f"{game} against {against}: {len(answers)} answers, bytes median {statistics.median(sizes):.0f}"
                        f" (90th percentile {sizes[int(0.9 * len(sizes))]}, {large} of {ACTION_MINIMUM_SIZE}+),"
                        f" gzipped median {statistics.median(zipped):.0f}; CPU per answer: +{route:.1f} us as the route"
                        f" compresses, +{everything:.1f} us gzipped from {MINIMUM_SIZE} bytes"
                    )


if __name__ == "__main__":
    main()
