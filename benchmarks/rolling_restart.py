"""Failed requests and lost moves during rolling restarts behind Caddy (issue 35, item 1): two `cubilete serve`
on one PostgreSQL database and one Redis behind Debian's Caddy, players making moves without pause over https
and one live socket (wss) following a game, while the guide's rolling restart (docs/hosting.md: each process
in turn stopped with SIGTERM, started again, and the next once its /readyz answers) runs --rounds times.
Runs the code and Caddyfile of before and after, one after the other on the same database, and prints for
each: requests, failed ones (status >= 500 or no answer), stale moves (409: a retried move already stored),
lost moves (acknowledged, then missing from the game) and the live socket's connections and failures.

    mkdir /tmp/before && git archive 622a291 src | tar -x -C /tmp/before
    PYTHONPATH=src python benchmarks/rolling_restart.py --before-src /tmp/before/src [--rounds 3] [--players 2]
        [--caddyfile FILE]

"Before" runs the code of --before-src (without the drain of cli/stopping_server.py) behind the Caddyfile
the guide showed; "after", this checkout's code behind deploy/Caddyfile. `--caddyfile` measures that file
instead of deploy/Caddyfile (its site and processes as deploy/Caddyfile names them: {$CUBILETE_SITE} and
{$CUBILETE_PROCESSES}). Needs `caddy`, psycopg, and the database of --database;
the tables live in a schema of their own, dropped afterwards.
"""

from __future__ import annotations

import argparse
import json
import re
import secrets
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from pathlib import Path
from urllib.parse import quote

import psycopg
from websockets.exceptions import WebSocketException
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from harness import Caddy, Server, free_port, next_action, rolling_restart  # noqa: E402

from cubilete.cli.commands.serve import DRAIN_SECONDS  # noqa: E402

# The guide's Caddyfile before issue 35 (docs/hosting.md at 622a291), its site and processes named as deploy/Caddyfile's
BEFORE = """{$CUBILETE_SITE} {
	reverse_proxy {$CUBILETE_PROCESSES} {
		lb_policy round_robin
		lb_try_duration 5s
		lb_try_interval 250ms
		fail_duration 30s
		health_uri /readyz
		health_interval 5s
		health_timeout 5s
	}
}
"""
FAILURE_PAUSE = 0.25  # a player tries again this long after a failed request (a page says the server did not answer)
QUIET_SECONDS = 5  # of play before the first restart, between rounds and after the last


class Tally:
    """What the clients saw, counted across their threads."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.failing_seconds: set[int] = set()  # the seconds (since the epoch) in which a request failed
        self.lock = threading.Lock()

    def add(self, what: str) -> None:
        with self.lock:
            self.counts[what] += 1
            if what.startswith("failed: "):
                self.failing_seconds.add(int(time.time()))


class Player(threading.Thread):
    """Plays solo Penta games through Caddy, move after move, until told to stop; keeps the events each
    acknowledged move left, to find lost ones at the end."""

    def __init__(self, caddy: Caddy, tally: Tally, stopping: threading.Event) -> None:
        super().__init__(daemon=True)
        self.caddy, self.tally, self.stopping = caddy, tally, stopping
        self.acknowledged: dict[str, int] = {}  # game id -> events after its last acknowledged move
        self.last_move = self.longest_wait = 0.0  # the player's longest wait for a move acknowledged, in s
        self.game: str | None = None

    def call(self, path: str, body: dict | None = None) -> tuple[int, dict]:
        """The answer's status and JSON; 0 when none came. Every request is counted, every failure too."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.caddy.url}{path}", data, {"Content-Type": "application/json"})
        self.tally.add("requests")
        try:
            with urllib.request.urlopen(request, timeout=30, context=self.caddy.trusting()) as response:
                return response.status, json.load(response)
        except urllib.error.HTTPError as error:
            if error.code >= 500:
                self.failed(str(error.code))
            return error.code, {}
        except OSError as error:
            self.failed(type(error).__name__)
            return 0, {}

    def failed(self, why: str) -> None:
        self.tally.add(f"failed: {why}")
        time.sleep(FAILURE_PAUSE)

    def run(self) -> None:
        while not self.stopping.is_set():
            status, created = self.call("/api/games", {"game": "penta", "players": [{"name": "Ana", "kind": "human"}]})
            if status == 201:
                self.play(created["id"], created["seats"][0]["token"])

    def play(self, game: str, token: str) -> None:
        self.game, view = game, None
        while not self.stopping.is_set():
            if view is None:
                status, view = self.call(f"/api/games/{game}")
                view = view if status == 200 else None
                continue
            if view["is_over"]:
                return
            body = {"seat": 0, "token": token, "action": next_action(view), "at": view["events"]}
            status, answer = self.call(f"/api/games/{game}/actions", body)
            if status == 200:
                self.tally.add("moves acknowledged")
                now = time.monotonic()
                if self.last_move:
                    self.longest_wait = max(self.longest_wait, now - self.last_move)
                self.last_move = now
                self.acknowledged[game], view = answer["events"], answer
            else:
                if status == 409:
                    self.tally.add("stale moves (409)")
                view = None  # read the game again, as the page does

    def lost_moves(self, server: Server) -> int:
        """Acknowledged moves missing from their games, read from a process directly."""
        return sum(max(0, events - server.api("GET", f"/api/games/{game}")["events"])
                   for game, events in self.acknowledged.items())


