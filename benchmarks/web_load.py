"""Web app under load: random legal play against real `cubilete serve` processes.

    pip install -e '.[bench]'
    PYTHONPATH=src python benchmarks/web_load.py [--quick] [--seconds 10] [--game penta|5000]
        [--levels 1,10,50,200] [--open-games 500 --open-seconds 30 --follow] [--memory-games 10000]
        [--rounds 3] [--skip two,memory,...] [--profile DIR]

Every figure comes from server processes this script starts itself on free loopback
ports (the `src` tree beside this script, a temporary SQLite file), driven by one
asyncio client (aiohttp), and stopped at the end. It speaks only the public API:
POST /api/games, GET /api/games/{id}, POST /api/games/{id}/actions with
{seat, token, action, at}; each game is two human seats, played by one client task
that picks a random legal action from the game view (a 409 means "re-read the game").

Sections, each printed as table rows:
- closed loop: N games played flat out (no think time), for N in --levels;
- baseline: a bare FastAPI endpoint of the same shape (the action route's pydantic body
  in, a real action answer of the same game out, annotated `-> dict`) under the same
  uvicorn with the settings of `cubilete serve` (serve.server_settings: its HTTP parser,
  no proxy headers; serve.tune_collector), driven the same way. The goal compares actions
  per server CPU-second with this endpoint's requests per server CPU-second (goal: ratio
  >= 0.5). The endpoint is `async def`, the framework's floor; one more row at saturation
  gives the same endpoint as a plain `def` (run in a worker thread: what the hop to a
  thread costs); then --rounds pairs at saturation, the app then the bare endpoint, each
  pair a ratio, and their median (the CPU a request costs drifts on a shared machine);
- open loop: --open-games games whose players think --think seconds on average
  (exponential) before each action, for --open-seconds (goal: p99 < 20 ms); with --follow,
  each game's two seats also hold their pages on the live WebSocket, as browsers do, and read
  every view pushed (the server then pushes each move to both pages: docs/hosting.md's
  players per core and per GB come from this row);
- two processes on PostgreSQL + Redis (a fresh schema, dropped at the end), games
  alternating between the two ports, compared with one process on SQLite (goal: >= 1.7x)
  and with one of the two alone on the same database and broker; a line per row says
  where the machine's CPU went (servers, PostgreSQL, Redis, this client);
- processes: the open loop's offered load on one SQLite process, then on 1, 2 and 4 processes
  sharing PostgreSQL + Redis: the servers' CPU per action against one process's (goal for 4:
  within 1.15x) and, with PostgreSQL's and Redis's, against SQLite's (goal for 1: within 1.25x);
  after each, the same load on as many bare endpoints (the baseline's), which tells what splitting
  a load among processes costs any server on the machine;
- memory: --memory-games short games (score or bank as soon as allowed) and the server's RSS
  every --memory-every games (goal: flat).

Server CPU is user + system time of the server processes over each measured window
(psutil), so the ratios hold on a shared, noisy machine; the client's own CPU and the
load average are printed too, because on a small machine the client competes with the
servers for cores.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import os
import random
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Self

import aiohttp
import psutil
import uvicorn
from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

SRC = Path(__file__).resolve().parents[1] / "src"
POSTGRES = "postgresql://postgres@127.0.0.1:5432/test"
REDIS = "redis://127.0.0.1:6379/0"
NAMES = ("Ana", "Beto")
MB = 1024 * 1024


# -- server processes ----------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def python_env(src: Path | None = None) -> dict[str, str]:
    """This tree's `src` (or another tree's) first, whatever the installed package points at."""
    path = os.pathsep.join(filter(None, (str(src or SRC), os.environ.get("PYTHONPATH"))))
    return {**os.environ, "PYTHONPATH": path}


@dataclass
class Server:
    name: str
    process: subprocess.Popen
    port: int
    log: Path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ps(self) -> psutil.Process:
        return psutil.Process(self.process.pid)

    def cpu_seconds(self) -> float:
        times = self.ps.cpu_times()
        return times.user + times.system

    def kernel_work(self) -> tuple[float, int]:
        """The CPU seconds spent in the kernel on the process's behalf, and its voluntary context switches
        (each a wait: a socket, a lock, a thread handing work to another)."""
        return self.ps.cpu_times().system, self.ps.num_ctx_switches().voluntary

    def rss(self) -> int:
        return self.ps.memory_info().rss


@contextlib.contextmanager
def running(name: str, args: list[str], folder: Path, src: Path | None = None) -> Iterator[Server]:
    """A server process on a free loopback port, ready to answer, stopped on exit (`src`: the tree it
    runs, by default this one's)."""
    port = free_port()
    log = folder / f"{name}-{port}.log"
    with open(log, "wb") as output:
        process = subprocess.Popen(
            [sys.executable, *args, "--port", str(port)], env=python_env(src), stdout=output, stderr=subprocess.STDOUT
        )
    server = Server(name, process, port, log)
    try:
        wait_ready(server)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def serving_sqlite(
    name: str, options: Sequence[str], folder: Path, src: Path | None = None
) -> contextlib.AbstractContextManager[Server]:
    """`cubilete serve` with these options on a SQLite file of its own in `folder` (a stretch of a
    benchmark that compares options or trees: each on a fresh server)."""
    slug = "".join(char if char.isalnum() else "_" for char in name)
    database = f"sqlite:///{folder / (slug + '.sqlite3')}"
    command = ["-m", "cubilete.cli.main", "serve", "--host", "127.0.0.1", "--database", database, *options]
    return running(slug, command, folder, src)


def wait_ready(server: Server, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise SystemExit(f"{server.name} exited ({server.process.returncode}):\n{server.log.read_text()[-2000:]}")
        try:
            urllib.request.urlopen(server.base + "/", timeout=2).close()
            return
        except urllib.error.HTTPError:
            return  # any HTTP answer means it is serving
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{server.name} did not answer within {timeout:.0f} s:\n{server.log.read_text()[-2000:]}")


def wait_idle(servers: list[Server], timeout: float = 120.0, busy: float = 0.03) -> None:
    """Wait until the servers spend under `busy` of a core (e.g. background table warming done)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        before = sum(s.cpu_seconds() for s in servers)
        time.sleep(1.0)
        if sum(s.cpu_seconds() for s in servers) - before < busy:
            return
    print(f"  (servers still busy after {timeout:.0f} s; measuring anyway)")


def serve_args(database: str, broker: str | None = None, src: Path | None = None) -> list[str]:
    """`cubilete serve`'s options; `src`: the tree it runs (an older one may lack the bounds' options)."""
    args = ["-m", "cubilete.cli.main", "serve", "--host", "127.0.0.1", "--database", database]
    if "--no-rate-limits" in serve_help(src):  # one client makes every game here: load is the point
        args.append("--no-rate-limits")
    if "--max-connections-per-client" in serve_help(src):  # every connection and page comes from this client
        args += ["--max-connections", "10000", "--max-connections-per-client", "10000"]
    if "--max-sockets-per-client" in serve_help(src):
        args += ["--max-sockets-per-client", "10000"]
    return args + (["--broker", broker] if broker else [])


@functools.cache
def serve_help(src: Path | None = None) -> str:
    return subprocess.run(
        [sys.executable, "-m", "cubilete.cli.main", "serve", "--help"],
        env=python_env(src), capture_output=True, text=True, timeout=60, check=True,
    ).stdout


def serve_offers_broker() -> bool:
    return "--broker" in serve_help()


@contextlib.contextmanager
def fresh_postgres_schema() -> Iterator[str]:
    """A SQLAlchemy URL whose tables live in a new schema, dropped afterwards (other users of
    the database keep theirs)."""
    import psycopg

    schema = f"web_load_{secrets.token_hex(4)}"
    with psycopg.connect(POSTGRES, autocommit=True, connect_timeout=5) as connection:
        connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/test?options=-csearch_path%3D{schema}"
    finally:
        with psycopg.connect(POSTGRES, autocommit=True, connect_timeout=5) as connection:
            connection.execute(f"DROP SCHEMA {schema} CASCADE")


# -- measurement ------------------------------------------------------------------------


SERVICES = {"PostgreSQL": "postgres", "Redis": "redis-server"}  # process names start with these


def service_cpu() -> dict[str, dict[int, float]]:
    """CPU seconds so far of each process of the database and broker services, by pid."""
    found: dict[str, dict[int, float]] = {service: {} for service in SERVICES}
    for process in psutil.process_iter(["name", "cpu_times"]):
        name, times = process.info["name"] or "", process.info["cpu_times"]
        for service, prefix in SERVICES.items():
            if name.startswith(prefix) and times is not None:
                found[service][process.pid] = times.user + times.system
    return found


@dataclass
class Window:
    """Server, service and client resources over one measured stretch."""

    servers: list[Server]
    started: float = 0.0
    cpu: float = 0.0
    client_cpu: float = 0.0
    rss_before: int = 0
    rss_after: int = 0
    seconds: float = 0.0
    services: dict[str, float] = field(default_factory=dict)  # CPU seconds of PostgreSQL's and Redis's processes
    system: float = 0.0  # of `cpu`, the seconds the kernel spent for the servers
    switches: int = 0  # the servers' voluntary context switches
    _services_before: dict[str, dict[int, float]] = field(default_factory=dict)

    def __enter__(self) -> Self:
        self.rss_before = sum(s.rss() for s in self.servers)
        self._services_before = service_cpu()
        work = [s.kernel_work() for s in self.servers]
        self.system, self.switches = -sum(w[0] for w in work), -sum(w[1] for w in work)
        self.cpu = -sum(s.cpu_seconds() for s in self.servers)
        self.client_cpu = -time.process_time()
        self.started = time.perf_counter()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.seconds = time.perf_counter() - self.started
        self.cpu += sum(s.cpu_seconds() for s in self.servers)
        work = [s.kernel_work() for s in self.servers]
        self.system += sum(w[0] for w in work)
        self.switches += sum(w[1] for w in work)
        self.client_cpu += time.process_time()
        self.rss_after = sum(s.rss() for s in self.servers)
        self.services = {  # a process started during the window (a new connection) counts from 0
            service: sum(seconds - self._services_before[service].get(pid, 0.0) for pid, seconds in pids.items())
            for service, pids in service_cpu().items()
        }

    def machine_line(self) -> str:
        """Where the machine's CPU went: on a small machine the services and the client compete with the servers."""
        used = ", ".join(f"{service} {seconds:.2f}" for service, seconds in self.services.items())
        return (f"{'':<22}{'':>6}  CPU-s of the machine's {os.cpu_count() * self.seconds:.1f}: servers {self.cpu:.2f},"
                f" {used}, client {self.client_cpu:.2f}")


@dataclass
class Tally:
    latencies: list[float] = field(default_factory=list)  # seconds, successful actions only
    refusals: int = 0  # 409: re-read and go on
    errors: dict[str, int] = field(default_factory=dict)
    games_finished: int = 0
    views_pushed: int = 0  # messages the followers' pages read (--follow)

    def error(self, what: str) -> None:
        self.errors[what] = self.errors.get(what, 0) + 1
        if sum(self.errors.values()) > 100:
            raise SystemExit(f"too many errors: {self.errors}")


@dataclass
class Row:
    section: str
    games: int
    tally: Tally
    window: Window

    @property
    def rate(self) -> float:
        return len(self.tally.latencies) / self.window.seconds

    @property
    def per_cpu(self) -> float:
        return len(self.tally.latencies) / self.window.cpu if self.window.cpu > 0 else float("nan")

    def percentile(self, p: float) -> float:
        ordered = sorted(self.tally.latencies)
        return 1000 * ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


HEADER = (
    f"{'section':<22}{'games':>6}{'per s':>9}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}"
    f"{'srv CPU s':>10}{'per CPU-s':>10}{'cli CPU s':>10}{'RSS MB before>after':>22}  409s/errors"
)


def print_row(row: Row) -> None:
    w, t = row.window, row.tally
    errors = f"{t.refusals}/{sum(t.errors.values())}" + (f" {t.errors}" if t.errors else "")
    print(
        f"{row.section:<22}{row.games:>6}{row.rate:>9.1f}{row.percentile(50):>9.1f}{row.percentile(95):>9.1f}"
        f"{row.percentile(99):>9.1f}{w.cpu:>10.2f}{row.per_cpu:>10.0f}{w.client_cpu:>10.2f}"
        f"{w.rss_before / MB:>12.1f}>{w.rss_after / MB:<9.1f}  {errors}",
        flush=True,
    )


# -- the client: one task plays one game at a time, both seats -----------------------------


def random_action(view: dict[str, Any], rng: random.Random, short: bool) -> dict[str, Any]:
    """A random legal action read from the game view (`short`: score or bank as soon as allowed)."""
    table = view["table"]
    if view["to_roll"]:
        return {"type": "roll"}
    if "options" in table:  # a score sheet: reroll some dice or score a box
        if table["can_reroll"] and not short and rng.random() < 0.5:
            return {"type": "keep", "held": sorted(rng.sample(range(5), rng.randint(0, 4)))}
        return {"type": "score", "box": rng.choice(table["options"])["box"]}
    if table["can_bank"] and (short or rng.random() < 0.35):  # 5000
        return {"type": "bank"}
    return {"type": "roll"}


class Player:
    """Creates games on one server and plays both seats of the current one."""

    def __init__(
        self, http: aiohttp.ClientSession, base: str, game: str, seed: int, short: bool = False,
        follow: Tally | None = None,
    ) -> None:
        self.http, self.base, self.game, self.short = http, base, game, short
        self.rng = random.Random(seed)
        self.view: dict[str, Any] = {}
        self.follow = follow  # the tally the pages count their views in, if the seats' pages follow the game
        self.pages: list[asyncio.Task[None]] = []

    async def new_game(self) -> None:
        players = [{"name": name, "kind": "human"} for name in NAMES]
        body = {"game": self.game, "rules": "seed", "players": players, "lang": "en"}
        async with self.http.post(f"{self.base}/api/games", json=body) as response:
            if response.status != 201:
                raise SystemExit(f"creating a game answered {response.status}: {await response.text()}")
            created = await response.json()
        self.id = created["id"]
        self.tokens = [seat["token"] for seat in created["seats"]]
        await self.reread()
        if self.follow is not None:
            self.leave()
            self.pages = [asyncio.create_task(self._page(seat, self.follow)) for seat in range(len(self.tokens))]

    async def _page(self, seat: int, tally: Tally) -> None:
        """A seat's page on the game's live WebSocket, as a browser holds it, reading every view pushed."""
        url = f"ws{self.base.removeprefix('http')}/api/games/{self.id}/live?since={self.view['events']}"
        async with self.http.ws_connect(url) as socket:
            await socket.send_json({"type": "seats", "seats": {str(seat): self.tokens[seat]}})
            async for _message in socket:
                tally.views_pushed += 1

    def leave(self) -> None:
        """Close the pages of the game (--follow)."""
        for page in self.pages:
            page.cancel()

    async def reread(self) -> None:
        async with self.http.get(f"{self.base}/api/games/{self.id}") as response:
            if response.status != 200:
                raise SystemExit(f"reading game {self.id} answered {response.status}: {await response.text()}")
            self.view = await response.json()

    async def act(self, tally: Tally) -> None:
        """One action of whoever is to move (a new game once this one is over)."""
        if self.view["is_over"]:
            tally.games_finished += 1
            await self.new_game()
        seat = self.view["current_player"]
        body = {"seat": seat, "token": self.tokens[seat], "at": self.view["events"],
                "action": random_action(self.view, self.rng, self.short)}
        started = time.perf_counter()
        async with self.http.post(f"{self.base}/api/games/{self.id}/actions", json=body) as response:
            answer = await response.text()
            elapsed = time.perf_counter() - started
            status = response.status
        if status == 200:
            tally.latencies.append(elapsed)
            self.view = json.loads(answer)
            return
        if status == 409:
            tally.refusals += 1
        else:
            tally.error(f"{status} {answer[:80]}")
        await self.reread()


def client_session(connections: int) -> aiohttp.ClientSession:
    return aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=connections, limit_per_host=0),
        timeout=aiohttp.ClientTimeout(total=120),
    )


