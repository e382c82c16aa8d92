"""What every test shares: solved tables go to this session's temporary directory.

Each rule set is then solved at most once per test session, and no test (nor the
app servers the browser tests start, which inherit the environment) touches the
user's real cache.
"""

import os

import pytest
from hypothesis import settings

from cubilete.solvers.cache_dir import CACHE_DIR_ENV

# In CI (CI set) property tests run the same examples every time, so a red build is
# reproducible and never flaky; elsewhere each run explores new ones.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


@pytest.fixture(scope="session", autouse=True)
def solver_cache_dir(tmp_path_factory):
    path = tmp_path_factory.getbasetemp() / "solver-cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_DIR_ENV, str(path))
        yield path
