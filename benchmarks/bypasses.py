"""Each shortcut around a framework beside the plain way, in the same run: the house rule keeps a
bypass only where it saves more than 10% of a move's server CPU.

    pip install -e '.[bench]'
    PYTHONPATH=src python benchmarks/bypasses.py [--quick] [--rounds 5] [--seconds 5] [--games 50]

Server bypasses: one server process per variant, each `cubilete serve` on its own SQLite file (this
script's `--serve VARIANT`): the product as it is, and one process per bypass with that bypass
switched to the plain way by this script before the app is built (the switches below, the plain
way written here, not in the product):
- a: the action route served by FastAPI's own APIRoute rather than web/model_route.ModelBodyRoute;
- b: every write by SQLAlchemy Core on a pooled connection rather than on the driver's cursor
  (web/storage._DriverWrites, _DriverStatement);
- d: Python's default collector rather than serve.tune_collector (gc.freeze, a young threshold
  of 200,000).
Each round drives every process in turn (the order rotates from round to round) with web_load's
client: --games games of two human seats played flat out for --seconds (random legal actions,
closed loop). A move's cost is the server's CPU (user + system) over the window divided by its
actions. A bypass's figures are the medians over the rounds of the plain process's and the
product's cost per move, and its saving the median of each round's (plain - product) / plain:
neighbours in time are compared, since on a shared machine a move's CPU drifts.

c, hand-built states (engine/sheet.py, engine/five_thousand.py): in this process, the steps of
random games of Penta and 5000 (the roll, keep, score, bank... of each state, then what a view
reads of the new state). The plain way is `dataclasses.replace(state, <changed fields>)` for each
new state (what the engine did before) and `functools.cached_property` for a sheet state's
derived values: each round times the steps as the engine takes them, then with the derived
values switched to cached_property and the construction's difference (replace of the changed
fields against the class called with every field, both timed on the same pairs of states) added.
A move's share is that difference times the states a move builds (the events per action of the
product server) over the product's CPU per move.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import functools
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from web_load import Player, Server, Tally, client_session, closed_loop, running, wait_idle

US = 1_000_000


# -- the plain ways, switched on in a server process before the app is built -------------------


def plain_body_route() -> None:
    """FastAPI serves the action route itself: its body handling, dependency solving and all."""
    from fastapi.routing import APIRoute

    from cubilete.web.model_route import ModelBodyRoute

    ModelBodyRoute.get_route_handler = APIRoute.get_route_handler  # type: ignore[method-assign]


class CoreStatement:
    """In place of storage._DriverStatement: the SQLAlchemy Core statement, its values as they come."""

    def __init__(self, statement: Any, _engine: Any) -> None:
        self.sql = statement

    def parameters(self, values: dict[str, Any]) -> dict[str, Any]:
        return values


class CoreCursor:
    """What Storage asks of a cursor, done by Connection.execute (a list of rows: an executemany)."""

    def __init__(self, connection: Any) -> None:
        self.connection, self.rowcount = connection, -1

    def execute(self, statement: Any, values: Any) -> None:
        self.rowcount = self.connection.execute(statement, values).rowcount

    executemany = execute


def plain_core_writes() -> None:
    """Every write through SQLAlchemy Core: a pooled connection's transaction (engine.begin), the
    statements run by Connection.execute with their column types' conversions."""
    from sqlalchemy.exc import IntegrityError, SQLAlchemyError

    from cubilete.web import storage

    @contextlib.contextmanager
    def transaction(writes: Any) -> Iterator[CoreCursor]:
        try:
            with writes.engine.begin() as connection:
                yield CoreCursor(connection)
        except IntegrityError as error:
            raise storage.EventConflict() from error
        except SQLAlchemyError as error:
            raise storage.SaveFailed("save_failed") from error

    storage._DriverStatement = CoreStatement  # type: ignore[misc]
    storage._DriverWrites.transaction = transaction  # type: ignore[method-assign,assignment]


def plain_collector() -> None:
    """Python's collector as it comes: no freeze, a young collection every 700 allocations."""
    from cubilete.cli.commands import serve

    serve.tune_collector = lambda: None


BYPASSES: dict[str, tuple[str, Callable[[], None]]] = {
    "a": ("ModelBodyRoute, the action route's body handling (web/model_route.py)", plain_body_route),
    "b": ("writes on the driver's cursor (web/storage.py _DriverWrites)", plain_core_writes),
    "d": ("collector tuning in serve (gc.freeze, young threshold)", plain_collector),
}
PRODUCT = "product"


