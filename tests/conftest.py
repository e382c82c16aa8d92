"""What every test shares: solved tables go to this session's temporary directory.

Each rule set is then solved at most once per test session (per worker, at worst, when
two xdist workers need the same table at the same moment: the caches write atomically),
and no test (nor the app servers the browser tests start, which inherit the environment)
touches the user's real cache.
"""

import gc
import os
import secrets
import shutil
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

import pytest
from harness import PostgresCluster, RedisServer, Server, copy_database, free_port, user_exists
from hypothesis import settings

from cubilete.solvers.cache_dir import CACHE_DIR_ENV

POSTGRES = os.environ.get("CUBILETE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("CUBILETE_TEST_REDIS", "redis://127.0.0.1:6379/0")
# Two workers per core: most tests wait (for a page, a server process, a scaled clock) rather than
# compute; one worker per core kept the two cores here 65% busy through the quick suite and about
# 30% through the slow step. At most four: the workers share the solved tables on disk, but each holds
# the ones it loads, and each starts its own Chromium.
WORKERS_PER_CORE = 2
MAX_WORKERS = 4


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    return max(1, min(MAX_WORKERS, WORKERS_PER_CORE * len(os.sched_getaffinity(0))))


# Collecting imports the app and rewrites the asserts of 140 test modules: hundreds of thousands of
# objects that live for the whole run, which the garbage collector would traverse again and again
# (3.4 of a worker's 10.7 s of collection here). It stays off while collecting; what collecting made is
# then frozen out of every later collection.
@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session):
    gc.disable()
    try:
        return (yield)
    finally:
        gc.enable()
        gc.freeze()


# In CI (CI set) property tests run the same examples every time, so a red build is
# reproducible and never flaky; elsewhere each run explores new ones.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


@pytest.fixture(scope="session", autouse=True)
def solver_cache_dir(tmp_path_factory: pytest.TempPathFactory):
    # Under xdist every worker's base temp is a folder of the session's one: share that.
    session_temp = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        session_temp = session_temp.parent
    path = session_temp / "solver-cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_ENV, str(path))
        yield path


def compile_threshold_kernels(rules) -> None:
    from cubilete.engine.sheet import SheetState
    from cubilete.engine.sheet_scoring import sheet_from_json
    from cubilete.solvers.sheet.threshold import rank_for_target, reach_chance
    from cubilete.solvers.sheet.warmup import compile_sheet_kernels

    compile_sheet_kernels()  # what reach_chance solves with
    start = SheetState.situation(rules, sheet_from_json(rules, {}))
    reach_chance(start, 30)
    rank_for_target(start.apply_roll((6, 6, 2, 3, 6)), 30)


def compile_class_kernels(rules) -> None:
    from cubilete.engine.sheet import SheetState
    from cubilete.engine.sheet_scoring import sheet_from_json
    from cubilete.solvers.sheet.distributions import option_distributions
    from cubilete.solvers.sheet.stats import exact_stats
    from cubilete.solvers.sheet.warmup import compile_sheet_kernels

    compile_sheet_kernels()
    exact_stats(rules)
    option_distributions(SheetState.situation(rules, sheet_from_json(rules, {})).apply_roll((6, 6, 2, 3, 6)))


def compile_five_thousand_kernels(rules) -> None:
    from cubilete.engine.five_thousand import FIVE_THOUSAND_SEED
    from cubilete.solvers.five_thousand.exact import solve

    solve(replace(FIVE_THOUSAND_SEED, name="kernel-warm-up", target=400, entry=200))