async def start_games(players: list[Player]) -> None:
    """Each player's first game, a few creations at a time (not measured)."""
    creating = asyncio.Semaphore(20)

    async def create(player: Player) -> None:
        async with creating:
            await player.new_game()

    await asyncio.gather(*(create(player) for player in players))


async def closed_loop(servers: list[Server], games: int, seconds: float, game: str, section: str) -> Row:
    tally = Tally()
    async with client_session(games) as http:
        players = [Player(http, servers[i % len(servers)].base, game, i) for i in range(games)]
        await start_games(players)

        async def flat_out(player: Player, deadline: float) -> None:
            while time.perf_counter() < deadline:
                await player.act(tally)

        with Window(servers) as window:
            deadline = time.perf_counter() + seconds
            await asyncio.gather(*(flat_out(player, deadline) for player in players))
    return Row(section, games, tally, window)


async def open_loop(
    servers: list[Server], games: int, seconds: float, think: float, game: str, follow: bool = False
) -> Row:
    tally = Tally()
    async with client_session(games * (3 if follow else 1)) as http:
        players = [Player(http, servers[i % len(servers)].base, game, i, follow=tally if follow else None)
                   for i in range(games)]
        await start_games(players)

        with Window(servers) as window:
            await think_then_act([(player.rng, functools.partial(player.act, tally)) for player in players],
                                 seconds, think)
        for player in players:
            player.leave()
    if follow:
        print(f"  {tally.views_pushed} views pushed to {2 * games} pages", flush=True)
    return Row(f"open, {games / think:.0f}/s offered", games, tally, window)


