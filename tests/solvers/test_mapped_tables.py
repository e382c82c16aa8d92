"""Solver tables on disk, mapped read-only by every process (issue 36): built once per install under a lock
while the other processes wait, refused and built again when damaged, counted by their files' sizes, and
the duel's laws stored in uint32 without changing a decision. Tiny synthetic tables and the two-box rule
set stand in for Penta's (whose duel laws take 22 s)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from cubilete.engine.events import replay
from cubilete.engine.runner import Match
from cubilete.engine.sheet import SheetState
from cubilete.engine.sheet_rules import GENERALA_SEED, PENTA_SEED
from cubilete.players import make_player, table_memory
from cubilete.solvers import mapped_tables
from cubilete.solvers.cache_dir import CACHE_DIR_ENV
from cubilete.solvers.sheet import cache as sheet_cache
from cubilete.solvers.sheet import distributions, duel
from cubilete.solvers.sheet.distributions import DistributionTable, complete_table, laws_path
from cubilete.solvers.table_cache import forget_loaded, load_or_build

KEY = {"rules": {"name": "tiny"}, "solver": "1"}
TWO_BOXES = replace(
    PENTA_SEED, name="two-boxes", upper_bonus_threshold=18,
    boxes=tuple(box for box in PENTA_SEED.boxes if box.id in ("sixes", "penta")),
)
SAFETY_SECONDS = 60  # two fresh interpreters importing NumPy, on a loaded machine

# A process of the install asking for the tiny table: it says it arrived (a line in `builds`.arrived), and
# its build waits (bounded) until both have, so the other is at the lock or past it, then writes a line to
# `builds` each time it runs.
ASK_FOR_TABLE = textwrap.dedent(
    """
    import sys, time
    from pathlib import Path
    import numpy as np
    from cubilete.solvers import mapped_tables
    from cubilete.solvers.table_cache import load_or_build

    key, builds = {"rules": {"name": "tiny"}, "solver": "1"}, Path(sys.argv[1])
    path, arrived = Path(sys.argv[2]), Path(sys.argv[1] + ".arrived")
    with arrived.open("a") as log:
        log.write("here\\n")

    def build(progress):
        with builds.open("a") as log:
            log.write("built\\n")
        give_up = time.monotonic() + 30
        while arrived.read_text().count("here") < 2 and time.monotonic() < give_up:
            time.sleep(0.01)
        return {"values": np.arange(1000, dtype=np.float64)}

    table = load_or_build(
        ("tiny",), lambda: path, lambda file: mapped_tables.read(file, key), build,
        lambda arrays, stream: mapped_tables.write(stream, key, arrays), mapped=True,
    )
    assert not table["values"].flags.writeable and table["values"].sum() == 499500
    print("mapped")
    """
)


def test_two_processes_starting_together_build_a_table_once_and_both_map_it(tmp_path):
    builds, path = tmp_path / "builds", tmp_path / "tiny.table"
    environment = {**os.environ, CACHE_DIR_ENV: str(tmp_path)}
    command = [sys.executable, "-c", ASK_FOR_TABLE, str(builds), str(path)]
    processes = [subprocess.Popen(command, env=environment, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    outputs = [process.communicate(timeout=SAFETY_SECONDS)[0] for process in processes]
    assert [process.returncode for process in processes] == [0, 0]
    assert outputs == ["mapped\n", "mapped\n"]
    assert builds.read_text() == "built\n"  # the other waited for the lock, then mapped what was saved
    assert not list(tmp_path.glob("*.partial"))


def tiny_table(path: Path, builds: list[int]) -> dict[str, np.ndarray]:
    def build(progress):
        builds.append(1)
        return {"values": np.linspace(0, 1, 100), "count": np.array(7)}

    return load_or_build(
        ("tiny", str(path), len(builds)), lambda: path, lambda file: mapped_tables.read(file, KEY), build,
        lambda arrays, stream: mapped_tables.write(stream, KEY, arrays), mapped=True,
    )


def test_a_table_is_mapped_read_only_from_its_file(tmp_path):
    path, builds = tmp_path / "tiny.table", []
    table = tiny_table(path, builds)
    assert isinstance(table["values"].base, np.ndarray) and not table["values"].flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        table["values"][0] = 1.0
    assert int(table["count"]) == 7 and table["count"].shape == ()
    assert np.array_equal(mapped_tables.read(path, KEY)["values"], np.linspace(0, 1, 100))


@pytest.mark.parametrize(
    "damage",
    [
        lambda data: data[:-8],  # truncated
        lambda data: data + b"\0" * 64,  # too long
        lambda data: data.replace(b'"format": 1', b'"format": 9'),  # another format's version
        lambda data: data.replace(b'"name": "tiny"', b'"name": "tint"'),  # another rule set's
        lambda data: data.replace(b'"shape": [100]', b'"shape": [101]'),  # its layout changed: the checksum
        lambda data: b"not a table" + data[11:],
    ],
    ids=["truncated", "too-long", "version", "rules", "shape", "magic"],
)
def test_a_damaged_file_is_refused_and_built_again(tmp_path, damage):
    path, builds = tmp_path / "tiny.table", []
    tiny_table(path, builds)
    path.write_bytes(damage(path.read_bytes()))
    assert mapped_tables.read(path, KEY) is None
    rebuilt = tiny_table(path, builds)  # a fresh key: as a process started after the damage
    assert builds == [1, 1] and np.array_equal(rebuilt["values"], np.linspace(0, 1, 100))
    assert mapped_tables.read(path, KEY) is not None


def test_the_sheet_solution_and_the_duel_laws_are_mapped_and_counted_by_their_files(solver_cache_dir):
    """The table budget (web/tables.py) counts what a rule set's files map once they are saved."""
    solved = sheet_cache.solution(TWO_BOXES)
    laws = complete_table(solved)
    assert not solved.values.flags.writeable
    assert all(not layer.flags.writeable and layer.dtype == np.uint32 for layer in laws.windows.layers)
    assert table_memory("duel", TWO_BOXES) == {
        ("sheet solution", TWO_BOXES): sheet_cache.cache_path(TWO_BOXES).stat().st_size,
        ("duel laws", TWO_BOXES): laws_path(TWO_BOXES).stat().st_size,
    }
    forget_loaded()  # as a new process: the laws come from the file
    assert distributions.distribution_table(sheet_cache.solution(TWO_BOXES)).windows.layers[0].dtype == np.uint32


