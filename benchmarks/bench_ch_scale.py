"""Contraction hierarchy on a country-sized OSM file, through the real ``routes`` path.

The synthetic road-like file of ``tests/synthetic_osm.py`` at about 10⁷ directed edges
(full mode; quick mode about 10⁵) is built by :func:`routes.network.from_osm_file` in a
process of its own (cold: pyosmium → columns → router → cache entry; its peak RSS), then
a second process maps that entry (warm), contracts the travel-time hierarchy and times
200 random pairs and 200 pairs about 2 km apart with the hierarchy and with today's
search (scipy's bounded Dijkstra), medians of each. Every hierarchy distance of the 200
random pairs is checked against an unbounded ``scipy.sparse.csgraph.dijkstra`` on the
same integer weights.

Goals (issue 15, at 10⁷ edges): builds with peak RSS ≤ 4 GB; with the CH backend a
random pair ≤ 1 ms, a ~2 km corridor ≤ 0.2 ms; identical distances to Dijkstra.

Run: ``python -m pytest benchmarks/bench_ch_scale.py -q -s`` (about 20 minutes on an
idle 2-core machine at 10⁷ edges).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import ROOT, at_most, ms, pick

sys.path.insert(0, str(ROOT / "tests"))
from synthetic_osm import write_road_grid

#: Grid side: about 2.35·side² drivable edges after simplification (10⁷ full, 10⁵ quick).
SIDE = pick(2063, 206)
PAIRS = 200

_COLD = """
import json, re, sys, time
from pathlib import Path
start = time.perf_counter()
from routes import network
roads = network.from_osm_file(sys.argv[1])
seconds = time.perf_counter() - start
peak = int(re.search(r"VmHWM:\\s+(\\d+)", Path("/proc/self/status").read_text())[1]) / 1024
print(json.dumps({"s": seconds, "edges": roads.arrays.n_edges, "peak_mb": peak}))
"""

_CH = """
import json, re, sys, time
from pathlib import Path
import numpy as np
from scipy.sparse import csr_array
from scipy.sparse.csgraph import dijkstra
from routes import network

pairs = int(sys.argv[2])
start = time.perf_counter()
router = network.from_osm_file(sys.argv[1]).router
warm = time.perf_counter() - start
start = time.perf_counter()
ch = router.hierarchy("travel_time")
contract = time.perf_counter() - start
rng = np.random.default_rng(15)
core = np.flatnonzero(router.core())
src = rng.choice(core, pairs)
dst = rng.choice(core, pairs)
# ~2 km pairs: a random core node and the core node nearest a point 2 km north or east of it
near_src = rng.choice(core, pairs)
north = rng.random(pairs) < 0.5
dlat = np.where(north, 2000 / 111_195, 0.0)
dlon = np.where(north, 0.0, 2000 / (111_195 * np.cos(np.radians(router.y[near_src]))))
ids, _ = router.nearest(router.x[near_src] + dlon, router.y[near_src] + dlat)
near_dst = router.index(ids)

def median_per_query(fn, a, b, rounds=3):
    times = []
    for s, t in zip(a.tolist(), b.tolist()):
        fn(s, t)
        best = []
        for _ in range(rounds):
            t0 = time.perf_counter(); fn(s, t); best.append(time.perf_counter() - t0)
        times.append(sorted(best)[len(best) // 2])
    return float(np.median(times))

def bounded(s, t):
    return router.path(int(router.ids[s]), int(router.ids[t]), "travel_time")

router.use("dijkstra")
out = {"warm_s": warm, "contract_s": contract, "pairs": router.edges, "nodes": len(router.ids)}
out["ch_random_s"] = median_per_query(ch.path, src, dst)
out["ch_corridor_s"] = median_per_query(ch.path, near_src, near_dst)
out["corridor_km"] = float(np.median(
    [router.metres(int(a), np.array([int(b)]))[0] / 1000 for a, b in zip(near_src, near_dst)]))
out["dijkstra_corridor_s"] = median_per_query(bounded, near_src, near_dst)
out["dijkstra_random_s"] = median_per_query(bounded, src[:20], dst[:20], rounds=1)
n = len(router.ids)
matrix = csr_array((ch.weights.astype(np.float64), router.indices, router.indptr), shape=(n, n))
same = 0
for s, t in zip(src.tolist(), dst.tolist()):
    row = dijkstra(matrix, indices=s, limit=np.inf)
    same += int(ch.distance(s, t) == row[t])
out["identical"] = same
status = Path("/proc/self/status").read_text()
out["peak_mb"] = int(re.search(r"VmHWM:\\s+(\\d+)", status)[1]) / 1024
print(json.dumps(out))
"""


def _run(code: str, *args: str, cache: Path) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ROUTES_CACHE_DIR": str(cache)}
    done = subprocess.run(
        [sys.executable, "-c", code, *args],
        capture_output=True, text=True, timeout=7200, env=env, check=True, cwd=ROOT,
    )  # fmt: skip
    result: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_road_grid(tmp_path_factory.mktemp("ch-scale") / "grid.osm.pbf", SIDE)


def test_hierarchy_on_a_country_sized_file(
    grid: Path, tmp_path: Path, report: Callable[..., None]
) -> None:
    cold = _run(_COLD, str(grid), cache=tmp_path)
    ch = _run(_CH, str(grid), str(PAIRS), cache=tmp_path)
    size = f"{grid.stat().st_size >> 20} MB, {int(cold['edges']):,} edges"
    label = f"synthetic grid .osm.pbf ({size})"
    report(
        f"cold build, {label}",
        "",
        f"`network.from_osm_file` {ms(cold['s'])}, peak {cold['peak_mb']:.0f} MB",
        "",
        "peak ≤ 4 GB (issue 15, at 10⁷ edges)",
        cold["peak_mb"] <= 4096,
    )
    report(
        f"contraction hierarchy, {label}",
        f"warm load {ms(ch['warm_s'])}; Dijkstra: random pair {ms(ch['dijkstra_random_s'])}, "
        f"~{ch['corridor_km']:.1f} km corridor {ms(ch['dijkstra_corridor_s'])}",
        f"contracted in {ch['contract_s']:.0f} s (peak {ch['peak_mb']:.0f} MB); random pair "
        f"{ms(ch['ch_random_s'])}, corridor {ms(ch['ch_corridor_s'])}",
        f"{ch['identical']:.0f}/{PAIRS} distances identical",
        "≤ 1 ms random, ≤ 0.2 ms corridor (issue 15, at 10⁷ edges)",
        ch["ch_random_s"] <= at_most(1e-3) and ch["ch_corridor_s"] <= at_most(2e-4),
    )
    OUT = Path(os.environ.get("ROUTES_BENCH_OUT") or ROOT / "output" / "benchmarks")
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "ch-scale.json").write_text(json.dumps({"cold": cold, "ch": ch}, indent=2) + "\n")
    print(json.dumps({"cold": cold, "ch": ch}, indent=2))
    assert ch["identical"] == PAIRS
    assert cold["peak_mb"] <= 4096
