"""Graphs read straight from an OSM file into columns (:mod:`routes.network.osmfile`) are the
graphs osmnx builds from the same roads (``graph_from_xml``, then ``add_edge_speeds`` with
the speed table and ``add_edge_travel_times``), and give the same routes.

The one known difference: a road class outside the speed table gets the mean of its
known speeds, which osmnx sums in its edge order and we sum exactly, so such speeds may
differ in the last bit (compared with ``REL`` below). Where simplification merges ways,
osmnx lists their distinct values in set order, which varies between runs; the reference
graph's lists are sorted before speeds are computed, as ours are.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import osmnx as ox
import pytest
from osm_support import helsinki_pbf
from synthetic_osm import write_road_grid

from routes import network, scenario, settings
from routes.errors import NetworkError
from routes.network.osmfile import road_arrays
from routes.routing import RoadNetwork, backend, corridors
from routes.routing.arrays import networkx_order

#: Relative tolerance for speeds imputed from a class's mean (see the module docstring).
REL = 1e-12


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setattr(settings, "cache_dir", folder)
    return folder


def _osmnx_graph(src: Path, tmp: Path, highways: frozenset[str] | None) -> nx.MultiDiGraph:
    """Today's reference path: the roads as OSM XML, ``graph_from_xml``, speeds, travel times."""
    xml = tmp / "roads.osm"
    network.write_roads_xml(src, xml, highways=highways)
    G = ox.graph_from_xml(xml)
    for *_, data in G.edges(data=True):
        for name, value in data.items():
            if isinstance(value, list):
                data[name] = sorted(value)
    G.graph["network_source"] = "osm"
    G = ox.routing.add_edge_speeds(
        G, hwy_speeds=network.HIGHWAY_SPEEDS_KPH, fallback=network.HIGHWAY_SPEEDS_KPH["road"]
    )
    return ox.routing.add_edge_travel_times(G)


def _by_pair(G: nx.MultiDiGraph) -> dict[tuple[int, int], list[tuple[Any, ...]]]:
    """Each node pair's edges as sorted tuples of their attributes and geometry points."""
    out: dict[tuple[int, int], list[tuple[Any, ...]]] = defaultdict(list)
    for u, v, data in G.edges(data=True):
        line = data.get("geometry")
        rest = tuple(
            sorted((k, str(x)) for k, x in data.items() if k not in (*_FLOATS, "geometry"))
        )
        floats = tuple(float(data[k]) for k in _FLOATS)
        out[u, v].append((rest, floats, None if line is None else tuple(line.coords)))
    return {pair: sorted(edges) for pair, edges in out.items()}


_FLOATS = ("length", "speed_kph", "travel_time")


def _assert_same(theirs: nx.MultiDiGraph, ours: nx.MultiDiGraph, exact: set[str]) -> None:
    """Same nodes (ids, positions), same edges per node pair with the same attributes and
    geometry; lengths exact, speeds exact for the classes in ``exact``, else within REL."""
    assert list(theirs.nodes(data=True)) == list(ours.nodes(data=True))
    a, b = _by_pair(theirs), _by_pair(ours)
    assert a.keys() == b.keys()
    for pair, edges in a.items():
        for (rest, floats, line), (rest2, floats2, line2) in zip(edges, b[pair], strict=True):
            assert (rest, line) == (rest2, line2), pair
            assert floats[0] == floats2[0], pair
            road_class = dict(rest)["highway"].strip("[]'").split("'")[0]
            if road_class in exact:
                assert floats == floats2, pair
            else:
                assert floats == pytest.approx(floats2, rel=REL), pair


def test_helsinki_graph_equals_osmnx(tmp_path: Path) -> None:
    pbf = helsinki_pbf()
    theirs = _osmnx_graph(pbf, tmp_path, network.DRIVABLE)
    ours = network.from_osm_file(pbf).to_networkx()
    assert ours.number_of_edges() == theirs.number_of_edges() > 300
    _assert_same(theirs, ours, exact=set(network.HIGHWAY_SPEEDS_KPH))
    merged = [d for *_, d in ours.edges(data=True) if isinstance(d["osmid"], list)]
    assert merged and any(isinstance(d.get("maxspeed"), list) for d in merged)


def test_helsinki_routes_equal_osmnx(tmp_path: Path, helsinki_scenario: Path) -> None:
    """The compiled router of the array path is osmnx's, array for array; corridors too."""
    pbf = helsinki_pbf()
    theirs = _osmnx_graph(pbf, tmp_path, network.DRIVABLE)
    ours = network.from_osm_file(pbf)
    stock_network = RoadNetwork.from_networkx(theirs)
    mine, stock = ours.router, stock_network.router
    for name in ("ids", "x", "y", "indptr", "indices"):
        assert np.array_equal(getattr(mine, name), getattr(stock, name)), name
    for weight in backend.WEIGHTS:
        assert np.array_equal(mine.weights[weight], stock.weights[weight]), weight
    rng = np.random.default_rng(15)
    core = stock.ids[stock.core()]
    for a, b in rng.choice(core, (200, 2)).tolist():
        assert mine.path(a, b) == nx.shortest_path(theirs, a, b, weight="travel_time") or (
            mine.cost(mine.path(a, b) or []) == pytest.approx(stock.cost(stock.path(a, b) or []))
        )
    story = scenario.load(helsinki_scenario)
    columns = ["corridor_id", "route_status", "length_km", "travel_time_h", "highway_share"]
    routed, stock_routed = (corridors.route_corridors(G, story) for G in (ours, stock_network))
    assert routed[columns].equals(stock_routed[columns])
    assert routed.geometry.geom_equals_exact(stock_routed.geometry, 0).all()


