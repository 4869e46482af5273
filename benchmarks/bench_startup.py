"""CLI start-up: `routes --help` against a bare interpreter and against eager imports.

Stock: ``python -c pass`` (the floor), ``python -c "import typer"`` (the floor of any
Typer CLI) and ``python -c "import osmnx, geopandas, folium"`` (what a CLI that imported
its libraries up front would pay). Ours: what the ``routes`` console script runs
(``from routes.cli import app; app()``), from this working tree.
Goal: ``routes --help`` within :data:`HELP_OVER_TYPER_GOAL` times ``import typer``, both
measured in the same run, interleaved (a ratio, so a loaded machine slows both alike);
``routes geocode --offline Idlib`` imports none of osmnx, geopandas, folium.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from conftest import ROOT, at_most, ms, pick

#: Goal: ``routes --help`` (wall, median) within this many times ``python -c "import typer"``.
HELP_OVER_TYPER_GOAL = 3.0


#: What the ``routes`` console script runs, started from this working tree (the installed
#: script may point at another checkout).
_ROUTES = "import sys; from routes.cli import app; sys.argv[0] = 'routes'; sys.exit(app())"


def _script() -> list[str]:
    return [sys.executable, "-c", _ROUTES]


def _walls(cmds: list[list[str]], rounds: int) -> list[float]:
    """Median wall time of each command, run in turn ``rounds`` times (after one warm-up
    round, which fills the file cache), so a change in load hits every command alike."""
    times: list[list[float]] = [[] for _ in cmds]
    for _ in range(rounds + 1):
        for cmd, seen in zip(cmds, times, strict=True):
            start = time.perf_counter()
            subprocess.run(cmd, check=True, capture_output=True, timeout=120, cwd=ROOT)
            seen.append(time.perf_counter() - start)
    return [statistics.median(seen[1:]) for seen in times]


def _wall(cmd: list[str], rounds: int) -> float:
    return _walls([cmd], rounds)[0]


def test_help_starts_fast(report: Callable[..., None]) -> None:
    bare, typer_s, ours = _walls(
        [
            [sys.executable, "-c", "pass"],
            [sys.executable, "-c", "import typer"],
            [*_script(), "--help"],
        ],
        pick(15, 7),
    )
    eager = _wall([sys.executable, "-c", "import osmnx, geopandas, folium"], pick(5, 2))
    ratio = ours / typer_s
    report(
        "`routes --help` (wall, median)",
        f"`python -c pass` {ms(bare)}; `import typer` {ms(typer_s)}; eager imports {ms(eager)}",
        ms(ours),
        f"{ratio:.1f}× `import typer`, {ours / bare:.1f}× `python -c pass`; "
        f"{eager / ours:.0f}× faster than eager",
        f"≤ {HELP_OVER_TYPER_GOAL:g}× `import typer`",
        ratio <= HELP_OVER_TYPER_GOAL,
    )
    assert ratio <= at_most(HELP_OVER_TYPER_GOAL), (ours, typer_s, bare)


_PROBE = """
import json, sys, time
start = time.perf_counter()
from routes.cli import app
try:
    app(sys.argv[1:], prog_name="routes")
except SystemExit:
    pass
print(json.dumps({"s": time.perf_counter() - start,
                  "heavy": [m for m in ("osmnx", "geopandas", "folium") if m in sys.modules]}),
      file=sys.stderr)
"""


def test_geocode_offline_imports_no_heavy_library(report: Callable[..., None]) -> None:
    runs = []
    for _ in range(pick(5, 2)):
        done = subprocess.run(
            [sys.executable, "-c", _PROBE, "geocode", "--offline", "Idlib"],
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
            cwd=ROOT,
        )
        runs.append(json.loads(done.stderr.strip().splitlines()[-1]))
    assert all(run["heavy"] == [] for run in runs), runs
    seconds = sorted(run["s"] for run in runs)[len(runs) // 2]
    report(
        "`routes geocode --offline Idlib` (in-process, median)",
        "",
        ms(seconds),
        "",
        "no osmnx, geopandas, folium imported",
        True,
    )


#: Goal: warm ``routes map --offline`` (Aleppo, proxy network) within this many times
#: ``routes --help`` (issue 15).
MAP_OVER_HELP_GOAL = 3.0


#: What a warm Aleppo map cannot do without, imported and nothing else: the map's libraries
#: (folium pulls in pandas and requests, geopandas pyproj) and the router's (networkx, scipy).
MAP_LIBRARIES = (
    "import typer, numpy, yaml, pydantic, pandas, geopandas, networkx, scipy.sparse.csgraph, "
    "folium, folium.plugins, pyogrio"
)


def test_warm_offline_map_against_help(tmp_path: Path, report: Callable[..., None]) -> None:
    """Warm ``routes map --offline`` on the Aleppo scenario over ``routes --help``, one run,
    interleaved (the warm-up round fills the parsed-graph cache and the GeoNames index):
    run again on its own page, which is up to date (nothing loaded, routed or drawn), and
    drawn anew (the page deleted first); beside them the floor of drawing anew,
    :data:`MAP_LIBRARIES` imported in a bare interpreter."""
    page, fresh = tmp_path / "aleppo.html", tmp_path / "fresh.html"
    redraw = f"import pathlib; pathlib.Path({str(fresh)!r}).unlink(missing_ok=True); {_ROUTES}"
    help_s, map_s, redraw_s, floor_s = _walls(
        [
            [*_script(), "--help"],
            [*_script(), "map", "--offline", "-o", str(page)],
            [sys.executable, "-c", redraw, "map", "--offline", "-o", str(fresh)],
            [sys.executable, "-c", MAP_LIBRARIES],
        ],
        pick(5, 2),
    )
    ratio = map_s / help_s
    report(
        "warm `routes map --offline` (Aleppo, proxy) over `routes --help` (wall, median)",
        f"`routes --help` {ms(help_s)}",
        f"`routes map --offline`, page up to date: {ms(map_s)}",
        f"{ratio:.1f}× `routes --help`",
        f"≤ {MAP_OVER_HELP_GOAL:g}×",
        ratio <= at_most(MAP_OVER_HELP_GOAL),
    )
    report(
        "warm `routes map --offline` drawn anew (page deleted first), same run",
        f"the map's libraries imported, nothing else, {ms(floor_s)} ({floor_s / help_s:.1f}×)",
        f"{ms(redraw_s)}",
        f"{redraw_s / help_s:.1f}× `routes --help`",
    )
    assert page.read_bytes() == fresh.read_bytes()
