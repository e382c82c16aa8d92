"""What one request for a Penta duel's tables does to everyone else's (issue 32, item 5), on this checkout
and, in the same run, another's (`--peer-src`, e.g. the release before):

- the queue (default): a two-seat Penta game's live bar starts the build of Penta `seed`'s duel (about
  20-60 s, 2 GB); meanwhile a solo Generala player asks a hint, whose table loads from disk in
  milliseconds. Printed: the hint's status and seconds, and the live bar's (the build's length).
- `--budget`: one request for the live bar of a Penta `no-bonus` game first, then a `seed` game's live
  bar, each awaited; printed: each one's status and seconds (503 is `tables_over_budget`).

    CUBILETE_CACHE_DIR=DIR PYTHONPATH=src python benchmarks/duel_queue.py [--budget] [--peer-src OLD/src]

Each part of each code runs on a fresh `cubilete serve` (harness.Server: a temporary SQLite file, the
default table budget), one server at a time. The solver cache ($CUBILETE_CACHE_DIR, else a temporary
directory) holds the rule sets' solutions, solved first if missing (seconds): the cheap tables, as on a
server that has run a while; the duel's laws are never saved, so every duel here is really built.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from harness import Server, free_port  # noqa: E402
from peers import add_peer_option, sources  # noqa: E402

from cubilete.engine.games import GAMES  # noqa: E402
from cubilete.players import prepare  # noqa: E402
from cubilete.players.table import ADVICE_LEVEL  # noqa: E402

TWO_SEATS = [{"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}]
CHEAP_TABLES = (("generala", "seed"), ("penta", "seed"), ("penta", "no-bonus"))  # their solutions
WAIT = 900  # seconds a request may wait at most (a duel's build on a busy machine)

Answer = tuple[int, dict, float]  # status, JSON body, seconds


def ask(url: str, body: dict | None = None) -> Answer:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json"} if data else {})
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=WAIT) as answer:
            status, payload = answer.status, answer.read()
    except urllib.error.HTTPError as error:
        status, payload = error.code, error.read()
    return status, json.loads(payload), time.perf_counter() - started


def shown(what: str, answer: Answer) -> str:
    status, body, seconds = answer
    code = f" {body['code']}" if isinstance(body, dict) and "code" in body else ""
    return f"{what}: {status}{code} after {seconds:.3f} s"


def new_game(server: Server, game: str, rules: str, players: list[dict]) -> dict:
    status, created, _ = ask(f"{server.url}/api/games", {"game": game, "rules": rules, "players": players})
    assert status == 201, created
    return created


def queue(server: Server) -> list[str]:
    """A solo Generala hint asked while another game's live bar builds Penta `seed`'s duel."""
    duel = new_game(server, "penta", "seed", TWO_SEATS)
    chances = f"{server.url}/api/games/{duel['id']}/chances"
    started = ask(f"{chances}?wait=false")  # the build's job is made (and started) before the hint is asked
    assert started[0] == 202, started
    live_bar: list[Answer] = []
    waiting = threading.Thread(target=lambda: live_bar.append(ask(chances)))
    waiting.start()
    solo = new_game(server, "generala", "seed", TWO_SEATS[:1])
    seat = {"seat": 0, "token": solo["seats"][0]["token"]}
    rolled = ask(f"{server.url}/api/games/{solo['id']}/actions", {**seat, "at": 0, "action": {"type": "roll"}})
    assert rolled[0] == 200, rolled
    hint = ask(f"{server.url}/api/games/{solo['id']}/hint", seat)
    waiting.join(WAIT)
    return [shown("Generala hint during the duel's build", hint),
            shown("the Penta live bar that started it", live_bar[0]) if live_bar else "live bar: no answer"]


def budget(server: Server) -> list[str]:
    """A stranger's live bar of Penta `no-bonus` first, then a `seed` player's."""
    lines = []
    for rules in ("no-bonus", "seed"):
        game = new_game(server, "penta", rules, TWO_SEATS)
        lines.append(shown(f"Penta {rules} live bar", ask(f"{server.url}/api/games/{game['id']}/chances")))
    return lines


def solve_cheap_tables(cache: str) -> None:
    """The rule sets' solutions in the cache (a load when there already): what a server that has run a while holds."""
    os.environ["CUBILETE_CACHE_DIR"] = cache
    for game, rules in CHEAP_TABLES:
        prepare(ADVICE_LEVEL, GAMES[game].variants[rules])


def measure(part: Callable[[Server], list[str]], src: Path, cache: str) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="duel-queue-") as folder:
        env = {"CUBILETE_CACHE_DIR": cache, "PYTHONPATH": str(src.resolve())}
        server = Server(f"sqlite:///{folder}/games.sqlite3", free_port(), Path(folder) / "server.log", env=env).start()
        try:
            return part(server)
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--budget", action="store_true", help="the budget's part: no-bonus's live bar, then seed's")
    add_peer_option(parser)
    args = parser.parse_args()
    part = budget if args.budget else queue
    with tempfile.TemporaryDirectory(prefix="duel-queue-cache-") as scratch:
        cache = os.environ.get("CUBILETE_CACHE_DIR") or scratch
        solve_cheap_tables(cache)
        for label, src in sources(args).items():
            for line in measure(part, src, cache):
                print(f"{label:<14} {line}", flush=True)
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
