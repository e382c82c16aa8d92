"""What gzip saves and costs on the app's answers: the pages, styles and scripts, and the action
route's answers (which the app leaves uncompressed, web/compression.py).

    pip install -e '.[bench]'
    PYTHONPATH=src python benchmarks/compression.py [--actions 400]

Plays two-seat Penta and 5000 games in-process (random legal actions, as benchmarks/web_load.py
plays them) and keeps every action answer; then sends each answer through Starlette's
GZipMiddleware as the app configures it, asked for gzip and not, and prints the sizes and the
server CPU per answer (process time, so a busy machine slows it without changing it much).
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
from web_load import NAMES, random_action  # noqa: E402

from cubilete.web.app import create_app  # noqa: E402
from cubilete.web.compression import LEVEL, MINIMUM_SIZE  # noqa: E402

PAGES = ("/", "/rules/penta", "/static/css/app.css", "/static/js/game.js", "/static/js/sheet_table.js")


def action_answers(client: TestClient, game: str, count: int, rng: random.Random) -> list[bytes]:
    answers: list[bytes] = []
    while len(answers) < count:
        players = [{"name": name, "kind": "human"} for name in NAMES]
        created = client.post("/api/games", json={"game": game, "players": players, "lang": "en"}).json()
        tokens = [seat["token"] for seat in created["seats"]]
        view = client.get(f"/api/games/{created['id']}").json()
        while not view["is_over"] and len(answers) < count:
            seat = view["current_player"]
            body = {"seat": seat, "token": tokens[seat], "at": view["events"], "action": random_action(view, rng, False)}
            answer = client.post(f"/api/games/{created['id']}/actions", json=body)
            answers.append(answer.content)
            view = answer.json()
    return answers


def cpu_per_answer(answers: list[bytes], accept: str, rounds: int) -> float:
    """Microseconds of this process's CPU to pass each answer through the middleware."""

    async def endpoint(scope: Any, receive: Any, send: Any) -> None:
        body = scope["body"]
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    middleware = GZipMiddleware(endpoint, minimum_size=MINIMUM_SIZE, compresslevel=LEVEL)

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": b""}

    async def send(message: dict[str, Any]) -> None:
        pass

    async def run() -> float:
        started = time.process_time()
        for _ in range(rounds):
            for body in answers:
                scope = {"type": "http", "path": "/", "headers": [(b"accept-encoding", accept.encode())], "body": body}
                await middleware(scope, receive, send)
        return time.process_time() - started

    return 1e6 * asyncio.run(run()) / (rounds * len(answers))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=400, help="action answers kept per game")
    parser.add_argument("--rounds", type=int, default=20, help="times each answer goes through the middleware")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        client = TestClient(create_app(f"sqlite:///{folder}/games.sqlite3"))
        print(f"gzip level {LEVEL}, minimum size {MINIMUM_SIZE} bytes")
        print(f"{'answer':<24}{'bytes':>8}{'gzip':>8}")
        for path in PAGES:
            plain = client.get(path, headers={"Accept-Encoding": "identity"}).content
            zipped = client.get(path, headers={"Accept-Encoding": "gzip"}, follow_redirects=False)
            wire = zipped.headers.get("content-length") or str(len(zipped.content))
            print(f"{path:<24}{len(plain):>8}{wire:>8}")
        rng = random.Random(1)
        for game in ("penta", "5000"):
            answers = action_answers(client, game, args.actions, rng)
            sizes = [len(body) for body in answers]
            zipped = [len(gzip.compress(body, LEVEL)) for body in answers]
            identity = cpu_per_answer(answers, "identity", args.rounds)
            compressed = cpu_per_answer(answers, "gzip", args.rounds)
            print(
                f"{game} actions: {len(answers)} answers, median {statistics.median(sizes):.0f} bytes "
                f"(90th percentile {sorted(sizes)[int(0.9 * len(sizes))]}), gzip median {statistics.median(zipped):.0f};"
                f" middleware CPU per answer: {identity:.1f} us not asked, {compressed:.1f} us gzip"
            )


if __name__ == "__main__":
    main()
