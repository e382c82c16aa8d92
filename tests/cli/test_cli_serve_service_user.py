"""`cubilete serve` run as a service: no writable home, no XDG variables, only the directories systemd
gives a unit with `DynamicUser=yes`, `StateDirectory=` and `CacheDirectory=` ($STATE_DIRECTORY,
$CACHE_DIRECTORY). It serves from them and says so; with no writable directory for Numba's cache it
compiles its kernels without one, and says that too. Where the tests run as root and `runuser` exists,
the server runs as the unprivileged user `nobody`, as under systemd; elsewhere as the tests' user."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import free_port

from cubilete.solvers.kernel_cache import first_writable

UNPRIVILEGED = "nobody"
HOMELESS = "/nonexistent"  # nobody's home in /etc/passwd: it does not exist and cannot be made
STARTUP_SECONDS = 30  # what a broken server may cost a test at most; the test waits for /healthz


def service_environment(home: str = HOMELESS, **directories: str) -> dict[str, str]:
    """The test's environment without XDG directories or cubilete's and Numba's cache variables, with a
    home that cannot be made, systemd's directories, and this interpreter's import path spelled out
    for another user."""
    dropped = ("HOME", "CUBILETE_CACHE_DIR", "NUMBA_CACHE_DIR")
    kept = {name: value for name, value in os.environ.items() if name not in dropped and not name.startswith("XDG_")}
    path = os.pathsep.join(os.path.abspath(entry) for entry in sys.path if entry)
    return {**kept, "HOME": home, "PYTHONPATH": path, **directories}


def unprivileged_interpreter() -> str | None:
    """An interpreter of this Python version that `nobody` may run (this venv's may lie under root's
    home), importing this tree's cubilete; None where the tests cannot switch user."""
    if os.geteuid() != 0 or shutil.which("runuser") is None:
        return None
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    for interpreter in (sys.executable, shutil.which(version, path="/usr/local/bin:/usr/bin")):
        probe = ["runuser", "-u", UNPRIVILEGED, "--", str(interpreter), "-c", "import cubilete.cli.main"]
        if interpreter and subprocess.run(probe, env=service_environment(), capture_output=True).returncode == 0:
            return interpreter
    return None


@pytest.fixture(scope="module")
def as_service_user() -> list[str]:
    """The command prefix that runs `cubilete` as the service's user."""
    interpreter = unprivileged_interpreter()
    if interpreter is None:
        pytest.skip(
            f"the tests cannot run a program as {UNPRIVILEGED!r} (not root, no runuser, or no interpreter it may run)"
        )
    return ["runuser", "-u", UNPRIVILEGED, "--", interpreter]


@pytest.fixture
def service_directories() -> Iterator[Path]:
    """A folder that `nobody` may enter (pytest's tmp_path is root's alone), holding the unit's state
    and cache directories, which systemd makes and gives to the service's user."""
    with tempfile.TemporaryDirectory(prefix="cubilete-service-") as folder:
        base = Path(folder)
        base.chmod(0o755)
        for name in ("state", "cache"):
            (base / name).mkdir()
            if os.geteuid() == 0:
                shutil.chown(base / name, UNPRIVILEGED)
        yield base


def serve_until_healthy(command: list[str], env: dict[str, str], log: Path) -> tuple[str, subprocess.Popen[bytes]]:
    """Start `cubilete serve`, wait until /healthz answers, and answer what it answered and the process."""
    port = free_port()
    with log.open("wb") as output:  # a file, not a pipe: a full pipe would block the server
        server = subprocess.Popen(
            [*command, "-m", "cubilete.cli.main", "serve", "--port", str(port)], stdout=output, stderr=output, env=env
        )
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as answer:
                return answer.read().decode(), server
        except OSError:
            time.sleep(0.1)
    server.kill()
    server.wait()
    raise AssertionError(f"cubilete serve did not become healthy: {log.read_text()}")


def stop(server: subprocess.Popen[bytes]) -> None:
    server.terminate()
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


def check_served_from_the_given_directories(command: list[str], base: Path, home: str = HOMELESS) -> str:
    """Serve with STATE_DIRECTORY and CACHE_DIRECTORY set; answer its start-up line."""
    state, cache = base / "state", base / "cache"
    env = service_environment(home, STATE_DIRECTORY=str(state), CACHE_DIRECTORY=str(cache))
    health, server = serve_until_healthy(command, env, base / "server.log")
    try:
        assert health == '{"status":"alive"}'
        assert (state / "games.sqlite3").is_file()  # the games are kept in the state directory
    finally:
        stop(server)
    said = (base / "server.log").read_text()
    startup = next(line for line in said.splitlines() if "starting:" in line)
    assert f"database sqlite:///{state / 'games.sqlite3'}" in startup and f"data directory {state}" in startup
    assert f"cache directory {cache}" in startup
    assert "Traceback" not in said and home not in said
    return startup


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_an_unprivileged_user_with_no_home_serves_from_systemds_directories(as_service_user, service_directories):
    startup = check_served_from_the_given_directories(as_service_user, service_directories)
    # the sources are root's: Numba caches the kernels in the cache directory given
    assert f"compiled kernels {service_directories / 'cache' / 'numba'}" in startup
    assert (service_directories / "state" / "games.sqlite3").owner() == UNPRIVILEGED


@pytest.mark.slow  # a long check (a whole scenario, a real fault or server): the slow step runs it
def test_with_no_writable_directory_the_kernels_compile_uncached_and_it_says_so(as_service_user, service_directories):
    env = service_environment(STATE_DIRECTORY=str(service_directories / "state"))  # and no cache directory
    log = service_directories / "server.log"
    health, server = serve_until_healthy(as_service_user, env, log)
    stop(server)
    said = log.read_text()
    assert health == '{"status":"alive"}' and "Traceback" not in said
    assert "compiled kernels are not cached (no writable directory" in said
    assert "compiled kernels not cached" in next(line for line in said.splitlines() if "starting:" in line)


def test_a_process_with_no_writable_home_serves_from_systemds_directories(service_directories):
    """The same where the tests cannot switch user: a home under a file can be made by no one, not even root."""
    (service_directories / "a-file").touch()
    check_served_from_the_given_directories([sys.executable], service_directories, str(service_directories / "a-file"))


def test_the_kernel_cache_is_the_first_directory_that_can_be_written(tmp_path):
    (tmp_path / "a-file").touch()
    unwritable = tmp_path / "a-file" / "numba"  # under a file: no one can make it
    assert first_writable([unwritable, tmp_path / "numba"]) == tmp_path / "numba"
    assert first_writable([unwritable]) is None
