"""Where solved tables live: the user's cache directory, or $CUBILETE_CACHE_DIR (tests, CI)."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

import platformdirs

CACHE_DIR_ENV = "CUBILETE_CACHE_DIR"


def cache_dir() -> Path:
    return _directory(os.environ.get(CACHE_DIR_ENV))


@cache  # asked at every table lookup (every advice): platformdirs and Path cost microseconds
def _directory(configured: str | None) -> Path:
    return Path(configured or platformdirs.user_cache_dir("cubilete"))