async def think_then_act(
    acting: Sequence[tuple[random.Random, Callable[[], Awaitable[object]]]], seconds: float, think: float
) -> None:
    """An open loop: each (rng, act) acts after thinking (exponential, `think` seconds on average) until
    `seconds` have passed."""

    async def thinking(rng: random.Random, act: Callable[[], Awaitable[object]], deadline: float) -> None:
        while True:
            pause = rng.expovariate(1 / think)
            if time.perf_counter() + pause >= deadline:  # the window ends at the deadline, not a think later
                return
            await asyncio.sleep(pause)
            await act()

    deadline = time.perf_counter() + seconds
    await asyncio.gather(*(thinking(rng, act, deadline) for rng, act in acting))


BASELINE_BODY = {"seat": 0, "token": secrets.token_urlsafe(18), "at": 7, "action": {"type": "keep", "held": [0, 3]}}


async def baseline_request(http: aiohttp.ClientSession, url: str, tally: Tally) -> None:
    """One action posted to the bare endpoint, its latency tallied."""
    started = time.perf_counter()
    async with http.post(url, json=BASELINE_BODY) as response:
        await response.read()
        if response.status != 200:
            tally.error(str(response.status))
            return
    tally.latencies.append(time.perf_counter() - started)


async def baseline_loop(server: Server, games: int, seconds: float, threaded: bool = False) -> Row:
    """The same client at the same concurrency against the bare endpoint."""
    prefix = "threaded" if threaded else "api"
    tally = Tally()
    async with client_session(games) as http:

        async def flat_out(number: int, deadline: float) -> None:
            url = f"{server.base}/{prefix}/games/baseline{number}/actions"
            while time.perf_counter() < deadline:
                await baseline_request(http, url, tally)

        with Window([server]) as window:
            deadline = time.perf_counter() + seconds
            await asyncio.gather(*(flat_out(number, deadline) for number in range(games)))
    return Row("baseline, def route" if threaded else "baseline endpoint", games, tally, window)


