"""Lean geometry for maps: routes simplified and rounded, the roads drawn near them."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from routes.columns import first_tag

if TYPE_CHECKING:
    import geopandas as gpd

    from routes.scenario import Scenario

__all__ = [
    "DRAW_PRECISION",
    "NEAR_ROUTE_M",
    "SIMPLIFY_TOLERANCE_M",
    "Roads",
    "drawn_lines",
    "flow_line",
    "local_projection",
    "metres_between",
    "near_routes",
    "one_per_road",
    "parallel_offsets",
    "simplified",
]

#: Routes drawn on a map are simplified to within this distance of the routed line, metres.
SIMPLIFY_TOLERANCE_M = 5.0

#: Decimal places kept for drawn coordinates (5 ≈ 1.1 m of latitude).
DRAW_PRECISION = 5

#: How far from a route the network drawn around it reaches, metres.
NEAR_ROUTE_M = 1000.0


class Roads(Protocol):
    """What render reads of a road network (``routes.routing.RoadNetwork`` is one): render
    draws what it is given and never routes, so it names only what it reads."""

    @property
    def graph(self) -> dict[str, Any]:
        """The graph's attributes (``network_source``, ...)."""
        ...

    def edges(
        self,
        columns: Sequence[str] = (),
        *,
        within: tuple[float, float, float, float] | None = None,
    ) -> gpd.GeoDataFrame:
        """The edges (``u``, ``v``, ``key``, ``columns``, geometry) in the graph's order,
        only those whose bounding box meets ``within`` (west, south, east, north) if given."""
        ...

    def node_values(self, name: str, ids: Sequence[int] | None = None) -> list[Any]:
        """A node attribute of every node (None where a node lacks it)."""
        ...


def simplified(
    routes: gpd.GeoDataFrame,
    *,
    tolerance_m: float = SIMPLIFY_TOLERANCE_M,
    precision: int = DRAW_PRECISION,
    columns: list[str] | None = None,
) -> gpd.GeoDataFrame:
    """Routes as drawn: one line per row, simplified and rounded for a lean map.

    Each geometry (parts merged into one line where they join) is projected to an
    azimuthal equidistant projection centred on the routes, simplified with
    Douglas-Peucker at ``tolerance_m`` metres, projected back to lon/lat and rounded to
    ``precision`` decimals, repeated points dropped. Every drawn point stays within
    ``tolerance_m`` plus the rounding (< 1.2 m at 5 decimals) of the routed line. Rows
    without a line keep their geometry. ``columns`` keeps only those attributes.
    """
    import shapely

    lean = routes.to_crs("EPSG:4326")
    if columns is not None:
        lean = lean[[*columns, lean.geometry.name]]
    lean = lean.copy()
    to_local, to_lonlat = local_projection(lean)
    drawn = list(lean.geometry)
    at = [
        i
        for i, geom in enumerate(drawn)
        if geom is not None
        and not geom.is_empty
        and geom.geom_type in {"LineString", "MultiLineString"}
    ]
    lines = [drawn[i] for i in at]
    lines = [shapely.line_merge(g) if g.geom_type == "MultiLineString" else g for g in lines]
    if lines:  # every line's points projected in one call each way
        local = shapely.simplify(shapely.transform(lines, to_local), tolerance_m)
        for i, lonlat in zip(at, shapely.transform(local, to_lonlat), strict=True):
            drawn[i] = _rounded(lonlat, precision)
    lean[lean.geometry.name] = drawn
    return lean


