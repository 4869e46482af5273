"""Corridors as routes: each from its origin through its documented waypoints, in order.

Stops snap to the nearest node of the network's largest strongly connected
component (so every stop can reach every other). A corridor whose stops cannot
be joined is kept, marked ``no_route`` with the reason.

Routes are searched on the network's compiled :mod:`routes.routing.backend` (scipy's
Dijkstra over CSR arrays, or a contraction hierarchy), with the results
``osmnx.routing.shortest_path`` gives; lengths, road classes and geometry are then read
from the columns of the edges each route takes (the cheapest of parallel edges, as osmnx
picks it), and of no other edge.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from routes.columns import first_tag

if TYPE_CHECKING:
    import geopandas as gpd

    from routes.routing.roads import RoadNetwork
    from routes.scenario import Corridor, Place, Scenario

__all__ = [
    "CANDIDATES_PER_LEG",
    "FIGURE_COLUMNS",
    "MAX_ALTERNATIVE_LEGS",
    "MIN_DIFFERENCE",
    "OFF_ROAD_M",
    "PROXY_NO_TIME",
    "SNAP_WARNING_M",
    "Snap",
    "alternative_routes",
    "candidate_routes",
    "check_alternatives",
    "choose_search",
    "measure_route",
    "proxy_length_km",
    "route_corridors",
    "route_difference",
    "route_legs",
    "snap_stops",
    "unrouted",
]

FIGURE_COLUMNS = ("people", "wounded", "buses", "ambulances")

#: The routed table's columns, in order (:func:`unrouted` gives them to an empty table).
_COLUMNS = [
    "corridor_id", "name", "origin", "destination", "origin_id", "destination_id", "via",
    "date", "who", "end", "status", "route_basis", "note", *FIGURE_COLUMNS, "figures",
    "route_sources", "max_snap_m", "network_source", "route_status", "no_route_reason",
    "length_km", "travel_time_h", "highway_share", "roads", "geometry", "passes",
    "no_travel_time_reason",
]  # fmt: skip

#: A stop further than this from its snapped node gets a warning, metres.
SNAP_WARNING_M = 2000.0

#: A stop further than this from the road node it joins is named, with the distance, in
#: ``stops_off_road``, metres.
OFF_ROAD_M = 100.0

#: A stop further than this from its snapped node gives the corridor no route, metres:
#: the network does not cover it (a scenario routed on an unrelated OSM file, say).
MAX_SNAP_M = 5000.0

#: An alternative must leave this share of its length off every route already kept.
MIN_DIFFERENCE = 0.2

#: Loopless paths examined per leg when looking for alternatives (Yen's algorithm).
CANDIDATES_PER_LEG = 40

#: The most alternatives times legs (a leg joins two stops of a corridor) one run may ask
#: for. Each leg is a k-shortest-paths search, and every candidate a whole route: on the
#: proxy network, 10 alternatives took 6 s over 10 waypoints, 32 s over 80, and more than
#: 600 s over 1,000 (issue 39; 2026-12-05, 2 CPUs, load 7).
MAX_ALTERNATIVE_LEGS = 400


def check_alternatives(scenario: Scenario, k: int) -> None:
    """UsageError if ``k`` alternatives over the scenario's legs exceed
    :data:`MAX_ALTERNATIVE_LEGS` (checked before any network is built or routed)."""
    from routes.errors import UsageError

    legs = sum(len(c.stops) - 1 for c in scenario.corridors)
    if k * legs > MAX_ALTERNATIVE_LEGS:
        raise UsageError(
            f"--alternatives {k} over {legs:,} legs is {k * legs:,} searches; at most "
            f"{MAX_ALTERNATIVE_LEGS} (alternatives × legs): ask for fewer alternatives, or for "
            "none on a corridor of that many stops"
        )


@dataclass(frozen=True)
class Snap:
    """Where each stop of a corridor joined the network."""

    nodes: list[int]
    distances_m: list[float]


def route_corridors(
    G: RoadNetwork,
    scenario: Scenario,
    *,
    weight: str = "travel_time",
    max_snap_m: float = MAX_SNAP_M,
) -> gpd.GeoDataFrame:
    """One row per corridor: route, length, travel time, road mix and the story's figures.

    A corridor with a stop further than ``max_snap_m`` from the network is ``no_route``.
    On a network less the areas to avoid (:meth:`RoadNetwork.without`) stops snap to the
    whole network, so a stop cut off by an area to avoid has no route rather than moving.
    Routing on the whole graph between nodes of its largest strongly connected component
    gives the routes routing on that component would: a least-cost path between two of
    its nodes never leaves it (also once edges are removed).
    """
    import geopandas as gpd

    rows = []
    for corridor in scenario.corridors:
        snap = snap_stops(G, scenario, corridor)
        reason = _too_far(scenario, corridor, snap, max_snap_m)
        route, gap = (None, None) if reason else G.router.route_through(snap.nodes, weight)
        if route is None and not reason:
            names = _stop_names(scenario, corridor)
            a, b = (names[snap.nodes.index(n)] for n in gap or ())
            reason = f"no path from {a} to {b}" + (
                " outside the areas to avoid" if G.base is not None else ""
            )
        row = _describe(corridor, scenario)
        row["max_snap_m"] = round(max(snap.distances_m), 1)
        row["stops_off_road"] = _off_road(scenario, corridor, snap)
        row["network_source"] = G.graph["network_source"]
        row["osm_date"] = G.graph.get("osm_date") or ""
        if route is None:
            row.update(
                route_status="no_route",
                no_route_reason=reason,
                length_km=None,
                travel_time_h=None,
                passes="",
                highway_share="",
                roads="",
                geometry=None,
            )
        else:
            row.update(route_status="ok", no_route_reason="", **measure_route(G, route, weight))
            if G.graph.get("network_source") == "proxy":
                row["length_km"] = proxy_length_km(G, scenario, corridor)
            row["passes"] = " → ".join(_stop_names(scenario, corridor))
        rows.append(row)
    routed = gpd.GeoDataFrame(rows, geometry="geometry", crs="EPSG:4326")
    return _times_known(G, routed).astype({kind: "Int64" for kind in FIGURE_COLUMNS})


#: Why a route on the proxy network has no travel time: its speed is assumed, not known.
PROXY_NO_TIME = "proxy network: straight links at an assumed speed, so no travel time is known"


def _times_known(G: RoadNetwork, routes: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """``routes`` with ``travel_time_h`` null on the proxy network, and the reason in
    ``no_travel_time_reason`` (empty where a time was measured on roads); where one was,
    how it was modelled in ``travel_time_model`` (the network's own words)."""
    proxy = G.graph.get("network_source") == "proxy"
    model = "" if proxy else str(G.graph.get("travel_time_model") or "")
    routes = routes.copy()
    timed = routes["travel_time_h"].notna().tolist() if len(routes) else []
    routes["no_travel_time_reason"] = [PROXY_NO_TIME if proxy and ok else "" for ok in timed]
    routes["travel_time_model"] = [model if ok else "" for ok in timed]
    if proxy:
        routes["travel_time_h"] = None
    return routes


def alternative_routes(
    G: RoadNetwork,
    scenario: Scenario,
    k: int,
    *,
    weight: str = "travel_time",
    max_snap_m: float = MAX_SNAP_M,
) -> gpd.GeoDataFrame:
    """Up to ``k`` alternatives per corridor, each differing from all kept routes.

    Candidates are the :data:`CANDIDATES_PER_LEG` loopless least-cost paths of each
    leg (Yen's algorithm, as ``osmnx.routing.k_shortest_paths`` runs it, on the
    compiled backend) spliced into the best route, taken in order of total
    ``weight``. A candidate is kept when at least :data:`MIN_DIFFERENCE` of its
    length lies off every route kept before it.
    """
    import geopandas as gpd

    rows = []
    for corridor in scenario.corridors:
        snap = snap_stops(G, scenario, corridor)
        if _too_far(scenario, corridor, snap, max_snap_m):
            continue
        best, _gap = G.router.route_through(snap.nodes, weight)
        if best is None:
            continue
        kept = [best]
        for route in candidate_routes(G, snap.nodes, weight):
            if len(kept) > k:
                break
            if all(route_difference(G, route, other) >= MIN_DIFFERENCE for other in kept):
                kept.append(route)
        cost = G.router.cost
        best_cost = cost(best, weight)
        for rank, route in enumerate(kept[1:], start=1):
            measures = measure_route(G, route, weight)
            rows.append(
                {
                    "corridor_id": corridor.id,
                    "name": corridor.name,
                    "rank": rank,
                    "extra_cost_pct": round(100 * (cost(route, weight) / best_cost - 1), 1),
                    "differs_share": round(
                        min(route_difference(G, route, other) for other in kept[:rank]),
                        3,
                    ),
                    "network_source": G.graph["network_source"],
                    **measures,
                }
            )
    columns = [
        "corridor_id",
        "name",
        "rank",
        "extra_cost_pct",
        "differs_share",
        "network_source",
        "length_km",
        "travel_time_h",
        "highway_share",
        "roads",
        "geometry",
    ]
    return _times_known(
        G, gpd.GeoDataFrame(rows, columns=columns, geometry="geometry", crs="EPSG:4326")
    )


def route_legs(
    G: RoadNetwork,
    scenario: Scenario,
    corridor_id: str,
    *,
    weight: str = "travel_time",
) -> gpd.GeoDataFrame:
    """A corridor leg by leg (stop to next stop): where each stop snapped, and each leg's
    length, travel time, road mix and geometry; the legs add up to the corridor's route."""
    import geopandas as gpd

    corridor = scenario.corridor(corridor_id)
    names = _stop_names(scenario, corridor)
    snap = snap_stops(G, scenario, corridor)
    rows = []
    for i, (a, b) in enumerate(pairwise(snap.nodes)):
        path = [a] if a == b else G.router.path(a, b, weight)
        row = {
            "leg": i + 1,
            "from": names[i],
            "to": names[i + 1],
            "from_node": a,
            "to_node": b,
            "from_snap_m": round(snap.distances_m[i], 1),
            "to_snap_m": round(snap.distances_m[i + 1], 1),
        }
        if path is None:
            row.update(
                route_status="no_route",
                length_km=None,
                travel_time_h=None,
                highway_share="",
                roads="",
                geometry=None,
            )
        else:
            row.update(route_status="ok", **measure_route(G, path, weight))
            if G.graph.get("network_source") == "proxy":  # as the corridor's length
                stop, to = corridor.stops[i], corridor.stops[i + 1]
                leg_km = _proxy_leg_km(G, scenario.place(stop), scenario.place(to))
                row["length_km"] = round(leg_km, 3)
        rows.append(row)
    return _times_known(G, gpd.GeoDataFrame(rows, geometry="geometry", crs="EPSG:4326"))


def snap_stops(G: RoadNetwork, scenario: Scenario, corridor: Corridor) -> Snap:
    """Nearest node of the largest strongly connected component of ``G`` (of its ``base``,
    the whole network, if it has one) for each stop of the corridor (great-circle nearest,
    as ``osmnx.distance.nearest_nodes``), and how far."""
    places = [scenario.place(stop) for stop in corridor.stops]
    nodes, dist = (G.base or G).router.nearest(
        [p.lon for p in places], [p.lat for p in places], core=True
    )
    return Snap(nodes, dist)


def _off_road(scenario: Scenario, corridor: Corridor, snap: Snap) -> str:
    """The stops further than :data:`OFF_ROAD_M` from the road node they joined, with how
    far: ``"Bab al-Hawa border crossing 325 m"``, each once, ``; ``-separated."""
    names = _stop_names(scenario, corridor)
    far = {
        name: metres
        for name, metres in zip(names, snap.distances_m, strict=True)
        if metres > OFF_ROAD_M
    }
    return "; ".join(f"{name} {metres:,.0f} m" for name, metres in far.items())


def _too_far(scenario: Scenario, corridor: Corridor, snap: Snap, max_snap_m: float) -> str:
    """Why the corridor cannot be routed: its furthest stop is beyond ``max_snap_m``; or ""."""
    far = max(range(len(snap.distances_m)), key=snap.distances_m.__getitem__)
    if snap.distances_m[far] <= max_snap_m:
        return ""
    name = _stop_names(scenario, corridor)[far]
    return (
        f"{name} is {snap.distances_m[far] / 1000:,.1f} km from the nearest road node, "
        f"beyond the {max_snap_m / 1000:g} km allowed; the network does not cover it"
    )


def choose_search(G: RoadNetwork, search: str, scenario: Scenario, alternatives: int = 0) -> bool:
    """Search ``G`` with Dijkstra or a contraction hierarchy (:mod:`routes.routing.ch`;
    ``auto`` counts the legs to route); whether it is the hierarchy. On a network less the
    areas to avoid, routes try its ``base``'s hierarchy first and fall back to Dijkstra."""
    legs = sum(len(c.waypoints) + 1 for c in scenario.corridors) * (1 + alternatives)
    hierarchic = (G.base or G).router.use(search, legs)
    if G.base is not None:
        G.router.over(G.base.router)
    return hierarchic


def candidate_routes(G: RoadNetwork, stops: list[int], weight: str) -> list[list[int]]:
    """Whole routes with one leg swapped for one of its k-shortest paths, cheapest first."""
    router = G.router
    legs = [(a, b) for a, b in pairwise(stops) if a != b]
    best = []
    for a, b in legs:
        path = router.path(a, b, weight)
        if path is None:
            return []
        best.append(path)
    routes = []
    for i, (a, b) in enumerate(legs):
        for path in router.k_shortest(a, b, CANDIDATES_PER_LEG, weight):
            if path == best[i]:
                continue
            spliced = [*best[:i], path, *best[i + 1 :]]
            routes.append([stops[0], *(n for leg in spliced for n in leg[1:])])
    return sorted(routes, key=lambda route: router.cost(route, weight))


def route_difference(G: RoadNetwork, route: list[int], other: list[int]) -> float:
    """Share of ``route``'s length on edges that ``other`` does not use."""
    other_edges = set(pairwise(other))
    lengths = list(zip(pairwise(route), G.router.costs(route, "length"), strict=True))
    total = sum(length for _, length in lengths)
    off = sum(length for uv, length in lengths if uv not in other_edges)
    return off / total if total else 0.0


def measure_route(G: RoadNetwork, route: list[int], weight: str) -> dict[str, Any]:
    """Length, travel time, road-class mix, road names and geometry of a node route, read
    from the columns of the edges it takes (the cheapest of parallel ones by ``weight``)."""
    import numpy as np
    from shapely.geometry import LineString, Point

    if len(route) == 1:
        at = int(G.router.index([route[0]])[0])
        return {
            "length_km": 0.0,
            "travel_time_h": 0.0,
            "highway_share": "",
            "roads": "",
            "geometry": Point(float(G.router.x[at]), float(G.router.y[at])),
        }
    rows = np.asarray(G.router.edge_rows(route, weight))
    lengths = G.arrays.column("length", rows).tolist()
    highways, refs, names = (G.arrays.column(k, rows).tolist() for k in ("highway", "ref", "name"))
    length = sum(lengths)
    by_class: dict[str, float] = defaultdict(float)
    roads: list[str] = []
    coords: list[list[float]] = []
    for i, points in enumerate(G.points(rows)):
        by_class[first_tag(highways[i]) or "unknown"] += lengths[i]
        for label in (*_labels(refs[i]), *_labels(names[i])):
            if label not in roads:
                roads.append(label)
        coords += points if not coords else points[1:]
    shares = sorted(by_class.items(), key=lambda item: -item[1])
    return {
        "length_km": round(length / 1000, 2),
        "travel_time_h": round(sum(G.arrays.column("travel_time", rows).tolist()) / 3600, 2),
        "highway_share": ", ".join(f"{cls} {share / (length or 1):.0%}" for cls, share in shares),
        "roads": "; ".join(roads),
        "geometry": LineString(coords),
    }


def _labels(value: Any) -> list[str]:
    """An edge's ``ref`` or ``name`` as labels: each of osmnx's merged values, and each of
    the values OSM separates with ``;`` (``"M45;60"`` is the M45 and road 60)."""
    values = value if isinstance(value, list) else [value]
    return [part.strip() for v in values if v for part in str(v).split(";") if part.strip()]


def _describe(corridor: Corridor, scenario: Scenario) -> dict[str, Any]:
    """The corridor's own attributes, flattened for a table, an export or a popup."""
    names = _stop_names(scenario, corridor)
    row: dict[str, Any] = {
        "corridor_id": corridor.id,
        "name": corridor.name,
        "origin": names[0],
        "destination": names[-1],
        "origin_id": corridor.origin,
        "destination_id": corridor.destination,
        "via": " → ".join(names[1:-1]),
        "date": corridor.date.isoformat() if corridor.date else "",
        "who": corridor.who or "",
        "end": corridor.end.isoformat() if corridor.end else "",
        "status": corridor.status,
        "route_basis": corridor.route_basis,
        "note": corridor.note or "",
    }
    chosen = corridor.width_claim()  # the claim the scenario sizes the line by
    for kind in FIGURE_COLUMNS:
        figure = chosen if chosen is not None and chosen.kind == kind else corridor.figure(kind)
        row[kind] = figure.value if figure else None
    row["figures"] = "; ".join(
        f"{f.text()}, according to {f.according_to} ({scenario.source(f.source).title})"
        for f in corridor.figures
    )
    row["route_sources"] = "; ".join(
        scenario.source(r.source).title + (f": {r.detail}" if r.detail else "")
        for r in corridor.route_sources
    )
    return row


def unrouted() -> gpd.GeoDataFrame:
    """The routed table of a draft without corridors: no rows, every column."""
    import geopandas as gpd

    table = gpd.GeoDataFrame(columns=_COLUMNS, geometry="geometry", crs="EPSG:4326")
    return table.astype({kind: "Int64" for kind in FIGURE_COLUMNS})


def proxy_length_km(G: RoadNetwork, scenario: Scenario, corridor: Corridor) -> float:
    """A corridor's length on the proxy network: the great circles between its documented
    stops, times the network's circuity. The links a route takes through towns no report
    names zigzag (between islands, around a gap in the towns), and would add length that
    follows no rule; the line drawn joins the stops, and so does its length."""
    places = [scenario.place(stop) for stop in corridor.stops]
    return round(sum(_proxy_leg_km(G, a, b) for a, b in pairwise(places)), 3)


def _proxy_leg_km(G: RoadNetwork, a: Place, b: Place) -> float:
    """One leg's length on the proxy network (see :func:`proxy_length_km`)."""
    from routes.distance import great_circle_km

    return great_circle_km(a.lat, a.lon, b.lat, b.lon) * float(G.graph.get("circuity", 1.0))


def _stop_names(scenario: Scenario, corridor: Corridor) -> list[str]:
    return [scenario.place(stop).name for stop in corridor.stops]