async def baseline_open_loop(servers: list[Server], games: int, seconds: float, think: float) -> Row:
    """The open loop's offered load against bare endpoints, the games dealt among them as the app's are."""
    tally = Tally()
    async with client_session(games) as http:
        urls = [f"{servers[number % len(servers)].base}/api/games/baseline{number}/actions" for number in range(games)]
        acting = [(random.Random(number), functools.partial(baseline_request, http, url, tally))
                  for number, url in enumerate(urls)]
        with Window(servers) as window:
            await think_then_act(acting, seconds, think)
    return Row(f"bare, {len(servers)} process{'es' if len(servers) > 1 else ''}", games, tally, window)


async def memory_run(server: Server, games: int, every: int, concurrency: int, game: str) -> None:
    tally = Tally()
    print(f"{'games finished':>15}{'RSS MB':>9}{'actions':>9}{'seconds':>9}", flush=True)
    print(f"{0:>15}{server.rss() / MB:>9.1f}{0:>9}{0:>9.0f}", flush=True)
    started = time.perf_counter()
    async with client_session(concurrency) as http:
        players = [Player(http, server.base, game, i, short=True) for i in range(concurrency)]
        await start_games(players)
        reported = 0

        async def play(player: Player) -> None:
            nonlocal reported
            while tally.games_finished < games:
                await player.act(tally)
                if tally.games_finished >= reported + every:
                    reported += every
                    print(f"{reported:>15}{server.rss() / MB:>9.1f}{len(tally.latencies):>9}"
                          f"{time.perf_counter() - started:>9.0f}", flush=True)

        await asyncio.gather(*(play(player) for player in players))


