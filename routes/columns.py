"""The routed table's columns, named once for routing, render, export and the CLI."""

from __future__ import annotations

from typing import Any

__all__ = [
    "CORRIDOR_ID",
    "LENGTH_KM",
    "MAX_SNAP_M",
    "NETWORK_SOURCE",
    "NO_ROUTE_REASON",
    "ROUTE_STATUS",
    "SUMMARY",
    "TRAVEL_TIME_H",
    "first_tag",
]

CORRIDOR_ID = "corridor_id"
LENGTH_KM = "length_km"
TRAVEL_TIME_H = "travel_time_h"
MAX_SNAP_M = "max_snap_m"
NETWORK_SOURCE = "network_source"
ROUTE_STATUS = "route_status"
NO_ROUTE_REASON = "no_route_reason"

#: What ``routes corridors`` shows of each routed corridor, in order.
SUMMARY = (
    CORRIDOR_ID,
    LENGTH_KM,
    TRAVEL_TIME_H,
    "no_travel_time_reason",
    "highway_share",
    "roads",
    "passes",
    MAX_SNAP_M,
    NETWORK_SOURCE,
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
