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
from routes.render.layers import (
    add_alternatives,
    add_areas,
    add_basemaps,
    add_borders,
    add_corridors,
    add_incidents,
    add_network,
)
from routes.render.legend import legend_html, summary_html, title_html
from routes.render.markup import add_overlays, escape, script, sequential_ids, verbatim_rewraps
from routes.render.places import add_places
from routes.render.style import ATTRIBUTION
from routes.render.timeline import add_timeline

if TYPE_CHECKING:
    import folium
    import geopandas as gpd
    import networkx as nx

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
    network: nx.MultiDiGraph | None = None,
    animate: bool = True,
) -> folium.Map:
    """The story's map: places by role, corridors as directed flows, incidents, areas,
    the roads used near the corridors, a time control, and the usual map controls."""
    import folium
    from folium import plugins

    from routes.render.geometry import simplified

    with sequential_ids():
        m = folium.Map(tiles=None, control_scale=True, zoom_snap=0.25)
        m.default_js, m.default_css = ASSETS_JS, ASSETS_CSS
        add_basemaps(m)
        add_borders(m, scenario)
        if network is not None:
            add_network(m, network, corridors)
        drawn = simplified(corridors)  # lean lines; legend and summary read `corridors`
        add_areas(m, scenario)
        if alternatives is not None and len(alternatives):
            add_alternatives(m, simplified(alternatives))
        add_corridors(m, scenario, drawn, animate=animate)
        search_index = add_places(m, scenario)
        add_incidents(m, scenario)
        add_timeline(m, scenario)
        folium.LayerControl(collapsed=False).add_to(m)
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
            collapsed=False,
            position="topleft",
        ).add_to(m)
        plugins.MiniMap(toggle_display=True, position="bottomright").add_to(m)
        add_overlays(
            m,
            title_html(scenario),
            legend_html(scenario, corridors, network),
            summary_html(scenario, corridors),
        )
        credit = f"Story: {scenario.story.publisher}, {_published(scenario)} · "
        m.add_child(
            script(  # the text was escaped here: addAttribution writes HTML
                "{{ this._parent.get_name() }}.attributionControl"
                ".addAttribution({{ this.text|tojson }});",
                text=escape(credit + ATTRIBUTION),
            )
        )
        west, south, east, north = scenario.bounds()
        m.fit_bounds(
            [[south, west], [north, east]],
            padding_top_left=(320, 70),
            padding_bottom_right=(370, 110),
        )
    return m


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


def _published(scenario: Scenario) -> str:
    day = scenario.story.published
    return f"{day:%d %b %Y}" if day else "date not given"
