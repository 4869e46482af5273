"""The drivable roads of an OSM file straight into columns: pyosmium, numpy, no XML, no networkx.

:func:`road_arrays` gives the graph ``osmnx.graph_from_xml`` (then
``add_edge_speeds``/``add_edge_travel_times``) builds from the same roads, as a
:class:`~routes.network.store.RoadArrays`, following osmnx 2's rules step by step:

1. every way becomes segments between consecutive nodes (repeated nodes dropped); a
   one-way way (``oneway`` in osmnx's one-way values, or a roundabout) only in its
   direction (reversed for ``-1``/``reverse``/``T``), any other both ways;
2. the largest weakly connected component is kept (ties: the one with the lowest id);
3. simplification: a node is an endpoint if it loops to itself, lacks incoming or
   outgoing segments, or does not have exactly two neighbours with 2 or 4 segments; every
   chain of other nodes between endpoints becomes one edge, its length the sum of its
   segments' great-circle lengths (in order), its other attributes the one value its
   segments share or the list of their values (sorted here: osmnx lists a set, whose
   order varies from run to run), its geometry the chain's points;
4. speeds: ``maxspeed`` parsed as osmnx parses it (the mean of a list, mph converted,
   implicit values such as ``DE:urban`` from osmnx's own table), else the speed table
   of the edge's (first) road class, else that class's mean speed (summed exactly here;
   osmnx sums in its edge order, so such a speed may differ in the last bit), else the
   fallback; travel time is length over speed.

Equality with osmnx's graph, route for route, is asserted in ``tests/test_osmfile.py``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from routes.errors import NetworkError
from routes.network.store import MISSING, RoadArrays

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["USEFUL_TAGS_WAY", "longest_located_run", "road_arrays"]

#: Way tags kept on edges: osmnx's ``settings.useful_tags_way`` (osmnx 2.1).
USEFUL_TAGS_WAY = (
    "access", "area", "bridge", "est_width", "highway", "junction", "landuse",
    "lanes", "maxspeed", "name", "oneway", "ref", "service", "tunnel", "width",
)  # fmt: skip

#: ``oneway`` values osmnx reads as one-way, and as one-way against the nodes' order.
ONEWAY_VALUES = frozenset({"yes", "true", "1", "-1", "reverse", "T", "F"})
REVERSED_VALUES = frozenset({"-1", "reverse", "T"})

#: Earth radius osmnx measures great circles with, metres.
EARTH_RADIUS_M = 6_371_009.0

_MAXSPEED = re.compile(r"^([0-9][\.,0-9]*?)(?:[ ]?(?:km/h|kmh|kph|mph|knots))?$")
_MILES_TO_KM = 1.60934


@dataclass
class _Ways:
    """What the file gives: node positions, and each kept way's id, nodes and tags."""

    coords: dict[int, tuple[float, float]]
    osmids: list[int]
    refs: list[list[int]]
    tags: list[dict[str, str]]


