"""The Aleppo corridors on OpenStreetMap's roads (issue 37): the stored network, rebuilt from
``../shared/osm-aleppo`` by its script byte for byte; ``routes corridors --offline --json`` on
a fresh cache; the crossing at the mapped Bab al-Hawa gate; and what the page, the table and
the exports say of the roads' date (August 2021) against the story's (December 2016)."""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from conftest import SHARED, shared
from osmnx.distance import great_circle
from typer.testing import CliRunner

from routes import datasets, network, settings
from routes.cli import app
from routes.routing import corridors

STORED = datasets.DATA_DIR / "osm" / "aleppo-2016-12.osm.pbf"

#: The Bab al-Hawa / Cilvegözü gate as mapped, where the M45 meets the D827 on the border
#: line: the "Gate" point of ../shared/osm-aleppo/SOURCE.md, read from the same roads.
GATE = (36.6824, 36.2329)

#: What the key, the table and the exports say of the roads and the story.
ROADS_OF_2021 = "Roads as mapped in OpenStreetMap in August 2021; the story is of 15 December 2016"

#: Each corridor's length through its stops, km: the issue's ranges, from the shortest
#: network distances of ../shared/osm-aleppo/connectivity.json (pocket → Idlib "about
#: 60–75"; the quickest route takes the M5 and M4, 75.1 km).
LENGTHS_KM = {
    "eastern-aleppo-to-idlib": (60, 76),
    "eastern-aleppo-to-turkey": (110, 140),
    "foua-kafriya-to-jibreen": (60, 80),
}


@pytest.fixture(scope="module")
def module_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache for this module's tests: the network is parsed once for all of them (the
    GeoNames index, which OpenStreetMap routing does not read and the proxy does, is the
    session's)."""
    folder = tmp_path_factory.mktemp("cache")
    for entry in settings.cache_dir.glob("geonames-*.sqlite"):
        (folder / entry.name).symlink_to(entry)
    return folder


