"""Road networks to route on: OpenStreetMap (a file, a stored extract, a download) or a proxy.

Every network is a :class:`~routes.routing.roads.RoadNetwork`: columns in osmnx's schema
(node ``x``/``y``; edge ``length`` in metres, ``highway``, ``speed_kph``, ``travel_time``
in seconds; graph ``crs``) and their compiled router, with the graph attribute
``network_source`` (``"osm"`` or ``"proxy"``), so every later stage can say what routes
stand on. Built once per source and cached as data (:func:`cache_path`); no stage needs a
networkx graph (``RoadNetwork.to_networkx()`` gives one on request).

:func:`choose` picks, unless told otherwise: the OSM file the user passed; the
extract stored for the scenario (``routes network fetch``); an Overpass
download, pinned to the story's date; the offline proxy network.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import io
import json
import logging
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from routes import __version__, settings
from routes._io import atomic_path, file_sha256
from routes.errors import DownloadError, NetworkError, RoutesError
from routes.text import brief

log = logging.getLogger("routes")

if TYPE_CHECKING:
    import geopandas as gpd
    import networkx as nx

    from routes.routing.arrays import RoadArrays
    from routes.routing.roads import RoadNetwork
    from routes.scenario import Scenario

__all__ = [
    "CIRCUITY",
    "DRIVABLE",
    "HIGHWAY_SPEEDS_KPH",
    "MAX_AVOID_BYTES",
    "MAX_REGION_KM2",
    "NETWORK_CHOICES",
    "OSM_SUFFIXES",
    "OVERPASS_FILTER",
    "PROXY_MAX_LINK_KM",
    "PROXY_SPEED_KPH",
    "REGION_MARGIN_DEG",
    "TRAVEL_TIME_MODEL",
    "avoid_areas",
    "avoiding",
    "cache_path",
    "choose",
    "extract_path",
    "fetch",
    "from_osm_file",
    "info",
    "load_extract",
    "proxy_network",
    "region",
    "stored_extract",
    "write_roads_xml",
]

NETWORK_CHOICES = ("auto", "osm", "proxy")

#: Road length over great-circle length on the proxy network. An assumption, of the
#: order of national road circuity factors (Ballou, Rahardja & Sakai 2002,
#: "Selected country circuity factors for road travel distance estimation",
#: Transportation Research Part A 36(9)).
CIRCUITY = 1.3

#: Assumed travel speed on the proxy network, km/h: a bus convoy on mixed
#: rural and urban roads. An assumption, not a reported figure.
PROXY_SPEED_KPH = 40.0

#: Proxy links longer than this are dropped unless needed to keep the network connected, km.
PROXY_MAX_LINK_KM = 25.0

#: How far beyond the scenario's places a proxy network or an OSM download reaches, degrees.
REGION_MARGIN_DEG = 0.25

#: Speeds (km/h) for OSM edges without a usable ``maxspeed``: the default speed
#: table of OSRM's car profile (Project-OSRM/osrm-backend, profiles/car.lua).
HIGHWAY_SPEEDS_KPH: dict[str, float] = {
    "motorway": 90, "motorway_link": 45, "trunk": 85, "trunk_link": 40,
    "primary": 65, "primary_link": 30, "secondary": 55, "secondary_link": 25,
    "tertiary": 40, "tertiary_link": 20, "unclassified": 25, "residential": 25,
    "living_street": 10, "road": 25,
}  # fmt: skip

#: Road classes kept from an OSM file: public roads a bus or car can drive.
DRIVABLE = frozenset(HIGHWAY_SPEEDS_KPH)

#: How travel times on OpenStreetMap roads are modelled; every time shown says so.
TRAVEL_TIME_MODEL = (
    "free-flow car speeds: the road's maxspeed tag, else its class's speed in OSRM's car "
    "profile; no stops, checkpoints or traffic"
)

#: What ``routes network fetch`` asks Overpass for: roads down to tertiary, with
#: their links, and unclassified roads; residential streets are left out to keep a
#: region-sized download small. Passed to ``osmnx.graph_from_bbox(custom_filter=...)``.
OVERPASS_FILTER = (
    '["highway"~"^(motorway|trunk|primary|secondary|tertiary)(_link)?$|^unclassified$"]'
)

#: OSM file formats read through pyosmium.
OSM_SUFFIXES = (".osm", ".osm.bz2", ".osm.gz", ".osm.pbf", ".pbf")


def choose(
    scenario: Scenario,
    *,
    osm: str | Path | None = None,
    network: str = "auto",
    offline: bool = False,
) -> RoadNetwork:
    """The network a run routes on, in the order the module docstring gives.

    ``network="osm"`` makes a missing or failed OSM source an error instead of
    a fall-back to the proxy; ``network="proxy"`` skips OSM altogether.
    """
    if network not in NETWORK_CHOICES:
        raise NetworkError(f"network must be one of {', '.join(NETWORK_CHOICES)}, not {network!r}")
    if network == "proxy":
        return proxy_network(scenario)
    if osm is not None:
        return from_osm_file(osm)
    extract = stored_extract(scenario)
    if extract is not None:
        stored = load_extract(extract)
        if _covers(stored, scenario):
            return stored
        log.warning(
            "the roads stored for %s (%s) do not reach every stop of its corridors; "
            "not routing on them", scenario.story.id, extract.name,
        )  # fmt: skip
    if offline:
        if network == "osm":
            raise NetworkError(
                f"no OpenStreetMap data for {scenario.story.id}: pass --osm FILE, or run "
                "`routes network fetch` on a machine with internet"
            )
    elif network != "osm" and (failed := settings.failed_recently(_download(scenario))):
        minutes = (dt.datetime.now(dt.UTC) - failed[0]).total_seconds() // 60
        log.warning(
            "Overpass could not be reached %d min ago (%s); not trying again for a day: "
            "routing on the offline proxy network. Retry with `routes network fetch` or "
            "--network osm, or pass --osm FILE.", minutes, failed[1],
        )  # fmt: skip
        return proxy_network(scenario)
    else:
        try:
            return fetch(scenario)
        except DownloadError as exc:
            if network == "osm":
                raise
            log.warning(
                "OpenStreetMap download failed (%s); falling back to the proxy network", exc
            )
    log.warning(
        "Routing on the offline proxy network (straight links between real places, assumed "
        "speed). For real roads pass --osm FILE or run `routes network fetch` when online."
    )
    return proxy_network(scenario)


def info(G: RoadNetwork) -> dict[str, Any]:
    """What a network is: source, OSM date, size and bounding box (west, south, east, north)."""
    x, y = G.router.x, G.router.y
    return {
        "network_source": G.graph["network_source"],
        "source": G.graph.get("source", ""),
        "osm_date": G.graph.get("osm_date") or None,
        "nodes": G.n_nodes,
        "edges": G.n_edges,
        "bbox": (
            [round(float(v), 5) for v in (x.min(), y.min(), x.max(), y.max())] if len(x) else None
        ),
    }


# --- the proxy network ---------------------------------------------------------------------


def proxy_network(scenario: Scenario) -> RoadNetwork:
    """A road-network stand-in: real places as nodes, Delaunay neighbours as links.

    Nodes are the scenario's places plus GeoNames cities500 towns around them.
    Links join Delaunay neighbours up to :data:`PROXY_MAX_LINK_KM` (and the
    minimum spanning tree, so it is connected); a link is as long as the
    great-circle distance times :data:`CIRCUITY` and is driven at
    :data:`PROXY_SPEED_KPH`.

    Built once per set of nodes and code version, like an OSM file's graph: later runs
    map its columns and router from the parsed-graph cache (:func:`cache_path`, key
    ``proxy-<hash of the nodes>``) and build neither the triangulation nor the router.
    """
    nodes = _proxy_nodes(scenario)
    data = json.dumps(nodes, sort_keys=True, ensure_ascii=False).encode()
    key = f"proxy-{hashlib.sha256(data).hexdigest()[:20]}"
    return _cached(key, lambda: _proxy_arrays(nodes))


def _proxy_arrays(nodes: list[dict[str, object]]) -> RoadArrays:
    """The proxy network over ``nodes`` (:func:`_proxy_nodes`), as :func:`proxy_network` says."""
    import numpy as np
    from pyproj import Proj
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import minimum_spanning_tree

    from routes.distance import great_circle
    from routes.routing.arrays import MISSING, RoadArrays, networkx_order

    lats = np.array([n["y"] for n in nodes])
    lons = np.array([n["x"] for n in nodes])
    project = Proj(proj="aeqd", lat_0=float(lats.mean()), lon_0=float(lons.mean()), datum="WGS84")
    xy = np.column_stack(project(lons, lats))

    pairs = _neighbours(xy)
    u, v = np.array(sorted(pairs)).T
    metres = great_circle(lats[u], lons[u], lats[v], lons[v])
    tree = minimum_spanning_tree(coo_matrix((metres, (u, v)), shape=(len(nodes),) * 2)).tocoo()
    needed = {
        tuple(sorted(pair)) for pair in zip(tree.row.tolist(), tree.col.tolist(), strict=True)
    }
    links: list[tuple[int, int, float, float, bool]] = []  # both ways of each link kept
    speed_ms = PROXY_SPEED_KPH / 3.6
    for a, b, dist in zip(u.tolist(), v.tolist(), metres.tolist(), strict=True):
        if dist > PROXY_MAX_LINK_KM * 1000 and (a, b) not in needed:
            continue
        length = round(dist * CIRCUITY, 1)
        time = round(length / speed_ms, 1)
        links += [(a, b, length, time, False), (b, a, length, time, True)]
    src, dst, length, time, flipped = (list(column) for column in zip(*links, strict=True))
    order = networkx_order(np.array(src), np.array(dst)).tolist()
    n = len(src)
    edges = {
        "length": length,
        "highway": ["proxy"] * n,
        "oneway": [False] * n,
        "speed_kph": [PROXY_SPEED_KPH] * n,
        "travel_time": time,
        "reversed": flipped,
    }
    return RoadArrays.from_columns(
        nodes=np.arange(len(nodes), dtype=np.int64),
        node_columns={
            name: [n.get(name, MISSING) for n in nodes]
            for name in ("x", "y", "name", "place_id", "source")
        },
        uvk=np.array([(src[i], dst[i], 0) for i in order], dtype=np.int64).reshape(-1, 3),
        edge_columns={name: [column[i] for i in order] for name, column in edges.items()},
        geometry=(np.zeros(n + 1, dtype=np.int64), np.zeros((0, 2))),
        graph={
            "crs": "EPSG:4326",
            "network_source": "proxy",
            "source": (
                f"proxy: places linked to Delaunay neighbours; length = great-circle x "
                f"{CIRCUITY}; {PROXY_SPEED_KPH:g} km/h (assumptions, not roads)"
            ),
            "circuity": CIRCUITY,
            "speed_kph": PROXY_SPEED_KPH,
        },
    )


def _neighbours(xy: Any) -> set[tuple[int, int]]:
    """Pairs of Delaunay neighbours among the projected points ``xy``: every pair when there
    are three or fewer, and a joggled triangulation when they lie on a line (places at sea,
    far from any town, may be two or a row)."""
    from itertools import combinations

    from scipy.spatial import Delaunay, QhullError

    if len(xy) <= 3:
        return set(combinations(range(len(xy)), 2))
    try:
        triangles = Delaunay(xy).simplices
    except QhullError:  # all on one line: joggling the input gives a triangulation
        triangles = Delaunay(xy, qhull_options="QJ").simplices
    return {
        (min(int(t[i]), int(t[j])), max(int(t[i]), int(t[j])))
        for t in triangles
        for i, j in ((0, 1), (1, 2), (0, 2))
    }


def _proxy_nodes(scenario: Scenario) -> list[dict[str, object]]:
    """The scenario's places, then GeoNames towns more than 500 m from all of them."""
    import numpy as np

    from routes.distance import great_circle
    from routes.places import geonames_in

    places = [p for p in scenario.places if p.role != "country"]
    whole = region(scenario)
    if _area_km2(whole) <= MAX_REGION_KM2:
        around = geonames_in(whole)
    else:
        m = REGION_MARGIN_DEG
        near = {
            t.id: t
            for p in places
            for t in geonames_in((p.lon - m, p.lat - m, p.lon + m, p.lat + m))
        }
        around = [near[k] for k in sorted(near)]
    lat, lon = np.array([[p.lat, p.lon] for p in places]).reshape(-1, 2).T
    tlat, tlon = np.array([[t.lat, t.lon] for t in around]).reshape(-1, 2).T[:, :, None]
    apart = (great_circle(tlat, tlon, lat, lon) > 500).all(axis=1)  # towns × places
    towns = [around[i] for i in np.flatnonzero(apart).tolist()]
    return [
        *(
            {"x": p.lon, "y": p.lat, "name": p.name, "place_id": p.id, "source": p.source}
            for p in places
        ),
        *({"x": t.lon, "y": t.lat, "name": t.name, "source": f"GeoNames {t.id}"} for t in towns),
    ]


