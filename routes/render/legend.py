"""The title, the legend and the screen-reader summary, as escaped HTML blocks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from routes.columns import OSM_DATE, mapped_when, roads_note
from routes.render.markup import escape
from routes.render.popups import PROXY_NOTE, distance_text, lead
from routes.render.style import STATUS_STYLE, corridor_colours, network_source, status_style
from routes.render.timeline import final_text, said_on

if TYPE_CHECKING:
    import datetime as dt

    import geopandas as gpd

    from routes.scenario import Scenario

__all__ = ["legend_html", "summary_html", "title_html"]


def title_html(scenario: Scenario) -> str:
    """The map's heading: the story's title, date and publisher."""
    story = scenario.story
    draft = "DRAFT: " if scenario.is_draft else ""  # undated, or review items left
    day = f"{story.date.day} {story.date:%B %Y}" if story.date else "date not given"
    return (
        f'<div class="routes-title" role="heading" aria-level="1">{draft}{escape(story.title)}'
        f"<span>{day} · {escape(story.publisher)}</span></div>"
    )


def legend_html(
    scenario: Scenario,
    corridors: gpd.GeoDataFrame,
    days: list[dt.date],
    *,
    avoided: bool = False,
    totals: bool = False,
    disputed: bool = False,
) -> str:
    """The key, compact and collapsible: each corridor with its colour, the figure its line
    gives on the day shown (the page changes it with the time bar) and, apart, the figure
    that sizes the line; what the line styles mean, the symbols drawn, how lines are drawn."""
    colours = corridor_colours(list(corridors["corridor_id"]))
    corridor_items = []
    for row in corridors.itertuples(index=False):
        corridor = scenario.corridor(row.corridor_id)
        dash, opacity, _status = status_style(row.status)
        style = "dashed" if dash else "solid"
        said = said_on(corridor, days[0]) if days and corridor.date else lead(corridor)
        final = final_text(corridor)
        corridor_items.append(
            f'<li data-corridor="{escape(row.corridor_id)}"><i class="line" style="border-top:4px '
            f'{style} {colours[row.corridor_id]};opacity:{opacity}"></i>{escape(row.name)}: '
            f'<span class="routes-day">{escape(said)}</span>'
            + (f'<span class="routes-final">{escape(final)}</span>' if final else "")
            + "</li>"
        )
    looks: dict[tuple[str | None, float], list[str]] = {}
    statuses = [  # every status a line takes on some day, as the time control steps
        s
        for row in corridors.itertuples(index=False)
        for s in [row.status, *(p.status for p in scenario.corridor(row.corridor_id).phases)]
    ]
    order = list(STATUS_STYLE)
    for status in sorted(set(statuses), key=lambda s: order.index(s) if s in order else 99):
        dash, opacity, text = status_style(status)
        looks.setdefault((dash, opacity), []).append(text)
    status_items = (
        [
            f'<li><i class="line" style="border-top:3px {"dashed" if d else "solid"} #444;'
            f'opacity:{o}"></i>{escape(_or(texts))}</li>'
            for (d, o), texts in looks.items()
        ]
        if len(looks) > 1 or any(dash for dash, _o in looks)  # a dotted line is explained
        else []
    )
    symbols = _place_symbols(scenario, totals=totals, disputed=disputed)
    if scenario.areas:
        symbols.append('<li><i class="area"></i>Outlined area</li>')
    if avoided:
        symbols.append('<li><i class="avoid"></i>Area the routes avoid</li>')
    if any(m.origins or m.destinations for m in scenario.movements):
        symbols.append('<li><i class="open"></i>Open movement: one end not stated</li>')
    if scenario.incidents:
        symbols.append('<li><i class="tri"></i>Incident</li>')
    drawn = (
        ""  # nothing routed (a draft's open movements only)
        if not len(corridors)
        else PROXY_NOTE + " Distances are estimates through the stops."
        if network_source(corridors) == "proxy"
        else f"{roads_note(_osm_date(corridors), scenario.story.date)}. Each line is the "
        "quickest route through the documented stops, not a tracked path; times are estimates."
    )
    people = corridors["people"].notna().any() if "people" in corridors else False
    width = "A thicker line: more people. " if people else ""
    return (
        '<details class="routes-legend" open aria-label="Key"><summary>Key</summary>'
        f'<ul class="corridors">{"".join(corridor_items)}</ul>'
        + (f'<ul class="row">{"".join(status_items)}</ul>' if status_items else "")
        + (f'<ul class="row">{"".join(symbols)}</ul>' if symbols else "")
        + f"<p>{width}{escape(drawn)}</p></details>"
    )


def _place_symbols(scenario: Scenario, *, totals: bool, disputed: bool) -> list[str]:
    """The key's entries for what is drawn at places: the smaller dots of stops and other
    places (named in their popups and as the reader zooms in), the day's totals of people
    who left and arrived, and disputed boundaries."""
    roles = {p.role for p in scenario.places}
    items = []
    if roles & {"waypoint", "border_crossing", "camp", "city", "area", "neighbourhood"}:
        items.append(
            '<li title="Named in its popup, and on the map when you zoom in">'
            '<i class="dot small"></i>Other place</li>'
        )
    if totals:
        items.append(
            '<li title="People who had left and who had arrived, by the day shown">'
            '<i class="total"></i>left<i class="total in"></i>arrived</li>'
        )
    if disputed:
        items.append('<li><i class="line" style="border-top:1.5px dashed #9E9AA8"></i>'
                     "Disputed boundary</li>")  # fmt: skip
    return items


def summary_html(scenario: Scenario, corridors: gpd.GeoDataFrame) -> str:
    """The corridors as text, for screen readers (visually hidden)."""
    items = []
    for row in corridors.itertuples(index=False):
        corridor = scenario.corridor(row.corridor_id)
        figures = "; ".join(f"{f.text()} according to {f.according_to}" for f in corridor.figures)
        proxy = row.network_source == "proxy"
        when = mapped_when(getattr(row, OSM_DATE, "") or "")
        on_roads = f" on OpenStreetMap roads{' as mapped ' + when if when else ''}"
        route = (
            distance_text(row.length_km, proxy=proxy) + ("" if proxy else on_roads)
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


def _osm_date(corridors: gpd.GeoDataFrame) -> str:
    """When the roads the corridors were routed on were mapped ("" if not known)."""
    dates = [d for d in corridors.get(OSM_DATE, []) if isinstance(d, str) and d]
    return dates[0] if dates else ""


def _or(words: list[str]) -> str:
    """``"under way, resumed or completed"``."""
    return " or ".join([", ".join(words[:-1]), words[-1]] if len(words) > 2 else words)
