"""Heavy libraries only where a command needs them: the offline proxy path (the Aleppo
scenario's ``routes corridors --offline`` and ``routes map --offline``) never imports
osmnx or scikit-learn (osmnx pulls in scikit-learn, matplotlib and more: seconds)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Runs the CLI as the ``routes`` script does, then prints which of the heavy modules loaded.
_PROBE = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(
    sorted(m for m in ("osmnx", "sklearn") if m in sys.modules)), file=sys.stderr))
from routes.cli import app
app(sys.argv[1:], prog_name="routes")
"""


def _loaded(args: list[str], cwd: Path) -> list[str]:
    """The heavy modules a ``routes`` command loaded (it must succeed)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=cwd,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    loaded: list[str] = json.loads(done.stderr.strip().splitlines()[-1])
    return loaded


def test_proxy_routing_imports_neither_osmnx_nor_sklearn(tmp_path: Path) -> None:
    assert _loaded(["corridors", "--offline"], tmp_path) == []


def test_map_page_imports_neither_osmnx_nor_sklearn(tmp_path: Path) -> None:
    page = tmp_path / "aleppo.html"
    assert _loaded(["map", "--offline", "-o", str(page)], tmp_path) == []
    assert page.is_file()
