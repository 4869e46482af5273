"""A road-like synthetic grid of about 10⁶ directed edges (quick mode: about 10⁵).

Ours: the grid compiled straight from arrays (:meth:`Router.from_arrays`, no networkx).
Stock: the same grid as a networkx MultiDiGraph and ``osmnx.routing.shortest_path`` on a
few of the same pairs (full mode builds it at 10⁶ edges: about 0.7 GB and seconds; the
bytes per edge are measured with tracemalloc on a 10⁵-edge copy).

Goals (issue 7): ≤ 20 ms per corridor query of ~2 km, ≤ 60 ms per random pair, the
routing structure ≤ 100 bytes per edge.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import tracemalloc
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import osmnx as ox
import pytest
from conftest import at_most, grid_arrays, ms, pick, timed

from routes.routing.backend import Router

WEIGHT = "travel_time"
SIDE = pick(500, 160)  # 500² nodes: 998,000 directed edges; 160²: 101,760


@pytest.fixture(scope="module")
def grid() -> dict[str, Any]:
    return grid_arrays(SIDE)


@pytest.fixture(scope="module")
def router(grid: dict[str, Any]) -> Router:
    return _compile(grid)


def _compile(grid: dict[str, Any]) -> Router:
    return Router.from_arrays(
        grid["ids"],
        grid["x"],
        grid["y"],
        grid["u"],
        grid["v"],
        {"travel_time": grid["travel_time"], "length": grid["length"]},
    )


def _networkx(grid: dict[str, Any]) -> nx.MultiDiGraph:
    """The grid in osmnx's schema, as networkx holds it."""
    G = nx.MultiDiGraph(crs="EPSG:4326")
    G.add_nodes_from(
        (int(i), {"x": float(x), "y": float(y)})
        for i, x, y in zip(grid["ids"], grid["x"], grid["y"], strict=True)
    )
    G.add_edges_from(
        (int(u), int(v), {"length": float(length), "travel_time": float(t)})
        for u, v, length, t in zip(
            grid["u"], grid["v"], grid["length"], grid["travel_time"], strict=True
        )
    )
    return G


def _corridor_pairs(grid: dict[str, Any], n: int, seed: int) -> tuple[list[int], list[int]]:
    """Pairs about 2 km apart: 20 blocks east, or north, of a random node."""
    side, ids = grid["side"], grid["ids"]
    rng = np.random.default_rng(seed)
    blocks = round(2000 / grid["spacing_m"])
    row = rng.integers(0, side - blocks, n)
    col = rng.integers(0, side - blocks, n)
    north = rng.random(n) < 0.5
    a = row * side + col
    b = np.where(north, (row + blocks) * side + col, row * side + col + blocks)
    return ids[a].tolist(), ids[b].tolist()


def _random_pairs(grid: dict[str, Any], n: int, seed: int) -> tuple[list[int], list[int]]:
    rng = np.random.default_rng(seed)
    a, b = rng.choice(grid["ids"], (2, n))
    return a.tolist(), b.tolist()


def _per_query(router: Router, origs: list[int], dests: list[int]) -> tuple[float, list[Any]]:
    times, paths = [], []
    for a, b in zip(origs, dests, strict=True):
        seconds, path = timed(partial(router.path, a, b, WEIGHT), rounds=pick(3, 2))
        times.append(seconds)
        paths.append(path)
    return float(np.median(times)), paths


def test_compile_and_bytes_per_edge(grid: dict[str, Any], report: Callable[..., None]) -> None:
    seconds, router = timed(lambda: _compile(grid), rounds=pick(3, 2), warmup=0)
    per_edge = router.nbytes / router.edges
    small = grid_arrays(160)  # networkx's bytes per edge, measured at ~10⁵ edges
    tracemalloc.start()
    G = _networkx(small)
    held, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    nx_per_edge = held / G.number_of_edges()
    del G
    report(
        f"grid {router.edges:,} edges: compile; memory per edge",
        f"networkx {nx_per_edge:.0f} bytes/edge",
        f"{ms(seconds)}; {per_edge:.0f} bytes/edge (2 weights)",
        f"{nx_per_edge / per_edge:.0f}× smaller",
        "≤ 100 bytes/edge",
        per_edge <= 100,
    )
    assert per_edge <= 100


