"""The title, the legend and the screen-reader summary, as escaped HTML blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from routes.render.markup import escape
from routes.render.popups import headline
from routes.render.style import (
    OTHER_STATUS_COLOUR,
    ROLE_STYLE,
    STATUS_COLOURS,
    UNKNOWN_WIDTH,
    line_width,
    network_source,
    peak_people,
    width_samples,
)

if TYPE_CHECKING:
    import geopandas as gpd
    import networkx as nx

    from routes.scenario import Scenario

__all__ = [
    "legend_html",
    "proxy_note",
    "summary_html",
    "title_html",
]


def title_html(scenario: Scenario) -> str:
    story = scenario.story
    draft = "DRAFT: " if scenario.is_draft else ""  # undated, or review items left
    day = f"{story.date:%d %B %Y}" if story.date else "date not given"
    return (
        f'<div class="routes-title" role="heading" aria-level="1">{draft}{escape(story.title)}'
        f"<span>{day} · {escape(story.publisher)}</span></div>"
    )


def legend_html(
    scenario: Scenario, corridors: gpd.GeoDataFrame, network: nx.MultiDiGraph | None
) -> str:
    peak = peak_people(corridors)
    statuses = dict.fromkeys(corridors["status"])
    status_items = [
        f'<li><i class="line" style="border-top:5px solid '
        f'{STATUS_COLOURS.get(s, OTHER_STATUS_COLOUR)}"></i>{escape(s)}</li>'
        for s in statuses
    ]
    width_items = [
        f'<li><i class="line" style="border-top:{line_width(v, peak)}px solid #555"></i>'
        f"{v:,} people</li>"
        for v in width_samples(peak)
    ]
    width_items.append(
        f'<li><i class="line" style="border-top:{UNKNOWN_WIDTH}px solid #555"></i>'
        "head count not reported</li>"
    )
    corridor_items = [
        f"<li>{escape(row.name)}: {escape(headline(scenario.corridor(row.corridor_id)))}</li>"
        for row in corridors.itertuples(index=False)
    ]
    roles = {p.role for p in scenario.places}
    place_items = [
        f'<li><i class="dot" style="background:{colour}"></i>{escape(label)}</li>'
        for role, (colour, _r, label) in ROLE_STYLE.items()
        if role in roles
    ]
    if scenario.incidents:
        place_items.append('<li><i class="tri"></i>Incident</li>')
    network = (
        f"Routes drawn on a proxy network ({escape(proxy_note(network))}); pass an OpenStreetMap "
        "extract with --osm for real roads."
        if network_source(corridors) == "proxy"
        else "Routes drawn on OpenStreetMap roads."
    )
    return (
        '<details class="routes-legend" open aria-label="Legend"><summary>Legend</summary>'
        f"<h3>Corridors, by status</h3><ul>{''.join(status_items)}</ul>"
        f"<h3>Line width: people moved</h3><ul>{''.join(width_items)}</ul>"
        f'<ul class="plain">{"".join(corridor_items)}</ul>'
        f"<h3>Places</h3><ul>{''.join(place_items)}</ul><p>{network}</p>"
        "<p>Colours: Okabe &amp; Ito palette, readable with colour blindness.</p></details>"
    )


def summary_html(scenario: Scenario, corridors: gpd.GeoDataFrame) -> str:
    """The corridors as text, for screen readers (visually hidden)."""
    items = []
    for row in corridors.itertuples(index=False):
        corridor = scenario.corridor(row.corridor_id)
        figures = "; ".join(f"{f.text()} according to {f.according_to}" for f in corridor.figures)
        route = (
            f"{row.length_km:.0f} km, about {row.travel_time_h:.1f} hours on the "
            f"{row.network_source} network"
            if row.route_status == "ok"
            else "no route found"
        )
        items.append(
            f"<li>{escape(row.name)}, {escape(row.date)}: from {escape(row.origin)} "
            f"{'via ' + escape(row.via) + ' ' if row.via else ''}to {escape(row.destination)}; "
            f"{escape(route)}. {escape(figures or 'No figures reported')}.</li>"
        )
    return (
        f'<section class="routes-summary" aria-label="Summary of the corridors"><h2>'
        f"{escape(scenario.story.title)}: corridors</h2><ul>{''.join(items)}</ul></section>"
    )


def proxy_note(network: nx.MultiDiGraph | None) -> str:
    """The proxy network's assumptions, as the graph states them."""
    facts = network.graph if network is not None else {}
    if "circuity" not in facts:
        return "great-circle links, assumed speed"
    return f"great-circle links × {facts['circuity']}, {facts['speed_kph']:g} km/h assumed"
