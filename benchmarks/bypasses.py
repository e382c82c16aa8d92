"""Each shortcut around a framework beside the plain way, in the same run: the house rule keeps a
bypass only where it saves more than 10% of a move's server CPU.

    pip install -e '.[bench]'
    PYTHONPATH=src python benchmarks/bypasses.py [--quick] [--rounds 25] [--seconds 2] [--games 20]
        [--game penta|5000] [--bypasses a,d]

Server bypasses: one server process per variant, each `cubilete serve` on its own SQLite file (this
script's `--serve VARIANT`): the product as it is, and one process per bypass with that bypass
switched to the plain way by this script before the app is built (the switches below, the plain
way written here, not in the product):
- a: the action route served by FastAPI's own APIRoute rather than web/model_route.ModelBodyRoute;
- d: Python's default collector rather than serve.tune_collector (gc.freeze, a young threshold
  of 200,000).
Each round drives every process in turn (the order rotates from round to round) with web_load's
client: --games games of two human seats played flat out for --seconds (random legal actions,
closed loop). A move's cost is the server's CPU (user + system) over the window divided by its
actions. A bypass's figures are the medians over the rounds of the plain process's and the
product's cost per move, and its saving the median of each round's (plain - product) / plain:
neighbours in time are compared, since on a shared machine a move's CPU drifts.

Measured and dropped (the plain way is the product's since; the figures in docs/benchmarks.md):
b, every write on the database driver's cursor with statements compiled once rather than by
SQLAlchemy Core; c, hand-built engine states rather than dataclasses.replace and
functools.cached_property.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from web_load import Server, closed_loop, running, wait_idle

US = 1_000_000


# -- the plain ways, switched on in a server process before the app is built -------------------


def plain_body_route() -> None:
    """FastAPI serves the action route itself: its body handling, dependency solving and all."""
    from fastapi.routing import APIRoute

    from cubilete.web.model_route import ModelBodyRoute

    ModelBodyRoute.get_route_handler = APIRoute.get_route_handler  # type: ignore[method-assign]


def plain_collector() -> None:
    """Python's collector as it comes: no freeze, a young collection every 700 allocations."""
    from cubilete.cli.commands import serve

    serve.tune_collector = lambda: None


BYPASSES: dict[str, tuple[str, Callable[[], None]]] = {
    "a": ("ModelBodyRoute, the action route's body handling (web/model_route.py)", plain_body_route),
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


def server_rounds(args: argparse.Namespace, folder: Path) -> dict[str, list[float]]:
    """Per variant, its cost per move in each round."""
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
    return costs


def report(name: str, plain: list[float], bypass: list[float], savings: list[float]) -> None:
    """One bypass's line: its medians over the rounds, and the median of the rounds' savings."""
    print(f"bypass {name}: plain {statistics.median(plain):.1f} us, bypass {statistics.median(bypass):.1f} us,"
          f" saves {100 * statistics.median(savings):.1f}% of a move", flush=True)


# -- the run -----------------------------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer and shorter rounds (about a minute)")
    parser.add_argument("--rounds", type=int, default=25, help="alternating rounds (the figures are their medians)")
    parser.add_argument("--seconds", type=float, default=2.0, help="measured seconds per variant and round")
    parser.add_argument("--games", type=int, default=20, help="games played at once against a server")
    parser.add_argument("--game", choices=("penta", "5000"), default="penta")
    parser.add_argument("--bypasses", default=",".join(BYPASSES), help="the server bypasses to measure")
    parser.add_argument("--serve", metavar="VARIANT", help=argparse.SUPPRESS)
    parser.add_argument("--database", help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    if parser.parse_args().quick:  # flags given explicitly still win
        parser.set_defaults(rounds=9, seconds=1.5)
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
        costs = server_rounds(args, Path(temporary))
    move = statistics.median(costs[PRODUCT])
    print(f"a move: {move:.0f} us of server CPU (the product, median)")
    for name in args.bypasses:
        plain, bypass = costs[name], costs[PRODUCT]
        report(f"{name} ({BYPASSES[name][0]})", plain, bypass, [(p - b) / p for p, b in zip(plain, bypass)])
    print(f"{time.monotonic() - started:.0f} s in all")


if __name__ == "__main__":
    main()