# -- the baseline server -------------------------------------------------------------------------


class BaselineAction(BaseModel):
    """The action route's body, as the app declares it."""

    model_config = ConfigDict(extra="forbid")
    seat: int = Field(description="the seat acting, 0 first")
    token: str = Field(description="that seat's token")
    at: int | None = Field(None, description="the number of events the client has seen")
    action: dict[str, Any] = Field(description="an engine action")


def serve_baseline(port: int, view_file: str) -> None:
    """A bare FastAPI endpoint of the action route's shape: validated JSON in, a game answer out."""
    answer = json.loads(Path(view_file).read_text())
    app = FastAPI()

    @app.post("/api/games/{game_id}/actions")
    async def act(game_id: str, body: BaselineAction) -> dict[str, Any]:
        return {**answer, "id": game_id, "events": (body.at or 0) + 1}

    @app.post("/threaded/games/{game_id}/actions")
    def act_in_a_worker_thread(game_id: str, body: BaselineAction) -> dict[str, Any]:
        return {**answer, "id": game_id, "events": (body.at or 0) + 1}

    # imported from this tree's src (python_env): the settings of `cubilete serve`, collector included
    from cubilete.cli.commands.serve import server_settings, tune_collector
    from cubilete.cli.serve_logging import uvicorn_logging

    tune_collector()
    uvicorn.run(app, host="127.0.0.1", port=port, **server_settings(), **uvicorn_logging("warning", access_log=False))


