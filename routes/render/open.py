"""Open movements on a draft's map: a movement the story gives with one end is drawn as a
short dotted arrow into (or out of) the end it has, labelled with what is missing.

A draft with no complete movement still maps this way (``routes map --draft``): its places,
and each open movement at the place it names. The arrow's other end stands for "not
stated": it points from (or to) no place, always the same way, so it cannot be read as one.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from routes.render.flows import add_arrow
from routes.render.labels import RANK, Label
from routes.render.markup import escape
from routes.render.popups import days_text, figure_rows, popup
from routes.render.style import latlon

if TYPE_CHECKING:
    import folium

    from routes.scenario import Movement, Scenario

__all__ = ["OPEN_COLOUR", "OPEN_DASH", "add_open_movements", "missing_end"]

#: An open movement's line: dark grey, dotted (reported, not confirmed, and not routed).
OPEN_COLOUR, OPEN_DASH = "#555555", "2 7"

#: The stub's length as a share of the story's extent (at least :data:`_MIN_STUB_DEG`).
_STUB_SHARE, _MIN_STUB_DEG = 0.18, 0.15
#: The bearing an arrow comes in from when the origin is not stated (from the north-west),
#: and the bearing it leaves by when the destination is not (to the south-east), degrees.
_IN_FROM, _OUT_TO = 315.0, 135.0


def missing_end(movement: Movement, placed: dict[str, Any]) -> str:
    """What keeps a movement from being a corridor, in a reader's words (``placed``: the
    scenario's places by id, to tell a move within one town or to a whole country)."""
    if not movement.origins and not movement.destinations:
        return "origin and destination not stated"
    if not movement.origins:
        return "origin not stated"
    if not movement.destinations:
        return "destination not stated"
    ends = [placed.get(i) for i in (movement.origins[0], movement.destinations[0])]
    if ends[0] is not None and ends[1] is not None:
        if (ends[0].lat, ends[0].lon) == (ends[1].lat, ends[1].lon):
            return "a move within one town, not routed"
        return "not routed (to a whole country, or a place to check)"
    return "an end is not placed on the map"


def add_open_movements(
    m: folium.Map, scenario: Scenario
) -> tuple[Any, list[Label], list[tuple[float, float]]]:
    """Each movement with one placed end as a dotted arrow at that end, in one layer
    ("Open movements"), with its label; also the arrows' ends as (lon, lat), for the view.
    ``(None, [], [])`` when there is none to draw."""
    import folium
    from shapely.geometry import LineString

    placed = {p.id: p for p in scenario.places}
    drawn = [(mv, stub) for mv in scenario.movements if (stub := _stub(mv, scenario, placed))]
    if not drawn:
        return None, [], []
    group = folium.FeatureGroup(name="Open movements (one end not stated)")
    group.add_to(m)
    labels: list[Label] = []
    for movement, (start, end, label_at) in drawn:
        line = LineString([start, end])
        text = f"{movement.name}: {missing_end(movement, placed)}"
        folium.PolyLine(
            [latlon(y, x) for x, y in line.coords],
            color=OPEN_COLOUR,
            weight=4,
            opacity=0.9,
            dash_array=OPEN_DASH,
            popup=popup(movement.name, _rows(movement, scenario)),
            tooltip=escape(text),
            class_name="routes-open",
        ).add_to(group)
        add_arrow(group, line, OPEN_COLOUR, 0)
        labels.append(
            {
                "text": text,
                "kind": "place",
                "rank": RANK["corridor"],
                "at": [list(latlon(label_at[1], label_at[0]))],
                "r": 2,
                "zoom": 0,
                "layers": ["open"],
                "minor": False,
            }
        )
    return group, labels, [point for _mv, (start, end, _at) in drawn for point in (start, end)]


def _stub(
    movement: Movement, scenario: Scenario, placed: dict[str, Any]
) -> tuple[tuple[float, float], tuple[float, float], tuple[float, float]] | None:
    """``(start, end, label point)`` as (lon, lat) of a movement's arrow, or None when it
    has no placed end or is complete (both ends placed: a corridor-to-be, drawn between)."""
    origins = [placed[i] for i in movement.origins if i in placed]
    targets = [placed[i] for i in movement.destinations if i in placed]
    if origins and targets:
        a, b = origins[0], targets[0]
        return (a.lon, a.lat), (b.lon, b.lat), ((a.lon + b.lon) / 2, (a.lat + b.lat) / 2)
    if not origins and not targets:
        return None
    west, south, east, north = scenario.bounds()
    length = max(_MIN_STUB_DEG, _STUB_SHARE * math.hypot(east - west, north - south))
    end = (targets or origins)[0]
    bearing = math.radians(_IN_FROM if targets else _OUT_TO)
    scale = 1 / max(0.2, math.cos(math.radians(end.lat)))  # as long east-west as north-south
    other = (end.lon + length * math.sin(bearing) * scale, end.lat + length * math.cos(bearing))
    if targets:
        return other, (end.lon, end.lat), other
    return (end.lon, end.lat), other, other


def _rows(movement: Movement, scenario: Scenario) -> list[tuple[str, object]]:
    """An open movement's popup: what is missing, where it is known to start or end,
    when, who, its figures, and the items the review lists for it."""
    names = {p.id: p.name for p in scenario.places} | {u.id: u.name for u in scenario.unresolved}
    prefix = f"movement {movement.id}: "
    checks = [r.removeprefix(prefix) for r in scenario.review if r.startswith(prefix)]
    why = missing_end(movement, {p.id: p for p in scenario.places})
    return [
        ("Not stated" if why.endswith(" not stated") else "Open", why.removesuffix(" not stated")),
        ("From", ", ".join(names.get(i, i) for i in movement.origins)),
        ("To", ", ".join(names.get(i, i) for i in movement.destinations)),
        ("Date", days_text(movement.date)),
        ("Who", movement.who),
        *figure_rows(movement.figures, scenario),
        ("To check", "; ".join(checks)),
    ]