def follow(caddy: Caddy, player: Player, tally: Tally, stopping: threading.Event) -> None:
    """A live socket on the player's current game, connected again whenever it closes (its process stopped)."""
    while not stopping.is_set():
        if player.game is None:
            time.sleep(0.1)
            continue
        url, connected = f"wss://localhost:{caddy.port}/api/games/{player.game}/live", False
        try:
            with connect(url, ssl=caddy.trusting(), open_timeout=10) as socket:
                connected = True
                tally.add("socket connections")
                while not stopping.is_set():
                    socket.recv(timeout=1)
        except TimeoutError:
            if connected:
                continue  # no news for a second: follow the player's game of now
            tally.add("socket failed to connect: TimeoutError")
        except (OSError, WebSocketException) as error:
            tally.add("socket closed (its process stopped)" if connected else f"socket failed to connect: {type(error).__name__}")


def caddy_errors(caddy: Caddy) -> Counter[str]:
    """Caddy's log of the requests it failed, by status and message (addresses left out)."""
    errors: Counter[str] = Counter()
    for line in (caddy.folder / "caddy.log").read_text().splitlines():
        record = json.loads(line) if line.startswith("{") else {}
        if record.get("logger") == "http.log.error":
            message = re.sub(r"tcp [\d.:]+->[\d.:]+: |\d+\.\d+\.\d+\.\d+:\d+", "", record["msg"])
            errors[f"caddy: {record.get('status')} {message[:70]}"] += 1
    return errors


def measure(caddyfile: Path, servers: list[Server], rounds: int, players: int) -> tuple[Counter[str], float]:
    caddy = Caddy(caddyfile, servers).start()
    tally, stopping = Tally(), threading.Event()
    clients = [Player(caddy, tally, stopping) for _ in range(players)]
    follower = threading.Thread(target=follow, args=(caddy, clients[0], tally, stopping), daemon=True)
    started = time.monotonic()
    try:
        for thread in (*clients, follower):
            thread.start()
        time.sleep(QUIET_SECONDS)
        for _round in range(rounds):
            rolling_restart(servers)
            time.sleep(QUIET_SECONDS)
    finally:
        stopping.set()
        for thread in (*clients, follower):
            thread.join(timeout=40)
        tally.counts.update(caddy_errors(caddy))
        caddy.remove()
    tally.counts["failed requests"] = sum(n for what, n in tally.counts.items() if what.startswith("failed: "))
    tally.counts["seconds in which a request failed"] = len(tally.failing_seconds)
    tally.counts["longest wait from a move to the next acknowledged, ms"] = round(
        max(client.longest_wait for client in clients) * 1000)
    tally.counts["lost moves"] = sum(client.lost_moves(servers[0]) for client in clients)
    return tally.counts, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rolling restarts of both processes")
    parser.add_argument("--players", type=int, default=2, help="clients making moves at once")
    parser.add_argument("--caddyfile", type=Path, default=ROOT / "deploy/Caddyfile")
    parser.add_argument("--before-src", required=True, help="the code before, e.g. 622a291's src (git archive)")
    parser.add_argument("--database", default="postgresql://postgres@127.0.0.1:5432/test")
    parser.add_argument("--broker", default="redis://127.0.0.1:6379/0")
    args = parser.parse_args()
    schema = f"cubilete_bench_{secrets.token_hex(6)}"
    url = args.database.replace("postgresql://", "postgresql+psycopg://", 1) + "?options=" + quote(f"-csearch_path={schema}")
    phases = [("before", Path(args.before_src), None), ("after", ROOT / "src", args.caddyfile)]
    with psycopg.connect(args.database, autocommit=True) as admin, tempfile.TemporaryDirectory() as folder:
        admin.execute(f'CREATE SCHEMA "{schema}"')
        Path(folder).chmod(0o755)  # Caddy runs as another user when this runs as root
        (Path(folder) / "before.caddyfile").write_text(BEFORE)
        try:
            for name, src, caddyfile in phases:
                env = {"PYTHONPATH": str(src.resolve()), "CUBILETE_DRAIN_SECONDS": str(DRAIN_SECONDS)}
                servers = [Server(url, free_port(), Path(folder) / f"{name}{n}.log", args.broker, env) for n in range(2)]
                try:
                    for server in servers:
                        server.start()
                    counts, seconds = measure(caddyfile or Path(folder) / "before.caddyfile", servers, args.rounds, args.players)
                finally:
                    for server in servers:
                        server.stop()
                print(f"{name}: {caddyfile or 'the Caddyfile of the guide at 622a291'}, code {src}, "
                      f"{args.rounds} rolling restarts of 2 processes in {seconds:.0f} s:")
                for what, count in sorted(counts.items()):
                    print(f"  {what}: {count}")
        finally:
            admin.execute(f'DROP SCHEMA "{schema}" CASCADE')

if __name__ == "__main__":
    main()
