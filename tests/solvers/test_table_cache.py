"""The table cache across processes: a table on disk is built by one process of an install at a time;
another that needs it meanwhile waits for the builder's lock, then loads what it saved."""

from __future__ import annotations

import threading

from filelock import FileLock

from cubilete.solvers.table_cache import forget_loaded, load_or_build

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
