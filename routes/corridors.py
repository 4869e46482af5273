"""Corridors as routes: each from its origin through its documented waypoints, in order."""

from __future__ import annotations

from itertools import pairwise
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import geopandas as gpd
    import networkx as nx

    from routes.scenario import Corridor, Scenario

FIGURE_COLUMNS = ("people", "wounded", "buses", "ambulances")


def route_corridors(
    G: nx.MultiDiGraph, scenario: Scenario, *, weight: str = "travel_time"
) -> gpd.GeoDataFrame:
    """One row per corridor: its route geometry, length, travel time and the story's figures.

    A corridor whose stops cannot all be joined is kept with ``route_status``
    ``"no_route"`` and an empty geometry.
    """
    import geopandas as gpd
    import osmnx as ox

    rows = []
    for corridor in scenario.corridors:
        places = [scenario.place(stop) for stop in corridor.stops]
        nodes, snap_m = ox.distance.nearest_nodes(
            G, [p.lon for p in places], [p.lat for p in places], return_dist=True
        )
        route = _route_through(G, [int(n) for n in nodes], weight)
        row = _describe(corridor, scenario, [p.name for p in places])
        row.update(
            max_snap_m=round(float(max(snap_m)), 1), network_source=G.graph["network_source"]
        )
        if route is None:
            row.update(
                route_status="no_route",
                length_km=None,
                travel_time_h=None,
                passes="",
                geometry=None,
            )
        else:
            edges = ox.routing.route_to_gdf(G, route, weight=weight) if len(route) > 1 else None
            row.update(
                route_status="ok",
                length_km=round(float(edges["length"].sum()) / 1000, 2)
                if edges is not None
                else 0.0,
                travel_time_h=round(float(edges["travel_time"].sum()) / 3600, 2)
                if edges is not None
                else 0.0,
                passes=" → ".join(_named_nodes(G, route) or [p.name for p in places]),
                geometry=_line(G, route, edges),
            )
        rows.append(row)
    routed = gpd.GeoDataFrame(rows, geometry="geometry", crs="EPSG:4326")
    return routed.astype({kind: "Int64" for kind in FIGURE_COLUMNS})


def _route_through(G: nx.MultiDiGraph, stops: list[int], weight: str) -> list[int] | None:
    """Shortest path visiting ``stops`` in order, or None if a leg has no path."""
    import osmnx as ox

    route = [stops[0]]
    for a, b in pairwise(stops):
        if a == b:
            continue
        leg = ox.routing.shortest_path(G, a, b, weight=weight)
        if leg is None:
            return None
        route += leg[1:]
    return route


def _describe(corridor: Corridor, scenario: Scenario, stop_names: list[str]) -> dict[str, Any]:
    """The corridor's own attributes, flattened for a table or a map popup."""
    row: dict[str, Any] = {
        "corridor_id": corridor.id,
        "name": corridor.name,
        "origin": stop_names[0],
        "destination": stop_names[-1],
        "via": " → ".join(stop_names[1:-1]),
        "date": corridor.date.isoformat(),
        "who": corridor.who or "",
        "status": corridor.status,
        "note": corridor.note or "",
    }
    for kind in FIGURE_COLUMNS:
        figure = corridor.figure(kind)
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


def _named_nodes(G: nx.MultiDiGraph, route: list[int]) -> list[str]:
    names: list[str] = []
    for node in route:
        name = G.nodes[node].get("name")
        if isinstance(name, str) and (not names or names[-1] != name):
            names.append(name)
    return names


def _line(G: nx.MultiDiGraph, route: list[int], edges: gpd.GeoDataFrame | None) -> Any:
    """The route as one LineString, following edge geometry where the graph has it."""
    from shapely.geometry import LineString, Point

    if edges is None:
        node = G.nodes[route[0]]
        return Point(node["x"], node["y"])
    coords: list[tuple[float, float]] = []
    for geom in edges.geometry:
        for xy in geom.coords:
            if not coords or coords[-1] != xy:
                coords.append(xy)
    return LineString(coords)