def test_corridor_queries_of_2_km(
    grid: dict[str, Any], router: Router, report: Callable[..., None]
) -> None:
    origs, dests = _corridor_pairs(grid, pick(30, 10), seed=21)
    router.path(origs[0], dests[0], WEIGHT)  # the detour profile is sampled once per graph
    seconds, paths = _per_query(router, origs, dests)
    assert all(
        p is not None and p[0] == a and p[-1] == b
        for p, a, b in zip(paths, origs, dests, strict=True)
    )
    report(
        f"grid {router.edges:,} edges: corridor of ~2 km (median per query)",
        "",
        ms(seconds),
        "",
        "≤ 20 ms",
        seconds <= 0.020,
    )
    assert seconds <= at_most(0.020)


def test_random_pairs(grid: dict[str, Any], router: Router, report: Callable[..., None]) -> None:
    origs, dests = _random_pairs(grid, pick(20, 8), seed=22)
    seconds, paths = _per_query(router, origs, dests)
    assert all(p is not None for p in paths)
    report(
        f"grid {router.edges:,} edges: random pair (median per query)",
        "",
        ms(seconds),
        "",
        "≤ 60 ms",
        seconds <= 0.060,
    )
    assert seconds <= at_most(0.060)


def _stock_main(side: int, origs: list[int], dests: list[int]) -> None:
    """Run in a child process (so ~0.7 GB of networkx objects leave no trace in this one):
    build the networkx grid, route each pair with osmnx, and price both our paths (JSON
    on stdin) and osmnx's. Prints JSON: build time, per-query times, paths, costs."""
    ours = json.loads(sys.stdin.read())
    grid = grid_arrays(side)
    build_s, G = timed(lambda: _networkx(grid), rounds=1, warmup=0)
    times, paths = [], []
    for a, b in zip(origs, dests, strict=True):
        t, path = timed(partial(ox.routing.shortest_path, G, a, b, weight=WEIGHT),
                        rounds=1, warmup=0)  # fmt: skip
        times.append(t)
        paths.append(path)

    def cost(path: list[int]) -> float:  # KeyError if a step is not an edge
        return float(sum(G[u][v][0][WEIGHT] for u, v in itertools.pairwise(path)))

    print(json.dumps({
        "build_s": build_s, "times": times, "paths": paths,
        "their_costs": [cost(p) for p in paths], "our_costs": [cost(p) for p in ours],
    }))  # fmt: skip


def test_same_routes_as_osmnx(
    grid: dict[str, Any], router: Router, report: Callable[..., None]
) -> None:
    """osmnx on the networkx copy of the grid: the same routes, and what it costs per query."""
    co, cd = _corridor_pairs(grid, 2, seed=23)
    ro, rd = _random_pairs(grid, 2, seed=24)
    origs, dests = co + ro, cd + rd
    code = f"import bench_grid; bench_grid._stock_main({SIDE}, {origs}, {dests})"
    ours_t, ours = [], []
    for a, b in zip(origs, dests, strict=True):
        seconds, path = timed(partial(router.path, a, b, WEIGHT), rounds=3)
        ours_t.append(seconds)
        ours.append(path)
    done = subprocess.run(
        [sys.executable, "-c", code],
        input=json.dumps(ours),
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parent,
        timeout=600,
    )
    stock = json.loads(done.stdout.strip().splitlines()[-1])
    for mine, theirs, c_mine, c_theirs in zip(
        ours, stock["paths"], stock["our_costs"], stock["their_costs"], strict=True
    ):
        if mine != theirs:  # a tie: same least cost, valid path
            assert mine is not None and theirs is not None
            assert c_mine == pytest.approx(c_theirs, rel=1e-9)
    per_stock, per_ours = float(np.median(stock["times"])), float(np.median(ours_t))
    report(
        f"grid {router.edges:,} edges: osmnx on networkx (build {ms(stock['build_s'])})",
        f"{ms(per_stock)} per query",
        f"{ms(per_ours)} per query",
        f"{per_stock / per_ours:.0f}×",
        "",
        None,
    )
