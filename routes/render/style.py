"""How the map looks: palette, marker and line styles, basemaps, coordinate rounding."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import geopandas as gpd

__all__ = [
    "ALTERNATIVE_COLOUR",
    "ATTRIBUTION",
    "BASEMAPS",
    "BORDER_COLOUR",
    "COORD_PRECISION",
    "LABELLED_ROLES",
    "MAX_WIDTH",
    "MIN_WIDTH",
    "NETWORK_COLOUR",
    "NETWORK_NEAR_M",
    "NO_BASEMAP",
    "OKABE_ITO",
    "OTHER_STATUS_COLOUR",
    "PLACES_PANE",
    "ROLE_STYLE",
    "STATUS_COLOURS",
    "UNKNOWN_WIDTH",
    "known",
    "latlon",
    "line_width",
    "network_source",
    "peak_people",
    "rounded",
    "width_samples",
]


#: Okabe & Ito (2008), "Color Universal Design" (https://jfly.uni-koeln.de/color/):
#: distinguishable with the common forms of colour blindness.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
    "black": "#000000",
}

#: Marker colour, radius (px) and legend label by place role, most prominent first.
ROLE_STYLE: dict[str, tuple[str, int, str]] = {
    "origin": (OKABE_ITO["vermillion"], 9, "Origin"),
    "enclave": (OKABE_ITO["reddish_purple"], 9, "Besieged enclave"),
    "destination": (OKABE_ITO["bluish_green"], 9, "Destination"),
    "border_crossing": (OKABE_ITO["blue"], 8, "Border crossing"),
    "waypoint": (OKABE_ITO["sky_blue"], 6, "Documented waypoint"),
    "city": (OKABE_ITO["black"], 5, "Town or city"),
    "neighbourhood": (OKABE_ITO["orange"], 4, "Neighbourhood"),
}
#: The map pane place markers are drawn in.
PLACES_PANE = "routes-places"

#: Roles whose names stand on the map as labels, not only in popups.
LABELLED_ROLES = {"origin", "enclave", "destination", "border_crossing"}

#: Corridor colour by status; any other status is drawn black.
STATUS_COLOURS = {
    "under way": OKABE_ITO["blue"],
    "completed": OKABE_ITO["bluish_green"],
    "suspended": OKABE_ITO["vermillion"],
    "planned": OKABE_ITO["orange"],
    "reported": OKABE_ITO["reddish_purple"],
}
OTHER_STATUS_COLOUR = OKABE_ITO["black"]
ALTERNATIVE_COLOUR = "#555555"
NETWORK_COLOUR = "#8C8C8C"
BORDER_COLOUR = "#666666"

#: Line width (px) for corridors without a head count, and the range for those with one.
UNKNOWN_WIDTH, MIN_WIDTH, MAX_WIDTH = 3, 4, 14

#: Decimal places kept for coordinates in the page (5 ≈ 1 m).
COORD_PRECISION = 5

#: The road network layer shows edges within this distance of a corridor, metres.
NETWORK_NEAR_M = 2_000.0


#: Basemaps from xyzservices, offered in the layer control (the first is shown).
BASEMAPS = {
    "OpenStreetMap": "OpenStreetMap.Mapnik",
    "Light (Esri World Gray Canvas)": "Esri.WorldGrayCanvas",
    "Humanitarian (OSM France HOT)": "OpenStreetMap.HOT",
}
NO_BASEMAP = "No basemap (borders and roads from the data)"

ATTRIBUTION = "Places: GeoNames (CC BY 4.0) and the sources in each popup"


def network_source(corridors: gpd.GeoDataFrame) -> str:
    sources = set(corridors["network_source"]) if len(corridors) else {"proxy"}
    return "proxy" if "proxy" in sources else "osm"


def known(value: Any) -> Any:
    """None for a missing value (None, NaN, pandas NA), else the value."""
    import pandas as pd

    return None if value is None or pd.isna(value) else value


def peak_people(corridors: gpd.GeoDataFrame) -> int:
    values = [v for v in (known(p) for p in corridors["people"]) if v is not None]
    return int(max(values, default=0))


def line_width(people: int | None, peak: int) -> float:
    """Line width by people moved, on a square-root scale so areas compare fairly."""
    if people is None or peak <= 0:
        return UNKNOWN_WIDTH
    return round(MIN_WIDTH + (MAX_WIDTH - MIN_WIDTH) * math.sqrt(people / peak), 1)


def width_samples(peak: int) -> list[int]:
    """Round head counts for the legend's width scale, up to the largest corridor."""
    if peak <= 0:
        return []
    top = int(float(f"{peak:.1g}"))
    return sorted({max(1, int(float(f"{top / 4:.1g}"))), top})


def rounded(value: float) -> float:
    return round(value, COORD_PRECISION)


def latlon(lat: float, lon: float) -> tuple[float, float]:
    return rounded(lat), rounded(lon)
