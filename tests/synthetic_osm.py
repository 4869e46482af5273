"""A synthetic, road-like OpenStreetMap file of any size, written with pyosmium.

Not real roads (no place, nothing in ``geodata/``): a square street grid at a made-up
location, for the cases a real extract may lack and for scale. Each block side has one
shape node, so simplification has chains to merge; streets are ways of a few blocks,
some split at a shape node (a chain across two ways with different tags); one-ways
(``yes``, ``-1``), a roundabout-tagged street, ``maxspeed`` in km/h, mph, lists and
implicit values, and road classes outside the speed table. :func:`write_grid_scenario`
writes a small scenario whose places sit on such a grid, to run ``routes`` on it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

#: Made-up origin and spacing of the grid, degrees.
ORIGIN = (10.0, 50.0)
STEP = 0.001

CLASSES = ("residential", "tertiary", "secondary", "primary", "service", "unclassified")
MAXSPEEDS = ("50", "30 mph", "DE:urban", "40|60", None, None, "80", None)


def write_road_grid(path: Path, side: int) -> Path:
    """Write a ``side`` × ``side`` street grid (about 4·side² directed edges) to ``path``."""
    import osmium

    def corner(i: int, j: int) -> int:
        return 1 + i * side + j

    def shape(i: int, j: int, across: bool) -> int:  # between (i, j) and the next corner
        return 1 + side * side + 2 * (i * side + j) + int(across)

    nodes: dict[int, tuple[float, float]] = {}
    for i in range(side):
        for j in range(side):
            lon, lat = ORIGIN[0] + j * STEP, ORIGIN[1] + i * STEP
            nodes[corner(i, j)] = (lon, lat)
            wobble = STEP * 0.1 * ((i * 7 + j * 3) % 5 - 2) / 2
            nodes[shape(i, j, False)] = (lon + STEP / 2, lat + wobble)
            nodes[shape(i, j, True)] = (lon + wobble, lat + STEP / 2)
    ways = [
        *_streets(side, corner, shape, across=False),
        *_streets(side, corner, shape, across=True),
    ]
    path.unlink(missing_ok=True)
    with osmium.SimpleWriter(str(path)) as writer:
        for ref in sorted(nodes):
            writer.add_node(osmium.osm.mutable.Node(id=ref, location=nodes[ref]))
        for number, (refs, tags) in enumerate(ways, start=1):
            writer.add_way(osmium.osm.mutable.Way(id=number, nodes=refs, tags=tags))
    return path


def _streets(
    side: int,
    corner: Callable[[int, int], int],
    shape: Callable[[int, int, bool], int],
    *,
    across: bool,
) -> list[tuple[list[int], dict[str, str]]]:
    """The ways along rows (or, ``across``, columns): 4 blocks each, every third street split
    at a shape node instead of a corner."""
    out = []
    for i in range(side):
        refs: list[int] = []
        for j in range(side):
            at = (j, i) if across else (i, j)
            refs.append(corner(*at))
            if j < side - 1:
                refs.append(shape(at[0], at[1], across))
        cut = 8 if i % 3 else 9  # a cut at an odd position falls on a shape node
        for n, start in enumerate(range(0, len(refs) - 1, cut)):
            k = i * 31 + n * 7 + int(across)
            tags = {"highway": CLASSES[k % len(CLASSES)], "name": f"Street {i}{'ab'[across]}"}
            if MAXSPEEDS[k % len(MAXSPEEDS)] is not None:
                tags["maxspeed"] = str(MAXSPEEDS[k % len(MAXSPEEDS)])
            if i % 5 == 1:
                tags["oneway"] = "yes"
            elif i % 7 == 3:
                tags["oneway"] = "-1"
            elif i % 11 == 5:
                tags["junction"] = "roundabout"
            out.append((refs[start : start + cut + 1], tags))
    return out


def write_grid_scenario(path: Path, side: int, *, blocks: int = 20) -> Path:
    """Write a scenario YAML of three places on the ``side`` grid's corners, ``blocks``
    apart around its middle (about 2 km), and two corridors: ``short`` (the first to the
    second) and ``via`` (the third to the first through the second). Test routes on a
    made-up grid, not reported movements."""
    import yaml

    middle = side // 2
    spots = [
        (middle, middle),
        (middle + blocks, middle + blocks),
        (middle - blocks, middle + blocks),
    ]
    note = "test route on a synthetic street grid; not a place, not a reported movement"
    date = "2016-12-15"
    source = {
        "id": "synthetic",
        "title": "Synthetic street grid (tests/synthetic_osm.py)",
        "publisher": "routes test suite",
        "date": date,
    }
    places = [
        {
            "id": f"corner-{n}",
            "name": f"Corner {n}",
            "role": "neighbourhood",
            "lat": round(ORIGIN[1] + i * STEP, 6),
            "lon": round(ORIGIN[0] + j * STEP, 6),
            "source": "synthetic",
            "detail": f"grid corner ({i}, {j})",
        }
        for n, (i, j) in enumerate(spots)
    ]
    corridor = {
        "date": date,
        "status": "reported",
        "note": note,
        "route_sources": [{"source": "synthetic", "detail": note}],
    }
    record = {
        "story": {
            "id": f"synthetic-grid-{side}",
            "title": "Test corridors on a synthetic grid",
            "publisher": "routes test suite",
            "published": date,
            "date": date,
            "source": "synthetic",
        },
        "sources": [source],
        "places": places,
        "corridors": [
            {
                "id": "short",
                "name": "Corner 0 to Corner 1",
                "origin": "corner-0",
                "destination": "corner-1",
                **corridor,
            },
            {
                "id": "via",
                "name": "Corner 2 to Corner 0 via Corner 1",
                "origin": "corner-2",
                "waypoints": ["corner-1"],
                "destination": "corner-0",
                **corridor,
            },
        ],
    }
    path.write_text(yaml.safe_dump(record, sort_keys=False), encoding="utf-8")
    return path