async def sample_answer(server: Server, game: str) -> dict[str, Any]:
    """A real action answer from the middle of a game: what the baseline sends back."""
    async with client_session(1) as http:
        player = Player(http, server.base, game, seed=12345)
        await player.new_game()
        tally = Tally()
        for _ in range(40):
            await player.act(tally)
        seat = player.view["current_player"]
        body = {"seat": seat, "token": player.tokens[seat], "at": player.view["events"],
                "action": random_action(player.view, player.rng, short=False)}
        async with http.post(f"{server.base}/api/games/{player.id}/actions", json=body) as response:
            return await response.json()


def sample_answer_file(server: Server, game: str, folder: Path) -> Path:
    """sample_answer saved in `folder`, for the baseline server to send back."""
    view_file = folder / "answer.json"
    view_file.write_text(json.dumps(asyncio.run(sample_answer(server, game))))
    return view_file


def baseline_command(view_file: Path) -> list[str]:
    """The arguments (after the interpreter) of a bare endpoint's process answering `view_file`."""
    return [str(Path(__file__).resolve()), "--serve-baseline", str(view_file)]


# -- the run ----------------------------------------------------------------------------------------


def section(title: str) -> None:
    print(f"\n== {title}", flush=True)


def warm_up(servers: list[Server], game: str) -> None:
    """Imports, table warming and first-call costs happen before anything is measured."""
    asyncio.run(closed_loop(servers, 4 * len(servers), 2.0, game, "warm-up"))
    wait_idle(servers)


def one_process(args: argparse.Namespace, folder: Path) -> dict[int, Row]:
    database = f"sqlite:///{folder / 'games.sqlite3'}"
    rows: dict[int, Row] = {}
    with running("sqlite", serve_args(database), folder) as server:
        print(f"one process, SQLite: server RSS at start {server.rss() / MB:.1f} MB", flush=True)
        warm_up([server], args.game)
        if "closed" not in args.skip:
            section(f"closed loop, one process, SQLite, {args.seconds:.0f} s per level")
            print(HEADER)
            for games in args.levels:
                rows[games] = asyncio.run(closed_loop([server], games, args.seconds, args.game, "closed loop"))
                print_row(rows[games])
        if "baseline" not in args.skip:
            baseline(args, folder, sample_answer_file(server, args.game, folder), rows, server)
        if "open" not in args.skip:
            section(f"open loop, one process, SQLite, think time {args.think} s mean (exponential)")
            print(HEADER)
            print_row(asyncio.run(
                open_loop([server], args.open_games, args.open_seconds, args.think, args.game, args.follow)
            ))
        if args.profile:
            profile([server], args, Path(args.profile))
    return rows


def baseline(args: argparse.Namespace, folder: Path, view_file: Path, rows: dict[int, Row], app: Server) -> None:
    section(f"baseline: bare FastAPI endpoint, same uvicorn, answer of {view_file.stat().st_size} bytes")
    with running("baseline", baseline_command(view_file), folder) as server:
        asyncio.run(baseline_loop(server, 4, 2.0))  # warm-up
        wait_idle([server])
        print(HEADER)
        for games in args.levels:
            row = asyncio.run(baseline_loop(server, games, args.seconds))
            print_row(row)
            if games in rows:
                print_ratio(rows[games], row)
        saturation = 50 if 50 in args.levels else max(args.levels)
        print_row(asyncio.run(baseline_loop(server, saturation, args.seconds, threaded=True)))
        if args.rounds:
            alternate(args, app, server, saturation)


def print_ratio(actions: Row, requests: Row) -> float:
    ratio = actions.per_cpu / requests.per_cpu
    print(f"{'':<22}{'':>6}  actions per CPU-s / baseline requests per CPU-s = {ratio:.3f} (goal >= 0.5)", flush=True)
    return ratio


def alternate(args: argparse.Namespace, app: Server, bare: Server, games: int) -> None:
    """The app and the bare endpoint at saturation, one after the other, --rounds times: on a shared
    machine the CPU a request costs drifts from minute to minute, so each ratio compares neighbours."""
    section(f"alternating at {games} games: the app, then the bare endpoint, {args.rounds} rounds")
    print(HEADER)
    ratios = []
    for _round in range(args.rounds):
        actions = asyncio.run(closed_loop([app], games, args.seconds, args.game, "closed loop"))
        requests = asyncio.run(baseline_loop(bare, games, args.seconds))
        print_row(actions)
        print_row(requests)
        ratios.append(print_ratio(actions, requests))
    print(f"ratios {', '.join(f'{ratio:.3f}' for ratio in ratios)}: median {statistics.median(ratios):.3f}"
          f" (goal >= 0.5)", flush=True)


