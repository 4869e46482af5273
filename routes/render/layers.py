"""The map's layers: basemaps, borders, roads near the corridors, corridors, areas, incidents."""

from __future__ import annotations

import json
import math
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from routes.render.markup import escape, script
from routes.render.popups import corridor_rows, figure_rows, headline, popup, source_text
from routes.render.style import (
    ALTERNATIVE_COLOUR,
    BASEMAPS,
    BORDER_COLOUR,
    COORD_PRECISION,
    NETWORK_COLOUR,
    NETWORK_NEAR_M,
    NO_BASEMAP,
    OTHER_STATUS_COLOUR,
    ROLE_STYLE,
    STATUS_COLOURS,
    known,
    latlon,
    line_width,
    network_source,
    peak_people,
)

if TYPE_CHECKING:
    import folium
    import geopandas as gpd
    import networkx as nx

    from routes.scenario import Scenario

__all__ = [
    "add_alternatives",
    "add_areas",
    "add_basemaps",
    "add_borders",
    "add_corridors",
    "add_incidents",
    "add_network",
]


#: Natural Earth 1:110m countries (public domain) as the pyogrio wheel ships them.
_NATURAL_EARTH = ("pyogrio", "tests/fixtures/naturalearth_lowres/naturalearth_lowres.shp")


def add_basemaps(m: folium.Map) -> None:
    import folium
    import xyzservices.providers as xyz

    tiles = [
        folium.TileLayer(xyz.query_name(provider), name=name, show=i == 0).add_to(m)
        for i, (name, provider) in enumerate(BASEMAPS.items())
    ]
    blank = folium.FeatureGroup(name=NO_BASEMAP, overlay=False, show=False).add_to(m)
    # Offline, the first tile that fails switches the map to the no-basemap view.
    m.add_child(
        script(
            "{% set map = this._parent.get_name() %}"
            "[{% for t in this.tiles %}{{ t.get_name() }},{% endfor %}].forEach(function (layer) {"
            " layer.once('tileerror', function () { if ({{ map }}.hasLayer(layer)) {"
            " {{ map }}.removeLayer(layer); {{ map }}.addLayer({{ this.blank.get_name() }}); }"
            " }); });",
            tiles=tiles,
            blank=blank,
        )
    )


def add_borders(m: folium.Map, scenario: Scenario) -> None:
    """Country borders for context, from Natural Earth 1:110m where the data is installed."""
    import folium
    import geopandas as gpd
    from shapely.geometry import box

    package, resource = _NATURAL_EARTH
    try:
        path = Path(str(files(package).joinpath(resource)))
    except ModuleNotFoundError:
        return
    if not path.is_file():
        return
    west, south, east, north = scenario.bounds()
    area = box(west - 5, south - 5, east + 5, north + 5)
    countries = gpd.read_file(path, bbox=area.bounds)
    borders = countries.boundary.intersection(area).set_precision(10**-COORD_PRECISION)
    data = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"name": escape(name)},
                "geometry": geom.__geo_interface__,
            }
            for name, geom in zip(countries["name"], borders, strict=True)
            if not geom.is_empty
        ],
    }
    folium.GeoJson(
        data,
        name="Country borders (Natural Earth 1:110m)",
        interactive=False,
        style_function=lambda _f: {
            "color": BORDER_COLOUR,
            "weight": 1,
            "dashArray": "6 4",
            "fill": False,
        },
    ).add_to(m)


def add_network(m: folium.Map, G: nx.MultiDiGraph, corridors: gpd.GeoDataFrame) -> None:
    """The edges within NETWORK_NEAR_M of a corridor, simplified, as one layer."""
    import folium

    from routes.render.geometry import near_routes

    edges = near_routes(G, corridors, distance_m=NETWORK_NEAR_M)[["highway", "geometry"]]
    if edges.empty:
        return
    edges["highway"] = edges["highway"].map(escape)
    proxy = G.graph.get("network_source") == "proxy"
    name = "Proxy network links near the corridors" if proxy else "Roads used near the corridors"
    folium.GeoJson(
        json.loads(edges.reset_index(drop=True).to_json(drop_id=True)),
        name=name,
        interactive=False,
        style_function=lambda _f: {
            "color": NETWORK_COLOUR,
            "weight": 1.5,
            "opacity": 0.6,
            "dashArray": "2 4" if proxy else None,
        },
    ).add_to(m)


def add_corridors(
    m: folium.Map, scenario: Scenario, corridors: gpd.GeoDataFrame, *, animate: bool
) -> None:
    import folium
    from folium import plugins

    suffix = " (proxy network, not real roads)" if network_source(corridors) == "proxy" else ""
    group = folium.FeatureGroup(name=f"Corridors{suffix}")
    group.add_to(m)
    peak = peak_people(corridors)
    for row in corridors.itertuples(index=False):
        if row.geometry is None or row.geometry.geom_type != "LineString":
            continue
        corridor = scenario.corridor(row.corridor_id)
        people = known(row.people)
        locations = [latlon(y, x) for x, y in row.geometry.coords]
        colour = STATUS_COLOURS.get(row.status, OTHER_STATUS_COLOUR)
        weight = line_width(people, peak)
        folium.PolyLine(
            locations,
            color=colour,
            weight=weight,
            opacity=0.9,
            dash_array=None if people is not None or animate else "8 6",
            popup=popup(row.name, corridor_rows(row._asdict(), scenario)),
            tooltip=escape(f"{row.name}: {headline(corridor)}"),
            class_name=f"routes-corridor routes-corridor-{escape(row.corridor_id)}",
        ).add_to(group)
        if animate:  # dashes running the way people moved, over the line; clicks go to the line
            ants = plugins.AntPath(
                locations,
                color=colour,
                weight=max(2, weight / 2),
                opacity=0.9,
                delay=1600,
                dash_array=[10, 30],
                pulse_color="#FFFFFF",
            )
            ants.options["interactive"] = False  # folium's path_options drops `interactive`
            ants.add_to(group)
        add_arrow(group, row.geometry, colour)