def serve(variant: str, database: str, port: int) -> None:
    if variant != PRODUCT:
        BYPASSES[variant][1]()
    from cubilete.cli.main import main

    sys.exit(main(["serve", "--host", "127.0.0.1", "--port", str(port), "--database", database]))


# -- a move through the server, each way ------------------------------------------------------


def cost_per_move(server: Server, args: argparse.Namespace) -> float:
    """Server CPU microseconds per action, the server played flat out for --seconds."""
    row = asyncio.run(closed_loop([server], args.games, args.seconds, args.game, server.name))
    if not row.tally.latencies:
        raise SystemExit(f"{server.name}: no action answered ({row.tally.errors})")
    return US * row.window.cpu / len(row.tally.latencies)


async def events_per_action(server: Server, game: str, actions: int) -> float:
    """The states a move builds on the server: the events each action adds (a keep also rolls)."""
    added = made = 0
    async with client_session(1) as http:
        player = Player(http, server.base, game, seed=7)
        await player.new_game()
        tally = Tally()
        while made < actions:
            game_id, before = player.id, player.view["events"]
            answered = len(tally.latencies)
            await player.act(tally)
            if len(tally.latencies) > answered and player.id == game_id:
                added, made = added + player.view["events"] - before, made + 1
    return added / made


def server_rounds(args: argparse.Namespace, folder: Path) -> tuple[dict[str, list[float]], float]:
    """Per variant, its cost per move in each round; and the product's events per action."""
    variants = [PRODUCT, *args.bypasses]
    costs: dict[str, list[float]] = {variant: [] for variant in variants}
    with contextlib.ExitStack() as stack:
        servers = {
            variant: stack.enter_context(running(variant, [
                str(Path(__file__).resolve()), "--serve", variant, "--database", f"sqlite:///{folder / variant}.db",
            ], folder))
            for variant in variants
        }
        for server in servers.values():  # imports, first calls and the kernels' compilation, unmeasured
            asyncio.run(closed_loop([server], 4, 2.0, args.game, "warm-up"))
        wait_idle(list(servers.values()))
        print(f"{'round':<6}" + "".join(f"{variant:>10}" for variant in variants) + "   server CPU us per move")
        for number in range(args.rounds):
            order = variants[number % len(variants):] + variants[: number % len(variants)]
            for variant in order:
                costs[variant].append(cost_per_move(servers[variant], args))
            print(f"{number + 1:<6}" + "".join(f"{costs[variant][-1]:>10.0f}" for variant in variants), flush=True)
        steps = asyncio.run(events_per_action(servers[PRODUCT], args.game, 100 if args.quick else 300))
    return costs, steps


def report(name: str, plain: list[float], bypass: list[float], savings: list[float], unit: str = "") -> None:
    """One bypass's line: its medians over the rounds, and the median of the rounds' savings."""
    print(f"bypass {name}: plain {statistics.median(plain):.1f} us, bypass {statistics.median(bypass):.1f} us{unit},"
          f" saves {100 * statistics.median(savings):.1f}% of a move", flush=True)


# -- c: a state step, each way ----------------------------------------------------------------------


def random_walks(games: int) -> list[tuple[Any, Any, Any]]:
    """(state, step, next state) along random games of Penta and 5000, two players each; a step is
    the dice of a roll or an action."""
    from cubilete.engine.games import new_state, rules_for

    rng = random.Random(2026)
    walks = []
    for number in range(games):
        state = new_state(rules_for("penta" if number % 2 else "5000"), 2)
        while not state.is_over:
            if state.is_chance:
                step: Any = tuple(rng.randint(1, 6) for _ in range(state.dice_to_roll))
                following = state.apply_roll(step)
            else:
                step = rng.choice(state.legal_actions())
                following = state.apply(step)
            walks.append((state, step, following))
            state = following
    return walks


def take_steps(walks: list[tuple[Any, Any, Any]]) -> float:
    """Seconds to take every step and read what a view reads of each new state."""
    started = time.perf_counter()
    for state, step, _ in walks:
        following = state.apply_roll(step) if isinstance(step, tuple) else state.apply(step)
        following.is_over  # noqa: B018 (a derived value, computed at its first read)
        following.legal_actions()
        following.scores()
    return time.perf_counter() - started


