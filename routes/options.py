"""The choices a user makes, as enums: the CLI offers them, the library validates against them."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ExportFormat", "NetworkChoice", "Search", "Weight"]


class NetworkChoice(StrEnum):
    """Which road network a run routes on."""

    AUTO = "auto"  # OSM file, stored extract, download, else the proxy
    OSM = "osm"  # OpenStreetMap or fail
    PROXY = "proxy"  # the offline proxy network


class Weight(StrEnum):
    """What routes minimise."""

    TRAVEL_TIME = "travel_time"
    LENGTH = "length"


class Search(StrEnum):
    """How routes are searched: decided by graph size and queries, or forced."""

    AUTO = "auto"  # a contraction hierarchy on large graphs with many queries, else Dijkstra
    DIJKSTRA = "dijkstra"  # scipy's bounded Dijkstra on the CSR arrays
    CH = "ch"  # a contraction hierarchy (contracted on first query)


class ExportFormat(StrEnum):
    """The GIS and flow-map file formats of ``routes export``."""

    GPKG = "gpkg"
    GEOJSON = "geojson"
    KML = "kml"
    CSV = "csv"
