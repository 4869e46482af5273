"""Distance on the Earth: one great-circle formula and one radius for every stage.

Routes must measure their edges exactly as osmnx does (the equality tests compare
lengths bit for bit), so the formula is osmnx's haversine on its mean Earth radius.
Extraction and geocoding use the same function for "how far apart are these places",
where the sphere's 0.3 % error against the ellipsoid does not matter.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import ArrayLike, NDArray

__all__ = ["EARTH_RADIUS_M", "great_circle", "great_circle_km"]

#: The mean Earth radius in metres, as ``osmnx.distance.EARTH_RADIUS_M``.
EARTH_RADIUS_M = 6_371_009.0


def great_circle(
    lat1: ArrayLike, lon1: ArrayLike, lat2: ArrayLike, lon2: ArrayLike
) -> NDArray[np.float64]:
    """Haversine distance in metres, term for term as ``osmnx.distance.great_circle``.

    Examples
    --------
    >>> round(float(great_circle(36.2, 37.15, 35.93, 36.63)))  # Aleppo to Idlib
    55551
    """
    y1, y2 = np.deg2rad(lat1), np.deg2rad(lat2)
    dy = y2 - y1
    dx = np.deg2rad(lon2) - np.deg2rad(lon1)
    h = np.sin(dy / 2) ** 2 + np.cos(y1) * np.cos(y2) * np.sin(dx / 2) ** 2
    h = np.minimum(1, h)
    result: NDArray[np.float64] = 2 * np.arcsin(np.sqrt(h)) * EARTH_RADIUS_M
    return result


def great_circle_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """:func:`great_circle` between two points, in km, as a Python float.

    Examples
    --------
    >>> round(great_circle_km(36.2, 37.15, 35.93, 36.63))
    56
    """
    return float(great_circle(lat1, lon1, lat2, lon2)) / 1000
