"""The Caddyfile of the repository is the one the hosting guide shows, and Caddy accepts it."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CADDYFILE = ROOT / "deploy/Caddyfile"


def test_the_guide_shows_the_caddyfile_verbatim():
    assert f"```caddyfile\n{CADDYFILE.read_text()}```" in (ROOT / "docs/hosting.md").read_text()


def test_caddy_accepts_the_caddyfile():
    if shutil.which("caddy") is None:
        pytest.skip("caddy is not installed (apt-get install caddy)")
    checked = subprocess.run(["caddy", "validate", "--config", str(CADDYFILE), "--adapter", "caddyfile"],
                             capture_output=True, text=True, timeout=60)
    assert checked.returncode == 0, checked.stderr