def region(scenario: Scenario) -> tuple[float, float, float, float]:
    """The scenario's places' extent plus :data:`REGION_MARGIN_DEG`: west, south, east, north."""
    west, south, east, north = scenario.bounds()
    m = REGION_MARGIN_DEG
    return west - m, south - m, east + m, north + m


# --- OpenStreetMap: files, stored extracts, downloads -------------------------------------


def from_osm_file(path: str | Path) -> RoadNetwork:
    """The drivable network in an OSM file (.osm, .osm.bz2, .osm.gz, .osm.pbf), parsed once.

    pyosmium reads the :data:`DRIVABLE` ways straight into columns and numpy builds the
    graph osmnx would (:mod:`routes.network.osmfile`: split at intersections, simplified,
    speeds and travel times), with no XML and no networkx; columns and router are cached
    by the file's content. A cached entry is mapped, and of each column only the blocks a
    read needs are paged in and checked, when first read: a damaged one is then a
    :class:`NetworkError` (and the entry is removed, so the next run builds it again).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no OSM file at {path}")
    if not path.name.endswith(OSM_SUFFIXES):
        raise NetworkError(
            f"{path.name}: not an OSM file; expected one of {', '.join(OSM_SUFFIXES)}"
        )

    hashed = _fingerprint(path)

    def build() -> RoadArrays:
        from routes.network.osmfile import road_arrays

        arrays = road_arrays(
            path, highways=DRIVABLE, speeds=HIGHWAY_SPEEDS_KPH, fallback=HIGHWAY_SPEEDS_KPH["road"]
        )
        if _fingerprint(path) != hashed:  # the roads read are not those hashed: cache nothing
            raise NetworkError(f"{path.name} changed while it was read; run again")
        arrays.graph.update(network_source="osm", source="", osm_date="")
        return arrays

    roads = _cached(f"osm-{file_sha256(path)[:20]}", build, lazy=True)
    # the cache may hold a copy of the file under another name
    roads.graph.update(
        source=f"OpenStreetMap file {path.name}", travel_time_model=TRAVEL_TIME_MODEL
    )
    return roads


def _fingerprint(path: Path) -> tuple[int, int, int]:
    """What changes when a file is written to: its inode, size and modification time."""
    st = path.stat()
    return st.st_ino, st.st_size, st.st_mtime_ns


def write_roads_xml(
    src: str | Path, dest: str | Path, *, highways: frozenset[str] | None = DRIVABLE
) -> None:
    """Write the road ways of an OSM file, and the nodes they use, as OSM XML osmnx reads.

    ``highways`` are the ``highway=*`` values kept (None: every highway way). An
    extract cut from a larger map has ways whose nodes lie outside it; each such way
    keeps its longest run of nodes the file has (osmnx refuses missing nodes). Node
    tags are not kept: routing needs only their positions.
    """
    import osmium

    from routes.network.osmfile import road_ways

    ways: list[osmium.osm.mutable.Way] = []
    nodes: dict[int, tuple[float, float]] = {}
    for way, run in road_ways(src, highways):
        nodes.update((ref, (lon, lat)) for ref, lon, lat in run)
        tags = {tag.k: tag.v for tag in way.tags}
        ways.append(osmium.osm.mutable.Way(id=way.id, tags=tags, nodes=[n[0] for n in run]))
    with atomic_path(dest) as tmp, osmium.SimpleWriter(str(tmp), overwrite=True) as writer:
        for ref in sorted(nodes):
            writer.add_node(osmium.osm.mutable.Node(id=ref, location=nodes[ref]))
        for kept in ways:
            writer.add_way(kept)


def extract_path(scenario: Scenario) -> Path:
    """Where ``routes network fetch`` stores the scenario's OSM extract (GraphML)."""
    return settings.osm_dir / f"{scenario.story.id}.graphml"