def rebuilt(walks: list[tuple[Any, Any, Any]]) -> list[tuple[Any, dict[str, Any], type, tuple[Any, ...]]]:
    """For each step: the state, the fields its next state changes, the state's class and every
    field of the next state (what dataclasses.replace and the hand-built call each take)."""
    kinds = {type(state) for state, _, _ in walks}
    fields = {kind: [field.name for field in dataclasses.fields(kind)] for kind in kinds}
    steps = []
    for state, _, following in walks:
        names = fields[type(state)]
        values = tuple(getattr(following, name) for name in names)
        changes = {name: value for name, value in zip(names, values) if getattr(state, name) is not value}
        steps.append((state, changes, type(state), values))
    return steps


def construction_difference(steps: list[tuple[Any, dict[str, Any], type, tuple[Any, ...]]]) -> float:
    """Seconds that building each next state by dataclasses.replace of its changed fields takes
    beyond calling its class with every field, as the engine does."""
    started = time.perf_counter()
    for state, changes, _, _ in steps:
        dataclasses.replace(state, **changes)
    replaced = time.perf_counter() - started
    started = time.perf_counter()
    for _, _, kind, values in steps:
        kind(*values)
    return replaced - (time.perf_counter() - started)


@contextlib.contextmanager
def cached_properties() -> Iterator[None]:
    """A sheet state's derived values kept by functools.cached_property (its lock included)."""
    from cubilete.engine import sheet

    derived = {name: value for name, value in vars(sheet.SheetState).items() if isinstance(value, sheet._derived)}
    for name, value in derived.items():
        plain = functools.cached_property(value._compute)
        plain.__set_name__(sheet.SheetState, name)
        setattr(sheet.SheetState, name, plain)
    try:
        yield
    finally:
        for name, value in derived.items():
            setattr(sheet.SheetState, name, value)


def state_rounds(args: argparse.Namespace) -> tuple[list[float], list[float]]:
    """Microseconds per state step, the plain way and the engine's, per round."""
    walks = random_walks(20 if args.quick else 60)
    steps = rebuilt(walks)
    take_steps(walks)  # first calls (the rules' tables) unmeasured
    plain, bypass = [], []
    for _ in range(args.rounds):  # the quickest of three passes each way: the least disturbed
        bypass.append(US * min(take_steps(walks) for _ in range(3)) / len(walks))
        with cached_properties():
            stepped = min(take_steps(walks) for _ in range(3))
        plain.append(US * (stepped + min(construction_difference(steps) for _ in range(3))) / len(walks))
    return plain, bypass


# -- the run -----------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer and shorter rounds (about a minute)")
    parser.add_argument("--rounds", type=int, default=9, help="alternating rounds (the figures are their medians)")
    parser.add_argument("--seconds", type=float, default=3.0, help="measured seconds per variant and round")
    parser.add_argument("--games", type=int, default=20, help="games played at once against a server")
    parser.add_argument("--game", choices=("penta", "5000"), default="penta")
    parser.add_argument("--bypasses", default=",".join(BYPASSES), help="the server bypasses to measure")
    parser.add_argument("--serve", metavar="VARIANT", help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    if parser.parse_args().quick:  # flags given explicitly still win
        parser.set_defaults(rounds=5, seconds=1.5)
    args = parser.parse_args()
    args.bypasses = [name for name in args.bypasses.split(",") if name]
    if unknown := set(args.bypasses) - set(BYPASSES):
        parser.error(f"unknown bypasses: {', '.join(sorted(unknown))}")
    return args


def main() -> None:
    args = parse_args()
    if args.serve:
        serve(args.serve, args.database, args.port)
        return
    started = time.monotonic()
    print(f"bypasses beside the plain way, {args.rounds} rounds of {args.seconds:.1f} s, {args.games} {args.game}"
          f" games at once", flush=True)
    with tempfile.TemporaryDirectory(prefix="bypasses-") as temporary:
        costs, steps = server_rounds(args, Path(temporary))
    plain_steps, bypass_steps = state_rounds(args)
    move = statistics.median(costs[PRODUCT])
    print(f"a move: {move:.0f} us of server CPU (the product, median), {steps:.2f} states built (events per action)")
    for name in args.bypasses:
        plain, bypass = costs[name], costs[PRODUCT]
        report(f"{name} ({BYPASSES[name][0]})", plain, bypass, [(p - b) / p for p, b in zip(plain, bypass)])
    # a move the plain way builds its states the plain way too
    saved = [(p - b) * steps for p, b in zip(plain_steps, bypass_steps)]
    report("c (hand-built states, engine/sheet.py, engine/five_thousand.py)", plain_steps, bypass_steps,
           [each / (move + each) for each in saved], " per state step")
    print(f"{time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main()
