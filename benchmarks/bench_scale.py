"""Road networks at scale: a synthetic road-like OSM file through the old path and through
``routes`` as a user runs it.

Stock (the path before issue 15): the drivable ways written as OSM XML by pyosmium,
``osmnx.graph_from_xml``, ``add_edge_speeds``/``add_edge_travel_times``, then the graph's
columns and router (what the cache holds). Ours: :func:`routes.network.from_osm_file` on
an empty cache (pyosmium straight into columns, :mod:`routes.network.osmfile`; router
from the arrays; entry written), and its warm load (the entry mapped; the router's arrays
checked and paged in; of each column only the blocks a read needs). Then the real command,
``routes corridors --osm FILE -s SCENARIO --json`` (places on the grid,
``synthetic_osm.write_grid_scenario``), cold (empty cache) and warm, whole runs: the
interpreter, the libraries, the network, snapping, routing, measuring from the columns,
printing; beside it the libraries alone (a bare interpreter importing what the command
imports). Each run is its own process; its peak RSS is its own (``VmHWM``: ``ru_maxrss``
would count the pytest process it was forked from, which wrote the file).

The file (``tests/synthetic_osm.py``) has about 2.35·side² edges: ~10⁵ in full mode,
~10⁴ quick; ``ROUTES_BENCH_SIDE=652`` gives issue 15's 10⁶ (the stock path then takes
about 20 minutes and 6 GB).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import ROOT, ms, pick

sys.path.insert(0, str(ROOT / "tests"))
from synthetic_osm import write_grid_scenario, write_road_grid

#: Grid side: about 2.35·side² drivable edges after simplification.
SIDE = int(os.environ.get("ROUTES_BENCH_SIDE") or pick(206, 65))

_MEMORY = """
def rss_mb():  # resident now (VmRSS) and at the peak (VmHWM), MB
    status = dict(line.split(":", 1) for line in open("/proc/self/status"))
    return (int(status["VmRSS"].split()[0]) / 1024, int(status["VmHWM"].split()[0]) / 1024)
"""

_STOCK = (
    _MEMORY
    + """
import json, sys, tempfile, time
from pathlib import Path
start = time.perf_counter()
import osmnx as ox
from routes import network
from routes.routing import RoadNetwork
with tempfile.TemporaryDirectory() as tmp:
    xml = Path(tmp) / "roads.osm"
    network.write_roads_xml(sys.argv[1], xml)
    G = ox.graph_from_xml(xml)
speeds = network.HIGHWAY_SPEEDS_KPH
G = ox.routing.add_edge_speeds(G, hwy_speeds=speeds, fallback=speeds["road"])
G = ox.routing.add_edge_travel_times(G)
roads = RoadNetwork.from_networkx(G)
now, peak = rss_mb()
print(json.dumps({"s": time.perf_counter() - start, "edges": roads.n_edges, "rss": peak}))
"""
)

_OURS = (
    _MEMORY
    + """
import json, sys, time
start = time.perf_counter()
from routes import network
roads = network.from_osm_file(sys.argv[1])
seconds = time.perf_counter() - start
now, peak = rss_mb()
print(json.dumps({"s": seconds, "edges": roads.n_edges, "rss": peak, "now": now}))
"""
)

#: ``routes`` as its script runs it; the peak RSS goes to stderr's last line at exit.
_CLI = (
    _MEMORY
    + """
import atexit, sys
atexit.register(lambda: print(rss_mb()[1], file=sys.stderr))
from routes.cli import app
app(sys.argv[1:], prog_name="routes")
"""
)

#: What ``routes corridors --osm`` imports, in a bare interpreter, and nothing else.
_LIBRARIES = (
    _MEMORY
    + """
import json
import geopandas, numpy, osmium, pyproj, scipy.sparse.csgraph, shapely, typer, yaml
print(json.dumps({"rss": rss_mb()[1]}))
"""
)


def _run(code: str, *args: str, cache: Path) -> tuple[float, str, str]:
    """Wall time, stdout and stderr of ``python -c code args`` with its own graph cache."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ROUTES_CACHE_DIR": str(cache)}
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True,
        text=True,
        timeout=3600,
        env=env,
        check=True,
        cwd=ROOT,
    )
    return time.perf_counter() - start, done.stdout, done.stderr