def stored_extract(scenario: Scenario) -> Path | None:
    """The roads stored for the scenario, if any: the extract ``routes network fetch``
    stored (OpenStreetMap as of the story's date), else the OSM file shipped for it
    (``<story id>.osm.pbf`` in :data:`settings.osm_dir`, described by the ``.osm.json``
    beside it: its date and source; ``scripts/build_aleppo_roads.py`` writes both)."""
    for path in (extract_path(scenario), settings.osm_dir / f"{scenario.story.id}.osm.pbf"):
        if path.is_file():
            return path
    return None


def _covers(roads: RoadNetwork, scenario: Scenario) -> bool:
    """Whether every stop of the scenario's corridors lies within the extent of ``roads``'
    nodes (a scenario copied under the same id may have moved its places elsewhere)."""
    x, y = roads.router.x, roads.router.y
    if not len(x):
        return False
    west, east, south, north = float(x.min()), float(x.max()), float(y.min()), float(y.max())
    stops = [scenario.place(stop) for corridor in scenario.corridors for stop in corridor.stops]
    return all(west <= p.lon <= east and south <= p.lat <= north for p in stops)


def load_extract(path: str | Path) -> RoadNetwork:
    """A stored extract: GraphML written by :func:`fetch`, read by osmnx once and cached as
    columns by its content; or an OSM file (:func:`from_osm_file`) dated and sourced by the
    description beside it (:func:`described`)."""
    path = Path(path)
    if path.name.endswith(OSM_SUFFIXES):
        roads = from_osm_file(path)
        about = described(path)
        if about:
            roads.graph.update(
                source=f"OpenStreetMap file {path.name}: {about['source']}",
                osm_date=about["osm_date"],
            )
        return roads
    import osmnx as ox

    from routes.routing.arrays import RoadArrays

    roads = _cached(
        f"extract-{file_sha256(path)[:20]}", lambda: RoadArrays.from_networkx(ox.load_graphml(path))
    )
    roads.graph["travel_time_model"] = TRAVEL_TIME_MODEL
    return roads


