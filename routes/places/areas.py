"""Areas by name: continents, seas, countries and regions, looked up in the GeoNames index.

The index (:mod:`routes.places.geonames`) is built from :func:`routes.places.features.all_areas`;
this module reads it back, so neither of those two imports the other's reader.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from functools import cache
from typing import Any

from routes.places.geonames import area_rows, area_rows_all, country_rows
from routes.places.names import normalize, skeleton
from routes.places.regions import Area

__all__ = ["areas_named", "areas_named_all", "areas_sounding_like", "countries"]


def areas_named(name: str) -> list[tuple[Area, bool]]:
    """Every area called ``name`` and whether it is the area's main name, largest level first.

    Examples
    --------
    >>> [(area.level, area.country, main) for area, main in areas_named("Georgia")]
    [('country', 'GE', True), ('admin1', 'US', True)]
    """
    key = normalize(name)
    return list(areas_named_all([key]).get(key, ()))


def areas_named_all(keys: Iterable[str]) -> dict[str, tuple[tuple[Area, bool], ...]]:
    """:func:`areas_named` of many name keys (:func:`~routes.places.names.normalize`-d) at
    once: one connection for the keys not asked before (extraction asks for the same names
    story after story, and for a few hundred in each; a connection per name cost more
    than the queries)."""
    wanted = {key for key in keys if key}
    missing = sorted(wanted - _NAMED.keys())
    if missing:
        if len(_NAMED) + len(missing) > _REMEMBERED:
            _NAMED.clear()
        found: dict[str, list[tuple[Area, bool]]] = {key: [] for key in missing}
        for row in area_rows_all("key", missing):
            found[row[-2]].append((_area(row), bool(row[-1])))
        for key, named in found.items():
            _NAMED[key] = tuple(sorted(named, key=_largest_first))
    return {key: _NAMED[key] for key in wanted if _NAMED.get(key)}


#: How many name keys :func:`areas_named_all` remembers.
_REMEMBERED = 65536
_NAMED: dict[str, tuple[tuple[Area, bool], ...]] = {}


def _largest_first(item: tuple[Area, bool]) -> tuple[int, bool, int]:
    area, main = item
    return area.rank, not main, -area.population


@cache
def countries() -> tuple[Area, ...]:
    """:func:`routes.places.regions.countries` as the index holds them, read back: working
    them out again reads every GeoNames town (a few capitals' points), in each process."""
    return tuple(_area(row) for row in country_rows())


def areas_sounding_like(key: str) -> list[tuple[str, Area, bool]]:
    """``(name key, area, main)`` for other names (not counties) with the skeleton of ``key``."""
    found = [
        (str(row[-2]), _area(row), bool(row[-1]))
        for row in area_rows("skeleton", skeleton(key))
        if row[-2] != key and row[3] != "admin2"
    ]
    return sorted(found, key=lambda hit: _largest_first(hit[1:]))


def _area(row: tuple[Any, ...]) -> Area:
    """An :class:`Area` from its row in the index (id, the area's fields, key, main)."""
    _, name, aliases, level, country, lat, lon, source, gid, population, admin1 = row[:11]
    return Area(
        name, tuple(json.loads(aliases)), level, country, lat, lon, source, gid, population, admin1
    )
