"""How long `cubilete serve` takes to exit after SIGTERM while its first live-bar request builds the Penta
duel's tables (the costliest build: about 20 s of CPU): the time from the signal to the process's exit,
for this checkout and, in the same run, for another checkout's code (the peer: the release before, whose
build kept the process alive).

    PYTHONPATH=src python benchmarks/stop_during_build.py [--runs 3] [--peer-src OLD_CHECKOUT/src]

Each run starts a server on a fresh SQLite database and an empty solver cache, asks the live bar of a
two-seat Penta game (which waits for the duel's tables), sends SIGTERM `--after` seconds later, and waits
up to `--give-up` seconds for the exit (then kills it and says so).
"""

from __future__ import annotations

import argparse
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from harness import Server, free_port  # noqa: E402
from peers import add_peer_option, sources  # noqa: E402

PLAYERS = [{"name": "Ana", "kind": "human"}, {"name": "Luis", "kind": "human"}]


def ask_live_bar(url: str) -> None:
    try:
        with urllib.request.urlopen(url, timeout=120):
            pass
    except (urllib.error.URLError, OSError):
        pass  # refused or cut when the server stops: only the exit's time is measured


def one_stop(src: Path, after: float, give_up: float) -> float | None:
    """Seconds from SIGTERM to the exit, or None if the process was still running after `give_up`."""
    with tempfile.TemporaryDirectory(prefix="stop-during-build-") as folder_name:
        folder = Path(folder_name)
        env = {"CUBILETE_CACHE_DIR": str(folder / "cache"), "PYTHONPATH": str(src.resolve())}
        server = Server(f"sqlite:///{folder / 'games.sqlite3'}", free_port(), folder / "server.log", env=env).start()
        assert server.process is not None
        try:
            game = server.api("POST", "/api/games", {"game": "penta", "players": PLAYERS})
            chances = f"{server.url}/api/games/{game['id']}/chances"
            threading.Thread(target=ask_live_bar, args=(chances,), daemon=True).start()
            time.sleep(after)  # the build is under way (it takes far longer than this)
            signalled = time.monotonic()
            server.process.send_signal(signal.SIGTERM)
            try:
                server.process.wait(give_up)
            except subprocess.TimeoutExpired:
                return None
            return time.monotonic() - signalled
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--after", type=float, default=2.0, help="seconds between the live bar's request and SIGTERM")
    parser.add_argument("--give-up", type=float, default=60.0, help="seconds to wait for the exit before killing")
    add_peer_option(parser)
    args = parser.parse_args()
    for label, src in sources(args).items():
        times = [one_stop(src, args.after, args.give_up) for _ in range(args.runs)]
        exited = [seconds for seconds in times if seconds is not None]
        shown = ", ".join("still running" if s is None else f"{s:.2f} s" for s in times)
        median = f"median {statistics.median(exited):.2f} s" if exited else "never exited"
        print(f"{label} ({src}): SIGTERM during the duel build -> exit: {shown}; {median}; "
              f"{len(times) - len(exited)} of {len(times)} still running after {args.give_up:.0f} s")


if __name__ == "__main__":
    main()