@pytest.fixture(autouse=True)
def cache(module_cache: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(settings, "cache_dir", module_cache)
    return module_cache


def _script(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    folder = Path(__file__).resolve().parents[1] / "scripts"
    monkeypatch.syspath_prepend(str(folder))
    spec = importlib.util.spec_from_file_location("build_aleppo_roads", folder /
                                                  "build_aleppo_roads.py")  # fmt: skip
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_stored_network_is_what_its_script_writes(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    source = shared(SHARED / "osm-aleppo" / "roads.geojson")
    build = _script(monkeypatch)
    out = tmp_path / STORED.name
    build.write(source, out)
    assert out.read_bytes() == STORED.read_bytes()
    about = out.with_suffix(".json")
    assert about.read_bytes() == STORED.with_suffix(".json").read_bytes()
    assert STORED.stat().st_size < 2 * 2**20  # the repository grows by far less than 5 MB


def test_the_stored_network_says_what_it_is() -> None:
    """Its description names its date, licence and source, and matches the file."""
    about = json.loads(STORED.with_suffix(".json").read_text(encoding="utf-8"))
    assert about["osm_date"] == "2021-08" and about["licence"] == "ODbL 1.0"
    assert "OpenStreetMap contributors" in about["attribution"]
    assert network.described(STORED) == {"osm_date": "2021-08", "source": about["source"]}


def test_a_description_of_another_file_dates_nothing(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A copy whose description is another file's: routed, but its date is not known."""
    copy = tmp_path / STORED.name
    copy.write_bytes(STORED.read_bytes() + b"\0")
    copy.with_suffix(".json").write_bytes(STORED.with_suffix(".json").read_bytes())
    roads = network.load_extract(copy)
    assert roads.graph["network_source"] == "osm" and roads.graph["osm_date"] == ""
    assert "does not describe" in caplog.text


def test_corridors_offline_json_on_a_fresh_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The acceptance's command: every corridor routed on OpenStreetMap with a travel
    time and the lengths of the connectivity table, nothing downloaded, no proxy."""
    fresh_cache = tmp_path / "fresh"
    monkeypatch.setattr(settings, "cache_dir", fresh_cache)
    result = CliRunner().invoke(app, ["corridors", "--offline", "--json"])
    assert result.exit_code == 0, result.output
    assert "proxy" not in result.stderr
    rows = {r["corridor_id"]: r for r in json.loads(result.stdout)}
    assert rows.keys() == LENGTHS_KM.keys()
    for corridor, (low, high) in LENGTHS_KM.items():
        row = rows[corridor]
        assert row["route_status"] == "ok" and row["network_source"] == "osm", row
        assert row["osm_date"] == "2021-08" and row["date"] == "2016-12-15"
        assert low <= row["length_km"] <= high, (corridor, row["length_km"])
        assert row["travel_time_h"] > 0.5 and "road" in row["travel_time_model"]
    assert {"M5", "M4"} <= set(rows["eastern-aleppo-to-idlib"]["roads"].split("; "))
    assert {"M45", "D827"} <= set(rows["eastern-aleppo-to-turkey"]["roads"].split("; "))
    assert "60" in rows["foua-kafriya-to-jibreen"]["roads"].split("; ")  # "M45;60" is two
    assert "Bab al-Hawa border crossing" in rows["eastern-aleppo-to-turkey"]["stops_off_road"]
    assert [p.name for p in (fresh_cache / "graphs").glob("*.npz")] != []  # parsed, cached
    table = CliRunner().invoke(app, ["corridors", "--offline"], env={"COLUMNS": "200"})
    assert f"{ROADS_OF_2021} (© OpenStreetMap contributors, ODbL)." in table.stdout


def test_the_wounded_cross_at_the_mapped_gate(aleppo: Any) -> None:
    """Bab al-Hawa → Reyhanlı passes the gate on the M45 and D827, not the minor roads of the
    crossing area (the scenario's point is a kilometre east of the gate)."""
    roads = network.choose(aleppo, offline=True)
    legs = corridors.route_legs(roads, aleppo, "eastern-aleppo-to-turkey").set_index("to")
    crossing = legs.loc["Reyhanlı (Turkey)"]
    lon, lat = np.asarray(crossing.geometry.coords).T
    assert great_circle(GATE[1], GATE[0], lat, lon).min() < 20
    assert {"M45", "D827"} <= set(crossing["roads"].split("; "))
    classes = dict(re.findall(r"(\w+) (\d+)%", crossing["highway_share"]))
    assert int(classes.get("trunk", 0)) + int(classes.get("primary", 0)) >= 85, classes


def test_the_page_says_roads_of_2021_and_a_story_of_2016(tmp_path: Path) -> None:
    out = tmp_path / "aleppo.html"
    result = CliRunner().invoke(app, ["map", "--offline", "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert out.stat().st_size < 1_000_000
    assert (
        f"{ROADS_OF_2021}. Each line is the quickest route through the documented stops, "
        "not a tracked path" in html
    )  # fmt: skip  (the key)
    popups = "quickest route through the documented stops on the roads as mapped in " \
        "OpenStreetMap in August 2021, not a tracked path"  # fmt: skip
    assert html.count(popups) >= 3  # each corridor's
    assert "contributors (ODbL), as mapped in August 2021" in html  # the credits
    assert "Roads (OpenStreetMap, August 2021)" in html  # the roads layer, by its date
    for road in ("M5", "M45", "road 60", "D827"):
        assert re.search(rf"<th>Roads</th><td>[^<]*\b{road}\b", html), road
    assert "Bab al-Hawa border crossing 325 m, from where the route joins the roads" in html
    assert "proxy network" not in html.lower()


def test_exports_say_roads_of_2021_and_a_story_of_2016(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["export", "-f", "gpkg", "--offline", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    import geopandas as gpd

    gpkg = Path(result.stdout.strip())
    routed = gpd.read_file(gpkg, layer="corridors")
    assert set(routed["osm_date"]) == {"2021-08"} and set(routed["date"]) == {"2016-12-15"}
    roads = gpd.read_file(gpkg, layer="network")
    assert set(roads["osm_date"]) == {"2021-08"} and 500 < len(roads) < 20_000
    with sqlite3.connect(gpkg) as db:
        said = dict(db.execute("SELECT table_name, description FROM gpkg_contents").fetchall())
    for layer in ("corridors", "network"):
        assert said[layer].startswith(f"{ROADS_OF_2021}. Roads © OpenStreetMap contributors, "
                                      "ODbL 1.0."), said[layer]  # fmt: skip


def test_network_proxy_still_draws_the_proxy() -> None:
    result = CliRunner().invoke(app, ["corridors", "--offline", "--network", "proxy", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert {r["network_source"] for r in rows} == {"proxy"}
    assert all(r["osm_date"] == "" and r["travel_time_h"] is None for r in rows)


def test_roads_that_miss_a_stop_are_not_routed_on(
    aleppo: Any, caplog: pytest.LogCaptureFixture
) -> None:
    """A copy of the scenario under its id whose corridor ends beyond the stored roads (at
    Kilis, in Turkey, north of their extent) routes on the proxy network and says why."""
    first = aleppo.corridors[0].model_copy(update={"destination": "kilis"})
    moved = aleppo.model_copy(update={"corridors": [first, *aleppo.corridors[1:]]})
    roads = network.choose(moved, offline=True)
    assert roads.graph["network_source"] == "proxy"
    assert "do not reach every stop of its corridors" in caplog.text


def test_the_roads_in_the_page_decode_to_the_roads_drawn(aleppo: Any) -> None:
    """The page carries each road class as encoded polylines: decoded, they are the lines of
    ``road_lines`` for the page's view, part for part, to within the format's 1e-5 degrees."""
    import polyline
    import shapely

    from routes.render import build_map, page
    from routes.render.geometry import drawn_lines
    from routes.render.roads import road_lines

    roads = network.choose(aleppo, offline=True)
    routed = corridors.route_corridors(roads, aleppo)
    m = build_map(aleppo, routed, network=roads)
    carried = json.loads(re.search(r"(\[\{\"parts\": .*?\}\])\.forEach", page(m)).group(1))
    (south, west), (north, east) = importlib.import_module("routes.render.page")._view(
        aleppo, drawn_lines(aleppo, routed)
    )
    lines = road_lines(roads, routed, (west, south, east, north))
    assert len(carried) == len(lines) >= 5  # streets to motorways
    for road, line in zip(carried, lines.geometry, strict=True):
        parts = shapely.get_parts(line)
        assert len(road["parts"]) == len(parts)
        for encoded, part in zip(road["parts"], parts, strict=True):
            got = np.array(polyline.decode(encoded, 5))[:, ::-1]  # lat, lon -> lon, lat
            assert np.abs(got - np.array(part.coords)).max() <= 1e-5 + 1e-9
