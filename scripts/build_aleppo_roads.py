#!/usr/bin/env python
"""Write ``geodata/osm/aleppo-2016-12.osm.pbf``: the roads the Aleppo scenario routes on.

The roads are ``../shared/osm-aleppo/roads.geojson`` (see its ``SOURCE.md``): every road
of the evacuation's area (lon 36.30–37.35, lat 35.70–36.45), decoded from OpenMapTiles
vector tiles built from Geofabrik's OpenStreetMap extracts of Syria and Turkey of
August 2021 (© OpenStreetMap contributors, ODbL 1.0). Each feature becomes an OSM way
with the tags the network layer reads, so the file routes like any OSM file
(:func:`routes.network.from_osm_file`):

- ``highway``: the tiles' class, ``<class>_link`` for a ramp, a minor road's subclass
  (residential, unclassified, living_street, road); only the classes the network layer
  drives on (:data:`routes.network.DRIVABLE`) are kept: service roads, tracks and
  footways are left out, as they are from any OSM file;
- ``oneway=yes`` where the tiles mark the way one-way (their builder drops
  ``oneway=-1``); ``bridge``, ``tunnel`` or ``ford=yes``; ``name`` and ``ref``.

The tiles carry no OSM ids: ways are numbered in the file's order and nodes by their
coordinates (ways meet where they share a vertex at the source's 6 decimals, as the
source's own connectivity check found them), so the ids are this file's, not
OpenStreetMap's. The file's date, licence and source are written beside it, in
``aleppo-2016-12.osm.json``, which the network layer reads with it. The same input gives
the same bytes (a test rebuilds both files where ``../shared`` is present).

    python scripts/build_aleppo_roads.py
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from routes._io import atomic_path, file_sha256, write_atomically
from routes.datasets import DATA_DIR
from routes.network import DRIVABLE

SOURCE = Path(__file__).resolve().parents[2] / "shared" / "osm-aleppo" / "roads.geojson"
OUT = DATA_DIR / "osm" / "aleppo-2016-12.osm.pbf"

#: What the file says of itself (``<file>.json`` beside it): read by the network layer.
ABOUT = {
    "name": "Roads of the Aleppo evacuation's area (Aleppo, Idlib, Bab al-Hawa, Reyhanlı)",
    "osm_date": "2021-08",
    "osm_date_detail": (
        "the tiles were built and committed on 2021-08-06 from the Geofabrik extracts of "
        "that day or the day before; no exact OpenStreetMap timestamp is recorded"
    ),
    "attribution": "© OpenStreetMap contributors",
    "licence": "ODbL 1.0",
    "licence_url": "https://opendatacommons.org/licenses/odbl/1-0/",
    "source": (
        "OpenMapTiles-schema vector tiles (z14) of tokenless-tiles/syria gh-pages "
        "0377d314d52fc3d0832638637389d72bf36562ab and tokenless-tiles/turkey gh-pages "
        "cdcd46cb7d4bcc5317ab652292a2dd2396528fe1, built on 2021-08-06 from Geofabrik's "
        "syria-latest and turkey-latest OpenStreetMap extracts"
    ),
    "built_by": "scripts/build_aleppo_roads.py from ../shared/osm-aleppo/roads.geojson",
    "caveats": (
        "roads as mapped in OpenStreetMap in August 2021, not as they were on the story's "
        "date; drivable classes only (service roads, tracks and paths left out); no OSM ids, "
        "turn restrictions, speed limits or surfaces; private roads left out by the tiles; "
        "oneway=-1 read as two-way"
    ),
}

#: The tiles' ``brunnel`` values, as OSM tags.
BRUNNEL_TAGS = {"bridge": "bridge", "tunnel": "tunnel", "ford": "ford"}

#: The PBF written without object metadata (versions, timestamps): the tiles have none.
FORMAT = "pbf,add_metadata=false"
GENERATOR = "routes scripts/build_aleppo_roads.py"


def highway(properties: dict[str, Any]) -> str:
    """A feature's OSM ``highway`` value from its OpenMapTiles class, subclass and ramp.

    >>> highway({"class": "trunk", "ramp": True})
    'trunk_link'
    >>> highway({"class": "minor", "subclass": "residential", "ramp": False})
    'residential'
    """
    kind = properties["class"]
    if kind == "minor":
        return str(properties.get("subclass") or "unclassified")
    return f"{kind}_link" if properties.get("ramp") else str(kind)


def tags(properties: dict[str, Any]) -> dict[str, str]:
    """The OSM tags of a feature (see the module docstring)."""
    found = {"highway": highway(properties)}
    if properties.get("oneway"):
        found["oneway"] = "yes"
    if properties.get("brunnel") in BRUNNEL_TAGS:
        found[BRUNNEL_TAGS[properties["brunnel"]]] = "yes"
    for key in ("name", "ref"):
        if properties.get(key):
            found[key] = str(properties[key])
    return found


def ways(features: list[dict[str, Any]]) -> list[tuple[dict[str, str], list[tuple[int, int]]]]:
    """The drivable ones of the GeoJSON ``features``: their tags and their points, in units
    of 1e-7 degree (OSM's own precision; the source's 6 decimals are exact in it)."""
    kept = []
    for feature in features:
        way_tags = tags(feature["properties"])
        if way_tags["highway"] in DRIVABLE:
            points = [
                (round(x * 1e7), round(y * 1e7)) for x, y in feature["geometry"]["coordinates"]
            ]
            kept.append((way_tags, points))
    return kept


def write(source: Path, out: Path) -> None:
    """Write the OSM file and its ``.json`` description."""
    roads = json.loads(source.read_bytes())
    kept = ways(roads["features"])
    ids = {point: i for i, point in enumerate(sorted({p for _, pts in kept for p in pts}), 1)}
    out.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(out) as tmp:
        _write_pbf(tmp, roads["bbox"], ids, kept)
    about = {**ABOUT, "file": out.name, "sha256": file_sha256(out), "ways": len(kept),
             "nodes": len(ids), "source_sha256": file_sha256(source)}  # fmt: skip
    text = json.dumps(about, indent=1, ensure_ascii=False) + "\n"
    write_atomically(out.with_suffix(".json"), text.encode("utf-8"))


def _write_pbf(
    path: Path,
    bbox: list[float],
    ids: dict[tuple[int, int], int],
    kept: list[tuple[dict[str, str], list[tuple[int, int]]]],
) -> None:
    """The nodes (``ids``: point → id, in id order) and ways as OSM PBF, the source's
    bounding box (west, south, east, north) in its header."""
    import osmium

    header = osmium.io.Header()
    header.set("generator", GENERATOR)
    west, south, east, north = bbox
    header.add_box(
        osmium.osm.Box(osmium.osm.Location(west, south), osmium.osm.Location(east, north))
    )
    file = osmium.io.File(str(path), FORMAT)
    with osmium.SimpleWriter(file, header=header, overwrite=True) as writer:
        for (lon, lat), node in ids.items():
            writer.add_node(osmium.osm.mutable.Node(id=node, location=(lon / 1e7, lat / 1e7)))
        for number, (way_tags, points) in enumerate(kept, 1):
            nodes = [ids[p] for p in points]
            writer.add_way(osmium.osm.mutable.Way(id=number, tags=way_tags, nodes=nodes))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--source", type=Path, default=SOURCE, help="roads.geojson to read")
    parser.add_argument("--out", type=Path, default=OUT, help="the .osm.pbf to write")
    args = parser.parse_args()
    write(args.source, args.out)
    print(args.out)


if __name__ == "__main__":
    main()
