"""Lazy start-up: commands that need no map, graph or table libraries do not import them.

Each command runs in a fresh interpreter, as a user would start it; the heavy modules
(osmnx, geopandas, folium — each pulls in pandas, shapely, networkx or more — and the
parser's spaCy and thinc) must not be in ``sys.modules`` when it ends. How fast ``routes
--help`` starts is measured in ``benchmarks/bench_startup.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

#: spaCy and thinc load the parser (routes.extract.parse): only a command that parses needs them.
HEAVY = ("osmnx", "geopandas", "folium", "networkx", "pandas", "shapely", "scipy", "spacy", "thinc")

_PROBE = """
import json, sys
from routes.cli import app
try:
    app(sys.argv[1:], prog_name="routes")
except SystemExit as exc:
    code = exc.code
else:
    code = 0
print(json.dumps({"code": code, "modules": sorted(sys.modules)}), file=sys.stderr)
"""


def _run(*args: str) -> tuple[int, set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", _PROBE, *args], capture_output=True, text=True, timeout=120
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    return report["code"] or 0, set(report["modules"])


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["--version"],
        ["map", "--help"],
        ["corridors", "--help"],
        ["network", "--help"],
        ["geocode", "--offline", "Idlib"],
        ["geocode", "--offline", "--json", "Kafriya", "Idleb"],
    ],
    ids=" ".join,
)
def test_command_does_not_import_heavy_libraries(args: list[str]) -> None:
    code, modules = _run(*args)
    assert code == 0
    loaded = sorted(name for name in HEAVY if name in modules)
    assert loaded == [], f"`routes {' '.join(args)}` imported {loaded}"
