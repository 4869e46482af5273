"""Place markers by role, their labels, and the index the search box looks names up in."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING

from routes.render.markup import escape
from routes.render.popups import place_rows, popup
from routes.render.style import LABELLED_ROLES, PLACES_PANE, ROLE_STYLE, latlon
from routes.text import for_display

if TYPE_CHECKING:
    import folium

    from routes.scenario import Scenario

__all__ = [
    "add_places",
    "label_directions",
]


def add_places(m: folium.Map, scenario: Scenario) -> folium.GeoJson:
    """One layer per role; returns the (hidden) index the search box looks names up in."""
    import folium

    labels = label_directions(scenario)
    # Above the lines (overlay pane, z 400), below marker icons (z 600): a corridor that
    # starts at a place must not cover its marker.
    folium.map.CustomPane(PLACES_PANE, z_index=450).add_to(m)
    for role, (colour, radius, label) in ROLE_STYLE.items():
        places = [p for p in scenario.places if p.role == role]
        if not places:
            continue
        group = folium.FeatureGroup(name=f"Places: {label.lower()}", show=True).add_to(m)
        for place in places:
            marker = folium.CircleMarker(
                location=latlon(place.lat, place.lon),
                radius=radius,
                color="#FFFFFF",
                weight=2,
                fill=True,
                fill_color=colour,
                fill_opacity=0.95,
                popup=popup(place.name, place_rows(place, scenario)),
                tooltip=folium.Tooltip(
                    escape(place.name),
                    permanent=place.id in labels,
                    direction=labels.get(place.id, "right"),
                    offset=[-radius if labels.get(place.id) == "left" else radius, 0],
                    class_name=f"routes-label routes-{role}",
                ),
            )
            marker.options["pane"] = PLACES_PANE  # folium's path_options drops `pane`
            marker.add_to(group)
    index = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"name": html.escape(for_display(p.name), quote=False)},
                "geometry": {"type": "Point", "coordinates": [p.lon, p.lat]},
            }
            for p in scenario.places
            if p.role in ROLE_STYLE
        ],
    }
    search_index = folium.GeoJson(  # leaflet-search adds it to the map: keep it invisible
        index,
        name="Search index",
        control=False,
        marker=folium.CircleMarker(radius=1, opacity=0, fill_opacity=0, class_name="routes-search"),
    )
    search_index.add_to(m)
    return search_index


def label_directions(scenario: Scenario) -> dict[str, str]:
    """Places labelled on the map, and on which side: left when another label sits just east.

    A place inside an outlined area (the pocket) is named by the area's label instead.
    """
    from shapely.geometry import MultiPoint, Point

    hulls = [
        MultiPoint([(scenario.place(p).lon, scenario.place(p).lat) for p in a.places]).convex_hull
        for a in scenario.areas
    ]
    labelled = [
        p
        for p in scenario.places
        if p.role in LABELLED_ROLES
        and not any(h.buffer(1e-4).contains(Point(p.lon, p.lat)) for h in hulls)
    ]
    return {
        p.id: "left"
        if any(0 < q.lon - p.lon < 0.15 and abs(q.lat - p.lat) < 0.08 for q in labelled)
        else "right"
        for p in labelled
    }