#: An OpenStreetMap date as precise as it is known: a year, a month or a day (ISO 8601).
_OSM_DATE = re.compile(r"\d{4}(-\d{2}(-\d{2})?)?")


def described(path: Path) -> dict[str, str]:
    """What the ``.json`` beside an OSM file says of it (``osm_date``: when the roads were
    mapped, to the precision known; ``source``), when it describes this very file (its
    ``sha256``); else nothing, with a warning if it is there but does not."""
    about_path = path.with_suffix(".json")
    if not about_path.is_file():
        return {}
    try:
        about = json.loads(about_path.read_bytes())
        date, source, digest = (str(about[key]) for key in ("osm_date", "source", "sha256"))
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("%s is unreadable (%s); the roads' date is not known", about_path.name, exc)
        return {}
    if digest != file_sha256(path) or not _OSM_DATE.fullmatch(date):
        log.warning(
            "%s does not describe %s (another sha256, or no date); the roads' date is not "
            "known: rebuild both with the script that wrote them", about_path.name, path.name,
        )  # fmt: skip
        return {}
    return {"osm_date": date, "source": source}


#: The largest region treated as one, km²: one Overpass download (about a hundred of
#: osmnx's 2,500 km² sub-queries), and the proxy's towns taken from the whole region
#: (Syria is 185,000 km²; the Aleppo scenario's region 16,000). A wider story (a
#: world-wide corpus) wants an OSM file, and its proxy takes only the towns around each
#: place: Overpass would be asked thousands of queries, the proxy every town between.
MAX_REGION_KM2 = 250_000


