"""The map's credits, computed from what it draws: each data source only when it is used.

OpenStreetMap's licence (ODbL) asks for a credit wherever its data is shown, so the
roads' credit stands in the attribution line whether or not a basemap is on; GeoNames
(CC BY 4.0) is credited when a drawn place or proxy-network node comes from it.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from routes.columns import mapped_when
from routes.render.markup import escape
from routes.render.style import ROLE_STYLE

if TYPE_CHECKING:
    import geopandas as gpd

    from routes.render.geometry import Roads
    from routes.scenario import Scenario, Source

__all__ = [
    "DISCLAIMER",
    "DISCLAIMER_TAG",
    "GEONAMES",
    "NATURAL_EARTH",
    "OSM_ROADS",
    "cite",
    "credits",
]

OSM_ROADS = (
    'Roads © <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> '
    "contributors (ODbL)"
)
GEONAMES = "GeoNames (CC BY 4.0)"
NATURAL_EARTH = "Context: Natural Earth"
#: The UN's standard note on maps (ST/AI/189/Add.25/Rev.1; OCHA, UNHCR and IOM maps carry
#: it), without "by the United Nations": this map is not the UN's.
DISCLAIMER = (
    "The boundaries and names shown and the designations used on this map do not imply "
    "official endorsement or acceptance."
)
#: The element that holds the note: what comes before it in the line is the credits proper.
DISCLAIMER_TAG = '<span class="routes-disclaimer">'
#: Up to this many publishers of figures are named in the line; more fold into a count.
FIGURE_SOURCES_SHOWN = 3

_LINES = re.compile(r"^lines? (\d+(?:\s*[-–]\s*\d+)?)\b", re.IGNORECASE)


def cite(source: Source, detail: str | None = None, paragraph: int | None = None) -> str:
    """A source as a reader cites it: ``"CNN, 15 Dec 2016, paragraph 4"`` (plain text).

    The publisher and date stand for the source; the paragraph, or a detail that
    starts with the story's line number, becomes its paragraph; other working
    notes are left out.
    """
    parts = [source.publisher or source.title]
    if source.date is not None:
        parts.append(f"{source.date.day} {source.date:%b %Y}")
    found = _LINES.match(detail or "")
    if paragraph is not None:
        parts.append(f"paragraph {paragraph}")
    elif found:
        span = re.sub(r"\s*[-–]\s*", "–", found[1])
        parts.append(("paragraphs " if "–" in span else "paragraph ") + span)
    return ", ".join(parts)


def credits(
    scenario: Scenario,
    corridors: gpd.GeoDataFrame,
    network: Roads | None,
) -> str:
    """The attribution line as HTML (texts escaped): story, roads, places, the context
    layers, figures (beyond a few, "Figures: N sources", which opens the list) and the
    note on boundaries."""
    story = scenario.story
    published = f"{story.published.day} {story.published:%b %Y}" if story.published else None
    parts = ["Story: " + ", ".join(escape(p) for p in (story.publisher, published) if p)]
    sources = set(corridors["network_source"]) if len(corridors) else set()
    if network is not None:
        sources.add(network.graph.get("network_source"))
    if "osm" in sources:
        osm_date = network.graph.get("osm_date") if network is not None else None
        when = mapped_when(str(osm_date or ""))
        parts.append(OSM_ROADS + (f", as mapped {when}" if when else ""))
    place_credits = dict.fromkeys(
        _place_credit(scenario.source(p.source)) for p in scenario.places if p.role in ROLE_STYLE
    )
    if network is not None and network.graph.get("network_source") == "proxy":
        geonames_nodes = any(
            str(source or "").startswith("GeoNames") for source in network.node_values("source")
        )
        if geonames_nodes:
            place_credits[GEONAMES] = None
    parts.append("Places: " + "; ".join(escape(c) for c in place_credits))
    parts.append(NATURAL_EARTH)
    figure_sources = dict.fromkeys(
        scenario.source(f.source).publisher or scenario.source(f.source).title
        for figures in [c.figures for c in scenario.corridors]
        + [i.figures for i in scenario.incidents]
        for f in figures
    )
    named = "; ".join(escape(s) for s in figure_sources)
    if len(figure_sources) > FIGURE_SOURCES_SHOWN:
        parts.append(
            f'<details class="routes-sources"><summary>Figures: {len(figure_sources)} '
            f"sources</summary>{named}</details>"
        )
    elif figure_sources:
        parts.append("Figures: " + named)
    return " · ".join([*parts, f"{DISCLAIMER_TAG}{escape(DISCLAIMER)}</span>"])


def _place_credit(source: Source) -> str:
    if source.id == "geonames" or (source.publisher or "").lower() == "geonames":
        return GEONAMES
    return source.publisher or source.title
