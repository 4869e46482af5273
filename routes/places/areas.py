"""Areas by name: continents, seas, countries and regions, looked up in the GeoNames index.

The index (:mod:`routes.places.geonames`) is built from :func:`routes.places.regions.all_areas`;
this module reads it back, so neither of those two imports the other's reader.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from routes.places.geonames import area_rows
from routes.places.names import normalize, skeleton
from routes.places.regions import Area

__all__ = ["areas_named", "areas_sounding_like"]


def areas_named(name: str) -> list[tuple[Area, bool]]:
    """Every area called ``name`` and whether it is the area's main name, largest level first.

    Examples
    --------
    >>> [(area.level, area.country, main) for area, main in areas_named("Georgia")]
    [('country', 'GE', True), ('admin1', 'US', True)]
    """
    return list(_named(normalize(name)))


@lru_cache(maxsize=65536)
def _named(key: str) -> tuple[tuple[Area, bool], ...]:
    """Areas by name key, remembered: extraction asks for the same names again and again."""
    found = [(_area(row), bool(row[-1])) for row in area_rows("key", key)] if key else []
    return tuple(sorted(found, key=lambda item: (item[0].rank, not item[1], -item[0].population)))


def areas_sounding_like(key: str) -> list[tuple[str, Area, bool]]:
    """``(name key, area, main)`` for other names (not counties) with the skeleton of ``key``."""
    found = [
        (str(row[-2]), _area(row), bool(row[-1]))
        for row in area_rows("skeleton", skeleton(key))
        if row[-2] != key and row[3] != "admin2"
    ]
    return sorted(found, key=lambda hit: (hit[1].rank, not hit[2], -hit[1].population))


def _area(row: tuple[Any, ...]) -> Area:
    """An :class:`Area` from its row in the index (id, the area's fields, key, main)."""
    _, name, aliases, level, country, lat, lon, source, gid, population, admin1 = row[:11]
    return Area(
        name, tuple(json.loads(aliases)), level, country, lat, lon, source, gid, population, admin1
    )
