"""`routes map` leaves a page alone when nothing it depends on has changed.

The record kept in the cache holds digests and warnings, never a page: what is reused
is the user's own file, and only when it is byte for byte what the inputs give.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml
from typer.testing import CliRunner

from routes import datasets, pipeline, settings
from routes.cli import app

ALEPPO = ["--offline"]


def _map(runner: CliRunner, out: Path, *args: str) -> tuple[int, str, bytes]:
    result = runner.invoke(app, ["map", *ALEPPO, "-o", str(out), *args])
    return result.exit_code, result.stderr, out.read_bytes() if out.exists() else b""


def test_a_second_run_with_the_same_inputs_leaves_the_page(tmp_path: Path) -> None:
    out = tmp_path / "m.html"
    first = pipeline.map_page("aleppo-2016-12", out, offline=True)
    before = out.stat().st_mtime_ns
    again = pipeline.map_page("aleppo-2016-12", out, offline=True)
    assert not first.unchanged and again.unchanged
    assert again.path == out and out.stat().st_mtime_ns == before
    assert (again.warnings, again.complete) == (first.warnings, first.complete)


def test_an_up_to_date_run_loads_no_mapping_library(tmp_path: Path) -> None:
    """In a fresh process: no scenario parsing, routing or drawing library is imported."""
    out = tmp_path / "m.html"
    pipeline.map_page("aleppo-2016-12", out, offline=True)
    code = (
        "import sys\nfrom routes import pipeline\n"
        f"page = pipeline.map_page('aleppo-2016-12', {str(out)!r}, offline=True)\n"
        "heavy = ['folium', 'geopandas', 'pandas', 'networkx', 'scipy', 'pyproj', 'yaml']\n"
        "print(page.unchanged, [m for m in heavy if m in sys.modules])\n"
    )
    env = {"ROUTES_CACHE_DIR": str(settings.cache_dir), "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert done.stdout.split("\n")[0] == "True []", done.stderr


def test_the_page_is_drawn_again_when_an_input_changes(tmp_path: Path) -> None:
    out, scenario = tmp_path / "m.html", tmp_path / "aleppo.yaml"
    raw = yaml.safe_load(datasets.get_path("aleppo-2016-12").read_text(encoding="utf-8"))
    scenario.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    page = pipeline.map_page(scenario, out, offline=True)
    assert not pipeline.map_page(scenario, out, offline=True, animate=False).unchanged
    static = out.read_bytes()
    assert not pipeline.map_page(scenario, out, offline=True).unchanged  # an option changed back
    assert out.read_bytes() != static
    raw["story"]["title"] = "A title edited after the first map"
    scenario.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    edited = pipeline.map_page(scenario, out, offline=True)
    assert not edited.unchanged and b"A title edited after the first map" in out.read_bytes()
    assert page.path == edited.path


def test_a_page_changed_by_hand_is_written_again(tmp_path: Path) -> None:
    out = tmp_path / "m.html"
    pipeline.map_page("aleppo-2016-12", out, offline=True)
    page = out.read_bytes()
    out.write_bytes(page.replace(b"</body>", b"<p>edited</p></body>"))
    assert not pipeline.map_page("aleppo-2016-12", out, offline=True).unchanged
    assert out.read_bytes() == page


def test_a_broken_or_planted_record_is_never_trusted(tmp_path: Path) -> None:
    out = tmp_path / "m.html"
    pipeline.map_page("aleppo-2016-12", out, offline=True)
    page = out.read_bytes()
    records = sorted((settings.cache_dir / "pages").glob("*.json"), key=lambda p: p.stat().st_mtime)
    mine = records[-1]
    mine.write_text("{not json", encoding="utf-8")
    assert not pipeline.map_page("aleppo-2016-12", out, offline=True).unchanged
    planted = json.loads(mine.read_text(encoding="utf-8")) | {"page": "0" * 64}
    mine.write_text(json.dumps(planted), encoding="utf-8")
    assert not pipeline.map_page("aleppo-2016-12", out, offline=True).unchanged
    assert out.read_bytes() == page
    rigged = json.loads(mine.read_text(encoding="utf-8")) | {"warnings": ["\x1b[2Jgone\x07"]}
    mine.write_text(json.dumps(rigged), encoding="utf-8")
    replayed = pipeline.map_page("aleppo-2016-12", out, offline=True)
    assert replayed.unchanged and replayed.warnings == ["[2Jgone"]  # no terminal controls


def _without_roads(tmp_path: Path) -> Path:
    """The Aleppo scenario as a story no roads are stored for: it routes on the proxy
    network, and the run warns so."""
    raw = yaml.safe_load(datasets.get_path("aleppo-2016-12").read_text(encoding="utf-8"))
    raw["story"]["id"] = "aleppo-without-roads"
    path = tmp_path / "aleppo-without-roads.yaml"
    path.write_text(yaml.safe_dump(raw, allow_unicode=True), encoding="utf-8")
    return path


def test_the_cli_says_the_same_either_way(tmp_path: Path, runner: CliRunner) -> None:
    """Warnings (logged and returned) are said again; stdout names the page; exit 0."""
    out, scenario = tmp_path / "m.html", str(_without_roads(tmp_path))
    first, again = _map(runner, out, "-s", scenario), _map(runner, out, "-s", scenario)
    assert first == again
    assert first[0] == 0 and "proxy network" in first[1]


def test_a_first_runs_index_build_is_not_said_again(tmp_path: Path) -> None:
    """A fresh cache's first map builds the GeoNames index and says so; the second, up to
    date, says again what was said about the page, not about that build (issue 30)."""
    env = {**os.environ, "ROUTES_CACHE_DIR": str(tmp_path / "cache")}
    args = [sys.executable, "-m", "routes", "map", "--offline", "-o", str(tmp_path / "m.html"),
            "-s", str(_without_roads(tmp_path))]  # fmt: skip
    first, again = (
        subprocess.run(args, env=env, capture_output=True, text=True, timeout=900, check=True)
        for _ in range(2)
    )
    assert "Indexing GeoNames" in first.stderr and "Indexed GeoNames" in first.stderr
    assert "\n\n" not in first.stderr  # no bar (nor what is left of one) outside a terminal
    assert "GeoNames" not in again.stderr, again.stderr
    assert "proxy network" in again.stderr  # the page's own warning, said again


def test_online_runs_and_stdin_are_never_taken_as_unchanged(
    tmp_path: Path, runner: CliRunner
) -> None:
    """Without --offline the network may answer differently; stdin cannot be digested first."""
    out = tmp_path / "m.html"
    for _ in range(2):
        assert not pipeline.map_page("aleppo-2016-12", out).unchanged
    text = datasets.get_path("aleppo-2016-12").read_text(encoding="utf-8")
    args = ["-v", "map", "--offline", "-s", "-", "-o", str(out)]
    said = [runner.invoke(app, args, input=text) for _ in range(2)]
    assert [r.exit_code for r in said] == [0, 0]
    assert not any("up to date" in r.stderr for r in said)
    runs = [runner.invoke(app, ["-v", "map", "--offline", "-o", str(out)]) for _ in range(2)]
    assert [r.exit_code for r in runs] == [0, 0] and "up to date" in runs[1].stderr
