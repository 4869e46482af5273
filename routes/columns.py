"""The routed table's columns, named once for routing, render, export and the CLI."""

from __future__ import annotations

import datetime as dt
from typing import Any

__all__ = [
    "CORRIDOR_ID",
    "LENGTH_KM",
    "MAX_SNAP_M",
    "NETWORK_SOURCE",
    "NO_ROUTE_REASON",
    "OSM_DATE",
    "ROUTE_STATUS",
    "SUMMARY",
    "TRAVEL_TIME_H",
    "first_tag",
    "mapped_when",
    "roads_note",
]

CORRIDOR_ID = "corridor_id"
LENGTH_KM = "length_km"
TRAVEL_TIME_H = "travel_time_h"
MAX_SNAP_M = "max_snap_m"
NETWORK_SOURCE = "network_source"
ROUTE_STATUS = "route_status"
NO_ROUTE_REASON = "no_route_reason"
#: When the OpenStreetMap roads were mapped, as precisely as known (``2021-08``), or "".
OSM_DATE = "osm_date"

#: What ``routes corridors`` shows of each routed corridor, in order.
SUMMARY = (
    CORRIDOR_ID,
    "date",
    LENGTH_KM,
    TRAVEL_TIME_H,
    "no_travel_time_reason",
    "travel_time_model",
    "highway_share",
    "roads",
    "passes",
    MAX_SNAP_M,
    "stops_off_road",
    NETWORK_SOURCE,
    OSM_DATE,
    ROUTE_STATUS,
    NO_ROUTE_REASON,
)


def first_tag(value: Any) -> str | None:
    """The first of an OSM tag's values: osmnx keeps a list where simplification merged ways.

    Examples
    --------
    >>> first_tag(["primary", "secondary"])
    'primary'
    >>> first_tag("") is None
    True
    """
    if isinstance(value, list):
        value = value[0] if value else None
    return str(value) if value not in (None, "") else None


def mapped_when(osm_date: str) -> str:
    """When roads were mapped, as a reader says it, from an ISO date as precise as known.

    Examples
    --------
    >>> mapped_when("2021-08")
    'in August 2021'
    >>> mapped_when("2016-12-15")
    'on 15 December 2016'
    >>> mapped_when("")
    ''
    """
    try:
        parts = [int(p) for p in osm_date.split("-")] if osm_date else []
        day = dt.date(*parts, *[1] * (3 - len(parts))) if 1 <= len(parts) <= 3 else None
    except (ValueError, TypeError):  # no date: say nothing rather than something wrong
        return ""
    if day is None:
        return ""
    if len(parts) == 3:
        return f"on {day.day} {day:%B %Y}"
    return f"in {day:%B %Y}" if len(parts) == 2 else f"in {day.year}"


def roads_note(osm_date: str, story: dt.date | None) -> str:
    """What OpenStreetMap roads a map or table stands on, against the story's date.

    Examples
    --------
    >>> roads_note("2021-08", dt.date(2016, 12, 15))
    'Roads as mapped in OpenStreetMap in August 2021; the story is of 15 December 2016'
    >>> roads_note("2016-12-15", dt.date(2016, 12, 15))
    "Roads as mapped in OpenStreetMap on 15 December 2016, the story's date"
    >>> roads_note("", None)
    'Roads from OpenStreetMap (when they were mapped is not known)'
    """
    when = mapped_when(osm_date)
    if not when:
        return "Roads from OpenStreetMap (when they were mapped is not known)"
    said = f"Roads as mapped in OpenStreetMap {when}"
    if story is None:
        return said
    if osm_date == story.isoformat():
        return f"{said}, the story's date"
    return f"{said}; the story is of {story.day} {story:%B %Y}"