def two_processes(args: argparse.Namespace, folder: Path, one: dict[int, Row], broker: str | None) -> None:
    section("two processes, PostgreSQL + Redis, games alternating between them")
    with fresh_postgres_schema() as database, contextlib.ExitStack() as stack:
        first = stack.enter_context(running("pg-1", serve_args(database, broker), folder))
        second = stack.enter_context(running("pg-2", serve_args(database, broker), folder))
        servers = [first, second]
        warm_up(servers, args.game)
        print(HEADER)
        for games in args.levels:
            games = max(games, 2)
            # the first process alone on the same database and broker: what a second process adds to it
            alone = asyncio.run(closed_loop([first], games, args.seconds, args.game, "closed, 1 of them"))
            row = asyncio.run(closed_loop(servers, games, args.seconds, args.game, "closed, 2 processes"))
            for measured in (alone, row):
                print_row(measured)
                print(measured.window.machine_line())
            versus_one = f"{row.rate / one[games].rate:.2f}x" if games in one else "-"
            print(f"{'':<22}{'':>6}  actions/s vs one process (SQLite) = {versus_one} (goal >= 1.7x),"
                  f" vs one process on PostgreSQL + Redis = {row.rate / alone.rate:.2f}x", flush=True)


PROCESS_COUNTS = (1, 2, 4)


def processes(args: argparse.Namespace, folder: Path, broker: str | None) -> None:
    """Issue 36: the CPU an action costs at one offered load, in an open loop under saturation, with 1, 2
    and 4 processes sharing PostgreSQL and Redis, beside one SQLite process at the same load."""
    section(f"open loop at {args.open_games / args.think:.0f}/s offered: one SQLite process, then"
            f" {', '.join(map(str, PROCESS_COUNTS))} processes on PostgreSQL + Redis")
    print(HEADER)
    with running("sqlite-open", serve_args(f"sqlite:///{folder / 'processes.sqlite3'}"), folder) as server:
        warm_up([server], args.game)
        sqlite = asyncio.run(open_loop([server], args.open_games, args.open_seconds, args.think, args.game))
        view_file = sample_answer_file(server, args.game, folder)
    sqlite = replace(sqlite, section="open, SQLite")
    print_row(sqlite)
    print(sqlite.window.machine_line())
    alone: Row | None = None
    bare_alone: Row | None = None
    rows = []
    for count in PROCESS_COUNTS:
        with fresh_postgres_schema() as database, contextlib.ExitStack() as stack:
            servers = [stack.enter_context(running(f"pg-{i}", serve_args(database, broker), folder)) for i in range(count)]
            warm_up(servers, args.game)
            row = replace(asyncio.run(open_loop(servers, args.open_games, args.open_seconds, args.think, args.game)),
                          section=f"open, {count} on PG+Redis")
        print_row(row)
        print(row.window.machine_line())
        rows.append(row)
        alone = alone or row
        print(f"{'':<22}{'':>6}  server CPU per action {cpu_per_action(row, False):.0f} us"
              f" ({cpu_per_action(row, False) / cpu_per_action(alone, False):.2f}x one process's; goal for 4 <= 1.15x);"
              f" with PostgreSQL and Redis {cpu_per_action(row, True):.0f} us"
              f" ({cpu_per_action(row, True) / cpu_per_action(sqlite, False):.2f}x SQLite's; goal for 1 <= 1.25x)",
              flush=True)
        bare = bare_processes(count, args, folder, view_file)
        print_row(bare)
        bare_alone = bare_alone or bare
        print(f"{'':<22}{'':>6}  the bare endpoint's CPU per request {cpu_per_action(bare, False):.0f} us"
              f" ({cpu_per_action(bare, False) / cpu_per_action(bare_alone, False):.2f}x one process's)", flush=True)
    for row in (sqlite, *rows):
        actions = max(1, len(row.tally.latencies))
        print(f"{'':<22}{'':>6}  {row.section}: of the servers' CPU per action, {1e6 * row.window.system / actions:.0f} us"
              f" in the kernel; {row.window.switches / actions:.1f} waits (voluntary context switches) per action")


def bare_processes(count: int, args: argparse.Namespace, folder: Path, view_file: Path) -> Row:
    """The open loop's offered load on `count` bare endpoints (no storage, no broker), right after the app's
    row with as many processes: what splitting one load among processes costs any server on this machine."""
    with contextlib.ExitStack() as stack:
        servers = [stack.enter_context(running(f"bare-{i}", baseline_command(view_file), folder)) for i in range(count)]
        asyncio.run(baseline_open_loop(servers, 4 * count, 2.0, 0.05))  # imports and first calls, unmeasured
        wait_idle(servers)
        return asyncio.run(baseline_open_loop(servers, args.open_games, args.open_seconds, args.think))


