"""Corridor routing on the Helsinki "all" graph: the compiled backend against osmnx.

Stock: one ``osmnx.routing.shortest_path`` call per pair (and
``osmnx.routing.k_shortest_paths`` for alternatives). Ours: :class:`routes.routing.Router`
(compiled once, outside the timing, as the graph cache stores it). Both must give the
same routes: the very same node list, or — where paths tie at the least cost — a valid
path of that cost (see ``tests/test_backend.py``).

Goals (issue 7, medians, same run): batch of random pairs ≥ 40×, one-to-many (10 × 20)
≥ 300×.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

import networkx as nx
import numpy as np
import osmnx as ox
import pytest
from conftest import at_least, ms, pick, timed

from routes.routing import RoadArrays, RoadNetwork
from routes.routing.backend import Router

WEIGHT = "travel_time"


@pytest.fixture(scope="module")
def router(helsinki_all: nx.MultiDiGraph) -> Router:
    return RoadNetwork.from_networkx(helsinki_all).router


def _pairs(router: Router, n: int, seed: int) -> tuple[list[int], list[int]]:
    core = router.ids[router.core()]
    rng = np.random.default_rng(seed)
    a, b = rng.choice(core, (2, n))
    return a.tolist(), b.tolist()


def _listed(fn: Callable[..., Iterable[Any]], *args: Any, **kwargs: Any) -> list[Any]:
    return list(fn(*args, **kwargs))


def _cost(G: nx.MultiDiGraph, path: list[int]) -> float:
    return float(sum(min(d[WEIGHT] for d in G[u][v].values()) for u, v in itertools.pairwise(path)))


def _ties(identical: int, n: int) -> str:
    return f"{identical}/{n} identical" + (", the rest ties" if identical < n else "")


def _assert_same(G: nx.MultiDiGraph, ours: Any, theirs: Any) -> int:
    """Same routes (ties: same least cost, valid path); returns how many were identical."""
    identical = 0
    for p, q in zip(ours, theirs, strict=True):
        if p == q:
            identical += 1
            continue
        assert p is not None and q is not None, (p, q)
        assert p[0] == q[0] and p[-1] == q[-1]
        assert all(G.has_edge(u, v) for u, v in itertools.pairwise(p))
        assert _cost(G, p) == pytest.approx(_cost(G, q), rel=1e-9)
    return identical


def test_graph_and_compile(helsinki_all: nx.MultiDiGraph, report: Callable[..., None]) -> None:
    G = helsinki_all
    arrays = RoadArrays.from_networkx(G)
    seconds, router = timed(lambda: RoadNetwork.from_arrays(arrays).router, rounds=pick(5, 2))
    assert router.edges > 5000
    report(
        f"compile router, Helsinki all ({len(G):,} nodes, {G.number_of_edges():,} edges)",
        "the graph's columns",
        ms(seconds),
        f"{router.nbytes / router.edges:.0f} bytes/edge (2 weights)",
        "≤ 100 bytes/edge",
        router.nbytes / router.edges <= 100,
    )


def test_single_pair(
    helsinki_all: nx.MultiDiGraph, router: Router, report: Callable[..., None]
) -> None:
    G = helsinki_all
    origs, dests = _pairs(router, pick(40, 15), seed=11)
    stock_t, ours_t, theirs, ours = [], [], [], []
    for a, b in zip(origs, dests, strict=True):
        t, q = timed(partial(ox.routing.shortest_path, G, a, b, weight=WEIGHT), rounds=1)
        s, p = timed(partial(router.path, a, b, WEIGHT), rounds=3)
        stock_t.append(t)
        ours_t.append(s)
        theirs.append(q)
        ours.append(p)
    _assert_same(G, ours, theirs)
    stock, mine = float(np.median(stock_t)), float(np.median(ours_t))
    report(
        "single pair (median per query)",
        ms(stock),
        ms(mine),
        f"{stock / mine:.0f}×",
        "",
        None,
    )


def test_batch_random_pairs(
    helsinki_all: nx.MultiDiGraph, router: Router, report: Callable[..., None]
) -> None:
    G = helsinki_all
    n = pick(200, 60)
    origs, dests = _pairs(router, n, seed=12)

    def stock() -> list[Any]:
        return [
            ox.routing.shortest_path(G, a, b, weight=WEIGHT)
            for a, b in zip(origs, dests, strict=True)
        ]

    stock_s, theirs = timed(stock, rounds=pick(3, 1), warmup=0)
    ours_s, ours = timed(lambda: router.paths(origs, dests, WEIGHT), rounds=pick(15, 5))
    identical = _assert_same(G, ours, theirs)
    speedup = stock_s / ours_s
    report(
        f"batch: {n} random pairs (per pair)",
        ms(stock_s / n),
        ms(ours_s / n),
        f"{speedup:.0f}× ({_ties(identical, n)})",
        "≥ 40×",
        speedup >= 40,
    )
    assert speedup >= at_least(40)


def test_one_to_many(
    helsinki_all: nx.MultiDiGraph, router: Router, report: Callable[..., None]
) -> None:
    G = helsinki_all
    origs, _ = _pairs(router, 10, seed=13)
    _, dests = _pairs(router, 20, seed=14)

    def stock() -> list[Any]:
        return [ox.routing.shortest_path(G, a, b, weight=WEIGHT) for a in origs for b in dests]

    stock_s, theirs = timed(stock, rounds=pick(3, 1), warmup=0)
    ours_s, table = timed(lambda: router.many_to_many(origs, dests, WEIGHT), rounds=pick(15, 5))
    ours = [path for row in table for path in row]
    identical = _assert_same(G, ours, theirs)
    speedup = stock_s / ours_s
    report(
        "one-to-many: 10 origins × 20 destinations (all 200)",
        ms(stock_s),
        ms(ours_s),
        f"{speedup:.0f}× ({_ties(identical, 200)})",
        "≥ 300×",
        speedup >= 300,
    )
    assert speedup >= at_least(300)


def test_alternatives_k_shortest(
    helsinki_all: nx.MultiDiGraph, router: Router, report: Callable[..., None]
) -> None:
    """Yen's 40 loopless paths per leg, as alternatives use them."""
    G = helsinki_all
    k = 40
    origs, dests = _pairs(router, pick(3, 1), seed=15)
    stock_t, ours_t = [], []
    for a, b in zip(origs, dests, strict=True):
        t, theirs = timed(
            partial(_listed, ox.routing.k_shortest_paths, G, a, b, k, weight=WEIGHT),
            rounds=1,
            warmup=0,
        )
        s, ours = timed(partial(_listed, router.k_shortest, a, b, k, WEIGHT), rounds=1)
        assert [_cost(G, p) for p in ours] == pytest.approx([_cost(G, q) for q in theirs])
        stock_t.append(t)
        ours_t.append(s)
    stock, mine = float(np.median(stock_t)), float(np.median(ours_t))
    report(f"alternatives: {k} shortest loopless paths (per leg)", ms(stock), ms(mine),
           f"{stock / mine:.0f}×", "", None)  # fmt: skip


