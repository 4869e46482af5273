"""How the map looks: palette, marker and line styles, basemaps, coordinate rounding."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import geopandas as gpd

__all__ = [
    "ALTERNATIVE_COLOUR",
    "AREA_COLOUR",
    "BASEMAPS",
    "BORDER_COLOUR",
    "COORD_PRECISION",
    "CORRIDOR_PALETTE",
    "MAX_WIDTH",
    "MIN_WIDTH",
    "NETWORK_COLOUR",
    "NETWORK_NEAR_M",
    "OKABE_ITO",
    "OTHER_STATUS_STYLE",
    "PLACES_PANE",
    "ROLE_STYLE",
    "STATUS_STYLE",
    "UNKNOWN_WIDTH",
    "corridor_colours",
    "known",
    "latlon",
    "line_width",
    "network_source",
    "peak_people",
    "rounded",
    "status_style",
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
#: Places are drawn in greys so that colour belongs to the corridors alone.
ROLE_STYLE: dict[str, tuple[str, int, str]] = {
    "origin": ("#222222", 7, "Origin"),
    "enclave": ("#222222", 7, "Besieged town"),
    "destination": ("#222222", 7, "Destination"),
    "border_crossing": ("#555555", 6, "Border crossing"),
    "camp": ("#555555", 6, "Camp or displacement site"),
    "waypoint": ("#666666", 5, "Place passed on the way"),
    "city": ("#888888", 4, "Town or city"),
    "area": ("#888888", 4, "Named area"),
    "neighbourhood": ("#AAAAAA", 3, "Neighbourhood"),
}
#: The map pane place markers are drawn in.
PLACES_PANE = "routes-places"

#: One colour per corridor, in the scenario's order (Okabe & Ito, colour-blind safe);
#: yellow is left out, it does not show on a light basemap.
CORRIDOR_PALETTE = [
    OKABE_ITO[name]
    for name in ("blue", "vermillion", "bluish_green", "reddish_purple", "orange", "sky_blue")
]

#: A corridor's status as line style: (dash pattern or None for solid, opacity, key text).
STATUS_STYLE: dict[str, tuple[str | None, float, str]] = {
    "under way": (None, 0.95, "under way"),
    "resumed": (None, 0.95, "resumed"),
    "completed": (None, 0.95, "completed"),
    "planned": ("10 8", 0.9, "planned"),
    "reported": ("2 7", 0.9, "reported, not confirmed"),
    "suspended": ("10 8", 0.4, "suspended"),
}
OTHER_STATUS_STYLE: tuple[str | None, float, str] = ("2 7", 0.9, "")


def status_style(status: str) -> tuple[str | None, float, str]:
    """Dash, opacity and key text for a corridor status (unknown statuses: dotted)."""
    dash, opacity, text = STATUS_STYLE.get(status, OTHER_STATUS_STYLE)
    return dash, opacity, text or status


def corridor_colours(corridor_ids: list[str]) -> dict[str, str]:
    """Each corridor's own colour, by its position in the table (the palette repeats)."""
    return {cid: CORRIDOR_PALETTE[i % len(CORRIDOR_PALETTE)] for i, cid in enumerate(corridor_ids)}


ALTERNATIVE_COLOUR = "#555555"
AREA_COLOUR = "#6B4C5B"  # the pocket's outline: muted, not a corridor colour
NETWORK_COLOUR = "#8C8C8C"
BORDER_COLOUR = "#9E9AA8"  # muted grey-violet, unlike any road or line

#: Line width (px) for corridors without a head count, and the range for those with one.
UNKNOWN_WIDTH, MIN_WIDTH, MAX_WIDTH = 4, 4, 10

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
