"""Hostile scenarios through the real CLI: one line, exit 2, nothing written outside."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import write_yaml

from routes.cli import app

SCENARIO = Path(__file__).resolve().parents[1] / "geodata" / "scenarios" / "aleppo-2016-12.yaml"


def aleppo() -> dict[str, Any]:
    return yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))


def one_line_exit_2(result: Any) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize("story_id", ["../../escaped", "/tmp/escaped-abs", "a/b"])
def test_story_id_that_is_not_a_slug_is_refused(
    story_id: str, runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = aleppo()
    data["story"]["id"] = story_id
    work = tmp_path / "deep" / "er"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    scenario = write_yaml(work / "s.yaml", data)
    one_line_exit_2(runner.invoke(app, ["map", "--offline", "-s", str(scenario)]))
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["s.yaml"]
    assert not Path("/tmp/escaped-abs.html").exists()


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d.update(corridors=[]),
        lambda d: d["corridors"][0]["figures"][0].update(value=2**63),
        lambda d: d["places"][0].update(lat=90.0),
    ],
    ids=["no-corridors", "huge-figure", "pole"],
)
def test_degenerate_scenario_is_refused_at_load(spoil: Any, runner: Any, tmp_path: Path) -> None:
    data = aleppo()
    spoil(data)
    out = tmp_path / "m.html"
    scenario = write_yaml(tmp_path / "s.yaml", data)
    result = runner.invoke(app, ["map", "--offline", "-s", str(scenario), "-o", str(out)])
    assert result.exit_code == 2 and "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()  # one line, or one per problem and their count
    assert len(lines) == 1 or lines[-1] == f"{len(lines) - 1} problem(s) in {scenario}", lines
    assert not out.exists()


def test_csv_cells_never_start_a_formula(runner: Any, tmp_path: Path) -> None:
    data = aleppo()
    data["places"][0]["name"] = '=HYPERLINK("http://evil","x")'
    data["corridors"][0]["name"] = "@SUM(1+1)\u202e"
    scenario = write_yaml(tmp_path / "s.yaml", data)
    result = runner.invoke(
        app, ["export", "-f", "csv", "--offline", "-s", str(scenario), "-o", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    cells = [
        cell
        for path in tmp_path.glob("*.csv")
        for row in csv.reader(path.open(encoding="utf-8"))
        for cell in row
    ]
    assert cells, "export wrote no CSV"
    assert '\'=HYPERLINK("http://evil","x")' in cells
    assert not any(c.startswith(("=", "@", "+")) for c in cells)
    assert not any("\u202e" in c for c in cells)


def _helsinki_with_a_far_stop(helsinki_scenario: Path, tmp_path: Path) -> tuple[Path, float]:
    """The Helsinki scenario plus a corridor to an Aleppo place (its GeoNames point, with
    its source), and that place's great-circle distance to Helsinki's first place, km."""
    from osmnx.distance import great_circle

    data = yaml.safe_load(helsinki_scenario.read_text(encoding="utf-8"))
    far = next(p for p in aleppo()["places"] if p["role"] == "city")
    source = next(s for s in aleppo()["sources"] if s["id"] == far["source"])
    data["sources"].append(source)
    data["places"].append(far)
    near = data["places"][0]
    data["corridors"].append(
        {**data["corridors"][1], "id": "far", "origin": near["id"], "destination": far["id"]}
    )
    metres = great_circle(near["lat"], near["lon"], far["lat"], far["lon"])
    return write_yaml(tmp_path / "far.yaml", data), float(metres) / 1000


def test_stop_far_from_the_network_has_no_route(
    helsinki_osm: Path, helsinki_scenario: Path, runner: Any, tmp_path: Path
) -> None:
    """A stop thousands of km from the OSM roads is no_route with the distance; --strict: 1."""
    import json

    scenario, km = _helsinki_with_a_far_stop(helsinki_scenario, tmp_path)
    args = ["corridors", "--osm", str(helsinki_osm), "-s", str(scenario), "--json"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    rows = {r["corridor_id"]: r for r in json.loads(result.stdout)}
    assert rows["far"]["route_status"] == "no_route"
    assert rows["far"]["length_km"] is None
    reason = rows["far"]["no_route_reason"]
    said = float(reason.split(" km ")[0].split()[-1].replace(",", ""))
    assert abs(said - km) < 0.01 * km, (reason, km)
    assert "5 km" in reason
    assert "corridor far: no route" in result.stderr
    assert {rows["direct"]["route_status"], rows["via-waypoint"]["route_status"]} == {"ok"}

    strict = runner.invoke(app, [*args, "--strict"])
    assert strict.exit_code == 1, strict.output
    assert "--strict" in strict.stderr

    out = tmp_path / "m.html"
    mapped = runner.invoke(
        app, ["map", "--osm", str(helsinki_osm), "-s", str(scenario), "-o", str(out), "--strict"]
    )
    assert mapped.exit_code == 1 and not out.exists(), mapped.output


def test_max_snap_sets_the_limit(helsinki_osm: Path, helsinki_scenario: Path, runner: Any) -> None:
    """Place nodes lie metres off the nearest road node: --max-snap 0.001 (1 m) refuses them."""
    import json

    base = ["corridors", "--osm", str(helsinki_osm), "-s", str(helsinki_scenario), "--json"]
    tight = json.loads(runner.invoke(app, [*base, "--max-snap", "0.001"]).stdout)
    loose = json.loads(runner.invoke(app, base).stdout)
    assert all(r["route_status"] == "ok" for r in loose)
    for row in tight:
        assert (row["route_status"] == "no_route") == (row["max_snap_m"] > 1.0), row
        if row["route_status"] == "no_route":
            assert "beyond the 0.001 km allowed" in row["no_route_reason"]
    assert any(r["route_status"] == "no_route" for r in tight)
    assert runner.invoke(app, [*base, "--max-snap", "0"]).exit_code == 2


@pytest.mark.parametrize("fmt", ["gpkg", "geojson", "kml", "csv"])
def test_exports_are_reproducible(fmt: str, runner: Any, tmp_path: Path) -> None:
    """Same inputs, same bytes: GDAL's clock stamp in a GeoPackage is fixed too."""
    written = []
    for run in ("first", "second"):
        result = runner.invoke(app, ["export", "-f", fmt, "--offline", "-o", str(tmp_path / run)])
        assert result.exit_code == 0, result.output
        written.append({p.name: p.read_bytes() for p in sorted((tmp_path / run).iterdir())})
    assert written[0] and written[0] == written[1]
