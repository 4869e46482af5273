"""Contraction hierarchy against Dijkstra on the road-like grid of bench_grid.py (about 10⁶
directed edges; quick mode about 10⁵), the same pairs, medians, in one run.

Ours: :mod:`routes.routing.ch` (RoutingKit's CH through ``ch-router``), contracted once.
Stock: today's search, scipy's bounded Dijkstra on the same router. Every CH distance of
:data:`PAIRS` random pairs is checked to equal scipy's Dijkstra on the same integer weights.

Goals (issue 15): random pair ≤ 1 ms, ~2 km corridor ≤ 0.2 ms with the CH backend.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from bench_grid import SIDE, WEIGHT, _compile, _corridor_pairs, _random_pairs
from conftest import at_most, grid_arrays, ms, pick, timed
from scipy.sparse import csr_array
from scipy.sparse.csgraph import dijkstra

from routes.routing.backend import Router

#: Random pairs whose CH distance must equal Dijkstra's.
PAIRS = pick(200, 60)


@pytest.fixture(scope="module")
def grid() -> dict[str, Any]:
    return grid_arrays(SIDE)


@pytest.fixture(scope="module")
def contracted(grid: dict[str, Any]) -> tuple[Router, float]:
    """The grid's router with its travel-time hierarchy, and the seconds contracting took."""
    router = _compile(grid)
    start = time.perf_counter()
    router.hierarchy(WEIGHT)
    return router, time.perf_counter() - start


def _medians(router: Router, origs: list[int], dests: list[int]) -> dict[str, float]:
    """Median seconds per ``path`` query, with Dijkstra and with the hierarchy."""
    out = {}
    for search in ("dijkstra", "ch"):
        router.use(search)
        router.path(origs[0], dests[0], WEIGHT)  # the detour profile is sampled once
        times = [timed(partial(router.path, a, b, WEIGHT), rounds=pick(3, 2))[0]
                 for a, b in zip(origs, dests, strict=True)]  # fmt: skip
        out[search] = float(np.median(times))
    router.use("dijkstra")
    return out


def test_distances_equal_dijkstra(
    grid: dict[str, Any], contracted: tuple[Router, float], report: Callable[..., None]
) -> None:
    router, seconds = contracted
    origs, dests = _random_pairs(grid, PAIRS, seed=31)
    src, dst = router.index(origs), router.index(dests)
    integers = router.hierarchy(WEIGHT).weights.astype(np.float64)
    n = len(router.ids)
    matrix = csr_array((integers, router.indices, router.indptr), shape=(n, n))
    same = 0
    for at in range(0, PAIRS, 20):  # 20 full rows at a time: ~50 MB at 10⁶ edges
        rows = dijkstra(matrix, indices=src[at : at + 20])
        for row, s, t in zip(rows, src[at : at + 20], dst[at : at + 20], strict=True):
            same += int(router.hierarchy(WEIGHT).distance(int(s), int(t)) == row[t])
    report(
        f"grid {router.edges:,} edges: contraction hierarchy (ch-router)",
        "Dijkstra: none",
        f"contracted in {seconds:.1f} s",
        f"{same}/{PAIRS} distances identical",
        "identical distances",
        same == PAIRS,
    )
    assert same == PAIRS


def test_random_pair(
    grid: dict[str, Any], contracted: tuple[Router, float], report: Callable[..., None]
) -> None:
    router, _ = contracted
    t = _medians(router, *_random_pairs(grid, pick(30, 10), seed=32))
    report(
        f"grid {router.edges:,} edges: random pair, Dijkstra vs CH (median per query)",
        ms(t["dijkstra"]),
        f"{t['ch'] * 1e6:.0f} µs",
        f"{t['dijkstra'] / t['ch']:.0f}×",
        "CH ≤ 1 ms",
        t["ch"] <= 0.001,
    )
    assert t["ch"] <= at_most(0.001)


def test_corridor_of_2_km(
    grid: dict[str, Any], contracted: tuple[Router, float], report: Callable[..., None]
) -> None:
    router, _ = contracted
    t = _medians(router, *_corridor_pairs(grid, pick(30, 10), seed=33))
    report(
        f"grid {router.edges:,} edges: corridor of ~2 km, Dijkstra vs CH (median per query)",
        ms(t["dijkstra"]),
        f"{t['ch'] * 1e6:.0f} µs",
        f"{t['dijkstra'] / t['ch']:.0f}×",
        "CH ≤ 0.2 ms",
        t["ch"] <= 0.0002,
    )
    assert t["ch"] <= at_most(0.0002)
