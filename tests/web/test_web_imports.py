"""What importing the web app loads: not the libraries only a push or a passkey needs (they weigh
about 18 MB of every process's memory: benchmarks/import_memory.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import cubilete

LOADED_ON_FIRST_USE = ("pywebpush", "requests", "http_ece", "webauthn")
IMPORTED_AFTER = """
import json, sys
import cubilete.web.app
print(json.dumps(sorted(sys.modules)))
"""


@pytest.mark.slow  # a fresh interpreter importing the app: over a second of CPU
def test_importing_the_app_loads_no_push_sender_nor_webauthn():
    """pywebpush (and requests) load with the outbox's first push, webauthn with the first passkey
    ceremony: a fresh process that imports the app must not have them."""
    source = str(Path(cubilete.__file__).parents[1])
    result = subprocess.run(
        [sys.executable, "-c", IMPORTED_AFTER],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": source},
    )
    imported = json.loads(result.stdout.splitlines()[-1])
    assert "cubilete.web.passkeys" in imported and "cubilete.web.push.outbox" in imported  # the probe ran
    assert sorted({name.split(".")[0] for name in imported} & set(LOADED_ON_FIRST_USE)) == []
