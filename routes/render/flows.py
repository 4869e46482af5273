"""Corridors as flows: one colour and one label each, status as line style, width by
people moved, drawn apart where they share links, an arrowhead at the destination end,
and a thin dashed connector where a route starts or ends away from its marker."""

from __future__ import annotations

import datetime as dt
import math
import re
from typing import TYPE_CHECKING, Any

from routes.render.labels import Label, corridor_label
from routes.render.markup import escape, script
from routes.render.popups import corridor_rows, headline, popup
from routes.render.style import (
    corridor_colours,
    known,
    latlon,
    line_width,
    peak_people,
    status_style,
)
from routes.render.style import network_source as network_of
from routes.render.timeline import corridor_states, said_on

if TYPE_CHECKING:
    import folium
    import geopandas as gpd

    from routes.scenario import Scenario

__all__ = ["CONNECT_M", "Flows", "add_arrow", "add_corridors", "corridor_text"]

#: A route end further than this from its marker gets a connector, metres.
CONNECT_M = 30.0


class Flows:
    """What :func:`add_corridors` drew: the layers, labels and per-day states the page uses."""

    def __init__(self) -> None:
        self.groups: dict[str, Any] = {}
        self.labels: list[Label] = []
        self.days: dict[str, list[list[Any]]] = {}
        self.colours: dict[str, str] = {}


def corridor_text(scenario: Scenario, corridor_id: str, day: dt.date | None) -> str:
    """A corridor as its label says it on ``day``: ``"to Idlib · about 3,000 people so far"``
    (the destination's name without a trailing note in brackets: "Reyhanlı", not "Reyhanlı
    (Turkey)"); undated, the corridor's lead figure."""
    corridor = scenario.corridor(corridor_id)
    said = said_on(corridor, day) if day is not None else headline(corridor)
    return f"to {_short(scenario.place(corridor.destination).name)} · {said}"


def _short(name: str) -> str:
    return re.sub(r"\s*\([^)]*\)$", "", name)


def add_corridors(
    m: folium.Map,
    scenario: Scenario,
    corridors: gpd.GeoDataFrame,
    *,
    animate: bool,
    days: list[dt.date],
) -> Flows:
    """Every routed corridor in its own layer inside one "Corridors" layer; ``days`` are
    the time bar's, each corridor's states on them go to the page."""
    import folium

    from routes.render.geometry import parallel_offsets

    proxy = network_of(corridors) == "proxy"
    if not proxy:  # lines drawn apart: shifted on screen
        _simplify_before_offset(m)
    suffix = " (proxy network: not the roads taken)" if proxy else ""
    parent = folium.FeatureGroup(name=f"Corridors{suffix}").add_to(m)
    flows = Flows()
    flows.groups["corridors"] = parent
    flows.colours = corridor_colours(list(corridors["corridor_id"]))
    peak = peak_people(corridors)
    rows = [
        r
        for r in corridors.itertuples(index=False)
        if r.geometry is not None and r.geometry.geom_type == "LineString"
    ]
    widths = [line_width(known(r.people), peak) for r in rows]
    if proxy:  # flow lines through shared stops: thick under thin, none shifted (a shift
        # loops where a line turns back on itself, as through Idlib to the border)
        order = sorted(range(len(rows)), key=lambda i: -widths[i])
        rows, widths = [rows[i] for i in order], [widths[i] for i in order]
        offsets = [0.0] * len(rows)
    else:
        offsets = parallel_offsets([r.geometry for r in rows], widths)
    for row, weight, offset in zip(rows, widths, offsets, strict=True):
        colour = flows.colours[row.corridor_id]
        group = folium.FeatureGroup(name=row.name, control=False)
        group.add_to(parent)
        flows.groups[row.corridor_id] = group
        line, flow = _draw(
            group, scenario, row, colour=colour, weight=weight, offset=offset, animate=animate
        )
        flows.groups[f"line:{row.corridor_id}"] = line  # restyled by the time control
        if flow is not None:
            flows.groups[f"flow:{row.corridor_id}"] = flow
        text = corridor_text(scenario, row.corridor_id, days[0] if days else None)
        flows.labels.append(corridor_label(row.corridor_id, text, colour))
        flows.days[row.corridor_id] = corridor_states(scenario.corridor(row.corridor_id), days)
    return flows


