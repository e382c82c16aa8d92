"""What every test shares: solved tables go to this session's temporary directory.

Each rule set is then solved at most once per test session, and no test (nor the
app servers the browser tests start, which inherit the environment) touches the
user's real cache.
"""

import pytest

from cubilete.solvers.cache_dir import CACHE_DIR_ENV


@pytest.fixture(scope="session", autouse=True)
def solver_cache_dir(tmp_path_factory):
    path = tmp_path_factory.getbasetemp() / "solver-cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_ENV, str(path))
        yield path