def test_every_saved_law_sums_to_one_and_stays_within_a_rounding_of_the_computed_one(solver_cache_dir):
    solved = sheet_cache.solution(TWO_BOXES)
    saved, computed = complete_table(solved), DistributionTable(solved)
    computed.ensure(*range(computed.classes.count))
    for c in range(computed.classes.count):
        law = saved.distribution(c)
        assert law.probabilities.sum() == 1.0  # exactly: a game won stays won
        exact = computed.distribution(c)
        assert law.low == exact.low
        assert np.abs(law.probabilities - exact.probabilities).max() <= law.probabilities.size * 2.0**-32


def test_the_duel_decides_on_the_saved_laws_as_on_the_computed_ones(solver_cache_dir, monkeypatch):
    """Generala's duels of two seats, every decision ranked on the uint32 laws and on float64 ones: the
    same choices and chances within 1e-8 (benchmarks/mapped_tables.py checks a Penta sample)."""
    solved = sheet_cache.solution(GENERALA_SEED)
    complete_table(solved)  # saved and mapped: what the duel reads first
    computed = DistributionTable(solved)
    computed.ensure(*range(computed.classes.count))
    states = []
    for seed in range(3):
        match = Match(GENERALA_SEED, ["duel", "optimal"], seed)
        match.advance([make_player("duel", GENERALA_SEED), make_player("optimal", GENERALA_SEED)])
        states += [state for state in replay(match.initial, match.events)
                   if isinstance(state, SheetState) and not state.is_chance and not state.is_over]
    on_saved = [duel.rank_for_duel(state) for state in states]
    duel.duel_turn.cache_clear()
    monkeypatch.setattr(duel, "complete_table", lambda solved, *_, **__: computed)
    monkeypatch.setattr(duel, "distribution_table", lambda solved, *_, **__: computed)
    on_computed = [duel.rank_for_duel(state) for state in states]
    duel.duel_turn.cache_clear()
    assert len(states) > 100
    for mapped, exact in zip(on_saved, on_computed, strict=True):
        assert mapped[0].option.action == exact[0].option.action
        assert [o.chance for o in mapped] == pytest.approx([o.chance for o in exact], abs=1e-8)
