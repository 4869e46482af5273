"""Road networks to route on: a real OpenStreetMap extract, or a labelled offline proxy.

Both are ``networkx.MultiDiGraph`` in osmnx's schema (node ``x``/``y``; edge
``length`` in metres, ``highway``, ``speed_kph``, ``travel_time`` in seconds;
graph ``crs``), plus the graph attribute ``network_source`` (``"osm"`` or
``"proxy"``) so every later stage can say what the routes stand on.
"""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path
from typing import TYPE_CHECKING

from routes import __version__, settings

if TYPE_CHECKING:
    import networkx as nx

    from routes.scenario import Scenario

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

#: How far beyond the scenario's places the proxy network reaches, degrees.
PROXY_MARGIN_DEG = 0.25

#: Speed for OSM edges whose highway class has no maxspeed anywhere in the data, km/h.
OSM_FALLBACK_SPEED_KPH = 30.0


def proxy_network(scenario: Scenario) -> nx.MultiDiGraph:
    """A road-network stand-in: real places as nodes, Delaunay neighbours as links.

    Nodes are the scenario's places plus GeoNames cities500 towns around them.
    Links join Delaunay neighbours up to :data:`PROXY_MAX_LINK_KM` (and the
    minimum spanning tree, so it is connected); a link is as long as the
    great-circle distance times :data:`CIRCUITY` and is driven at
    :data:`PROXY_SPEED_KPH`.
    """
    import networkx as nx
    import numpy as np
    from osmnx.distance import great_circle
    from pyproj import Proj
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import minimum_spanning_tree
    from scipy.spatial import Delaunay

    nodes = _proxy_nodes(scenario)
    lats = np.array([n["y"] for n in nodes])
    lons = np.array([n["x"] for n in nodes])
    project = Proj(proj="aeqd", lat_0=float(lats.mean()), lon_0=float(lons.mean()), datum="WGS84")
    xy = np.column_stack(project(lons, lats))

    pairs = {
        tuple(sorted(map(int, (a, b))))
        for simplex in Delaunay(xy).simplices
        for a, b in ((simplex[0], simplex[1]), (simplex[1], simplex[2]), (simplex[0], simplex[2]))
    }
    u, v = np.array(sorted(pairs)).T
    metres = great_circle(lats[u], lons[u], lats[v], lons[v])
    tree = minimum_spanning_tree(coo_matrix((metres, (u, v)), shape=(len(nodes),) * 2)).tocoo()
    keep = set(zip(tree.row.tolist(), tree.col.tolist(), strict=True))
    keep = {tuple(sorted(pair)) for pair in keep}

    G = nx.MultiDiGraph(
        crs="EPSG:4326",
        network_source="proxy",
        circuity=CIRCUITY,
        speed_kph=PROXY_SPEED_KPH,
        description=(
            f"Offline proxy: places linked to their Delaunay neighbours; length = great-circle "
            f"x {CIRCUITY}; speed {PROXY_SPEED_KPH:g} km/h (assumptions, not roads)"
        ),
    )
    for i, attrs in enumerate(nodes):
        G.add_node(i, **attrs)
    speed_ms = PROXY_SPEED_KPH / 3.6
    for a, b, dist in zip(u.tolist(), v.tolist(), metres.tolist(), strict=True):
        if dist > PROXY_MAX_LINK_KM * 1000 and (a, b) not in keep:
            continue
        length = round(dist * CIRCUITY, 1)
        attrs = {
            "length": length,
            "highway": "proxy",
            "oneway": False,
            "speed_kph": PROXY_SPEED_KPH,
            "travel_time": round(length / speed_ms, 1),
        }
        G.add_edge(a, b, **attrs, reversed=False)
        G.add_edge(b, a, **attrs, reversed=True)
    return G


def _proxy_nodes(scenario: Scenario) -> list[dict[str, object]]:
    """The scenario's places, then GeoNames towns more than 500 m from all of them."""
    from osmnx.distance import great_circle

    from routes.geocode import geonames_in

    places = [p for p in scenario.places if p.role != "country"]
    west, south, east, north = scenario.bounds()
    m = PROXY_MARGIN_DEG
    towns = [
        town
        for town in geonames_in((west - m, south - m, east + m, north + m))
        if all(great_circle(town.lat, town.lon, p.lat, p.lon) > 500 for p in places)
    ]
    return [
        *(
            {"x": p.lon, "y": p.lat, "name": p.name, "place_id": p.id, "source": p.source}
            for p in places
        ),
        *({"x": t.lon, "y": t.lat, "name": t.name, "source": f"GeoNames {t.id}"} for t in towns),
    ]


def from_osm_file(path: str | Path) -> nx.MultiDiGraph:
    """Drivable graph from an OSM XML file (``.osm``), parsed once and then cached.

    Edges get ``speed_kph`` (from ``maxspeed``, else the mean of their highway
    class, else :data:`OSM_FALLBACK_SPEED_KPH`) and ``travel_time``.
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"no OSM file at {path}")
    digest = hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    cached = settings.cache_dir / "graphs" / f"osm-{digest}-routes{__version__}.pickle"
    if cached.exists():
        with cached.open("rb") as f:
            return pickle.load(f)  # our own cache file, written below

    import osmnx as ox

    G = ox.graph_from_xml(path)
    G = ox.routing.add_edge_speeds(G, fallback=OSM_FALLBACK_SPEED_KPH)
    G = ox.routing.add_edge_travel_times(G)
    G.graph.update(
        network_source="osm", source_file=path.name, description=f"OpenStreetMap: {path.name}"
    )
    cached.parent.mkdir(parents=True, exist_ok=True)
    partial = cached.with_suffix(".partial")
    with partial.open("wb") as f:
        pickle.dump(G, f, protocol=pickle.HIGHEST_PROTOCOL)
    partial.replace(cached)
    return G


def load(scenario: Scenario, osm: str | Path | None = None) -> nx.MultiDiGraph:
    """The network a run routes on: the OSM file when given, else the proxy."""
    return from_osm_file(osm) if osm is not None else proxy_network(scenario)
