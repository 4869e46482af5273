#!/usr/bin/env python
"""Write ``geodata/context/``: the Natural Earth layers a map draws for context offline.

Reads Natural Earth's 1:50m layers (public domain) as ``../shared/naturalearth/`` holds them
(GeoJSON converted by ogr2ogr, its README says from where) and writes compact GeoJSON, one
file a layer, each feature keeping only what the map shows:

- ``land``: land polygons; ``lakes``: lakes and reservoirs with their names;
- ``rivers``: rivers and lake centre lines with their names and Natural Earth's rank;
- ``boundaries``: country boundaries on land, each with its ``kind`` (``country``,
  ``disputed``, ``line of control``, ``indefinite``) and, from the disputed-areas layer,
  claims and breakaway areas (``claim``, ``breakaway``); ``regions``: first-level
  boundaries where Natural Earth 1:50m has them;
- ``places``: populated places (name, country, population, rank);
- ``seas``: seas, gulfs, bays, straits and oceans with their names (simplified: only
  their names are drawn, inside the part of each in view);
- ``countries``: the country a part of the land belongs to, for placing country names
  only: the land cut into faces by the boundaries and the lake shores, each face named
  after the Natural Earth populated places inside it (a face holding places of two
  countries, where a boundary stops short of a coast, is shared out by nearest place);
  faces without a place stay unnamed. Simplified; never drawn as borders.

Coordinates keep 3 decimals (about 100 m; 1:50m lines are drawn to about 1 km), lines and
polygons are simplified within 0.01° and the layers that only place names within 0.05°
(their parts under 0.02 square degrees, small islands, left out). The same input
gives the same files. Run from the repository, beside ``../shared``:

    python scripts/build_context.py [--source DIR] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import shapely
from shapely.geometry import LineString, Point, mapping, shape
from shapely.ops import nearest_points
from shapely.strtree import STRtree

from routes._io import write_atomically
from routes.datasets import DATA_DIR

OUT = DATA_DIR / "context"
SOURCE = Path(__file__).resolve().parents[2] / "shared" / "naturalearth"
#: Simplification of drawn layers and of those used only to place names, degrees.
TOLERANCE, COARSE = 0.01, 0.05
#: Parts of the name-placing layers smaller than this are left out, square degrees.
SMALLEST = 0.02
DECIMALS = 3
#: A boundary that stops this close to a coast or another boundary is joined to it, degrees.
JOIN = 0.02

_BOUNDARY_KINDS = {
    "International boundary (verify)": "country",
    "Disputed (please verify)": "disputed",
    "Line of control (please verify)": "line of control",
    "Indefinite (please verify)": "indefinite",
    "Claim": "claim",
    "Breakaway": "breakaway",
}


def read(source: Path, name: str) -> list[tuple[dict[str, Any], Any]]:
    """A layer's features as (properties, shapely geometry); those without one left out."""
    data = json.loads((source / f"ne_50m_{name}.json").read_text("utf-8"))
    return [(f["properties"], shape(f["geometry"])) for f in data["features"] if f["geometry"]]


def lean(geom: Any, tolerance: float = TOLERANCE) -> Any:
    """``geom`` simplified and rounded; None when nothing is left. Coarse polygons (that
    only place names) lose their small parts."""
    if tolerance == COARSE:
        geom = shapely.union_all([p for p in shapely.get_parts(geom) if p.area >= SMALLEST])
    geom = shapely.set_precision(shapely.simplify(geom, tolerance), 10**-DECIMALS)
    return None if geom is None or geom.is_empty else geom


def feature(geom: Any, **properties: Any) -> dict[str, Any]:
    """A GeoJSON feature with its ``bbox`` (the map reads only the features near it)."""
    box = [round(v, DECIMALS) for v in geom.bounds]
    return {"type": "Feature", "bbox": box, "properties": properties, "geometry": mapping(geom)}


def rank(value: Any) -> int:
    return int(value) if isinstance(value, int | float) else 10


