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
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import groupby
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from routes.distance import great_circle
from routes.errors import NetworkError
from routes.network.store import MISSING, RoadArrays

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = ["USEFUL_TAGS_WAY", "Run", "road_arrays", "road_ways"]

#: Way tags kept on edges: osmnx's ``settings.useful_tags_way`` (osmnx 2.1).
USEFUL_TAGS_WAY = (
    "access", "area", "bridge", "est_width", "highway", "junction", "landuse",
    "lanes", "maxspeed", "name", "oneway", "ref", "service", "tunnel", "width",
)  # fmt: skip

_USEFUL = frozenset(USEFUL_TAGS_WAY)

#: ``oneway`` values osmnx reads as one-way, and as one-way against the nodes' order.
ONEWAY_VALUES = frozenset({"yes", "true", "1", "-1", "reverse", "T", "F"})
REVERSED_VALUES = frozenset({"-1", "reverse", "T"})

_MAXSPEED = re.compile(r"^([0-9][\.,0-9]*?)(?:[ ]?(?:km/h|kmh|kph|mph|knots))?$")
_MILES_TO_KM = 1.60934


@dataclass
class _Ways:
    """What the file gives: node positions, and each kept way's id, nodes and tags."""

    node_ids: array[int]  # every located way node, repeats included
    lons: array[float]
    lats: array[float]
    osmids: list[int]
    refs: list[array[int]]
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
    all_ids = np.array(ways.node_ids, dtype=np.int64)
    _ids, first = np.unique(all_ids, return_index=True)
    x = np.array(ways.lons, dtype=np.float64)[first]
    y = np.array(ways.lats, dtype=np.float64)[first]
    keep = _largest_component(len(ids), seg_u, seg_v)
    kept = keep[seg_u]
    seg_u, seg_v, seg_way, seg_rev = seg_u[kept], seg_v[kept], seg_way[kept], seg_rev[kept]
    # NaN (none here) as 0, as osmnx's add_edge_lengths fills it
    seg_len = np.nan_to_num(great_circle(y[seg_u], x[seg_u], y[seg_v], x[seg_v]), nan=0.0)
    endpoint = _endpoints(len(ids), seg_u, seg_v) & keep
    plain = np.flatnonzero(endpoint[seg_u] & endpoint[seg_v])
    chains = _chains(len(ids), seg_u, seg_v, endpoint)
    columns: dict[str, Coded | NDArray[np.float64]] = dict(
        _edge_attributes(ways, oneway, seg_way, seg_rev, plain, chains)
    )
    heads = chains.seg_offsets[:-1]
    lengths = np.concatenate([seg_len[plain], _sums_in_order(seg_len[chains.segments], heads)])
    u = np.concatenate([seg_u[plain], chains.start])
    v = np.concatenate([seg_v[plain], chains.end])
    highway = columns["highway"]
    maxspeed = columns.get("maxspeed")
    assert isinstance(highway, tuple) and (maxspeed is None or isinstance(maxspeed, tuple))
    speed = _speeds(highway, maxspeed, speeds, fallback)
    columns.update(
        length=lengths, speed_kph=speed, travel_time=(lengths / 1000) / (speed / (60 * 60))
    )
    counts = np.concatenate([np.zeros(len(plain), dtype=np.int64), chains.node_counts()])
    offsets = np.zeros(len(u) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    xy = np.column_stack([x[chains.nodes], y[chains.nodes]])
    nodes = np.flatnonzero(endpoint)
    return RoadArrays.from_columns(
        nodes=ids[nodes],
        node_columns={"y": y[nodes], "x": x[nodes]},
        uvk=np.column_stack([ids[u], ids[v], _keys(u, v, len(ids))]),
        edge_columns=columns,
        geometry=(offsets, xy),
        graph={"crs": "epsg:4326", "simplified": True},
    )


# --- reading ---------------------------------------------------------------------------------


#: A way's longest run of located nodes, as (node id, lon, lat).
Run: TypeAlias = list[tuple[int, float, float]]


def road_ways(path: str | Path, highways: frozenset[str] | None) -> Iterator[tuple[Any, Run]]:
    """One pyosmium pass: each ``highway=*`` way in ``highways`` (None: every highway way)
    with its longest run of nodes the file locates, when that run has two nodes or more.

    An extract cut from a larger map has ways whose nodes lie outside it; osmnx refuses
    missing nodes, so a way keeps its longest located stretch. The way object is valid
    only until the next one is read. NetworkError if the file is not OSM data.
    """
    import osmium

    roads = (
        osmium.filter.KeyFilter("highway")
        if highways is None
        else osmium.filter.TagFilter(*(("highway", value) for value in sorted(highways)))
    )
    try:
        processor = (
            osmium.FileProcessor(str(path), osmium.osm.NODE | osmium.osm.WAY)
            .with_locations()
            .with_filter(osmium.filter.EntityFilter(osmium.osm.WAY))
            .with_filter(roads)
        )
        for way in processor:
            assert isinstance(way, osmium.osm.Way)  # the entity filter lets only ways through
            run = _located_run(way.nodes)
            if len(run) >= 2:
                yield way, run
    except RuntimeError as exc:
        name = Path(path).name
        raise NetworkError(f"{name}: cannot read it as OpenStreetMap data ({exc})") from None


def _read(path: Path, highways: frozenset[str] | None) -> _Ways:
    """The road ways' ids, nodes and useful tags, and their nodes' positions."""
    ways = _Ways(array("q"), array("d"), array("d"), [], [], [])
    for way, run in road_ways(path, highways):
        ids, lons, lats = zip(*run, strict=True)
        ways.node_ids.extend(ids)
        ways.lons.extend(lons)
        ways.lats.extend(lats)
        ways.osmids.append(way.id)
        ways.refs.append(array("q", (ref for ref, _ in groupby(ids))))
        ways.tags.append({t.k: t.v for t in way.tags if t.k in _USEFUL})
    return ways


def _located_run(refs: Any) -> Run:
    """The longest stretch of consecutive way nodes whose position the file gives,
    each node's location read once."""
    best: Run = []
    current: Run = []
    for ref in refs:
        location = ref.location
        if location.valid():
            current.append((ref.ref, location.lon, location.lat))
            if len(current) > len(best):
                best = current
        else:
            current = []
    return best


def _segments(ways: _Ways) -> tuple[NDArray[Any], ...]:
    """Node ids (ascending) and the segments as node positions, in osmnx's insertion order:
    way by way, forward, then backward for a two-way way; with way index, reversed flag,
    and each way's one-way flag."""
    us, vs, seg_way = array("q"), array("q"), array("q")
    seg_rev, oneway = array("b"), array("b")
    for i, (refs, tags) in enumerate(zip(ways.refs, ways.tags, strict=True)):
        one = tags.get("oneway") in ONEWAY_VALUES or tags.get("junction") == "roundabout"
        if one and tags.get("oneway") in REVERSED_VALUES:
            refs = refs[::-1]
        oneway.append(one)
        k = len(refs) - 1
        ahead, behind = refs[1:], refs[:-1]
        for a, b, rev in ((behind, ahead, False), (ahead, behind, True)):
            if rev and one:
                break
            us.extend(a)
            vs.extend(b)
            seg_way.extend(array("q", [i]) * k)
            seg_rev.extend(array("b", [rev]) * k)
    ids = np.unique(np.array(ways.node_ids, dtype=np.int64))
    return (
        ids,
        np.searchsorted(ids, np.array(us, dtype=np.int64)),
        np.searchsorted(ids, np.array(vs, dtype=np.int64)),
        np.array(seg_way, dtype=np.int64),
        np.array(seg_rev, dtype=np.int8).astype(bool),
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
    pairs = _distinct(a * n + b)
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
    neighbour_pairs = _distinct(a * n + np.concatenate([pv, pu]))
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


def _distinct(values: NDArray[np.int64]) -> NDArray[np.int64]:
    """Sorted distinct values (numpy 2's hash-based ``unique`` is slower on these)."""
    ordered = np.sort(values)
    keep = np.ones(len(ordered), dtype=bool)
    keep[1:] = ordered[1:] != ordered[:-1]
    return ordered[keep]


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


#: An attribute column: integer codes (-1: the edge lacks it) into a list of distinct values.
Coded: TypeAlias = "tuple[NDArray[np.int32], list[Any]]"


def _edge_attributes(
    ways: _Ways,
    oneway: NDArray[np.bool_],
    seg_way: NDArray[np.int64],
    seg_rev: NDArray[np.bool_],
    plain: NDArray[np.intp],
    chains: _Chains,
) -> dict[str, Coded]:
    """Attribute columns of the edges (segments between endpoints, then chains), coded way
    by way: a chain's attribute is the one value its segments share, else their sorted
    distinct values."""
    heads = chains.seg_offsets[:-1]
    segs = np.concatenate([plain, chains.segments[heads]])  # whose way an edge keeps
    spans = np.zeros(len(heads), dtype=bool)
    for column in (seg_way, seg_rev):
        if len(heads):
            picked = column[chains.segments]
            spans |= np.minimum.reduceat(picked, heads) != np.maximum.reduceat(picked, heads)
    mixed = np.flatnonzero(spans)
    per_way: dict[str, list[Any]] = {
        "osmid": ways.osmids,
        **{t: [tags.get(t, MISSING) for tags in ways.tags] for t in USEFUL_TAGS_WAY},
        "oneway": oneway.tolist(),
    }
    columns: dict[str, Coded] = {}
    for name in ["osmid", *USEFUL_TAGS_WAY, "reversed"]:
        if name == "reversed":
            vocab: list[Any] = [False, True]
            index: dict[Any, int] = {(bool, False): 0, (bool, True): 1}
            seg_codes = seg_rev.astype(np.int32)
        else:
            vocab, index, way_codes = _code(per_way[name])
            seg_codes = way_codes[seg_way]
        codes = seg_codes[segs]
        for i in mixed.tolist():
            lo, hi = int(chains.seg_offsets[i]), int(chains.seg_offsets[i + 1])
            found = [vocab[c] for c in seg_codes[chains.segments[lo:hi]].tolist() if c >= 0]
            distinct = set(found)
            value = found[0] if len(distinct) == 1 else sorted(distinct) if found else None
            if value is None:
                codes[len(plain) + i] = -1
                continue
            key = ("list", tuple(value)) if isinstance(value, list) else (type(value), value)
            if key not in index:
                index[key] = len(vocab)
                vocab.append(value)
            codes[len(plain) + i] = index[key]
        if (codes >= 0).any():
            columns[name] = (codes, vocab)
    return columns


def _code(values: list[Any]) -> tuple[list[Any], dict[Any, int], NDArray[np.int32]]:
    """Distinct values (MISSING left out), their index by (type, value), and each one's code."""
    index: dict[Any, int] = {}
    vocab: list[Any] = []
    codes = np.full(len(values), -1, dtype=np.int32)
    for i, value in enumerate(values):
        if value is MISSING:
            continue
        key = (type(value), value)
        if key not in index:
            index[key] = len(vocab)
            vocab.append(value)
        codes[i] = index[key]
    return vocab, index, codes


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
    highway: Coded, maxspeed: Coded | None, table: Mapping[str, float], fallback: float
) -> NDArray[np.float64]:
    """km/h per edge as ``osmnx.routing.add_edge_speeds(hwy_speeds=table, fallback=...)``,
    worked out once per distinct value."""
    implicit = _implicit_maxspeeds()
    known: dict[str, float | None] = {}

    def clean(text: str) -> float | None:
        if text not in known:
            known[text] = _clean_maxspeed(text, implicit)
        return known[text]

    def speed_of(raw: Any) -> float:
        if isinstance(raw, list):
            parsed = [s for s in (clean(x) for x in raw) if s is not None]
            raw = str(float(np.mean(parsed))) if parsed else "None"
        speed = clean(raw)
        return np.nan if speed is None else speed

    speeds = np.full(len(highway[0]), np.nan)
    if maxspeed is not None:
        codes, vocab = maxspeed
        by_value = np.array([speed_of(raw) for raw in vocab] + [np.nan])
        speeds = by_value[codes]  # code -1 picks the NaN at the end
    codes, vocab = highway
    names = [h[0] if isinstance(h, list) else h for h in vocab]
    classes = sorted(set(names))
    class_of = np.searchsorted(classes, names)[codes]
    by_class = np.empty(len(classes))
    for k, name in enumerate(classes):
        if name in table:
            by_class[k] = table[name]
            continue
        # pandas' group mean sums with compensation: near exact, so in any order
        mine = speeds[(class_of == k) & ~np.isnan(speeds)]
        by_class[k] = math.fsum(mine.tolist()) / len(mine) if len(mine) else fallback
    result: NDArray[np.float64] = np.where(np.isnan(speeds), by_class[class_of], speeds)
    return result


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