def cpu_per_action(row: Row, services: bool) -> float:
    """Microseconds of the servers' CPU (and the database's and broker's, with `services`) per action."""
    cpu = row.window.cpu + (sum(row.window.services.values()) if services else 0.0)
    return 1e6 * cpu / max(1, len(row.tally.latencies))


def profile(servers: list[Server], args: argparse.Namespace, folder: Path) -> None:
    """py-spy samples (the thread holding the GIL only) of the server at saturation, as collapsed
    stacks (one line per stack and its sample count) for flame graphs or a per-function tally."""
    folder.mkdir(parents=True, exist_ok=True)
    games = 50 if 50 in args.levels else max(args.levels)
    output = folder / f"server-{games}-games.txt"
    section(f"profile: py-spy, {games} games, {args.seconds:.0f} s, into {output} (figures perturbed)")
    py_spy = shutil.which("py-spy", path=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}") or "py-spy"
    spy = subprocess.Popen(
        [py_spy, "record", "--pid", str(servers[0].process.pid), "--format", "raw", "--gil", "--nonblocking",
         "--rate", "250", "--duration", str(int(args.seconds) + 1), "--output", str(output)],
        stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
    )
    time.sleep(0.5)
    print(HEADER)
    print_row(asyncio.run(closed_loop(servers, games, args.seconds, args.game, "closed (profiled)")))
    if spy.wait(timeout=60) != 0:
        print(f"  py-spy failed ({spy.returncode}); is it installed (the bench extra) and allowed to attach?")


def memory(args: argparse.Namespace, folder: Path) -> None:
    section(f"memory: {args.memory_games} short games (score or bank at once), {args.memory_concurrency} at a time,"
            f" one process, SQLite")
    database = f"sqlite:///{folder / 'memory.sqlite3'}"
    with running("memory", serve_args(database), folder) as server:
        warm_up([server], args.game)
        asyncio.run(memory_run(server, args.memory_games, args.memory_every, args.memory_concurrency, args.game))


SECTIONS = ("closed", "baseline", "open", "two", "processes", "memory")


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a short smoke run of every section")
    parser.add_argument("--game", choices=("penta", "5000"), default="penta")
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds per closed-loop level")
    parser.add_argument("--levels", default="1,10,50,200", help="concurrent games, comma-separated")
    parser.add_argument("--open-games", type=int, default=500)
    parser.add_argument("--think", type=float, default=2.0, help="mean think time in the open loop, seconds")
    parser.add_argument("--open-seconds", type=float, default=30.0)
    parser.add_argument("--follow", action="store_true", help="in the open loop, both seats' pages follow live")
    parser.add_argument("--memory-games", type=int, default=10_000)
    parser.add_argument("--memory-every", type=int, default=1_000, help="print RSS every this many games")
    parser.add_argument("--memory-concurrency", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=3,
                        help="alternating rounds of the app and the bare endpoint at saturation (0: none)")
    parser.add_argument("--skip", default="", help=f"sections to leave out, comma-separated: {','.join(SECTIONS)}")
    parser.add_argument("--profile", metavar="DIR", help="also record a py-spy profile of the server at 50 games")
    parser.add_argument("--serve-baseline", metavar="ANSWER_JSON", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    if parser.parse_args().quick:  # shorter defaults; flags given explicitly still win
        parser.set_defaults(seconds=3.0, levels="1,10,50", open_seconds=8.0, open_games=100, memory_games=100,
                            memory_every=50, rounds=1)
    args = parser.parse_args()
    args.levels = [int(level) for level in args.levels.split(",")]
    args.skip = {name for name in args.skip.split(",") if name}
    if unknown := args.skip - set(SECTIONS):
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")
    return args


def main() -> None:
    args = parse_args()
    if args.serve_baseline:
        serve_baseline(args.port, args.serve_baseline)
        return
    started = time.monotonic()
    print(f"web load, {args.game}, src {SRC}; {os.cpu_count()} cores; load average {os.getloadavg()}", flush=True)
    with tempfile.TemporaryDirectory(prefix="web-load-") as temporary:
        folder = Path(temporary)
        one = one_process(args, folder) if {"closed", "baseline", "open"} - args.skip or args.profile else {}
        if "two" not in args.skip:
            if not serve_offers_broker():
                print("\ntwo processes: skipped (serve has no --broker yet)")
            else:
                two_processes(args, folder, one, REDIS)
        if "processes" not in args.skip:
            processes(args, folder, REDIS)
        if "memory" not in args.skip:
            memory(args, folder)
    print(f"\n{time.monotonic() - started:.0f} s in all; load average at the end {os.getloadavg()}")


if __name__ == "__main__":
    main()
