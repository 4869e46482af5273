#!/usr/bin/env python
"""Write ``geodata/land-points.csv``: Natural Earth's named islands, capes and other landforms.

The points are Natural Earth's "geography_regions_points" (public domain), 1:10m and
1:50m, as the GeoJSON files in ``../shared/naturalearth/`` carry them (converted by
ogr2ogr in github.com/martynafford/natural-earth-geojson, commit 0b9a6ce; that folder's
README). Each row keeps Natural Earth's name, its feature class ("island", "cape",
"island group", "waterfall", "plain", "pole") and its point; a 1:50m feature within
:data:`SAME_KM` of a 1:10m one of the same name is the same feature. Abbreviated names
("Wright I.", "Pt. Eugenia") also go by their words in full ("Wright Island", "Point
Eugenia"), in ``other_names``.

    python scripts/build_land_points.py [../shared/naturalearth]
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import re
from pathlib import Path

from routes._io import write_atomically
from routes.datasets import DATA_DIR
from routes.distance import great_circle_km

SHARED = Path(__file__).resolve().parents[2] / "shared" / "naturalearth"
FILES = ("ne_10m_geography_regions_points.json", "ne_50m_geography_regions_points.json")
OUT = DATA_DIR / "land-points.csv"
#: A 1:50m feature this close to a 1:10m one of its name is that feature, km.
SAME_KM = 50.0
#: Natural Earth's abbreviations, each with the word it stands for.
ABBREVIATIONS = {r"\bI\.$": "Island", r"\bIs\.$": "Islands", r"^Pt\.": "Point", r"^C\.": "Cape"}
HEADER = """\
# Islands, capes and other landforms: Natural Earth 1:10m and 1:50m geography_regions_points
# (public domain; naturalearthdata.com), from the GeoJSON of github.com/martynafford/
# natural-earth-geojson (commit 0b9a6ce). Written by scripts/build_land_points.py; do not edit.
# feature: Natural Earth's featurecla; other_names: abbreviations spelled out, "|"-separated.
"""


def spelled_out(name: str) -> str:
    """``name`` with Natural Earth's abbreviations in full ("Wright I." → "Wright Island")."""
    for pattern, word in ABBREVIATIONS.items():
        name = re.sub(pattern, word, name)
    return name


def rows(folder: Path) -> list[dict[str, str]]:
    """One row per named feature, 1:10m first."""
    found: list[dict[str, str]] = []
    for file in FILES:
        for feature in json.loads((folder / file).read_text(encoding="utf-8"))["features"]:
            p = feature["properties"]
            name = " ".join(str(p.get("name") or "").split())
            lon, lat = feature["geometry"]["coordinates"][:2]
            if not name or any(
                r["name"] == name
                and great_circle_km(float(r["lat"]), float(r["lon"]), lat, lon) < SAME_KM
                for r in found
            ):
                continue
            others = [n for n in dict.fromkeys([spelled_out(name), p.get("name_alt") or ""]) if n]
            found.append(
                {
                    "name": name,
                    "feature": str(p["featurecla"]).lower(),
                    "lat": f"{lat:.5f}",
                    "lon": f"{lon:.5f}",
                    "other_names": "|".join(n for n in others if n != name),
                    "natural_earth": file.split("_geography")[0],
                }
            )
    return found


def csv_text(found: list[dict[str, str]]) -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, list(found[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(found)
    return HEADER + out.getvalue()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=SHARED)
    args = parser.parse_args()
    found = rows(args.folder)
    write_atomically(OUT, csv_text(found).encode())
    print(f"{OUT}: {len(found)} features")


if __name__ == "__main__":
    main()