def add_arrow(group: folium.FeatureGroup, line: Any, colour: str) -> None:
    """An arrowhead two-thirds along the line, pointing the way people moved."""
    import folium

    ahead = line.interpolate(0.67, normalized=True)
    behind = line.interpolate(0.66, normalized=True)
    dx = (ahead.x - behind.x) * math.cos(math.radians(ahead.y))
    bearing = math.degrees(math.atan2(dx, ahead.y - behind.y))
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="22" height="22" viewBox="0 0 22 22" '
        f'style="transform:rotate({bearing:.0f}deg)" aria-hidden="true"><path d="M11 2 L19 19 '
        f'L11 14 L3 19 Z" fill="{colour}" stroke="#FFFFFF" stroke-width="1.5"/></svg>'
    )
    folium.Marker(
        latlon(ahead.y, ahead.x),
        interactive=False,
        keyboard=False,
        icon=folium.DivIcon(
            html=svg, icon_size=(22, 22), icon_anchor=(11, 11), class_name="routes-arrow"
        ),
    ).add_to(group)


def add_alternatives(m: folium.Map, alternatives: gpd.GeoDataFrame) -> None:
    import folium

    group = folium.FeatureGroup(name="Alternative routes").add_to(m)
    for row in alternatives.itertuples(index=False):
        rows = [
            ("Corridor", row.name),
            ("Alternative", f"#{row.rank}"),
            ("Length", f"{row.length_km:.1f} km"),
            ("Travel time", f"{row.travel_time_h:.1f} h"),
            ("Cost over the best route", f"+{row.extra_cost_pct:.0f}%"),
            ("Length off other routes", f"{row.differs_share:.0%}"),
            ("Road mix", row.highway_share),
            ("Roads", row.roads),
        ]
        folium.PolyLine(
            locations=[latlon(y, x) for x, y in row.geometry.coords],
            color=ALTERNATIVE_COLOUR,
            weight=3,
            opacity=0.8,
            dash_array="2 6",
            popup=popup(f"{row.name}: alternative {row.rank}", rows),
            tooltip=escape(f"Alternative {row.rank}: {row.name}"),
            class_name="routes-alternative",
        ).add_to(group)


def add_incidents(m: folium.Map, scenario: Scenario) -> None:
    import folium

    if not scenario.incidents:
        return
    group = folium.FeatureGroup(name="Incidents").add_to(m)
    for incident in scenario.incidents:
        place = scenario.place(incident.place)
        figures = ", ".join(f.text() for f in incident.figures)
        rows = [
            ("What", incident.description),
            ("Date", incident.date.isoformat() if incident.date else "not given"),
            ("Where", place.name),
            ("Location", incident.location_note or "as reported"),
            *figure_rows(incident.figures, scenario),
            ("Story date", scenario.story.day()),
        ]
        folium.Marker(
            location=latlon(place.lat, place.lon),
            icon=folium.DivIcon(
                html=_INCIDENT_ICON,
                icon_size=(22, 20),
                icon_anchor=(11, 28),
                class_name="routes-incident",
            ),
            popup=popup(incident.name, rows),
            tooltip=escape(f"{incident.name}: {figures}" if figures else incident.name),
        ).add_to(group)


def add_areas(m: folium.Map, scenario: Scenario) -> None:
    import folium
    from shapely.geometry import MultiPoint

    if not scenario.areas:
        return
    group = folium.FeatureGroup(name="Areas").add_to(m)
    for area in scenario.areas:
        places = [scenario.place(p) for p in area.places]
        hull = MultiPoint([(p.lon, p.lat) for p in places]).convex_hull
        if hull.geom_type != "Polygon":
            continue
        rows = [
            ("Outline", area.method),
            ("Drawn from", ", ".join(p.name for p in places)),
            ("Source", source_text(area.source, None, scenario)),
            ("Story date", scenario.story.day()),
        ]
        folium.Polygon(
            locations=[latlon(y, x) for x, y in hull.exterior.coords],
            color=ROLE_STYLE["origin"][0],
            weight=2,
            fill=True,
            fill_opacity=0.2,
            dash_array="4 4",
            popup=popup(area.name, rows),
            tooltip=folium.Tooltip(
                escape(area.name),
                permanent=True,
                direction="right",
                class_name="routes-label routes-area",
            ),
        ).add_to(group)


#: A warning triangle drawn inline: no icon font or image to fetch.
_INCIDENT_ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="22" height="20" viewBox="0 0 22 20" '
    'role="img" aria-label="Incident"><path d="M11 1 L21 19 L1 19 Z" fill="#000000" '
    'stroke="#FFFFFF" stroke-width="1.5"/><path d="M11 7 V13 M11 15.5 V16.5" stroke="#FFFFFF" '
    'stroke-width="2"/></svg>'
)
