"""Heavy libraries only where a command needs them: the Aleppo scenario's ``routes corridors
--offline`` and ``routes map --offline`` (on its stored OpenStreetMap file, or on the proxy
network) never import osmnx or scikit-learn (osmnx pulls in scikit-learn, matplotlib and
more: seconds), nor the parser's spaCy and thinc; no run on a proxy network or an OSM file
imports networkx: the network is arrays from end to end (issue 15), routed, drawn and
exported from its columns."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from osm_support import helsinki_pbf

ROOT = Path(__file__).resolve().parents[1]

#: Runs the CLI as the ``routes`` script does, then prints which of the heavy modules loaded.
_PROBE = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(
    sorted(m for m in ("osmnx", "sklearn", "networkx", "spacy", "thinc") if m in sys.modules)),
    file=sys.stderr))
from routes.cli import app
app(sys.argv[1:], prog_name="routes")
"""


def _loaded(args: list[str], cwd: Path, **env_vars: str) -> list[str]:
    """The heavy modules a ``routes`` command loaded (it must succeed)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), **env_vars}
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


@pytest.mark.parametrize("network", ["auto", "proxy"])
def test_aleppo_routing_imports_neither_osmnx_nor_sklearn(network: str, tmp_path: Path) -> None:
    assert _loaded(["corridors", "--offline", "--network", network], tmp_path) == []


def test_map_page_imports_neither_osmnx_nor_sklearn(tmp_path: Path) -> None:
    page = tmp_path / "aleppo.html"
    assert _loaded(["map", "--offline", "-o", str(page)], tmp_path) == []
    assert page.is_file()


@pytest.mark.parametrize(
    "command",
    [
        ["corridors", "--json", "--alternatives", "2", "--avoid", "{avoid}"],
        ["map", "-o", "{out}/helsinki.html", "--alternatives", "1", "--avoid", "{avoid}"],
        ["export", "-f", "gpkg", "-o", "{out}"],
    ],
    ids=["corridors", "map", "export"],
)
def test_an_osm_file_is_routed_drawn_and_exported_without_networkx(
    command: list[str], helsinki_scenario: Path, tmp_path: Path
) -> None:
    """Cold (the file parsed into columns) and warm (the entry mapped), every stage of a run
    on OpenStreetMap roads works on arrays: networkx is never imported, so no graph of it
    is ever built."""
    avoid = tmp_path / "closed.geojson"
    square = [[24.9440, 60.1690], [24.9450, 60.1690], [24.9450, 60.1695], [24.9440, 60.1695]]
    feature = {"type": "Polygon", "coordinates": [[*square, square[0]]]}
    avoid.write_text(json.dumps(feature), encoding="utf-8")
    args = [a.format(avoid=avoid, out=tmp_path) for a in command]
    source = ["-s", str(helsinki_scenario), "--osm", str(helsinki_pbf())]
    cache = str(tmp_path / "cache")
    for _run in ("cold", "warm"):
        assert _loaded([*args, *source], tmp_path, ROUTES_CACHE_DIR=cache) == []
    assert list((tmp_path / "cache" / "graphs").glob("osm-*.npz"))