# Numba compiles a kernel at its first call in each process: from a fresh checkout the workers would
# compile the same kernels at the same moment (a quick run here compiled the state classes' kernels in
# two workers at once, 7 s of CPU each). Instead every worker readies every share before its first test,
# on a two-box rule set, each share compiled by one worker while the others wait (`compiling_alone`) and
# then load it from Numba's cache: a worker starts with its own share, so the shares compile side by
# side. The score-sheet shares start with the solver's kernels, compiled by one of them likewise.
KERNEL_SHARES = {"threshold": compile_threshold_kernels, "classes": compile_class_kernels,
                 "five-thousand": compile_five_thousand_kernels}


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels(solver_cache_dir):
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if workers < 2:
        return
    from cubilete.engine.sheet_rules import PENTA_SEED
    from cubilete.solvers.kernel_cache import compiling_alone

    rules = replace(PENTA_SEED, name="kernel-warm-up", upper_bonus_threshold=18,
                    boxes=tuple(box for box in PENTA_SEED.boxes if box.id in ("sixes", "penta")))
    shares = list(KERNEL_SHARES.items())
    first = int(os.environ["PYTEST_XDIST_WORKER"].removeprefix("gw")) % len(shares)
    for name, share in shares[first:] + shares[:first]:
        with compiling_alone(f"tests-{name}"):
            share(rules)


@pytest.fixture(scope="session")
def migrated_database(tmp_path_factory) -> Path:
    """An empty SQLite database at the newest schema, migrated once per test process: 13 migrations cost
    more than most tests that need a database (a test of the migrations makes its own)."""
    from cubilete.storage import Storage

    path = tmp_path_factory.mktemp("migrated") / "games.sqlite3"
    Storage(f"sqlite:///{path}").close()
    return path


@pytest.fixture
def database(tmp_path, migrated_database) -> str:
    """A new SQLite database for one test's app: a copy of the migrated one (SQLite's backup, whole)."""
    return copy_database(migrated_database, tmp_path / "games.sqlite3")


@pytest.fixture
def client(database: str):
    """The web app on that database, spoken to in-process."""
    from fastapi.testclient import TestClient

    from cubilete.web import create_app

    with TestClient(create_app(database)) as client:
        yield client


@pytest.fixture
def postgres_url():
    """A URL whose tables live in a schema of their own, dropped afterwards."""
    psycopg = pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e .[servers])")
    try:
        admin = psycopg.connect(POSTGRES, connect_timeout=3, autocommit=True)
    except psycopg.OperationalError as error:
        pytest.skip(f"PostgreSQL is not reachable at {POSTGRES}: {error}")
    schema = f"cubilete_test_{secrets.token_hex(6)}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield POSTGRES.replace("postgresql://", "postgresql+psycopg://", 1) + "?options=" + quote(
            f"-csearch_path={schema}"
        )
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


@pytest.fixture
def postgres_cluster():
    """A PostgreSQL server of the test's own, started (the test may stop or freeze it), removed after."""
    pytest.importorskip("psycopg", reason="psycopg is not installed (pip install -e .[servers])")
    if shutil.which("initdb") is None or shutil.which("pg_ctl") is None:
        pytest.skip("PostgreSQL's initdb and pg_ctl are not on the PATH: a test's own server cannot be made")
    if os.geteuid() == 0 and (shutil.which("runuser") is None or not user_exists("postgres")):
        pytest.skip("PostgreSQL refuses to run as root, and there is no postgres user (or runuser) to run it as")
    cluster = PostgresCluster()
    try:
        yield cluster.start()
    finally:
        cluster.remove()


@pytest.fixture
def redis_url():
    redis = pytest.importorskip("redis", reason="redis-py is not installed (pip install -e .[servers])")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        pytest.skip(f"Redis is not reachable at {REDIS}: {error}")
    return REDIS


@pytest.fixture
def own_redis(tmp_path):
    """A Redis of this test's own, which it may stop and start again (the shared one is never stopped)."""
    pytest.importorskip("redis", reason="redis-py is not installed (pip install -e .[servers])")
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed: a test that stops Redis needs one of its own")
    server = RedisServer(tmp_path).start()
    yield server
    server.stop()


@pytest.fixture
def start_server(tmp_path):
    """Start `cubilete serve` processes (on `database`, with `broker` and more `options`), each stopped
    after the test."""
    servers = []

    def start(database: str, broker: str | None = None, options: tuple[str, ...] = ()) -> Server:
        log = tmp_path / f"server{len(servers)}.log"
        server = Server(database, free_port(), log, broker, options=options).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