def fetch(scenario: Scenario) -> RoadNetwork:
    """Download the scenario's region from Overpass as of the story's date; store it as its
    extract (GraphML) and cache its columns, as :func:`load_extract` reads them.

    osmnx sends the query (with ``[date:"…"]`` from :func:`settings.configure_osmnx`),
    caches the response, builds and simplifies the graph.
    """
    bbox = region(scenario)
    km2 = _area_km2(bbox)
    if km2 > MAX_REGION_KM2:
        raise DownloadError(
            f"the region of {scenario.story.id} is {km2:,.0f} km², more than the "
            f"{MAX_REGION_KM2:,} km² one Overpass download may cover; pass --osm FILE "
            "(an extract of the region, e.g. from Geofabrik)"
        )
    import osmnx as ox
    import requests

    settings.configure_osmnx(date=scenario.story.date)
    # osmnx waits 60 s when it cannot ask Overpass how long to pause; offline, skip the asking
    online = ox.settings.overpass_rate_limit = _resolves(ox.settings.overpass_url)
    try:
        G = ox.graph_from_bbox(bbox, custom_filter=OVERPASS_FILTER, truncate_by_edge=True)
    except (
        OSError,
        requests.RequestException,
        ox._errors.InsufficientResponseError,
        ox._errors.ResponseStatusCodeError,
    ) as exc:
        reason = (
            str(exc).splitlines()[0][:160]
            if online
            else "no network: the server's name does not resolve"
        )
        if not online or isinstance(exc, OSError | requests.ConnectionError | requests.Timeout):
            settings.remember_failure(_download(scenario), reason)  # next runs go to the proxy
        raise DownloadError(f"Overpass: {reason}") from None
    finally:
        settings.configure_osmnx()
    settings.forget_failure(_download(scenario))
    G = _with_travel_times(
        G,
        source=f"Overpass API, bbox {', '.join(f'{v:.4f}' for v in bbox)}",
        osm_date=scenario.story.date.isoformat() if scenario.story.date else "",
    )
    from routes.routing.arrays import RoadArrays

    path = extract_path(scenario)
    path.parent.mkdir(parents=True, exist_ok=True)
    with atomic_path(path, entry=True) as tmp:
        ox.save_graphml(G, tmp)
    roads = _cached(f"extract-{file_sha256(path)[:20]}", lambda: RoadArrays.from_networkx(G))
    roads.graph["travel_time_model"] = TRAVEL_TIME_MODEL
    return roads


