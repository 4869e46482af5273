"""The map page: every layer and control in order, then the page as HTML, written atomically.

Element ids are sequential, so the same inputs give the same bytes. :func:`page`
writes a page that carries every script and stylesheet in itself (from the installed
package :mod:`routes.render.assets` names), or with ``cdn`` the small page that links them.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from routes._io import write_atomically
from routes.render.context import add_context
from routes.render.credits import credits
from routes.render.embed import add_embed
from routes.render.flows import add_corridors
from routes.render.labels import Label, place_labels, story_places
from routes.render.layers import (
    add_alternatives,
    add_areas,
    add_avoided,
    add_basemaps,
    add_incidents,
    add_network,
)
from routes.render.legend import legend_html, summary_html, title_html
from routes.render.markup import (
    add_head,
    add_overlays,
    script,
    sequential_ids,
    verbatim_rewraps,
)
from routes.render.open import add_open_movements
from routes.render.places import add_places
from routes.render.reader import add_reader
from routes.render.roads import add_roads
from routes.render.style import rounded
from routes.render.timeline import day_text, story_days
from routes.render.totals import add_totals
from routes.text import for_display

if TYPE_CHECKING:
    import folium
    import geopandas as gpd

    from routes.render.geometry import Roads
    from routes.scenario import Scenario

__all__ = [
    "ASSETS_CSS",
    "ASSETS_JS",
    "FRAME_SANDBOX",
    "Inline",
    "build_map",
    "page",
    "save",
    "view",
]


#: folium's pinned Leaflet and jQuery (its popups need jQuery). Bootstrap, Font Awesome
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
    embed: bool = False,
) -> folium.Map:
    """The story's map: places by role, corridors as directed flows, incidents, areas,
    the roads used near the corridors, a time control, and map controls that yield.

    ``avoided`` are the areas routes were kept out of; ``embed`` makes the page for an
    article's ``<iframe>`` (:mod:`routes.render.embed`).
    """
    import folium

    from routes.render.geometry import drawn_lines, simplified

    with sequential_ids():
        m = folium.Map(tiles=None, control_scale=True, zoom_snap=0.25)
        m.default_js, m.default_css = ASSETS_JS, ASSETS_CSS
        add_head(m, *_head(scenario))
        drawn = drawn_lines(scenario, corridors)  # legend and summary read `corridors`
        view = _view(scenario, drawn)
        context = _add_base(m, scenario, view, embed=embed)
        if network is not None and network.graph.get("network_source") == "proxy":
            add_network(m, network, corridors)
        elif network is not None:
            add_roads(m, network, corridors, view)
        areas, area_labels, inside = add_areas(m, scenario)
        avoid_layer, avoid_labels = add_avoided(m, avoided)
        if alternatives is not None and len(alternatives):
            add_alternatives(m, simplified(alternatives))
        days = story_days(scenario)
        flows = add_corridors(m, scenario, drawn, animate=animate, days=days)
        open_layer, open_labels, open_ends = add_open_movements(m, scenario)
        search_index, place_groups = add_places(m, scenario)
        totals = add_totals(m, scenario, days)
        incident_groups, incident_days = add_incidents(m, scenario, days)
        _add_controls(m, search_index, embed=scenario.story.id if embed else None)
        add_overlays(
            m,
            title_html(scenario),
            legend_html(
                scenario,
                corridors,
                days,
                avoided=avoid_layer is not None,
                totals=totals is not None,
                disputed=context.disputed,
            ),
            summary_html(scenario, corridors),
        )
        _add_credits(m, credits(scenario, corridors, network))
        labels = _displayed(
            place_labels(scenario, inside) + flows.labels + area_labels + avoid_labels,
            context.labels + open_labels,
        )
        view = _view(scenario, drawn, open_ends)  # the open movements' arrows in view too
        m.fit_bounds(view)
        groups = {**flows.groups, **place_groups, **incident_groups}
        groups |= {"areas": areas, "context": context.layer, "avoided": avoid_layer}
        groups |= {"open": open_layer}
        add_reader(
            m,
            {
                "labels": sorted(labels, key=lambda label: label["rank"]),
                "fit": view,
                "corridors": flows.days,
                "incidents": incident_days,
                "days": [day_text(day) for day in days],
            },
            {key: layer for key, layer in groups.items() if layer is not None},
        )
    return m


def _add_credits(m: folium.Map, text: str) -> None:
    """The credits line, kept on the map as ``routesCredits`` so that the basemap's
    fallback can say in it that the basemap is unavailable (:func:`~.layers.add_basemaps`)."""
    m.add_child(
        script(  # every text in it was escaped: addAttribution writes HTML
            "{% set map = this._parent.get_name() %}"
            "{{ map }}.routesCredits = {{ this.text|tojson }};"
            " {{ map }}.attributionControl.addAttribution({{ map }}.routesCredits);",
            text=text,
        )
    )


def _displayed(*groups: list[Label]) -> list[Label]:
    """The labels, their names from the story never carrying bidi controls to the screen."""
    labels = [label for group in groups for label in group]
    for label in labels:
        label["text"] = for_display(label["text"])
        if "prefix" in label:
            label["prefix"] = for_display(label["prefix"])
    return labels


def _head(scenario: Scenario) -> tuple[str, str]:
    """The page's title and description, as plain text: the story, who reported it, when,
    and the corridors it maps."""
    story = scenario.story
    when = f"{story.date.day} {story.date:%B %Y}" if story.date else "undated"
    title = f"{'DRAFT: ' if scenario.is_draft else ''}{story.title} ({story.publisher}, {when})"
    names = "; ".join(c.name for c in scenario.corridors[:6])
    more = f" and {len(scenario.corridors) - 6} more" if len(scenario.corridors) > 6 else ""
    description = (
        f"Map of {story.title}, as {story.publisher} reported it ({when}): {names}{more}. "
        "Each figure is shown as a claim with its source."
    )
    return title, description[:400]


def _add_base(m: folium.Map, scenario: Scenario, view: list[list[float]], *, embed: bool) -> Any:
    """The map's own Natural Earth base layer (shown first in an embed) and the tile
    basemaps beside it; returns the :class:`~routes.render.context.Context`."""
    named = [(n, p.lat, p.lon) for p in scenario.places for n in [p.name, *p.aliases]]
    context = add_context(m, view, named, show=embed)
    add_basemaps(m, context.layer, tiles=not embed)
    return context


def _add_controls(m: folium.Map, search_index: folium.GeoJson, *, embed: str | None) -> None:
    """Controls that yield to the map: collapsed and compact; in an embed (``embed``: the
    story's id), no full-screen control and the frame's behaviour (:func:`add_embed`)."""
    import folium
    from folium import plugins

    folium.LayerControl(collapsed=True).add_to(m)
    if embed is not None:
        add_embed(m, embed)
    else:
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


def _view(
    scenario: Scenario, drawn: gpd.GeoDataFrame, ends: Sequence[tuple[float, float]] = ()
) -> list[list[float]]:
    """The default view: the story's places, every drawn corridor and the ends of the open
    movements' arrows (``ends``, as (lon, lat)), as [[S, W], [N, E]]."""
    points = [(p.lon, p.lat) for p in story_places(scenario)] or [
        (p.lon, p.lat) for p in scenario.places
    ]
    points += ends
    for geom in drawn.geometry:
        if geom is not None and not geom.is_empty:
            west, south, east, north = geom.bounds
            points += [(west, south), (east, north)]
    lons, lats = [x for x, _y in points], [y for _x, y in points]
    return [[rounded(min(lats)), rounded(min(lons))], [rounded(max(lats)), rounded(max(lons))]]


def page(m: folium.Map, *, cdn: bool = False) -> str:
    """The map as one HTML page, carrying its scripts and stylesheets; ``cdn`` links them."""
    from routes.render import assets

    with verbatim_rewraps():
        text = m.get_root().render()
    text = re.sub(r",\s*maximum-scale=1\.0, user-scalable=no", "", text)  # let readers zoom
    text = text.replace("<html>", '<html lang="en">', 1)
    return text if cdn else assets.inline(text)


def save(m: folium.Map, path: str | Path, *, cdn: bool = False) -> Path:
    """Write the page atomically: a failed run leaves no half-written file."""
    return write_atomically(Path(path), page(m, cdn=cdn).encode("utf-8"))


@dataclass(frozen=True)
class Inline:
    """A page shown in a notebook cell, in a frame of its own (Jupyter calls ``_repr_html_``).

    The frame is sandboxed: its scripts run (the map needs them) in an origin of their own,
    never the notebook's, so nothing in a page can reach the notebook or its kernel."""

    page: str
    height_px: int = 600

    def _repr_html_(self) -> str:
        # ASCII with character references: right whatever encoding the notebook page has
        text = html.escape(self.page, quote=True).encode("ascii", "xmlcharrefreplace").decode()
        return (
            f'<iframe srcdoc="{text}" title="map" sandbox="{FRAME_SANDBOX}" allowfullscreen '
            f'style="width:100%;height:{self.height_px}px;border:none"></iframe>'
        )


#: What the notebook frame's page may do: run scripts and open links in a new window, in an
#: origin of its own (no ``allow-same-origin``: it never shares the notebook's).
FRAME_SANDBOX = "allow-scripts allow-popups allow-popups-to-escape-sandbox"


def view(m: folium.Map, *, height_px: int = 600) -> Inline:
    """The self-contained page for a notebook: unlike folium's own display (which loads
    Leaflet from CDNs), it shows the map with no network, as the saved page does."""
    return Inline(page(m), height_px)
