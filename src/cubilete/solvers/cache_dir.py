"""Where solved tables live: the user's cache directory, or $CUBILETE_CACHE_DIR (tests, CI)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

CACHE_DIR_ENV = "CUBILETE_CACHE_DIR"


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_DIR_ENV) or platformdirs.user_cache_dir("cubilete"))