def _measured(code: str, *args: str, cache: Path) -> dict[str, float]:
    result: dict[str, float] = json.loads(_run(code, *args, cache=cache)[1].splitlines()[-1])
    return result


def _cli(osm: Path, scenario: Path, cache: Path) -> tuple[float, float, list[dict[str, Any]]]:
    """``routes corridors --osm osm -s scenario --json``: wall time, peak RSS, records."""
    args = ["corridors", "--osm", str(osm), "-s", str(scenario), "--json"]
    seconds, out, err = _run(_CLI, *args, cache=cache)
    records: list[dict[str, Any]] = json.loads(out)
    return seconds, float(err.strip().splitlines()[-1]), records


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("scale")
    osm = write_road_grid(folder / "grid.osm.pbf", SIDE)
    return osm, write_grid_scenario(folder / "grid.yaml", SIDE, blocks=min(20, SIDE // 5))


def test_cold_build_and_warm_load(
    grid: tuple[Path, Path], tmp_path: Path, report: Callable[..., None]
) -> None:
    osm, _scenario = grid
    stock = _measured(_STOCK, str(osm), cache=tmp_path / "stock-cache")
    ours = _measured(_OURS, str(osm), cache=tmp_path / "cache")
    warm = _measured(_OURS, str(osm), cache=tmp_path / "cache")
    edges = int(ours["edges"])
    assert stock["edges"] == ours["edges"] == warm["edges"]
    label = f"synthetic grid .osm.pbf ({osm.stat().st_size // 1024} KB, {edges:,} edges)"
    speedup = stock["s"] / ours["s"]
    report(
        f"cold build, {label}",
        f"XML + graph_from_xml + speeds {ms(stock['s'])}, peak {stock['rss']:.0f} MB",
        f"`network.from_osm_file` (pyosmium → columns + router) {ms(ours['s'])}, "
        f"peak {ours['rss']:.0f} MB",
        f"{speedup:.1f}× faster, {stock['rss'] / ours['rss']:.1f}× less memory",
        "≥ 10×, ≤ 400 MB (issue 15, at 10⁶ edges)",
        speedup >= 10 and ours["rss"] <= 400,
    )
    report(
        f"warm load, {label}",
        "",
        f"{ms(warm['s'])}; resident after it {warm['now']:.0f} MB "
        f"({per_edge(warm['now'], edges)} per edge), peak {warm['rss']:.0f} MB",
        "",
        "≤ 0.5 s, ≤ 150 MB (issue 15, at 10⁶ edges)",
        warm["s"] <= 0.5 and warm["now"] <= 150,
    )


def test_routes_corridors_on_the_file(
    grid: tuple[Path, Path], tmp_path: Path, report: Callable[..., None]
) -> None:
    """The whole command, cold then warm, against the libraries it imports alone."""
    osm, scenario = grid
    cold_s, cold_rss, cold = _cli(osm, scenario, tmp_path / "cache")
    warm_s, warm_rss, warm = _cli(osm, scenario, tmp_path / "cache")
    assert cold == warm and {r["route_status"] for r in cold} == {"ok"}
    libraries_s, out, _err = _run(_LIBRARIES, cache=tmp_path / "cache")
    libraries = json.loads(out.splitlines()[-1])
    edges = _measured(_OURS, str(osm), cache=tmp_path / "cache")["edges"]
    report(
        f"`routes corridors --osm FILE --json`, synthetic grid ({edges:,.0f} edges), "
        f"{len(cold)} corridors (whole runs)",
        f"its libraries alone {ms(libraries_s)}, peak {libraries['rss']:.0f} MB",
        f"cold {ms(cold_s)}, peak {cold_rss:.0f} MB; warm {ms(warm_s)}, peak {warm_rss:.0f} MB",
        f"warm {warm_s / libraries_s:.1f}× the libraries' time",
        "",
        None,
    )


def per_edge(rss_mb: float, edges: int) -> str:
    return f"{rss_mb * 2**20 / edges:,.0f} B"