def _download(scenario: Scenario) -> str:
    """What a download for ``scenario`` asks: its region (to 0.01°) as of its date."""
    box = ",".join(f"{v:.2f}" for v in region(scenario))
    return f"overpass {box} {scenario.story.date or 'today'}"


def _area_km2(bbox: tuple[float, float, float, float]) -> float:
    """The area of a west, south, east, north box on the WGS 84 ellipsoid, km²."""
    from pyproj import Geod
    from shapely.geometry import box

    area, _perimeter = Geod(ellps="WGS84").geometry_area_perimeter(box(*bbox))
    return abs(area) / 1e6


def _resolves(url: str) -> bool:
    """Whether the host of ``url`` has an address (False offline)."""
    import socket
    from urllib.parse import urlsplit

    try:
        socket.gethostbyname(urlsplit(url).hostname or "")
    except OSError:
        return False
    return True


def _with_travel_times(G: nx.MultiDiGraph, *, source: str, osm_date: str) -> nx.MultiDiGraph:
    import osmnx as ox

    from routes.network.osmfile import maxspeed_kph

    for *_, data in G.edges(keys=True, data=True):  # maxspeed=0 would be an endless edge
        if "maxspeed" in data and maxspeed_kph(data["maxspeed"]) is None:
            del data["maxspeed"]  # the road class's speed, as for a road without the tag
    G = ox.routing.add_edge_speeds(
        G, hwy_speeds=HIGHWAY_SPEEDS_KPH, fallback=HIGHWAY_SPEEDS_KPH["road"]
    )
    G = ox.routing.add_edge_travel_times(G)
    G.graph.update(network_source="osm", source=source, osm_date=osm_date)
    return G