def test_igraph_for_comparison(
    helsinki_all: nx.MultiDiGraph, router: Router, report: Callable[..., None]
) -> None:
    """igraph, the other compiled candidate, on the same pairs (measured, not used)."""
    ig = pytest.importorskip("igraph")
    n = pick(200, 60)
    origs, dests = _pairs(router, n, seed=12)
    rows = np.repeat(np.arange(len(router.ids)), np.diff(router.indptr))
    g = ig.Graph(n=len(router.ids), edges=np.column_stack([rows, router.indices]), directed=True)
    weights = router.weights[WEIGHT].tolist()
    src, dst = router.index(origs), router.index(dests)

    def igraph_batch() -> list[Any]:
        return [
            router.ids[g.get_shortest_path(int(s), int(t), weights=weights)].tolist()
            for s, t in zip(src, dst, strict=True)
        ]

    ig_s, via_igraph = timed(igraph_batch, rounds=pick(5, 2))
    ours_s, ours = timed(lambda: router.paths(origs, dests, WEIGHT), rounds=pick(15, 5))
    _assert_same(helsinki_all, via_igraph, ours)
    report(f"igraph {ig.__version__}: {n} random pairs (per pair)", ms(ig_s / n),
           ms(ours_s / n), f"scipy {ig_s / ours_s:.1f}× igraph", "", None)  # fmt: skip


def test_scenario_corridors(
    helsinki_all: nx.MultiDiGraph, helsinki_scenario: Any, report: Callable[..., None]
) -> None:
    """The Helsinki scenario's corridors: snap each stop, route through the waypoints."""
    from routes import scenario
    from routes.routing import RoadNetwork, corridors

    G = helsinki_all
    roads = RoadNetwork.from_networkx(G)  # what network.choose hands the pipeline
    story = scenario.load(helsinki_scenario)
    places = [[story.place(s) for s in c.stops] for c in story.corridors]

    def stock() -> list[list[int]]:
        core = ox.truncate.largest_component(G, strongly=True)
        routes = []
        for stops in places:
            nodes = ox.distance.nearest_nodes(core, [p.lon for p in stops], [p.lat for p in stops])
            route = [int(nodes[0])]
            for a, b in itertools.pairwise(int(n) for n in nodes):
                leg = ox.routing.shortest_path(core, a, b, weight=WEIGHT)
                assert leg is not None
                route += leg[1:]
            routes.append(route)
        return routes

    def ours() -> list[list[int] | None]:
        return [
            roads.router.route_through(corridors.snap_stops(roads, story, c).nodes, WEIGHT)[0]
            for c in story.corridors
        ]

    stock_s, theirs = timed(stock, rounds=pick(5, 2), warmup=0)
    ours_s, mine = timed(ours, rounds=pick(20, 5))
    _assert_same(G, mine, theirs)
    report(
        f"scenario corridors: {len(places)} (snap + route through waypoints)",
        ms(stock_s),
        ms(ours_s),
        f"{stock_s / ours_s:.0f}×",
        "",
        None,
    )
