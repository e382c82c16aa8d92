"""The systemd units shipped in deploy/systemd/ are the ones docs/hosting.md shows, word for word, and
systemd itself finds nothing wrong with them (`systemd-analyze verify`, where systemd is installed)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "deploy" / "systemd"
GUIDE = ROOT / "docs" / "hosting.md"
VENV_CUBILETE = "/opt/cubilete/.venv/bin/cubilete"  # where the guide installs it
INI_BLOCK = re.compile(r"^```ini\n(.*?)^```", re.MULTILINE | re.DOTALL)


def shipped() -> dict[str, str]:
    return {unit.name: unit.read_text() for unit in sorted(UNITS.iterdir())}


def test_every_unit_block_of_the_guide_is_a_shipped_file_and_every_file_is_shown():
    blocks = INI_BLOCK.findall(GUIDE.read_text())
    files = shipped()
    assert sorted(files) == ["cubilete-backup.service", "cubilete-backup.timer", "cubilete.service", "cubilete@.service"]
    assert sorted(blocks) == sorted(files.values())  # no other unit in the guide, none of these changed there
    for name in files:
        assert f"deploy/systemd/{name}" in GUIDE.read_text()


def test_every_unit_runs_the_one_venv_and_the_servers_have_a_memory_bound():
    files = shipped()
    for name, text in files.items():
        commands = re.findall(r"^Exec\w*=(.*)$", text, re.MULTILINE)
        assert all("/bin/cubilete" not in command or VENV_CUBILETE in command for command in commands), name
    for name in ("cubilete.service", "cubilete@.service"):
        assert re.search(r"^MemoryMax=\d+G$", files[name], re.MULTILINE), name
    assert "PGPASSFILE=%d/pgpass" in files["cubilete@.service"]  # the credential's copy, readable by the service


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_finds_nothing_wrong_with_the_units(tmp_path):
    # the units as shipped, but for the venv's path: this test's own `cubilete` stands in for /opt/cubilete's
    cubilete = Path(sys.executable).with_name("cubilete")
    assert cubilete.exists(), "install the package (pip install -e .) for its cubilete command"
    for name, text in shipped().items():
        (tmp_path / name).write_text(text.replace(VENV_CUBILETE, str(cubilete)))
    instance = tmp_path / "cubilete@8001.service"  # a template is verified as one of its instances
    checked = [tmp_path / "cubilete.service", instance, tmp_path / "cubilete-backup.service", tmp_path / "cubilete-backup.timer"]
    result = subprocess.run(
        ["systemd-analyze", "verify", *map(str, checked)], capture_output=True, text=True, cwd=tmp_path, timeout=60
    )
    assert (result.returncode, result.stderr.strip()) == (0, ""), result.stderr
