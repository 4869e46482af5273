"""The map's layers: basemaps, roads near the corridors, alternatives, areas, incidents."""

from __future__ import annotations

import bisect
import datetime as dt
import json
from typing import TYPE_CHECKING, Any

from routes.render.credits import DISCLAIMER_TAG, cite
from routes.render.labels import STORY_AREA_RANK, Label, area_label, story_places
from routes.render.markup import escape, script
from routes.render.popups import (
    days_text,
    distance_text,
    duration_text,
    figure_rows,
    popup,
    road_names,
)
from routes.render.style import (
    ALTERNATIVE_COLOUR,
    AREA_COLOUR,
    BASEMAPS,
    NETWORK_COLOUR,
    NETWORK_NEAR_M,
    known,
    latlon,
)

if TYPE_CHECKING:
    import folium
    import geopandas as gpd

    from routes.render.geometry import Roads
    from routes.scenario import Scenario

__all__ = [
    "BASEMAP_OFFLINE",
    "add_alternatives",
    "add_areas",
    "add_avoided",
    "add_basemaps",
    "add_incidents",
    "add_network",
]


#: What the credits say when the basemap's tiles cannot be had.
BASEMAP_OFFLINE = "basemap unavailable offline"


def add_basemaps(m: folium.Map, offline: Any, *, tiles: bool = True) -> None:
    """The tile basemaps in the layer control beside ``offline``, the base layer drawn from
    the page's own data; ``tiles``: the first tiles are shown, else ``offline`` is (it was
    added shown) and no tile is asked for until the reader picks a basemap."""
    import folium
    import xyzservices.providers as xyz

    layers = []
    for i, (name, provider) in enumerate(BASEMAPS.items()):
        group, _, variant = provider.partition(".")  # by key: query_name flattens them all
        layer = folium.TileLayer(xyz[group][variant], name=name, show=tiles and i == 0)
        layers.append(layer.add_to(m))
    # Offline (the browser says so, or the first tile fails) the map switches to the base
    # layer it carries, and the credits say why the basemap is gone.
    m.add_child(
        script(
            "{% set map = this._parent.get_name() %}(function () {"
            " const offline = {{ this.offline.get_name() }};"
            " const fallBack = function (layer) { if ({{ map }}.hasLayer(layer)) {"
            " {{ map }}.removeLayer(layer); {{ map }}.addLayer(offline);"
            " const ctl = {{ map }}.attributionControl, note = {{ this.note|tojson }};"
            " const said = {{ map }}.routesCredits, un = {{ this.disclaimer|tojson }};"
            " if (said && said.includes(un)) {"  # the note before the UN's, outside it
            " ctl.removeAttribution(said);"
            " {{ map }}.routesCredits = said.replace(un, note + ' · ' + un);"
            " ctl.addAttribution({{ map }}.routesCredits); } else ctl.addAttribution(note); } };"
            " [{% for t in this.tiles %}{{ t.get_name() }},{% endfor %}].forEach(function (layer) {"
            " if (navigator.onLine === false) fallBack(layer);"
            " layer.once('tileerror', function () { fallBack(layer); }); }); })();",
            tiles=layers,
            offline=offline,
            note=BASEMAP_OFFLINE,
            disclaimer=DISCLAIMER_TAG,
        )
    )


def add_network(m: folium.Map, G: Roads, corridors: gpd.GeoDataFrame) -> None:
    """The edges within NETWORK_NEAR_M of a corridor, simplified, as one layer; the proxy
    network's links, a routing device no report describes, start hidden."""
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
        show=not proxy,
        interactive=False,
        style_function=lambda _f: {
            "color": NETWORK_COLOUR,
            "weight": 1.5,
            "opacity": 0.6,
            "dashArray": "2 4" if proxy else None,
        },
    ).add_to(m)