def _simplify_before_offset(m: folium.Map) -> None:
    """leaflet-polylineoffset shifts every point of a line: where a road route bends within
    less than the shift (a junction, a ramp, a turn back from a stop) the shifted line
    loops. Each line is simplified on screen to within its shift first, at every zoom (the
    script runs before any line is drawn)."""
    m.add_child(
        script(
            "(function () {"
            " const offsetPoints = L.PolylineOffset.offsetPoints;"
            " L.PolylineOffset.offsetPoints = function (points, offset) {"
            "  const within = Math.max(1.5, Math.abs(offset));"
            "  return offsetPoints.call(this, L.LineUtil.simplify(points, within), offset);"
            " };"
            "})();"
        )
    )


def _draw(
    group: folium.FeatureGroup,
    scenario: Scenario,
    row: Any,
    *,
    colour: str,
    weight: float,
    offset: float,
    animate: bool,
) -> tuple[Any, Any]:
    """One corridor: its line, the moving dashes, the arrowhead and the connectors;
    returns the line and the moving dashes (None without)."""
    from folium import plugins

    corridor = scenario.corridor(row.corridor_id)
    dash, opacity, _text = status_style(row.status)
    locations = [latlon(y, x) for x, y in row.geometry.coords]
    rows = corridor_rows(row._asdict(), scenario)
    hit = plugins.PolyLineOffset(  # under the line: a tap in a dash's gap still opens it
        locations,
        offset=offset,
        weight=max(weight, 16),
        opacity=0,
        popup=popup(row.name, rows, corridor=row.corridor_id),
        tooltip=escape(f"{row.name}: {headline(corridor)}"),
        class_name="routes-hit",
    )
    hit.add_to(group)
    line = plugins.PolyLineOffset(
        locations,
        offset=offset,
        color=colour,
        weight=weight,
        opacity=opacity,
        dash_array=dash,
        line_cap="butt",
        popup=popup(row.name, rows, corridor=row.corridor_id),
        tooltip=escape(f"{row.name}: {headline(corridor)}"),
        class_name=f"routes-corridor routes-corridor-{escape(row.corridor_id)}",
    )
    line.add_to(group)
    flow = None
    if animate and dash is None:  # dashes running the way people moved; clicks go to the line
        flow = plugins.PolyLineOffset(
            locations,
            offset=offset,
            color="#FFFFFF",
            weight=max(1.5, weight / 3),
            opacity=0.8,
            dash_array="3 17",
            class_name="routes-flow",
        )
        flow.options["interactive"] = False
        flow.add_to(group)
    add_arrow(group, row.geometry, colour, offset)
    for place_id, end in ((corridor.origin, 0), (corridor.destination, -1)):
        _add_connector(group, scenario, place_id, row.geometry.coords[end])
    return line, flow


def add_arrow(group: folium.FeatureGroup, line: Any, colour: str, offset: float) -> None:
    """An arrowhead just before the destination, pointing the way people moved."""
    import folium

    end = line.interpolate(1.0, normalized=True)
    behind = line.interpolate(max(0.0, line.length - 1e-3))
    dx = (end.x - behind.x) * math.cos(math.radians(end.y))
    bearing = math.degrees(math.atan2(dx, end.y - behind.y))
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="22" height="22" viewBox="0 0 22 22" '
        f'style="transform:rotate({bearing:.0f}deg) translate({offset:.0f}px,14px)" '
        f'aria-hidden="true"><path d="M11 2 L19 19 L11 14 L3 19 Z" fill="{colour}" '
        'stroke="#FFFFFF" stroke-width="1.5"/></svg>'
    )
    folium.Marker(
        latlon(end.y, end.x),
        interactive=False,
        keyboard=False,
        icon=folium.DivIcon(
            html=svg, icon_size=(22, 22), icon_anchor=(11, 11), class_name="routes-arrow"
        ),
    ).add_to(group)


def _add_connector(
    group: folium.FeatureGroup, scenario: Scenario, place_id: str, end: tuple[float, float]
) -> None:
    """A thin dashed line from a place's marker to where its route starts or ends."""
    import folium

    from routes.render.geometry import metres_between

    place = scenario.place(place_id)
    if metres_between((place.lon, place.lat), end) <= CONNECT_M:
        return
    line = folium.PolyLine(
        [latlon(place.lat, place.lon), latlon(end[1], end[0])],
        color="#444444",
        weight=1.5,
        opacity=0.9,
        dash_array="3 4",
        class_name="routes-connector",
    )
    line.options["interactive"] = False
    line.add_to(group)
