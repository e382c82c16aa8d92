"""How long a move takes to reach another browser of the game: one `cubilete serve`, a follower on
the live WebSocket, a player acting by HTTP; prints the delay from sending the action until the
follower has the step (p50/p95/max over at least N actions, whole solo Penta games).

    PYTHONPATH=src python benchmarks/live_push.py [N]
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from harness import Server, free_port  # noqa: E402


def post(url: str, body: dict) -> dict:
    request = urllib.request.Request(url, json.dumps(body).encode(), {"Content-Type": "application/json"})
    with urllib.request.urlopen(request) as response:
        return json.load(response)


async def measure(server: Server) -> list[float]:
    """A solo Penta game (roll, hold nothing twice, score), timing each action until it is pushed."""
    created = post(f"{server.url}/api/games", {"game": "penta", "players": [{"name": "Ana", "kind": "human"}]})
    url, token = f"{server.url}/api/games/{created['id']}", created["seats"][0]["token"]
    delays = []
    async with connect(f"ws://127.0.0.1:{server.port}/api/games/{created['id']}/live") as follower:
        view = json.loads(await follower.recv())
        for box in [box["id"] for box in view["table"]["boxes"]]:
            for action in ({"type": "roll"}, {"type": "keep", "held": []}, {"type": "keep", "held": []}, {"type": "score", "box": box}):
                started = time.perf_counter()
                answer = await asyncio.to_thread(post, f"{url}/actions", {"seat": 0, "token": token, "action": action})
                while json.loads(await follower.recv())["events"] < answer["events"]:
                    pass
                delays.append(time.perf_counter() - started)
    return delays


def main() -> None:
    actions = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    with tempfile.TemporaryDirectory() as folder:
        server = Server(f"sqlite:///{folder}/games.sqlite3", free_port(), Path(folder) / "server.log").start()
        try:
            delays: list[float] = []
            while len(delays) < actions:
                delays += asyncio.run(measure(server))
        finally:
            server.stop()
    delays.sort()
    ms = [delay * 1000 for delay in delays]
    print(f"{len(ms)} actions: p50 {statistics.median(ms):.1f} ms, p95 {ms[int(len(ms) * 0.95) - 1]:.1f} ms, max {ms[-1]:.1f} ms")


if __name__ == "__main__":
    main()