def land_and_lakes(source: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    land = [f for _p, g in read(source, "land") if (f := lean(g))]
    lakes = [
        feature(geom, name=p["name"], rank=rank(p["scalerank"]))
        for p, g in read(source, "lakes")
        if (geom := lean(g))
    ]
    return [feature(g) for g in land], lakes


def lines(source: Path) -> dict[str, list[dict[str, Any]]]:
    rivers = [
        feature(geom, name=p["name_en"] or p["name"], rank=rank(p["scalerank"]))
        for p, g in read(source, "rivers_lake_centerlines")
        if (geom := lean(g))
    ]
    boundaries = [
        feature(geom, kind=_BOUNDARY_KINDS[p["featurecla"]])
        for name in ("admin_0_boundary_lines_land", "admin_0_boundary_lines_disputed_areas")
        for p, g in read(source, name)
        if (geom := lean(g))
    ]
    regions = [
        feature(geom, country=p["adm0_name"])
        for p, g in read(source, "admin_1_states_provinces_lines")
        if (geom := lean(g))
    ]
    return {"rivers": rivers, "boundaries": boundaries, "regions": regions}


def places(source: Path) -> list[dict[str, Any]]:
    out = []
    for p, _g in read(source, "populated_places_simple"):
        if p["featurecla"] in {"Scientific station", "Historic place"}:
            continue
        point = Point(round(p["longitude"], DECIMALS), round(p["latitude"], DECIMALS))
        out.append(
            feature(
                point,
                name=p["name"],
                country=p["adm0name"],
                iso=_iso(p["iso_a2"]),
                population=int(p["pop_max"] or 0),
                rank=rank(p["scalerank"]),
                capital=p["featurecla"] == "Admin-0 capital",
            )
        )
    return sorted(out, key=lambda f: (f["properties"]["rank"], -f["properties"]["population"]))


def seas(source: Path) -> list[dict[str, Any]]:
    return [
        feature(geom, name=p["name"].title(), kind=p["featurecla"], rank=rank(p["scalerank"]))
        for p, g in read(source, "geography_marine_polys")
        if p["name"] and (geom := lean(g, COARSE))
    ]


def countries(source: Path) -> list[dict[str, Any]]:
    """The land cut into faces by boundaries and lake shores, each named by its places."""
    land = [g for _p, g in read(source, "land")]
    lakes = [g for _p, g in read(source, "lakes")]
    shores = [part for g in land + lakes for part in shapely.get_parts(g.boundary)]
    borders = [
        part
        for _p, g in read(source, "admin_0_boundary_lines_land")
        for part in shapely.get_parts(g)
    ]
    edges = shores + borders
    joined = [
        _joined(line, edges, STRtree(edges), len(shores) + i) for i, line in enumerate(borders)
    ]
    noded = shapely.union_all(shores + joined)
    faces = list(shapely.get_parts(shapely.polygonize(shapely.get_parts(noded))))
    on_land, in_lakes = shapely.union_all(land), shapely.union_all(lakes)
    faces = [
        f
        for f in faces
        if on_land.contains(p := f.representative_point()) and not in_lakes.contains(p)
    ]
    towns = [
        (Point(p["longitude"], p["latitude"]), p["adm0name"], _iso(p["iso_a2"]))
        for p, _g in read(source, "populated_places_simple")
        if p["featurecla"] not in {"Scientific station", "Historic place"}
    ]
    tree = STRtree(faces)
    inside: dict[int, list[tuple[Point, str, str | None]]] = defaultdict(list)
    for town in towns:
        for i in tree.query(town[0], predicate="within"):
            inside[int(i)].append(town)
    parts: dict[tuple[str, str | None], list[Any]] = defaultdict(list)
    for i, held in sorted(inside.items()):
        names = Counter((name, iso) for _p, name, iso in held)
        if len(names) == 1:
            parts[next(iter(names))].append(faces[i])
            continue
        cells = shapely.voronoi_polygons(
            shapely.MultiPoint([p for p, _n, _i in held]), extend_to=faces[i]
        )
        for cell in shapely.get_parts(cells):
            town = next(t for t in held if cell.contains(t[0]))
            parts[town[1], town[2]].append(cell.intersection(faces[i]))
    out = [
        feature(geom, name=name, iso=iso)
        for (name, iso), pieces in sorted(parts.items())
        if (geom := lean(shapely.union_all(pieces), COARSE))
    ]
    return out


def _joined(line: LineString, edges: list[Any], tree: STRtree, own: int) -> LineString:
    """``line`` with each end that stops short of a coast or another boundary carried on to
    it (and a hair past, so that the faces close)."""
    coords = list(line.coords)
    for end in (0, -1):
        p = Point(coords[end])
        near = [int(j) for j in tree.query(p.buffer(JOIN)) if j != own]
        if not near:
            continue
        gap, j = min((p.distance(edges[j]), j) for j in near)
        if gap < 1e-12 or gap > JOIN:
            continue
        q = nearest_points(p, edges[j])[1]
        dx, dy = (q.x - p.x) / gap, (q.y - p.y) / gap
        past = (q.x + dx * 1e-7, q.y + dy * 1e-7)
        coords = [past, *coords] if end == 0 else [*coords, past]
    return LineString(coords)


def _iso(code: str | None) -> str | None:
    return code if code and len(code) == 2 and code.isalpha() else None


def write(folder: Path, name: str, features: list[dict[str, Any]]) -> Path:
    text = json.dumps(
        {"type": "FeatureCollection", "features": features},
        ensure_ascii=False,
        separators=(",", ":"),
    )
    return write_atomically(folder / f"{name}.geojson", (text + "\n").encode("utf-8"))


def build(source: Path, folder: Path) -> list[Path]:
    """Write every layer from the Natural Earth files in ``source`` into ``folder``."""
    folder.mkdir(exist_ok=True)
    land, lakes = land_and_lakes(source)
    layers = {
        "land": land,
        "lakes": lakes,
        **lines(source),
        "places": places(source),
        "seas": seas(source),
        "countries": countries(source),
    }
    return [write(folder, name, features) for name, features in layers.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="Natural Earth folder")
    parser.add_argument("--out", type=Path, default=OUT, help="folder to write")
    args = parser.parse_args()
    for path in build(args.source, args.out):
        print(path)


if __name__ == "__main__":
    main()
