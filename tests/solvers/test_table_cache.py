"""The table cache across processes: a table on disk is built by one process of an install at a time;
another that needs it meanwhile waits for the builder's lock, then loads what it saved."""

from __future__ import annotations

import threading

from filelock import FileLock

from cubilete.solvers.cache_dir import CACHE_DIR_ENV, cache_dir
from cubilete.solvers.table_cache import forget_loaded, in_memory, load_or_build

SAFETY_SECONDS = 30


def read(path):
    return path.read_text() if path.exists() else None


def test_a_table_another_process_is_building_is_waited_for_then_loaded(tmp_path):
    file = tmp_path / "table.txt"
    other_process = FileLock(tmp_path / "table.txt.lock")  # the same lock file, taken elsewhere
    other_process.acquire()
    builds, answers = [], []
    asked = threading.Event()

    def build(progress):
        builds.append("built here")
        return "built here"

    def load(path):
        table = read(path)
        asked.set()
        return table

    def needs_the_table():
        answers.append(load_or_build(("a test table", str(tmp_path)), lambda: file, load, build, _save))

    waiting = threading.Thread(target=needs_the_table)
    waiting.start()
    try:
        assert asked.wait(SAFETY_SECONDS)  # found no file: now it waits for the lock
        file.write_text("built by the other process")
    finally:
        other_process.release()
    waiting.join(SAFETY_SECONDS)
    forget_loaded()
    assert answers == ["built by the other process"] and builds == []


def test_a_table_nobody_has_built_is_built_once_and_saved(tmp_path):
    file = tmp_path / "table.txt"
    builds = []

    def build(progress):
        builds.append(1)
        return "built"

    for _ in range(2):
        assert load_or_build(("another test table", str(tmp_path)), lambda: file, read, build, _save) == "built"
    forget_loaded()
    assert builds == [1] and file.read_text() == "built"


def _save(table, stream):
    stream.write(table.encode())


def test_the_quick_path_answers_a_held_table_from_any_directory_and_a_load_looks_in_its_own(
    tmp_path, monkeypatch
):
    """A table is a function of its key parts, so advice's quick path (`in_memory`) answers the one held
    without reading the environment for the cache directory; `load_or_build` still finds each table in
    the directory configured now."""
    parts = ("a table of two directories", str(tmp_path))
    builds = []

    def build(progress):
        builds.append(1)
        return f"built in {cache_dir().name}"

    try:
        for name in ("first", "second"):
            monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / name))
            file = lambda: cache_dir() / "table.txt"  # noqa: E731 (the path as table_path makes it: read at the call)
            assert load_or_build(parts, file, read, build, _save) == f"built in {name}"
            assert in_memory(parts) == f"built in {name}"
        assert builds == [1, 1] and (tmp_path / "first" / "table.txt").read_text() == "built in first"
        monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "first"))
        assert load_or_build(parts, file, read, build, _save) == "built in first" and builds == [1, 1]
        monkeypatch.setenv(CACHE_DIR_ENV, str(tmp_path / "third"))  # nothing there: the quick path looks nowhere
        assert in_memory(parts) == "built in first"
    finally:
        forget_loaded()
    assert in_memory(parts) is None
