"""Map size: route geometry in the page, the usual Folium pipeline against lean lines.

Routes: the Helsinki scenario's corridors (best route and up to three alternatives each,
chosen as :func:`routes.routing.corridors.alternative_routes` chooses them) on the extract's roads.
Stock: ``osmnx.routing.route_to_gdf`` → one ``folium.GeoJson`` per route. Ours: one
``folium.PolyLine`` per route from :func:`routes.render.geometry.simplified` (5 m, 5 decimals),
in one layer. Same result: every lean line stays within the tolerance plus rounding of
its routed line. Goal: ≤ 1 KB of route geometry per route.

Also measured: the app's own page (:func:`routes.render.build_map`) on the same routes,
and the Aleppo map as ``routes map --offline`` writes it, on its stored OpenStreetMap roads
and on the proxy network: self-contained (goal under 1 MB), with ``--cdn`` (goal ≤ 300 KB)
and with ``--embed`` (goal under 1 MB).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import folium
import geopandas as gpd
import networkx as nx
import numpy as np
import osmnx as ox
import pandas as pd
import pytest
import shapely
from conftest import ms, pick, timed
from osm_support import helsinki_pbf

from routes import network, render, scenario
from routes.render import geometry
from routes.routing import RoadNetwork, corridors

WEIGHT = "travel_time"
ALTERNATIVES = 3

#: A folium polyline's coordinates, as the page writes them.
_LINE = re.compile(r"L\.polyline(?:\.antPath)?\(\s*(\[\[.*?\]\])", re.S)


@pytest.fixture(scope="module")
def routed(helsinki_scenario: Path) -> tuple[Any, RoadNetwork, list[list[int]]]:
    """The scenario, the network, and node routes: each corridor's best, then alternatives."""
    story = scenario.load(helsinki_scenario)
    G = network.from_osm_file(helsinki_pbf())
    router = G.router
    node_routes = []
    for corridor in story.corridors:
        snap = corridors.snap_stops(G, story, corridor)
        best, _gap = router.route_through(snap.nodes, WEIGHT)
        assert best is not None
        kept = [best]
        for route in corridors.candidate_routes(G, snap.nodes, WEIGHT):
            if len(kept) > ALTERNATIVES:
                break
            if all(
                corridors.route_difference(G, route, o) >= corridors.MIN_DIFFERENCE for o in kept
            ):
                kept.append(route)
        node_routes += kept
    return story, G, node_routes


def _empty_map() -> folium.Map:
    return folium.Map(location=[60.17, 24.94], zoom_start=13, tiles=None)


def _html(m: folium.Map) -> str:
    return str(m.get_root().render())


def _stock(G: nx.MultiDiGraph, node_routes: list[list[int]]) -> str:
    m = _empty_map()
    for route in node_routes:
        folium.GeoJson(ox.routing.route_to_gdf(G, route, weight=WEIGHT)).add_to(m)
    return _html(m)


def _lines(G: RoadNetwork, node_routes: list[list[int]]) -> gpd.GeoDataFrame:
    geometry = [corridors.measure_route(G, route, WEIGHT)["geometry"] for route in node_routes]
    return gpd.GeoDataFrame({"route": range(len(node_routes))}, geometry=geometry, crs=4326)


def _ours(G: RoadNetwork, node_routes: list[list[int]]) -> tuple[str, gpd.GeoDataFrame]:
    lean = geometry.simplified(_lines(G, node_routes), columns=["route"])
    m = _empty_map()
    group = folium.FeatureGroup(name="Routes").add_to(m)
    for line in lean.geometry:
        folium.PolyLine([(y, x) for x, y in line.coords], weight=4).add_to(group)
    return _html(m), lean


def _metres_apart(a: Any, b: Any) -> float:
    """Hausdorff distance of two lon/lat lines, metres (local azimuthal equidistant)."""
    to_local, _ = geometry.local_projection(gpd.GeoSeries([a], crs=4326))
    return float(shapely.hausdorff_distance(shapely.transform(a, to_local),
                                            shapely.transform(b, to_local)))  # fmt: skip