#: The largest ``--avoid`` file read, bytes: hand-drawn areas are kilobytes.
MAX_AVOID_BYTES = 64 * 2**20


def avoid_areas(path: str | Path, *, data: bytes | None = None) -> gpd.GeoDataFrame:
    """The polygons of a GeoJSON file of areas routes must not enter, in WGS84 (its ``data``,
    when the caller read the file already).

    Read from a regular file only; each polygon made valid (a hand-drawn outline that
    crosses itself, or overlaps another, is what it encloses: shapely's ``make_valid``),
    its ``name`` kept as text.
    """
    import geopandas as gpd
    import numpy as np
    import pandas as pd
    import shapely

    from routes._io import read_input

    if data is None:
        data = read_input(path, limit=MAX_AVOID_BYTES, what="areas to avoid")
    try:
        polygons = gpd.read_file(io.BytesIO(data)).to_crs("EPSG:4326")
    except Exception as exc:  # pyogrio raises several types for unreadable files
        raise NetworkError(f"cannot read the areas to avoid in {path} "
                           f"({brief(str(exc), 160)})") from None  # fmt: skip
    if polygons.empty or not polygons.geom_type.isin(["Polygon", "MultiPolygon"]).all():
        raise NetworkError(f"{path}: expected GeoJSON polygons to avoid")
    bounds = polygons.bounds.to_numpy()
    if not np.isfinite(bounds).all() or (np.abs(bounds[:, [1, 3]]) > 90).any():
        raise NetworkError(f"{path}: a polygon has coordinates that are not longitude and "
                           "latitude in degrees")  # fmt: skip
    valid = [_polygonal(g) for g in shapely.make_valid(polygons.geometry.to_numpy())]
    areas = polygons.set_geometry(gpd.GeoSeries(valid, index=polygons.index, crs="EPSG:4326"))
    areas = areas[shapely.area(areas.geometry.to_numpy()) > 0]  # in degrees²: only > 0 counts
    if areas.empty:
        raise NetworkError(f"{path}: no polygon encloses any area")
    if "name" in areas:  # text or nothing (an object column: pandas' str dtype makes None NaN)
        areas["name"] = pd.Series([_text(n) for n in areas["name"]], areas.index, dtype=object)
    return areas.reset_index(drop=True)


def _polygonal(geometry: Any) -> Any:
    """The polygons of what ``make_valid`` gave (a collection may hold stray lines)."""
    import shapely

    if geometry.geom_type in {"Polygon", "MultiPolygon"}:
        return geometry
    parts = [p for p in shapely.get_parts(geometry) if p.geom_type in {"Polygon", "MultiPolygon"}]
    return shapely.union_all(parts) if parts else shapely.Polygon()


def _text(value: Any) -> str | None:
    """A feature property as text (a name may come as a list, a number or nothing)."""
    value = value.tolist() if hasattr(value, "tolist") else value  # GDAL gives lists as arrays
    if value is None or (isinstance(value, float) and value != value):
        return None
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)


def avoiding(G: RoadNetwork, areas: str | Path | gpd.GeoDataFrame) -> RoadNetwork:
    """``G`` without the edges that enter ``areas`` (polygons, or their GeoJSON file): the same
    columns, a router over the other edges (:meth:`RoadNetwork.without`)."""
    polygons = avoid_areas(areas) if isinstance(areas, str | Path) else areas
    west, south, east, north = (float(v) for v in polygons.total_bounds)
    edges = G.edges(within=(west, south, east, north))
    return G.without(edges.index[edges.intersects(polygons.union_all())].to_numpy())


# --- the parsed-graph cache -----------------------------------------------------------------


#: Version of the cache's layout: one ``.npz`` of the graph's columns and its router's arrays,
#: with the CRC-32 of each block of the larger ones (:mod:`routes.network.store`).
CACHE_FORMAT = 4


