"""The map page: every layer and control in order, then the page as HTML, written atomically.

Element ids are sequential, so the same inputs give the same bytes. :func:`page`
writes the default (CDN) page or, ``self_contained``, one with every script and
stylesheet inlined from the npm packages in :mod:`routes.render.assets`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from routes._io import write_atomically
from routes.render.credits import credits
from routes.render.flows import add_corridors
from routes.render.labels import place_labels, story_places
from routes.render.layers import (
    add_alternatives,
    add_areas,
    add_avoided,
    add_basemaps,
    add_borders,
    add_incidents,
    add_network,
)
from routes.render.legend import legend_html, summary_html, title_html
from routes.render.markup import add_overlays, script, sequential_ids, verbatim_rewraps
from routes.render.places import add_places
from routes.render.reader import add_reader
from routes.render.style import rounded
from routes.render.timeline import add_timeline
from routes.text import for_display

if TYPE_CHECKING:
    import folium
    import geopandas as gpd

    from routes.render.geometry import Roads
    from routes.scenario import Scenario

__all__ = [
    "ASSETS_CSS",
    "ASSETS_JS",
    "build_map",
    "page",
    "save",
]


#: folium's pinned Leaflet and jQuery (popups need jQuery). Bootstrap, Font Awesome
#: and awesome-markers are dropped: markers here are SVG and need no icon font.
ASSETS_JS = [
    ("leaflet", "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js"),
    ("jquery", "https://code.jquery.com/jquery-3.7.1.min.js"),
]
ASSETS_CSS = [("leaflet_css", "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.css")]


def build_map(
    scenario: Scenario,
    corridors: gpd.GeoDataFrame,
    *,
    alternatives: gpd.GeoDataFrame | None = None,
    network: Roads | None = None,
    avoided: gpd.GeoDataFrame | None = None,
    animate: bool = True,
) -> folium.Map:
    """The story's map: places by role, corridors as directed flows, incidents, areas,
    the roads used near the corridors, a time control, and map controls that yield.

    ``avoided`` are the areas routes were kept out of.
    """
    import folium

    from routes.render.geometry import simplified

    with sequential_ids():
        m = folium.Map(tiles=None, control_scale=True, zoom_snap=0.25)
        m.default_js, m.default_css = ASSETS_JS, ASSETS_CSS
        add_basemaps(m)
        borders, country_labels = add_borders(m, scenario)
        if network is not None:
            add_network(m, network, corridors)
        drawn = simplified(corridors)  # lean lines; legend and summary read `corridors`
        areas, area_labels, inside = add_areas(m, scenario)
        avoid_layer, avoid_labels = add_avoided(m, avoided)
        if alternatives is not None and len(alternatives):
            add_alternatives(m, simplified(alternatives))
        flows = add_corridors(m, scenario, drawn, animate=animate)
        search_index, place_groups = add_places(m, scenario)
        add_incidents(m, scenario)
        timeline = add_timeline(m, scenario)
        _add_controls(m, search_index)
        add_overlays(
            m,
            title_html(scenario),
            legend_html(scenario, corridors, avoided=avoid_layer is not None),
            summary_html(scenario, corridors),
        )
        m.add_child(
            script(  # every text in it was escaped: addAttribution writes HTML
                "{{ this._parent.get_name() }}.attributionControl"
                ".addAttribution({{ this.text|tojson }});",
                text=credits(scenario, corridors, network, borders=borders is not None),
            )
        )
        labels = place_labels(scenario, inside) + flows.labels + area_labels + avoid_labels
        labels += country_labels
        for label in labels:  # names from the story: never bidi controls on the reader's screen
            label["text"] = for_display(label["text"])
        view = _view(scenario, drawn)
        m.fit_bounds(view)
        groups = {**flows.groups, **place_groups, "areas": areas, "borders": borders}
        groups["avoided"] = avoid_layer
        add_reader(
            m,
            {
                "labels": sorted(labels, key=lambda label: label["rank"]),
                "fit": view,
                "corridors": flows.days,
            },
            {key: layer for key, layer in groups.items() if layer is not None},
            timeline,
        )
    return m


def _add_controls(m: folium.Map, search_index: folium.GeoJson) -> None:
    """Controls that yield to the map: collapsed and compact."""
    import folium
    from folium import plugins

    folium.LayerControl(collapsed=True).add_to(m)
    plugins.Fullscreen(
        position="topleft", title="Full screen", title_cancel="Exit full screen"
    ).add_to(m)
    plugins.MeasureControl(
        position="topleft",
        primary_length_unit="kilometers",
        secondary_length_unit="meters",
        primary_area_unit="sqkilometers",
    ).add_to(m)
    plugins.Search(
        search_index,
        search_label="name",
        placeholder="Search places",
        collapsed=True,
        position="topleft",
    ).add_to(m)
    plugins.MiniMap(toggle_display=True, position="bottomright", width=100, height=100).add_to(m)


def _view(scenario: Scenario, drawn: gpd.GeoDataFrame) -> list[list[float]]:
    """The default view: the story's places and every drawn corridor, as [[S, W], [N, E]]."""
    points = [(p.lon, p.lat) for p in story_places(scenario)] or [
        (p.lon, p.lat) for p in scenario.places
    ]
    for geom in drawn.geometry:
        if geom is not None and not geom.is_empty:
            west, south, east, north = geom.bounds
            points += [(west, south), (east, north)]
    lons, lats = [x for x, _y in points], [y for _x, y in points]
    return [[rounded(min(lats)), rounded(min(lons))], [rounded(max(lats)), rounded(max(lons))]]


def page(m: folium.Map, *, self_contained: bool = False) -> str:
    """The map as one HTML page; ``self_contained`` inlines every script and stylesheet."""
    from routes.render import assets

    with verbatim_rewraps():
        text = m.get_root().render()
    text = re.sub(r",\s*maximum-scale=1\.0, user-scalable=no", "", text)  # let readers zoom
    text = text.replace("<html>", '<html lang="en">', 1)
    return assets.inline(text) if self_contained else text


def save(m: folium.Map, path: str | Path, *, self_contained: bool = False) -> Path:
    """Write the page atomically: a failed run leaves no half-written file."""
    return write_atomically(Path(path), page(m, self_contained=self_contained).encode("utf-8"))
