"""What every test shares: solved tables go to this session's temporary directory.

Each rule set is then solved at most once per test session (per worker, at worst, when
two xdist workers need the same table at the same moment: the caches write atomically),
and no test (nor the app servers the browser tests start, which inherit the environment)
touches the user's real cache.
"""

import os
import secrets
from urllib.parse import quote

import pytest
from harness import Server, free_port
from hypothesis import settings

from cubilete.solvers.cache_dir import CACHE_DIR_ENV

POSTGRES = os.environ.get("CUBILETE_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
REDIS = os.environ.get("CUBILETE_TEST_REDIS", "redis://127.0.0.1:6379/0")
# Each worker solves the tables its tests need, so beyond a few workers extra cores mostly
# solve the same tables again.
MAX_WORKERS = 4


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    return max(1, min(MAX_WORKERS, len(os.sched_getaffinity(0))))


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


@pytest.fixture
def database(tmp_path) -> str:
    """A new SQLite database for one test's app."""
    return f"sqlite:///{tmp_path / 'games.sqlite3'}"


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
def redis_url():
    redis = pytest.importorskip("redis", reason="redis-py is not installed (pip install -e .[servers])")
    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        pytest.skip(f"Redis is not reachable at {REDIS}: {error}")
    return REDIS


@pytest.fixture
def start_server(tmp_path):
    """Start `cubilete serve` processes (on `database`, with `broker`), each stopped after the test."""
    servers = []

    def start(database: str, broker: str | None = None) -> Server:
        server = Server(database, free_port(), tmp_path / f"server{len(servers)}.log", broker).start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()