def _build_key() -> str:
    """Changes whenever the code or settings that shape a parsed graph change: this package,
    the OSM reader, the routing backend and the distances they measure (their source), the
    libraries that build graphs, the Python version, the speed table and the Overpass filter."""
    from importlib.metadata import version
    from importlib.util import find_spec

    from routes.routing import arrays, backend, roads

    shapers = (__name__, f"{__name__}.osmfile", arrays.__name__, roads.__name__, backend.__name__,
               "routes.distance")  # fmt: skip
    sources = [Path(getattr(find_spec(name), "origin", "")).read_bytes() for name in shapers]
    shaping = (
        __version__,
        CACHE_FORMAT,
        arrays.FORMAT,
        backend.FORMAT,
        [hashlib.sha256(source).hexdigest() for source in sources],
        [version(name) for name in ("osmnx", "networkx", "shapely", "numpy", "scipy", "pyproj")],
        sys.version_info[:2],
        sorted(HIGHWAY_SPEEDS_KPH.items()),
        OVERPASS_FILTER,
    )
    return hashlib.sha256(repr(shaping).encode()).hexdigest()[:12]


def cache_path(key: str) -> Path:
    """The cache file of a graph: ``graphs/<source key>-<build key>.npz`` in the cache folder."""
    return settings.cache_dir / "graphs" / f"{key}-{_build_key()}.npz"


def _cached(key: str, build: Callable[[], RoadArrays], *, lazy: bool = False) -> RoadNetwork:
    """Build a graph's columns and router once per key and code version; later runs map
    them from the cache without parsing.

    The entry (:func:`cache_path`) is data only: the graph's columns
    (:class:`~routes.routing.arrays.RoadArrays`) and its compiled router's arrays, in one
    uncompressed ``.npz`` mapped into memory and checked block by block. An entry that
    fails to load is built again, with a warning; with ``lazy``, only what the router
    needs is checked now, and of each column the blocks a read needs, when first read.
    """
    from routes.network.store import saved_hierarchies, write_npz
    from routes.routing.roads import RoadNetwork

    path = cache_path(key)
    entry = _load_entry(path, lazy=lazy)
    if entry is not None:
        return entry
    arrays = build()
    roads = RoadNetwork.from_arrays(arrays)
    roads.router.hierarchy_cache = saved_hierarchies(path)  # beside the entry
    columns = arrays.arrays()
    columns.update({f"router/{k}": v for k, v in roads.router.arrays().items()})
    try:
        settings.cache_folder(path.parent.name)
        write_npz(path, columns)
    except (OSError, RoutesError) as exc:  # routed all the same; the next run builds it again
        log.warning("cannot keep the graph in the cache (%s)", exc)
    return roads


def _load_entry(path: Path, *, lazy: bool = False) -> RoadNetwork | None:
    """The network cached at ``path``; None (with a one-line warning if the entry exists but
    is broken) when there is none to use."""
    from routes.network.store import read_npz, saved_hierarchies
    from routes.routing.arrays import RoadArrays
    from routes.routing.backend import WEIGHTS, Router
    from routes.routing.ch import integer_weights
    from routes.routing.roads import RoadNetwork

    if not path.is_file():
        return None
    try:
        arrays = read_npz(path, lazy=lazy)
        router = Router.from_saved(
            {k[len("router/") :]: arrays[k] for k in arrays if k.startswith("router/")}
        )
        for weight in WEIGHTS:  # each fits a contraction hierarchy, as a built one does
            integer_weights(router.weights[weight], weight)
        router.hierarchy_cache = saved_hierarchies(path)
        columns = RoadArrays.from_arrays(arrays, lazy=lazy, damaged=_damaged(path))
        if any(len(r) and int(r.max()) >= columns.n_edges for r in router.rows.values()):
            raise ValueError("the router names edges the columns do not have")
        return RoadNetwork(columns, router)
    except (OSError, ValueError) as exc:
        log.warning("graph cache entry %s is unusable (%s); building it again", path.name, exc)
        return None


def _damaged(path: Path) -> Callable[[ValueError], NoReturn]:
    """What a column of the entry at ``path`` that fails its check when first read does:
    the entry goes (the next run builds it again) and the run stops with one line."""

    def damaged(exc: ValueError) -> NoReturn:
        path.unlink(missing_ok=True)
        raise NetworkError(
            f"graph cache entry {path.name} is damaged ({exc}); it was removed: run again "
            "to build it anew"
        ) from None

    return damaged
