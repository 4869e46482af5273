"""The roads under corridors routed on OpenStreetMap, from the network they were routed on.

Two kinds, drawn as a plain basemap would draw them: the main roads (motorways, trunk and
primary roads, with their links) across the map's view, which show at the default view
which road each corridor takes; and every road within :data:`STREETS_NEAR_M` of a
corridor, the streets it turns from and crosses, which show at a city's zoom that the
line keeps to the streets. Each road class is one line of many parts (a few features,
however many roads), its parts carried as encoded polylines (Google's format, 1e-5
degrees: about a quarter of the GeoJSON), so a city's streets do not swell the page.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from routes.columns import first_tag, mapped_when
from routes.render.markup import script
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
    import polyline
    import shapely

    (south, west), (north, east) = view
    lines = road_lines(G, corridors, (west, south, east, north))
    if lines.empty:
        return
    when = mapped_when(str(G.graph.get("osm_date") or "")).partition(" ")[2]  # "August 2021"
    name = f"Roads (OpenStreetMap, {when})" if when else "Roads (OpenStreetMap)"
    layer = folium.FeatureGroup(name=name).add_to(m)
    roads = [
        {
            "weight": ROAD_WEIGHTS.get(road_class, _STREET_WEIGHT),
            "parts": [
                polyline.encode([(y, x) for x, y in part.coords], 5)
                for part in shapely.get_parts(line)
            ],
        }
        for road_class, line in zip(lines["highway"], lines.geometry, strict=True)
    ]
    # Each class's parts as one line in the layer; the decoder reads Google's polyline
    # format (zigzag varints of 5 bits, latitude then longitude deltas, 1e-5 degrees).
    m.add_child(
        script(
            "(function () { const decode = function (s) {"
            " const out = []; let i = 0, lat = 0, lon = 0;"
            " while (i < s.length) { for (let k = 0; k < 2; k++) {"
            " let b, shift = 0, v = 0;"
            " do { b = s.charCodeAt(i++) - 63; v |= (b & 31) << shift; shift += 5; }"
            " while (b >= 32);"
            " const d = v & 1 ? ~(v >> 1) : v >> 1; if (k === 0) lat += d; else lon += d; }"
            " out.push([lat / 1e5, lon / 1e5]); } return out; };"
            " {{ this.roads|tojson }}.forEach(function (road) {"
            " L.polyline(road.parts.map(decode), {color: {{ this.colour|tojson }},"
            " weight: road.weight, opacity: 0.7, interactive: false})"
            ".addTo({{ this.layer.get_name() }}); }); })();",
            layer=layer,
            roads=roads,
            colour=NETWORK_COLOUR,
        )
    )
