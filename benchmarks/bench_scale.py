"""Road graphs at scale: a synthetic road-like OSM file through today's path and the array path.

Stock (the path before issue 15): the drivable ways written as OSM XML by pyosmium,
``osmnx.graph_from_xml``, ``add_edge_speeds``/``add_edge_travel_times``, the router
compiled from the networkx graph. Ours: :func:`routes.network.from_osm_file` on an empty
cache (pyosmium straight into columns, :mod:`routes.network.osmfile`; router from the
arrays; cache written), and the same without the networkx graph at the end
(:func:`routes.network.osm_columns`). Then the warm load of that cache entry: as a
networkx graph (what ``routes`` hands its stages today) and as columns and router alone.
The warm columns load maps the entry and pages in only what the router
needs (each column is checked when first read). Each run is its own process, so peak
RSS (``ru_maxrss``) is its own. The file:
``tests/synthetic_osm.py``, about 10⁵ edges in full mode (10⁴ quick). Issue 15's goals
are stated at 10⁶ edges.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, ms, pick

sys.path.insert(0, str(ROOT / "tests"))
from synthetic_osm import write_road_grid

#: Grid side: about 2.35·side² drivable edges after simplification.
SIDE = pick(206, 65)

_STOCK = """
import json, resource, sys, tempfile, time
from pathlib import Path
start = time.perf_counter()
import osmnx as ox
from routes import network
from routes.routing import backend
with tempfile.TemporaryDirectory() as tmp:
    xml = Path(tmp) / "roads.osm"
    network.write_roads_xml(sys.argv[1], xml)
    G = ox.graph_from_xml(xml)
G = network._with_travel_times(G, source="", osm_date="")
backend.for_graph(G)
print(json.dumps({"s": time.perf_counter() - start, "edges": G.number_of_edges(),
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

_OURS = """
import json, resource, sys, time
start = time.perf_counter()
from routes import network
from routes.routing import backend
G = network.from_osm_file(sys.argv[1])
backend.for_graph(G)
print(json.dumps({"s": time.perf_counter() - start, "edges": G.number_of_edges(),
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

_OURS_COLUMNS = """
import json, resource, sys, time
start = time.perf_counter()
from routes import network
roads, router = network.osm_columns(sys.argv[1])
print(json.dumps({"s": time.perf_counter() - start, "edges": roads.n_edges,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

_COLUMNS = """
import json, resource, sys, time
start = time.perf_counter()
from routes import network
roads, router = network.osm_columns(sys.argv[1])
print(json.dumps({"s": time.perf_counter() - start, "edges": roads.n_edges,
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def _run(code: str, osm: Path, cache: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ROUTES_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", code, str(osm)],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=True,
        cwd=ROOT,
    )
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_road_grid(tmp_path_factory.mktemp("scale") / "grid.osm.pbf", SIDE)


def test_cold_build_and_warm_load(grid: Path, tmp_path: Path, report: Callable[..., None]) -> None:
    stock = _run(_STOCK, grid, tmp_path / "stock-cache")
    columns_only = _run(_OURS_COLUMNS, grid, tmp_path / "columns-cache")
    ours = _run(_OURS, grid, tmp_path / "cache")
    warm = _run(_OURS, grid, tmp_path / "cache")
    columns = _run(_COLUMNS, grid, tmp_path / "cache")
    edges = int(ours["edges"])
    assert stock["edges"] == ours["edges"] == warm["edges"] == columns["edges"]
    assert columns_only["edges"] == ours["edges"]
    label = f"synthetic grid .osm.pbf ({grid.stat().st_size // 1024} KB, {edges:,} edges)"
    speedup = stock["s"] / ours["s"]
    report(
        f"cold build, {label}",
        f"XML + graph_from_xml + speeds {ms(stock['s'])}, peak {stock['rss']:.0f} MB",
        f"pyosmium → columns {ms(ours['s'])}, peak {ours['rss']:.0f} MB",
        f"{speedup:.1f}× faster, {stock['rss'] / ours['rss']:.1f}× less memory",
        "≥ 10×, ≤ 400 MB (issue 15, at 10⁶ edges)",
        speedup >= 10 and ours["rss"] <= 400,
    )
    speedup = stock["s"] / columns_only["s"]
    report(
        f"cold build to columns + router (no networkx), {label}",
        f"XML + graph_from_xml + speeds {ms(stock['s'])}, peak {stock['rss']:.0f} MB",
        f"`network.osm_columns` {ms(columns_only['s'])}, peak {columns_only['rss']:.0f} MB",
        f"{speedup:.1f}× faster, {stock['rss'] / columns_only['rss']:.1f}× less memory",
        "≥ 10×, ≤ 400 MB (issue 15, at 10⁶ edges)",
        speedup >= 10 and columns_only["rss"] <= 400,
    )
    report(
        f"warm load, {label}",
        f"as networkx {ms(warm['s'])}, peak {warm['rss']:.0f} MB",
        f"columns + router only {ms(columns['s'])}, peak {columns['rss']:.0f} MB",
        f"{per_edge(warm['rss'], edges)} vs {per_edge(columns['rss'], edges)} per edge (RSS)",
        "≤ 0.5 s, ≤ 150 MB (issue 15, at 10⁶ edges)",
        columns["s"] <= 0.5 and columns["rss"] <= 150,
    )


def per_edge(rss_mb: float, edges: int) -> str:
    return f"{rss_mb * 2**20 / edges:,.0f} B"