def add_alternatives(m: folium.Map, alternatives: gpd.GeoDataFrame) -> None:
    import folium

    group = folium.FeatureGroup(name="Alternative routes").add_to(m)
    for row in alternatives.itertuples(index=False):
        proxy = row.network_source == "proxy"
        rows = [
            ("Corridor", row.name),
            ("Alternative", f"#{row.rank}"),
            ("Distance", distance_text(row.length_km, proxy=proxy)),
            ("Time on the road", duration_text(row.travel_time_h, proxy=proxy)),
            ("Cost over the best route", f"+{row.extra_cost_pct:.0f}%"),
            ("Length off other routes", f"{row.differs_share:.0%}"),
            ("Road mix", row.highway_share),
            ("Roads", road_names(row.roads)),
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


def add_incidents(
    m: folium.Map, scenario: Scenario, days: list[dt.date]
) -> tuple[dict[str, Any], dict[str, list[int]]]:
    """The incidents' markers; returns them by ``"incident:<id>"``, and the first and last
    step of the time bar each one's dates cover (the page dims it on other days)."""
    import folium

    groups: dict[str, Any] = {}
    steps: dict[str, list[int]] = {}
    if not scenario.incidents:
        return groups, steps
    group = folium.FeatureGroup(name="Incidents").add_to(m)
    for incident in scenario.incidents:
        place = scenario.place(incident.place)
        figures = ", ".join(f.text() for f in incident.figures)
        rows = [
            ("What", incident.description),
            ("Date", days_text(incident.date, incident.end)),
            ("Where", place.name),
            ("Location", incident.location_note or "as reported"),
            *figure_rows(incident.figures, scenario),
        ]
        marker = folium.Marker(
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
        groups[f"incident:{incident.id}"] = marker
        if incident.date is not None and days:
            first = bisect.bisect_left(days, incident.date)
            last = bisect.bisect_right(days, incident.end or incident.date) - 1
            steps[incident.id] = [first, last]
    return groups, steps


def add_areas(m: folium.Map, scenario: Scenario) -> tuple[Any, list[Label], set[str]]:
    """Outlined areas (the pocket) with their names as area labels; returns the layer,
    the labels and the ids of the places inside an outline (the area's label names them)."""
    import folium
    from shapely.geometry import MultiPoint, Point

    if not scenario.areas:
        return None, [], set()
    group = folium.FeatureGroup(name="Areas").add_to(m)
    labels, inside = [], set()
    for area in scenario.areas:
        places = [scenario.place(p) for p in area.places]
        hull = MultiPoint([(p.lon, p.lat) for p in places]).convex_hull
        if hull.geom_type != "Polygon":
            continue
        rows = [
            ("Outline", area.method),
            ("Drawn from", ", ".join(p.name for p in places)),
            ("Source", cite(scenario.source(area.source))),
        ]
        folium.Polygon(
            locations=[latlon(y, x) for x, y in hull.exterior.coords],
            color=AREA_COLOUR,
            weight=1.5,
            fill=True,
            fill_opacity=0.12,
            dash_array="4 4",
            popup=popup(area.name, rows),
            tooltip=escape(area.name),
            class_name="routes-area",
        ).add_to(group)
        label = area_label(area.name, hull)
        held = {p.id for p in scenario.places if hull.buffer(1e-4).contains(Point(p.lon, p.lat))}
        if held & {p.id for p in story_places(scenario)}:
            label["rank"] = STORY_AREA_RANK  # it names a place of the story: placed first
        labels.append(label)
        inside |= held
    return group, labels, inside


def add_avoided(m: folium.Map, areas: gpd.GeoDataFrame | None) -> tuple[Any, list[Label]]:
    """The areas routes were kept out of (``--avoid``), hatched and named."""
    import folium

    if areas is None or areas.empty:
        return None, []
    group = folium.FeatureGroup(name="Areas the routes avoid").add_to(m)
    labels = []
    names = areas["name"] if "name" in areas else [None] * len(areas)
    for i, (name, shape) in enumerate(zip(names, areas.geometry, strict=True), start=1):
        title = str(name) if known(name) is not None else f"Area avoided {i}"
        for polygon in getattr(shape, "geoms", [shape]):
            folium.Polygon(
                locations=[latlon(y, x) for x, y in polygon.exterior.coords],
                color="#333333",
                weight=1.5,
                fill=True,
                fill_opacity=1,
                popup=popup(title, [("What", "Routes were drawn so as not to enter this area")]),
                tooltip=escape(title),
                class_name="routes-avoid",
            ).add_to(group)
        labels.append(area_label(title, shape) | {"layers": ["avoided"]})
    return group, labels


#: A warning triangle drawn inline: no icon font or image to fetch.
_INCIDENT_ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="22" height="20" viewBox="0 0 22 20" '
    'role="img" aria-label="Incident"><path d="M11 1 L21 19 L1 19 Z" fill="#000000" '
    'stroke="#FFFFFF" stroke-width="1.5"/><path d="M11 7 V13 M11 15.5 V16.5" stroke="#FFFFFF" '
    'stroke-width="2"/></svg>'
)