def test_route_geometry_per_route(
    routed: tuple[Any, RoadNetwork, list[list[int]]], report: Callable[..., None]
) -> None:
    _story, G, node_routes = routed
    n = len(node_routes)
    empty = len(_html(_empty_map()))
    rounds = pick(10, 3)
    graph = G.to_networkx()
    stock_s, stock_html = timed(lambda: _stock(graph, node_routes), rounds=rounds)
    ours_s, (ours_html, lean) = timed(lambda: _ours(G, node_routes), rounds=rounds)
    full = _lines(G, node_routes)
    worst = max(_metres_apart(a, b) for a, b in zip(full.geometry, lean.geometry, strict=True))
    assert worst <= geometry.SIMPLIFY_TOLERANCE_M + 1.5, worst
    stock_kb = (len(stock_html) - empty) / n / 1024
    ours_kb = (len(ours_html) - empty) / n / 1024
    geometry_kb = sum(len(c) for c in _LINE.findall(ours_html)) / n / 1024
    report(
        f"map: HTML per route, {n} Helsinki routes (build time)",
        f"{stock_kb:.1f} KB ({ms(stock_s)})",
        f"{ours_kb:.2f} KB, geometry {geometry_kb:.2f} KB ({ms(ours_s)})",
        f"{stock_kb / ours_kb:.0f}× smaller; lines within {worst:.1f} m",
        "geometry ≤ 1 KB per route",
        geometry_kb <= 1,
    )
    assert geometry_kb <= 1


def test_app_map_route_geometry(
    routed: tuple[Any, RoadNetwork, list[list[int]]], report: Callable[..., None]
) -> None:
    """The page routes.render builds on the same corridors and alternatives."""
    story, G, _ = routed
    best = corridors.route_corridors(G, story, weight=WEIGHT)
    alts = corridors.alternative_routes(G, story, ALTERNATIVES, weight=WEIGHT)
    seconds, m = timed(
        lambda: render.build_map(story, best, alternatives=alts, network=G), rounds=pick(5, 2)
    )
    html = render.page(m)
    n = len(best) + len(alts)
    vertices = sum(len(g.coords) for g in pd.concat([best.geometry, alts.geometry]))
    geometry_kb = sum(len(c) for c in _LINE.findall(html)) / n / 1024
    met = geometry_kb <= 1
    report(
        f"map: routes.render page, {n} Helsinki routes ({vertices} routed vertices)",
        "",
        f"{len(html) / 1024:.0f} KB page, route geometry {geometry_kb:.2f} KB per route "
        f"({ms(seconds)})",
        "",
        "geometry ≤ 1 KB per route",
        met,
    )
    assert met


@pytest.mark.parametrize(
    ("roads", "cdn", "embed", "label", "goal", "limit"),
    [
        ("osm", False, False, "self-contained (default)", "< 1 MB (10⁶ B)", 1_000_000),
        ("osm", True, False, "`--cdn`", "< 300 KB (3 × 10⁵ B)", 300_000),
        ("osm", False, True, "`--embed`", "< 1 MB (10⁶ B)", 1_000_000),
        ("proxy", False, False, "self-contained", "< 1 MB (10⁶ B)", 1_000_000),
        ("proxy", True, False, "`--cdn`", "< 300 KB (3 × 10⁵ B)", 300_000),
    ],
    ids=["default", "cdn", "embed", "proxy", "proxy-cdn"],
)
def test_aleppo_page(
    roads: str,
    cdn: bool,
    embed: bool,
    label: str,
    goal: str,
    limit: int,
    report: Callable[..., None],
) -> None:
    """The Aleppo page as ``routes map --offline`` writes it, on its stored OpenStreetMap
    roads or the proxy network: self-contained, linking its CDNs, or for an ``<iframe>``;
    each with its Natural Earth context."""
    story = scenario.load("aleppo-2016-12")
    G = network.choose(story, network=roads if roads == "proxy" else "auto", offline=True)
    best = corridors.route_corridors(G, story)
    m = render.build_map(story, best, network=G, embed=embed)
    size = len(render.page(m, cdn=cdn).encode("utf-8"))
    vertices = int(np.sum([len(g.coords) for g in best.geometry if g is not None]))
    kb = f"{size / 1024:.0f} KB ({vertices} route vertices)"
    on = "OpenStreetMap roads" if roads == "osm" else "proxy"
    report(f"map: Aleppo page, {label} ({on})", "", kb, "", goal, size < limit)
    assert size < limit
