"""The roads under corridors routed on OpenStreetMap, from the network they were routed on.

Two kinds, drawn as a plain basemap would draw them: the main roads (motorways, trunk and
primary roads, with their links) across the map's view, which show at the default view
which road each corridor takes; and every road within :data:`STREETS_NEAR_M` of a
corridor, the streets it turns from and crosses, which show at a city's zoom that the
line keeps to the streets. Each road class is one line of many parts (a few features,
however many roads), so a city's streets do not swell the page.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from routes.columns import first_tag, mapped_when
from routes.render.style import NETWORK_COLOUR

if TYPE_CHECKING:
    import folium
    import geopandas as gpd

    from routes.render.geometry import Roads

__all__ = ["MAIN_ROADS", "ROAD_WEIGHTS", "STREETS_NEAR_M", "add_roads", "road_lines"]

#: Classes drawn across the whole view, links included.
MAIN_ROADS = frozenset({"motorway", "trunk", "primary"})

#: Every road within this distance of a corridor is drawn, metres.
STREETS_NEAR_M = 150.0

#: Line weight (px) by class; classes not named are streets.
ROAD_WEIGHTS = {"motorway": 3.0, "trunk": 2.5, "primary": 2.0, "secondary": 1.5}
_STREET_WEIGHT = 1.0


def road_lines(
    G: Roads, routes: gpd.GeoDataFrame, view: tuple[float, float, float, float]
) -> gpd.GeoDataFrame:
    """One row per road class (``highway``, its links with it) with all its roads drawn as
    one line: the main roads within ``view`` (west, south, east, north) and every road near
    ``routes``, each road once, simplified like the routes; streets first, motorways last
    (drawn on top)."""
    import geopandas as gpd
    import shapely

    from routes.render.geometry import near_routes, one_per_road, simplified

    edges = one_per_road(G.edges(["highway"], within=view))
    classes = [_road_class(h) for h in edges["highway"]]
    main = gpd.GeoDataFrame({"highway": classes}, geometry=list(edges.geometry), crs="EPSG:4326")
    main = simplified(main[main["highway"].isin(MAIN_ROADS)])
    near = near_routes(G, routes, distance_m=STREETS_NEAR_M)
    near = near.assign(highway=[_road_class(h) for h in near["highway"]])
    drawn = [main, near[~near["highway"].isin(MAIN_ROADS)][["highway", "geometry"]]]
    lines: dict[str, list[object]] = {}
    for frame in drawn:
        for road_class, line in zip(frame["highway"], frame.geometry, strict=True):
            if line is not None and line.geom_type == "LineString":
                lines.setdefault(road_class, []).append(line)
    order = sorted(lines, key=lambda c: (ROAD_WEIGHTS.get(c, _STREET_WEIGHT), c))
    return gpd.GeoDataFrame(
        {"highway": order},
        geometry=[shapely.line_merge(shapely.MultiLineString(lines[c])) for c in order],
        crs="EPSG:4326",
    )


def _road_class(highway: object) -> str:
    """An edge's road class, its link with it: ``"trunk"`` for ``trunk_link``."""
    return (first_tag(highway) or "road").removesuffix("_link")


def add_roads(
    m: folium.Map,
    G: Roads,
    corridors: gpd.GeoDataFrame,
    view: list[list[float]],
) -> None:
    """The layer of :func:`road_lines` for the map's ``view`` ([[S, W], [N, E]]), named with
    the roads' date; shown, under the corridors, not clickable."""
    import folium

    (south, west), (north, east) = view
    lines = road_lines(G, corridors, (west, south, east, north))
    if lines.empty:
        return
    when = mapped_when(str(G.graph.get("osm_date") or "")).partition(" ")[2]  # "August 2021"
    folium.GeoJson(
        json.loads(lines.to_json(drop_id=True)),
        name=f"Roads (OpenStreetMap, {when})" if when else "Roads (OpenStreetMap)",
        interactive=False,
        style_function=lambda feature: {
            "color": NETWORK_COLOUR,
            "weight": ROAD_WEIGHTS.get(feature["properties"]["highway"], _STREET_WEIGHT),
            "opacity": 0.7,
        },
    ).add_to(m)
