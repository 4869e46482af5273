"""Place markers by role, in greys, and the index the search box looks names up in."""

from __future__ import annotations

import html
from typing import TYPE_CHECKING, Any

from routes.render.markup import escape
from routes.render.popups import place_rows, popup
from routes.render.style import PLACES_PANE, ROLE_STYLE, latlon
from routes.text import for_display

if TYPE_CHECKING:
    import folium

    from routes.scenario import Scenario

__all__ = ["add_places"]


def add_places(m: folium.Map, scenario: Scenario) -> tuple[folium.GeoJson, dict[str, Any]]:
    """One layer per role; returns the (hidden) index the search box looks names up in,
    and the layers by ``"role:<role>"`` (their names are placed by the page's labeller)."""
    import folium

    groups: dict[str, Any] = {}
    # Above the lines (overlay pane, z 400), below marker icons (z 600): a corridor that
    # starts at a place must not cover its marker.
    folium.map.CustomPane(PLACES_PANE, z_index=450).add_to(m)
    for role, (colour, radius, label) in ROLE_STYLE.items():
        places = [p for p in scenario.places if p.role == role]
        if not places:
            continue
        group = folium.FeatureGroup(name=f"Places: {label.lower()}", show=True).add_to(m)
        groups[f"role:{role}"] = group
        for place in places:
            marker = folium.CircleMarker(
                location=latlon(place.lat, place.lon),
                radius=radius,
                color="#FFFFFF",
                weight=1.5,
                fill=True,
                fill_color=colour,
                fill_opacity=0.95,
                popup=popup(place.name, place_rows(place, scenario)),
                tooltip=folium.Tooltip(escape(place.name), class_name=f"routes-{role}"),
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
    return search_index, groups