def drawn_lines(scenario: Scenario, routes: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """The corridors as the map draws them: a route on OpenStreetMap roads as routed
    (:func:`simplified`); on the proxy network, which no report describes, a smooth flow
    line through the corridor's documented stops (:func:`flow_line`), never the chain of
    network links it was routed on."""
    lean = simplified(routes)
    if "network_source" not in lean or "corridor_id" not in lean:
        return lean
    lines = list(lean.geometry)
    for i, (source, corridor_id, geom) in enumerate(
        zip(lean["network_source"], lean["corridor_id"], lines, strict=True)
    ):
        if source == "proxy" and geom is not None and not geom.is_empty:
            stops = [scenario.place(p) for p in scenario.corridor(corridor_id).stops]
            lines[i] = flow_line([(p.lon, p.lat) for p in stops])
    lean[lean.geometry.name] = lines
    return lean


def flow_line(points: list[tuple[float, float]], *, samples: int = 60, bend: float = 0.15) -> Any:
    """A smooth line through ``points`` (lon, lat) in order, as flow maps draw a movement.

    Through three or more points, a centripetal Catmull-Rom spline (no loops or cusps
    where stops are unevenly spaced); between two, a gentle arc bending to the right of
    the direction of travel by ``bend`` of its length, so that opposite flows part.
    Computed in metres (:func:`local_projection`) and sampled about ``samples`` times
    along the whole line, so that short legs get few points: a line offset on screen
    (leaflet-polylineoffset) turns sub-pixel zigzags into loops. Rounded like
    :func:`simplified`.
    """
    import geopandas as gpd
    import numpy as np
    from shapely.geometry import LineString, Point

    xy = np.asarray(points, dtype=float)
    xy = xy[np.r_[True, (np.diff(xy, axis=0) != 0).any(axis=1)]]
    if len(xy) < 2:
        return Point(xy[0].tolist())
    to_local, to_lonlat = local_projection(gpd.GeoSeries([LineString(xy)], crs="EPSG:4326"))
    p = to_local(xy)
    legs = np.linalg.norm(np.diff(p, axis=0), axis=1)
    counts = np.maximum(2, np.ceil(samples * legs / legs.sum())).astype(int)
    if len(p) == 2:
        a, b = p
        t = np.linspace(0.0, 1.0, counts[0] + 1)[:, None]
        control = (a + b) / 2 + bend * np.array([b[1] - a[1], a[0] - b[0]])
        curve = (1 - t) ** 2 * a + 2 * (1 - t) * t * control + t**2 * b
    else:
        padded = np.vstack([2 * p[0] - p[1], p, 2 * p[-1] - p[-2]])
        parts = [
            _catmull_rom(padded[i : i + 4], np.linspace(0.0, 1.0, n + 1)[:, None])
            for i, n in enumerate(counts)
        ]
        curve = np.vstack([parts[0], *(part[1:] for part in parts[1:])])
    return _rounded(LineString(to_lonlat(curve)), DRAW_PRECISION)


def _catmull_rom(p: Any, t: Any) -> Any:
    """The centripetal Catmull-Rom segment from ``p[1]`` to ``p[2]`` at fractions ``t``
    (Barry and Goldman's pyramid; knots spaced by the square root of the chord lengths)."""
    import numpy as np

    gaps = np.sqrt(np.maximum(np.linalg.norm(np.diff(p, axis=0), axis=1), 1e-9))
    k = np.concatenate([[0.0], np.cumsum(gaps)])
    u = k[1] + t * (k[2] - k[1])

    def lerp(i: int, j: int, a: Any, b: Any) -> Any:
        return ((k[j] - u) * a + (u - k[i]) * b) / (k[j] - k[i])

    a1, a2, a3 = lerp(0, 1, p[0], p[1]), lerp(1, 2, p[1], p[2]), lerp(2, 3, p[2], p[3])
    return lerp(1, 2, lerp(0, 2, a1, a2), lerp(1, 3, a2, a3))


def near_routes(
    G: Roads,
    routes: gpd.GeoDataFrame,
    *,
    distance_m: float = NEAR_ROUTE_M,
    tolerance_m: float = SIMPLIFY_TOLERANCE_M,
    precision: int = DRAW_PRECISION,
) -> gpd.GeoDataFrame:
    """The network's edges within ``distance_m`` of any route, simplified like the routes.

    Columns: ``highway``, ``name`` (first of osmnx's lists) and the geometry; one row
    per road edge, the two directions of a two-way road drawn once.
    """
    import geopandas as gpd
    import numpy as np
    import shapely

    lines = [g for g in routes.to_crs("EPSG:4326").geometry if g is not None and not g.is_empty]
    empty = gpd.GeoDataFrame({"highway": [], "name": []}, geometry=[], crs="EPSG:4326")
    if not lines:
        return empty
    to_local, to_lonlat = local_projection(gpd.GeoSeries(lines, crs="EPSG:4326"))
    reach = shapely.transform(
        shapely.transform(shapely.union_all(lines), to_local).buffer(distance_m), to_lonlat
    )
    west, south, east, north = (float(v) for v in reach.bounds)
    edges = G.edges(["highway", "name"], within=(west, south, east, north))
    if edges.empty:
        return empty
    # in the graph's edge order, not the spatial index's (which depends on every edge)
    near = one_per_road(edges.iloc[np.sort(edges.sindex.query(reach, predicate="intersects"))])
    kept = gpd.GeoDataFrame(
        {
            "highway": [first_tag(h) or "" for h in near["highway"]],
            "name": [first_tag(n) or "" for n in near["name"]],
        },
        geometry=list(near.geometry),
        crs="EPSG:4326",
    )
    return simplified(kept, tolerance_m=tolerance_m, precision=precision)


def one_per_road(edges: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """``edges`` (with ``u``, ``v``, ``key``) less the second edge of each two-way road:
    a two-way road is two edges, (u, v, k) and (v, u, k), drawn once."""
    import pandas as pd

    road = pd.Series(
        [(min(u, v), max(u, v), k) for u, v, k in zip(edges["u"], edges["v"], edges["key"],
                                                        strict=True)],
        index=edges.index,
        dtype=object,
    )  # fmt: skip
    return edges[~road.duplicated()]


def local_projection(frame: Any) -> tuple[Any, Any]:
    """Coordinate functions lon/lat → metres (azimuthal equidistant at the frame's centre)
    and back, for :func:`shapely.transform`.

    The projection is given as the PROJ pipeline that ``Transformer.from_crs("EPSG:4326",
    "+proj=aeqd ... +datum=WGS84", always_xy=True)`` resolves to (the same coordinates to
    a nanometre, asserted in the tests), which skips PROJ's database search: that search
    was most of the map's geometry time, twice per call.
    """
    import numpy as np
    from pyproj import Transformer

    west, south, east, north = frame.total_bounds if len(frame) else (0.0, 0.0, 0.0, 0.0)
    if not np.all(np.isfinite([west, south, east, north])):
        west = south = east = north = 0.0
    centre = f"+lat_0={(south + north) / 2} +lon_0={(west + east) / 2}"
    projection = Transformer.from_pipeline(
        "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad"
        f" +step +proj=aeqd {centre} +x_0=0 +y_0=0 +ellps=WGS84"
    )

    def to_local(xy: Any) -> Any:
        return np.column_stack(projection.transform(xy[:, 0], xy[:, 1]))

    def to_lonlat(xy: Any) -> Any:
        return np.column_stack(projection.transform(xy[:, 0], xy[:, 1], direction="INVERSE"))

    return to_local, to_lonlat


def _rounded(line: Any, precision: int) -> Any:
    """A line with coordinates rounded to ``precision`` decimals and repeats dropped."""
    import numpy as np
    from shapely.geometry import LineString, Point

    coords = np.round(np.asarray(line.coords), precision)
    keep = np.ones(len(coords), dtype=bool)
    keep[1:] = (np.diff(coords, axis=0) != 0).any(axis=1)
    coords = coords[keep]
    return LineString(coords.tolist()) if len(coords) > 1 else Point(coords[0].tolist())


def parallel_offsets(lines: list[Any], widths: list[float], *, near_m: float = 60.0) -> list[float]:
    """Pixel offsets that keep corridors on shared links apart, each to its right.

    Each line is offset to the right of its direction of travel by half its width, so
    two corridors running opposite ways over the same links fall on either side. A
    corridor that runs the same way as an earlier one over a stretch of it is stacked
    beyond that one. ``widths`` are the drawn widths in pixels.
    """
    offsets: list[float] = []
    for k, (line, width) in enumerate(zip(lines, widths, strict=True)):
        offset = width / 2 + 1
        for j in range(k):
            if lines[j] is not None and line is not None and _same_way(line, lines[j], near_m):
                offset = max(offset, offsets[j] + widths[j] / 2 + width / 2 + 1)
        offsets.append(offset)
    return offsets


def _same_way(line: Any, other: Any, near_m: float) -> bool:
    """Whether ``line`` runs along ``other`` in the same direction for a stretch."""
    import geopandas as gpd
    import shapely

    if line.geom_type != "LineString" or other.geom_type != "LineString":
        return False
    to_local, _back = local_projection(gpd.GeoSeries([line, other], crs="EPSG:4326"))
    a, b = (shapely.transform(g, to_local) for g in (line, other))
    steps = [a.interpolate(f, normalized=True) for f in (i / 60 for i in range(61))]
    along = [b.project(p) if b.distance(p) < near_m else None for p in steps]
    same = sum(1 for x, y in itertools.pairwise(along) if x is not None and y is not None and y > x)
    return same >= 3


def metres_between(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance between two (lon, lat) points, metres (WGS84 ellipsoid)."""
    from pyproj import Geod

    return float(Geod(ellps="WGS84").inv(a[0], a[1], b[0], b[1])[2])
