"""Where solved tables live: $CUBILETE_CACHE_DIR (tests, CI), else the cache directory systemd gives
a service ($CACHE_DIRECTORY, from a unit's `CacheDirectory=`), else the user's cache directory."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path

CACHE_DIR_ENV = "CUBILETE_CACHE_DIR"
SERVICE_CACHE_ENV = "CACHE_DIRECTORY"


def cache_dir() -> Path:
    return _directory(os.environ.get(CACHE_DIR_ENV) or service_directory(SERVICE_CACHE_ENV))


def service_directory(variable: str) -> str | None:
    """The directory systemd gives a service in `variable` (the first, when a unit names several)."""
    return os.environ.get(variable, "").split(":")[0] or None


@cache  # asked at every table lookup (every advice): platformdirs and Path cost microseconds
def _directory(configured: str | None) -> Path:
    if configured:
        return Path(configured)
    import platformdirs  # here: a process told its cache directory, or solving without one, never imports it

    return Path(platformdirs.user_cache_dir("cubilete"))