def test_every_highway_way_of_helsinki_equals_osmnx(tmp_path: Path) -> None:
    """Road classes outside the speed table (service, footway, ...) and far more ways."""
    pbf = helsinki_pbf()
    theirs = _osmnx_graph(pbf, tmp_path, None)
    ours = road_arrays(
        pbf, highways=None, speeds=network.HIGHWAY_SPEEDS_KPH, fallback=25.0
    ).to_networkx()
    assert ours.number_of_edges() == theirs.number_of_edges() > 5000
    _assert_same(theirs, ours, exact=set(network.HIGHWAY_SPEEDS_KPH))


def test_synthetic_grid_equals_osmnx(tmp_path: Path) -> None:
    """One-ways both ways round, a roundabout, mph, lists and implicit speeds, chains across
    ways with different tags, classes outside the table."""
    grid = write_road_grid(tmp_path / "grid.osm.pbf", 14)
    theirs = _osmnx_graph(grid, tmp_path, None)
    ours = road_arrays(grid, highways=None, speeds=network.HIGHWAY_SPEEDS_KPH, fallback=25.0)
    G = ours.to_networkx()
    _assert_same(theirs, G, exact=set(network.HIGHWAY_SPEEDS_KPH))
    reversed_ways = {d["osmid"] for *_, d in G.edges(data=True) if d["oneway"] and d["reversed"]}
    assert not reversed_ways  # a -1 way runs against its nodes, yet is not "reversed"
    speeds = {d["speed_kph"] for *_, d in G.edges(data=True)}
    assert {50.0, 30 * 1.60934, 80.0}.issubset(speeds)
    assert any(isinstance(d["highway"], list) for *_, d in G.edges(data=True))


def test_warm_columns_page_in_only_what_is_read(tmp_path: Path, cache_dir: Path) -> None:
    """A warm load maps the cache entry and checks each column when first read: a damaged
    attribute column leaves the router usable; where it is read, the run stops with one
    line and the entry goes, so the next run builds it again."""
    grid = write_road_grid(tmp_path / "grid.osm.pbf", 12)
    cold = network.from_osm_file(grid)
    [entry] = (cache_dir / "graphs").glob("osm-*.npz")
    data = bytearray(entry.read_bytes())
    member = b"edges/code:name.npy"
    at = data.index(member) + len(member) + 200  # inside that member's data
    data[at] ^= 0xFF
    entry.write_bytes(bytes(data))
    warm = network.from_osm_file(grid)
    a, b = int(warm.router.ids[0]), int(warm.router.ids[-1])
    assert warm.router.path(a, b) == cold.router.path(a, b) is not None
    np.testing.assert_array_equal(warm.arrays.column("length"), cold.arrays.column("length"))
    with pytest.raises(NetworkError, match=f"{entry.name} is damaged.*code:name.*run again"):
        warm.arrays.edges["code:name"]
    assert not entry.exists()
    again = network.from_osm_file(grid)  # built again
    assert entry.is_file()
    assert again.arrays.column("name").tolist() == cold.arrays.column("name").tolist()


def test_edges_come_in_networkx_order(tmp_path: Path) -> None:
    """The columns list edges as networkx lists the graph's (by node, pairs by their first
    edge, parallel edges in key order), so a reader of the columns meets them in the
    order a reader of the graph did (Helsinki has a pair of parallel edges)."""
    parallel = 0
    for path in (helsinki_pbf(), write_road_grid(tmp_path / "grid.osm.pbf", 14)):
        roads = network.from_osm_file(path)
        edges = roads.arrays.edges
        uvk = list(zip(*(edges[k].tolist() for k in ("u", "v", "key")), strict=True))
        assert list(roads.to_networkx().edges(keys=True)) == uvk
        parallel += sum(k > 0 for *_, k in uvk)
    assert parallel, "no parallel edges: their order is not tested"


def test_networkx_order_of_a_random_multigraph() -> None:
    rng = np.random.default_rng(16)
    u, v = rng.integers(0, 30, (2, 2000))  # many parallel edges and self-loops
    G = nx.MultiDiGraph()
    G.add_nodes_from(range(30))
    G.add_edges_from(zip(u.tolist(), v.tolist(), range(len(u)), strict=True))
    order = networkx_order(u, v)
    assert [k for *_, k in G.edges(keys=True)] == order.tolist()