def road_arrays(
    path: str | Path,
    *,
    highways: frozenset[str] | None,
    speeds: Mapping[str, float],
    fallback: float,
) -> RoadArrays:
    """The simplified, speed-weighted road graph of the ``highway=*`` ways in ``highways``
    (None: every ``highway`` way)."""
    ways = _read(Path(path), highways)
    ids, seg_u, seg_v, seg_way, seg_rev, oneway = _segments(ways)
    if not len(seg_u):
        raise NetworkError(f"{Path(path).name}: no drivable road network in it")
    x = np.array([ways.coords[i][0] for i in ids.tolist()])
    y = np.array([ways.coords[i][1] for i in ids.tolist()])
    keep = _largest_component(len(ids), seg_u, seg_v)
    kept = keep[seg_u]
    seg_u, seg_v, seg_way, seg_rev = seg_u[kept], seg_v[kept], seg_way[kept], seg_rev[kept]
    seg_len = great_circle(y[seg_u], x[seg_u], y[seg_v], x[seg_v])
    endpoint = _endpoints(len(ids), seg_u, seg_v) & keep
    plain = np.flatnonzero(endpoint[seg_u] & endpoint[seg_v])
    chains = _chains(len(ids), seg_u, seg_v, endpoint)
    columns, lengths = _edge_attributes(ways, oneway, seg_way, seg_rev, seg_len, plain, chains)
    u = np.concatenate([seg_u[plain], chains.start])
    v = np.concatenate([seg_v[plain], chains.end])
    speed = _speeds(columns["highway"], columns.get("maxspeed"), speeds, fallback)
    columns["speed_kph"] = speed.tolist()
    columns["travel_time"] = ((lengths / 1000) / (speed / (60 * 60))).tolist()
    counts = np.concatenate([np.zeros(len(plain), dtype=np.int64), chains.node_counts()])
    offsets = np.zeros(len(u) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    xy = np.column_stack([x[chains.nodes], y[chains.nodes]])
    nodes = np.flatnonzero(endpoint)
    return RoadArrays.from_columns(
        nodes=ids[nodes],
        node_columns={"y": y[nodes].tolist(), "x": x[nodes].tolist()},
        uvk=np.column_stack([ids[u], ids[v], _keys(u, v, len(ids))]),
        edge_columns=columns,
        geometry=(offsets, xy),
        graph={"crs": "epsg:4326", "simplified": True},
    )


def great_circle(
    lat1: NDArray[np.float64],
    lon1: NDArray[np.float64],
    lat2: NDArray[np.float64],
    lon2: NDArray[np.float64],
) -> NDArray[np.float64]:
    """Haversine metres, term for term as ``osmnx.distance.great_circle`` (so, bit for bit);
    NaN (none here) as 0, as ``add_edge_lengths`` fills it."""
    y1, y2 = np.deg2rad(lat1), np.deg2rad(lat2)
    dy = y2 - y1
    dx = np.deg2rad(lon2) - np.deg2rad(lon1)
    h = np.sin(dy / 2) ** 2 + np.cos(y1) * np.cos(y2) * np.sin(dx / 2) ** 2
    h = np.minimum(1, h)
    dist: NDArray[np.float64] = 2 * np.arcsin(np.sqrt(h)) * EARTH_RADIUS_M
    dist[np.isnan(dist)] = 0
    return dist


# --- reading ---------------------------------------------------------------------------------


def _read(path: Path, highways: frozenset[str] | None) -> _Ways:
    """One pyosmium pass: the road ways (their longest run of located nodes) and positions."""
    import osmium

    roads = (
        osmium.filter.KeyFilter("highway")
        if highways is None
        else osmium.filter.TagFilter(*(("highway", value) for value in sorted(highways)))
    )
    ways = _Ways({}, [], [], [])
    try:
        processor = (
            osmium.FileProcessor(str(path), osmium.osm.NODE | osmium.osm.WAY)
            .with_locations()
            .with_filter(osmium.filter.EntityFilter(osmium.osm.WAY))
            .with_filter(roads)
        )
        for way in processor:
            assert isinstance(way, osmium.osm.Way)  # the entity filter lets only ways through
            run = longest_located_run(way.nodes)
            if len(run) < 2:
                continue
            ways.coords.update((n.ref, (n.location.lon, n.location.lat)) for n in run)
            ways.osmids.append(way.id)
            ways.refs.append([ref for ref, _ in groupby(n.ref for n in run)])
            ways.tags.append({k: way.tags[k] for k in USEFUL_TAGS_WAY if k in way.tags})
    except RuntimeError as exc:
        raise NetworkError(f"{path.name}: cannot read it as OpenStreetMap data ({exc})") from None
    return ways


def longest_located_run(refs: Any) -> list[Any]:
    """The longest stretch of consecutive way nodes whose position the file gives."""
    best: list[Any] = []
    current: list[Any] = []
    for ref in refs:
        if ref.location.valid():
            current.append(ref)
            if len(current) > len(best):
                best = current
        else:
            current = []
    return best


def _segments(ways: _Ways) -> tuple[NDArray[Any], ...]:
    """Node ids (ascending) and the segments as node positions, in osmnx's insertion order:
    way by way, forward, then backward for a two-way way; with way index, reversed flag,
    and each way's one-way flag."""
    us: list[int] = []
    vs: list[int] = []
    seg_way: list[int] = []
    seg_rev: list[bool] = []
    oneway: list[bool] = []
    for i, (refs, tags) in enumerate(zip(ways.refs, ways.tags, strict=True)):
        one = tags.get("oneway") in ONEWAY_VALUES or tags.get("junction") == "roundabout"
        if one and tags.get("oneway") in REVERSED_VALUES:
            refs = refs[::-1]
        oneway.append(one)
        k = len(refs) - 1
        for a, b, rev in ((refs[:-1], refs[1:], False), (refs[1:], refs[:-1], True)):
            if rev and one:
                break
            us += a
            vs += b
            seg_way += [i] * k
            seg_rev += [rev] * k
    ids = np.array(sorted(ways.coords), dtype=np.int64)
    return (
        ids,
        np.searchsorted(ids, np.array(us, dtype=np.int64)),
        np.searchsorted(ids, np.array(vs, dtype=np.int64)),
        np.array(seg_way, dtype=np.int64),
        np.array(seg_rev, dtype=bool),
        np.array(oneway, dtype=bool),
    )


# --- topology ----------------------------------------------------------------------------------


def _largest_component(n: int, u: NDArray[np.intp], v: NDArray[np.intp]) -> NDArray[np.bool_]:
    """Mask of the largest weakly connected component; of equal ones, the first by node id
    (the one networkx meets first, the nodes being in id order)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(u)), (u, v)), shape=(n, n))
    _count, labels = connected_components(graph, directed=True, connection="weak")
    sizes = np.bincount(labels)
    _labels, first = np.unique(labels, return_index=True)
    largest = np.flatnonzero(sizes == sizes.max())
    best = largest[np.argmin(first[largest])]
    mask: NDArray[np.bool_] = labels == best
    return mask


def _endpoints(n: int, u: NDArray[np.intp], v: NDArray[np.intp]) -> NDArray[np.bool_]:
    """osmnx's endpoint rules 1-3 (``simplification._is_endpoint``) for every node."""
    out_deg, in_deg = np.bincount(u, minlength=n), np.bincount(v, minlength=n)
    a, b = np.concatenate([u, v]), np.concatenate([v, u])
    pairs = np.unique(a * n + b)
    neighbours = np.bincount(pairs // n, minlength=n)
    loops = np.bincount(u[u == v], minlength=n) > 0
    degree = out_deg + in_deg
    through = (neighbours == 2) & ((degree == 2) | (degree == 4))
    ends: NDArray[np.bool_] = loops | (out_deg == 0) | (in_deg == 0) | ~through
    return ends


@dataclass
class _Chains:
    """Chains of segments between endpoints: per chain, its start and end node, the first
    segment of each of its node pairs (``segments``, chain after chain, ``seg_offsets``)
    and its nodes (``nodes``, ``node_offsets``)."""

    start: NDArray[np.intp]
    end: NDArray[np.intp]
    segments: NDArray[np.intp]
    seg_offsets: NDArray[np.intp]
    nodes: NDArray[np.intp]

    def node_counts(self) -> NDArray[np.int64]:
        return np.diff(self.seg_offsets).astype(np.int64) + 1


def _chains(
    n: int, u: NDArray[np.intp], v: NDArray[np.intp], endpoint: NDArray[np.bool_]
) -> _Chains:
    """Follow every chain from an endpoint through nodes that are not endpoints, all chains
    a step at a time; a chain that runs into a dead end (osmnx's "unexpected simplify
    pattern") is dropped, as osmnx drops its edge with the removed nodes."""
    key = u * n + v
    pair_keys, first = np.unique(key, return_index=True)  # first segment of each node pair
    pu, pv = pair_keys // n, pair_keys % n
    a = np.concatenate([pu, pv])
    neighbour_pairs = np.unique(a * n + np.concatenate([pv, pu]))
    nb_of, nb = neighbour_pairs // n, neighbour_pairs % n
    at = np.searchsorted(nb_of, np.arange(n))  # a through node's neighbours: nb[at], nb[at + 1]
    starts = np.flatnonzero(endpoint[pu] & ~endpoint[pv])
    starts = starts[np.argsort(first[starts], kind="stable")]
    chain = np.arange(len(starts))
    prev, cur = pu[starts], pv[starts]
    steps = [(chain, first[starts])]
    alive = np.ones(len(starts), dtype=bool)
    for _ in range(n):
        moving = np.flatnonzero(~endpoint[cur[chain]]) if len(chain) else chain
        chain = chain[moving]
        if not len(chain):
            break
        c, p = cur[chain], prev[chain]
        one, two = nb[at[c]], nb[np.minimum(at[c] + 1, len(nb) - 1)]
        w = np.where(one == p, two, one)
        where = np.minimum(np.searchsorted(pair_keys, c * n + w), len(pair_keys) - 1)
        found = pair_keys[where] == c * n + w
        alive[chain[~found]] = False
        chain, where, c, w = chain[found], where[found], c[found], w[found]
        steps.append((chain, first[where]))
        prev[chain], cur[chain] = c, w
    owner = np.concatenate([s[0] for s in steps])
    segments = np.concatenate([s[1] for s in steps])
    order = np.argsort(owner, kind="stable")
    owner, segments = owner[order], segments[order]
    keep = alive[owner]
    owner, segments = owner[keep], segments[keep]
    survivors = np.flatnonzero(alive)
    seg_offsets = np.zeros(len(survivors) + 1, dtype=np.intp)
    np.cumsum(np.bincount(owner, minlength=len(starts))[survivors], out=seg_offsets[1:])
    heads = seg_offsets[:-1]
    node_list = np.insert(v[segments], heads, u[segments[heads]]) if len(heads) else v[:0]
    return _Chains(pu[starts][survivors], cur[survivors], segments, seg_offsets, node_list)


def _keys(u: NDArray[np.intp], v: NDArray[np.intp], n: int) -> NDArray[np.int64]:
    """Edge keys: 0, 1, ... over the edges that join the same ``u → v``, in order."""
    key = u.astype(np.int64) * n + v
    order = np.argsort(key, kind="stable")
    ranked = key[order]
    new = np.ones(len(ranked), dtype=bool)
    new[1:] = ranked[1:] != ranked[:-1]
    group_start = np.maximum.accumulate(np.where(new, np.arange(len(ranked)), 0))
    keys = np.empty(len(key), dtype=np.int64)
    keys[order] = np.arange(len(ranked)) - group_start
    return keys


# --- attributes and speeds -------------------------------------------------------------------


def _edge_attributes(
    ways: _Ways,
    oneway: NDArray[np.bool_],
    seg_way: NDArray[np.int64],
    seg_rev: NDArray[np.bool_],
    seg_len: NDArray[np.float64],
    plain: NDArray[np.intp],
    chains: _Chains,
) -> tuple[dict[str, list[Any]], NDArray[np.float64]]:
    """Attribute columns of the edges (segments between endpoints, then chains) and their
    lengths: a chain's attribute is the one value its segments share, else their sorted
    distinct values; its length the sum of its segments' in order (as osmnx sums them)."""
    heads = chains.seg_offsets[:-1]
    first = chains.segments[heads]
    spans_ways = (
        np.minimum.reduceat(seg_way[chains.segments], heads)
        != np.maximum.reduceat(seg_way[chains.segments], heads)
        if len(heads)
        else np.zeros(0, dtype=bool)
    )
    spans_rev = (
        np.minimum.reduceat(seg_rev[chains.segments], heads)
        != np.maximum.reduceat(seg_rev[chains.segments], heads)
        if len(heads)
        else np.zeros(0, dtype=bool)
    )
    mixed = (spans_ways | spans_rev).tolist()
    seg_lists = np.split(chains.segments, chains.seg_offsets[1:-1]) if len(heads) else []

    def value(name: str, seg: int) -> Any:
        way = int(seg_way[seg])
        if name == "osmid":
            return ways.osmids[way]
        if name == "oneway":
            return bool(oneway[way])
        if name == "reversed":
            return bool(seg_rev[seg])
        return ways.tags[way].get(name, MISSING)

    names = ["osmid", *(t for t in USEFUL_TAGS_WAY if t != "oneway"), "oneway", "reversed"]
    columns: dict[str, list[Any]] = {}
    for name in names:
        column = [value(name, s) for s in plain.tolist()]
        for i, seg in enumerate(first.tolist()):
            if not mixed[i]:
                column.append(value(name, seg))
                continue
            found = [x for x in (value(name, s) for s in seg_lists[i].tolist()) if x is not MISSING]
            distinct = set(found)
            column.append(
                MISSING if not found else found[0] if len(distinct) == 1 else sorted(distinct)
            )
        if any(x is not MISSING for x in column):
            columns[name] = column
    lengths = np.concatenate([seg_len[plain], _sums_in_order(seg_len[chains.segments], heads)])
    columns["length"] = lengths.tolist()
    return columns, lengths


def _sums_in_order(values: NDArray[np.float64], heads: NDArray[np.intp]) -> NDArray[np.float64]:
    """Sum of each run ``values[heads[i]:heads[i + 1]]``, added left to right (as Python's
    ``sum``; numpy's pairwise sums round differently)."""
    counts = np.diff(np.append(heads, len(values)))
    total = np.zeros(len(heads))
    for k in range(int(counts.max(initial=0))):
        runs = np.flatnonzero(counts > k)
        total[runs] = total[runs] + values[heads[runs] + k]
    return total


def _speeds(
    highway: list[Any], maxspeed: list[Any] | None, table: Mapping[str, float], fallback: float
) -> NDArray[np.float64]:
    """km/h per edge as ``osmnx.routing.add_edge_speeds(hwy_speeds=table, fallback=...)``."""
    classes = [h[0] if isinstance(h, list) else h for h in highway]
    implicit = _implicit_maxspeeds()
    known: dict[str, float | None] = {}

    def clean(text: str) -> float | None:
        if text not in known:
            known[text] = _clean_maxspeed(text, implicit)
        return known[text]

    speeds = np.full(len(classes), np.nan)
    for i, raw in enumerate(maxspeed or []):
        if isinstance(raw, list):
            parsed = [s for s in (clean(x) for x in raw) if s is not None]
            raw = str(float(np.mean(parsed))) if parsed else "None"
        if raw is not MISSING:
            speed = clean(raw)
            speeds[i] = np.nan if speed is None else speed
    by_class = dict(table)
    for name in sorted(set(classes) - set(by_class)):
        mine = speeds[[c == name for c in classes]]
        mine = mine[~np.isnan(mine)]
        # pandas' group mean sums with compensation: near exact, so in any order
        by_class[name] = math.fsum(mine.tolist()) / len(mine) if len(mine) else fallback
    default = np.array([by_class[c] for c in classes], dtype=np.float64)
    return np.where(np.isnan(speeds), default, speeds)


def _clean_maxspeed(text: str, implicit: Mapping[str, float]) -> float | None:
    """A ``maxspeed`` value in km/h, as osmnx's ``routing._clean_maxspeed`` reads it."""
    try:
        values = []
        for part in text.split("|"):
            match = _MAXSPEED.match(part)
            value = float(match.group(1).replace(",", "."))  # type: ignore[union-attr]
            values.append(value * _MILES_TO_KM if "mph" in text.lower() else value)
        return float(np.mean(values))
    except (ValueError, AttributeError):
        return implicit.get(text)


def _implicit_maxspeeds() -> dict[str, float]:
    """osmnx's table of implicit ``maxspeed`` values (``DE:urban`` → 50.0, ...), read from
    its source as data (importing osmnx takes seconds)."""
    import ast
    from importlib.util import find_spec

    spec = find_spec("osmnx")
    if spec is None or not spec.submodule_search_locations:
        return {}
    source = Path(next(iter(spec.submodule_search_locations))) / "routing.py"
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if (
            isinstance(node, ast.AnnAssign)
            and getattr(node.target, "id", "") == "_IMPLICIT_MAXSPEEDS"
        ):
            table: dict[str, float] = ast.literal_eval(node.value) if node.value else {}
            return table
    return {}
