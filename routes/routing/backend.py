"""Compiled routing: a road graph as compressed sparse rows, searched with scipy's Dijkstra.

A :class:`Router` holds, per weight (``travel_time``, ``length``), the cheapest of the
parallel edges ``u→v`` — the edge ``osmnx.routing.shortest_path`` picks — as one CSR
matrix over the graph's nodes in id order, with the nodes' coordinates, and which edge
(its row in the graph's columns) each entry stands for. It is built once per graph (the
parsed-graph cache in :mod:`routes.network` stores it on disk beside the graph's
columns): per edge 4 bytes and 12 per weight (its cost and its row), plus about 28 per
node, against networkx's ~750 bytes per edge.

Searches are ``scipy.sparse.csgraph.dijkstra`` (C) with a distance ``limit``, since it
has no target to stop at. A route's cost is at least its straight-line length times the
graph's least weight per metre of straight line; the first limit is that lower bound
times the graph's *detour profile* (:data:`PROFILE_QUANTILE` of cost over lower bound,
by distance band, sampled from a few searches when the router is first used and stored
with it), doubled while a target is not reached, then none. Dijkstra settles nodes in
cost order, so every node within the limit has its exact cost and predecessor: the
limit saves work, never changes a route. Origins with similar limits share one call.

Results equal ``osmnx.routing.shortest_path`` on the same weight: same edges, same
minimum over parallel edges, same optimum. Where several paths tie at the optimum the two
searches may return different ones of them (networkx searches from both ends, scipy from
one); both are optimal, with costs equal up to float summation order.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from routes.distance import great_circle

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import ArrayLike, NDArray
    from scipy.sparse import csr_array

    from routes.routing.ch import Hierarchy

__all__ = [
    "BOUND_TRIES",
    "CHUNK",
    "FORMAT",
    "MAX_CELLS",
    "PROFILE_QUANTILE",
    "WEIGHTS",
    "Router",
]

#: Version of the layout of :meth:`Router.arrays`; part of the graph cache key.
FORMAT = 3

#: Weights compiled by default: what ``--weight`` offers.
WEIGHTS = ("travel_time", "length")

#: The first distance limit of a search is this quantile of the graph's detour profile
#: (cost over lower bound, sampled on first use) times the lower bound.
PROFILE_QUANTILE = 0.9

#: Searches that sample the detour profile, and the distance bands it is kept in.
PROFILE_SOURCES, PROFILE_BANDS = 4, 8

#: Doublings of the distance limit tried before searching without one.
BOUND_TRIES = 3

#: Origins searched in one call (more share the call's overhead, and its largest limit).
CHUNK = 16

#: Cells (origins × nodes) of the distance and predecessor matrices one call may fill.
MAX_CELLS = 4_000_000

#: The largest finite float: "no limit" (an ``inf`` limit would admit removed edges).
_UNLIMITED = float(np.finfo(np.float64).max)


@dataclass(eq=False)
class Router:
    """A directed road graph compiled for shortest-path search.

    ``ids`` are the graph's node ids, ascending (index ``i`` is node ``ids[i]``);
    ``x``/``y`` their coordinates (lon/lat when ``geographic``); row ``i`` of the CSR
    arrays (``indptr``, ``indices``, one ``weights[name]`` array per weight) lists the
    successors of node ``i``, ascending, with the cheapest parallel edge's weight, and
    ``rows[name]`` that edge's row in the graph's columns (the first of equals).
    """

    ids: NDArray[np.int64]
    x: NDArray[np.float64]
    y: NDArray[np.float64]
    indptr: NDArray[np.integer[Any]]
    indices: NDArray[np.int32]
    weights: dict[str, NDArray[np.float64]]
    rows: dict[str, NDArray[np.integer[Any]]] = field(default_factory=dict)
    geographic: bool = True
    pairs: int = -1
    _matrices: dict[str, csr_array] = field(default_factory=dict, repr=False)
    _ratios: dict[str, float] = field(default_factory=dict, repr=False)
    _profiles: dict[str, tuple[NDArray[np.float64], NDArray[np.float64]]] = field(
        default_factory=dict, repr=False
    )
    _core: NDArray[np.bool_] | None = field(default=None, repr=False)
    _ch: bool = field(default=False, repr=False)
    _hierarchies: dict[str, Hierarchy] = field(default_factory=dict, repr=False)
    _base: Router | None = field(default=None, repr=False)
    #: Where hierarchies are kept, if anywhere: ``(router, weight)`` → the hierarchy, read
    #: or contracted (routes.network saves them beside the graph's cache entry).
    hierarchy_cache: Callable[[Router, str], Hierarchy] | None = field(default=None, repr=False)

    # --- building; to and from arrays (the graph cache in routes.network stores them) --------

    @classmethod
    def from_arrays(
        cls,
        ids: ArrayLike,
        x: ArrayLike,
        y: ArrayLike,
        u: ArrayLike,
        v: ArrayLike,
        weights: Mapping[str, ArrayLike],
        *,
        rows: ArrayLike | None = None,
        geographic: bool = True,
    ) -> Router:
        """Compile edges ``u[i]→v[i]`` (node ids) with ``weights[name][i]``; keep the cheapest
        of parallel edges per weight (and its row: ``rows[i]``, by default ``i``) and drop
        self-loops (no shortest path uses them)."""
        ids_a = np.asarray(ids, dtype=np.int64)
        order = np.argsort(ids_a, kind="stable")
        ids_a = ids_a[order]
        if len(ids_a) > 1 and (np.diff(ids_a) == 0).any():
            raise ValueError("node ids must be unique")
        x_a = np.asarray(x, dtype=np.float64)[order]
        y_a = np.asarray(y, dtype=np.float64)[order]
        n = len(ids_a)
        u_ids, v_ids = np.asarray(u, dtype=np.int64), np.asarray(v, dtype=np.int64)
        ui, vi = np.searchsorted(ids_a, u_ids), np.searchsorted(ids_a, v_ids)
        for idx, given in ((ui, u_ids), (vi, v_ids)):
            outside = idx >= n
            if outside.any() or (ids_a[idx] != given).any():
                raise ValueError("an edge names a node that is not in the graph")
        columns = {name: np.asarray(w, dtype=np.float64) for name, w in weights.items()}
        for name, column in columns.items():
            if len(column) != len(ui):
                raise ValueError(f"weight {name!r} has {len(column)} values for {len(ui)} edges")
            if not np.isfinite(column).all() or (column < 0).any():
                raise ValueError(f"weight {name!r} must be finite and non-negative on every edge")
        del idx, given
        edge_rows = np.arange(len(ui)) if rows is None else np.asarray(rows, dtype=np.int64)
        loop = ui == vi
        loops = len(np.unique(ui[loop]))
        if loops:
            ui, vi, edge_rows = ui[~loop], vi[~loop], edge_rows[~loop]
            columns = {name: column[~loop] for name, column in columns.items()}
        del loop
        key = ui * n + vi
        order = np.argsort(key, kind="stable")
        key = key[order]
        first = np.ones(len(key), dtype=bool)
        first[1:] = key[1:] != key[:-1]
        del key
        starts = np.flatnonzero(first)
        index_type = np.int32 if len(starts) < 2**31 else np.int64
        cheapest: dict[str, NDArray[np.float64]] = {}
        chosen: dict[str, NDArray[np.integer[Any]]] = {}
        for name, column in columns.items():
            cheapest[name], at = _cheapest(column[order], starts)
            chosen[name] = edge_rows[order[at]].astype(index_type)
        del edge_rows
        indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(ui[order][starts], minlength=n), out=indptr[1:])
        return cls(
            ids=ids_a,
            x=x_a,
            y=y_a,
            indptr=indptr.astype(index_type),
            indices=vi[order][starts].astype(np.int32),
            weights=cheapest,
            rows=chosen,
            geographic=geographic,
            pairs=len(starts) + loops,
        )

    def arrays(self) -> dict[str, NDArray[Any]]:
        """The router as named arrays (what :meth:`from_saved` reads back), profiles included."""
        arrays: dict[str, Any] = {
            "format": np.array(FORMAT),
            "ids": self.ids,
            "x": self.x,
            "y": self.y,
            "indptr": self.indptr,
            "indices": self.indices,
            "geographic": np.array(self.geographic),
            "pairs": np.array(self.pairs),
        }
        arrays.update({f"weight:{name}": data for name, data in self.weights.items()})
        arrays.update({f"row:{name}": data for name, data in self.rows.items()})
        for name in self.weights:
            bands, factors = self._profile(name)
            arrays.update({f"bands:{name}": bands, f"factors:{name}": factors})
        return arrays

    @classmethod
    def from_saved(cls, z: Mapping[str, NDArray[Any]]) -> Router:
        """A router from :meth:`arrays` (e.g. mapped from a file); ValueError if they are
        of another format or incomplete."""
        try:
            if int(z["format"]) != FORMAT:
                raise ValueError(f"routing arrays of format {int(z['format'])}")
            weights = {k.split(":", 1)[1]: z[k] for k in z if k.startswith("weight:")}
            missing = set(WEIGHTS) - {k.split(":", 1)[1] for k in z if k.startswith("weight:")}
            if missing:
                raise ValueError(f"routing arrays without the weights {sorted(missing)}")
            router = cls(
                ids=z["ids"],
                x=z["x"],
                y=z["y"],
                indptr=z["indptr"],
                indices=z["indices"],
                weights=weights,
                rows={name: z[f"row:{name}"] for name in weights},
                geographic=bool(z["geographic"]),
                pairs=int(z["pairs"]),
                _profiles={
                    name: (z[f"bands:{name}"], z[f"factors:{name}"])
                    for name in weights
                    if f"bands:{name}" in z
                },
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"unreadable routing arrays ({exc})") from None
        router.check()
        return router

    def check(self) -> None:
        """ValueError unless the arrays are one graph: sorted unique ids with finite points,
        a CSR structure (``indptr`` from 0, never falling, to the number of pairs; every
        index a node) and, per weight, finite non-negative values and rows for each pair.
        Checksums say a file is as written; this says what was written is a graph (a native
        contraction or a scipy search on inconsistent arrays may abort the process)."""
        vectors = [
            ("ids", self.ids, "i"),
            ("x", self.x, "f"),
            ("y", self.y, "f"),
            ("indptr", self.indptr, "iu"),
            ("indices", self.indices, "iu"),
            *((f"weight {k}", w, "f") for k, w in self.weights.items()),
            *((f"rows of {k}", r, "iu") for k, r in self.rows.items()),
            *((f"profile of {k}", a, "f") for k, p in self._profiles.items() for a in p),
        ]
        mistyped = [name for name, array, kinds in vectors if not _vector(array, kinds)]
        if mistyped:
            raise ValueError(f"routing arrays of other types ({', '.join(mistyped)})")
        n, m = len(self.ids), len(self.indices)
        index_range = (int(self.indices.min()), int(self.indices.max())) if m else (0, 0)
        checks = {
            "node ids": self.ids.ndim == 1 and bool((np.diff(self.ids) > 0).all()),
            "node points": self.x.shape == self.y.shape == (n,)
            and bool(np.isfinite(self.x).all() and np.isfinite(self.y).all()),
            "indptr": self.indptr.shape == (n + 1,)
            and int(self.indptr[0]) == 0
            and int(self.indptr[-1]) == m
            and bool((np.diff(self.indptr) >= 0).all()),
            "indices": self.indices.ndim == 1
            and index_range[0] >= 0
            and index_range[1] < max(n, 1),
        }
        for name, values in self.weights.items():
            checks[f"weight {name}"] = values.shape == (m,) and bool(
                np.isfinite(values).all() and (values >= 0).all()
            )
            rows = self.rows.get(name)
            checks[f"rows of {name}"] = (
                rows is not None and rows.shape == (m,) and (m == 0 or int(rows.min()) >= 0)
            )
        for name, (bands, factors) in self._profiles.items():  # ascending; detours >= 1
            checks[f"profile of {name}"] = (
                len(bands) == len(factors) > 0
                and bool((np.diff(bands) >= 0).all() and (factors >= 1).all())
                and bool(np.isfinite(factors).all())
            )
        bad = [name for name, ok in checks.items() if not ok]
        if bad:
            raise ValueError(f"routing arrays that are not a graph ({', '.join(bad)})")

    @property
    def nbytes(self) -> int:
        """Bytes held by the arrays (nodes, CSR structure, every compiled weight)."""
        arrays = [self.ids, self.x, self.y, self.indptr, self.indices, *self.weights.values()]
        arrays += self.rows.values()
        return sum(a.nbytes for a in arrays)

    @property
    def edges(self) -> int:
        """Directed node pairs ``u→v`` (parallel edges counted once, self-loops not at all)."""
        return len(self.indices)

    # --- queries -------------------------------------------------------------------------------

    def index(self, nodes: ArrayLike) -> NDArray[np.intp]:
        """Positions of node ids; KeyError for an id not in the graph."""
        wanted = np.asarray(nodes, dtype=np.int64)
        at = np.searchsorted(self.ids, wanted)
        bad = (at >= len(self.ids)) | (self.ids[np.minimum(at, len(self.ids) - 1)] != wanted)
        if bad.any():
            raise KeyError(f"node {wanted[bad].flat[0]} is not in the graph")
        return at

    def path(self, orig: int, dest: int, weight: str = "travel_time") -> list[int] | None:
        """Node ids of a least-``weight`` path ``orig → dest``, or None when there is none."""
        return self.paths_from(orig, [dest], weight)[0]

    def paths(
        self, origs: Sequence[int], dests: Sequence[int], weight: str = "travel_time"
    ) -> list[list[int] | None]:
        """Least-cost paths for the pairs ``(origs[i], dests[i])``, None where there is none.

        One search per distinct origin, bounded by its farthest destination; origins with
        similar bounds share a call.
        """
        if len(origs) != len(dests):
            raise ValueError("origs and dests must be of equal length")
        src, dst = self.index(list(origs)), self.index(list(dests))
        if self._hierarchic() is not None:
            return self._ch_paths(src, dst, weight)
        return self._dijkstra_paths(src, dst, weight)

    def _dijkstra_paths(
        self, src: NDArray[np.intp], dst: NDArray[np.intp], weight: str
    ) -> list[list[int] | None]:
        by_src: dict[int, list[int]] = {}
        for i, o in enumerate(src.tolist()):
            by_src.setdefault(o, []).append(i)
        sources = np.fromiter(by_src, dtype=np.intp, count=len(by_src))
        targets = [dst[at] for at in by_src.values()]
        found: list[list[int] | None] = [None] * len(src)
        for k, dist, pred in self._settle(self._matrix(weight), weight, sources, targets):
            for i, t in zip(by_src[int(sources[k])], targets[k].tolist(), strict=True):
                found[i] = self._trace(pred, int(sources[k]), t) if dist[t] < np.inf else None
        return found

    def paths_from(
        self, orig: int, dests: Sequence[int], weight: str = "travel_time"
    ) -> list[list[int] | None]:
        """Least-cost paths from one origin to each destination: one bounded search."""
        return self.many_to_many([orig], dests, weight)[0]

    def many_to_many(
        self, origs: Sequence[int], dests: Sequence[int], weight: str = "travel_time"
    ) -> list[list[list[int] | None]]:
        """``[i][j]``: the least-cost path from ``origs[i]`` to ``dests[j]`` (None if none)."""
        src, dst = self.index(list(origs)), self.index(list(dests))
        if self._hierarchic() is not None:
            found = iter(self._ch_paths(np.repeat(src, len(dst)), np.tile(dst, len(src)), weight))
            return [[next(found) for _ in dst] for _ in src]
        sources = np.unique(src)
        rows: dict[int, list[list[int] | None]] = {}
        searches = self._settle(self._matrix(weight), weight, sources, [dst] * len(sources))
        for k, dist, pred in searches:
            s = int(sources[k])
            step = pred.tolist().__getitem__ if len(dst) > 4 else pred.item
            rows[s] = [
                self._trace(pred, s, t, step) if dist[t] < np.inf else None for t in dst.tolist()
            ]
        return [list(rows[s]) for s in src.tolist()]

    def route_through(
        self, stops: Sequence[int], weight: str = "travel_time"
    ) -> tuple[list[int] | None, tuple[int, int]]:
        """Least-cost route visiting ``stops`` in order (each leg a least-cost path).

        Returns the route and ``(-1, -1)``, or None and the first leg without a path.
        """
        route = [int(stops[0])]
        for a, b in itertools.pairwise(int(s) for s in stops):
            if a == b:
                continue
            leg = self.path(a, b, weight)
            if leg is None:
                return None, (a, b)
            route += leg[1:]
        return route, (-1, -1)

    def cost(self, path: Sequence[int], weight: str = "travel_time") -> float:
        """Sum of the (cheapest parallel) edge weights along a path of node ids."""
        return float(sum(self.costs(path, weight)))

    def costs(self, path: Sequence[int], weight: str = "travel_time") -> list[float]:
        """The weight of each step of a path of node ids (its cheapest parallel edge's)."""
        steps: list[float] = self.weights[weight][self._steps(path)].tolist()
        return steps

    def edge_rows(self, path: Sequence[int], weight: str = "travel_time") -> NDArray[Any]:
        """The edge each step of a path of node ids takes, as its row in the graph's
        columns: the cheapest of parallel edges, the first of equals (osmnx's pick)."""
        return self.rows[weight][self._steps(path)]

    def k_shortest(
        self, orig: int, dest: int, k: int, weight: str = "travel_time"
    ) -> Iterator[list[int]]:
        """The ``k`` least-cost loopless paths ``orig → dest``, cheapest first (Yen's algorithm).

        The same algorithm as ``networkx.shortest_simple_paths`` (which
        ``osmnx.routing.k_shortest_paths`` calls): each spur search runs on a working
        copy of the weights with the root's nodes and the used spur edges set to
        infinity. A spur search stops at the cost beyond which no candidate could still
        be among the ``k`` (the cost of the k-th cheapest candidate already queued).
        """
        base = self.weights[weight]
        matrix = self._matrix_over(base.copy())
        work = matrix.data
        src, dst = (int(i) for i in self.index([orig, dest]))
        first, _cost = self._one(matrix, weight, src, dst, _UNLIMITED)
        if first is None:
            return
        queue: list[tuple[float, int, tuple[int, ...]]] = []
        queued: set[tuple[int, ...]] = set()
        counter = itertools.count()
        best = tuple(first)
        heapq.heappush(queue, (_cost, next(counter), best))
        queued.add(best)
        accepted: list[tuple[int, ...]] = []
        while queue and len(accepted) < k:
            _cost, _n, path = heapq.heappop(queue)
            queued.discard(path)
            accepted.append(path)
            yield self.ids[list(path)].tolist()
            if len(accepted) == k:
                return
            need = k - len(accepted)
            bound = heapq.nsmallest(need, queue)[-1][0] if len(queue) >= need else _UNLIMITED
            steps = [base[self._position(a, b)] for a, b in itertools.pairwise(path)]
            root_cost = 0.0
            touched: list[tuple[int, int]] = []
            for i, spur in enumerate(path[:-1]):
                root = path[: i + 1]
                removed = [
                    self._position(p[i], p[i + 1])
                    for p in accepted
                    if len(p) > i + 1 and p[: i + 1] == root
                ]
                spur_path, spur_cost = self._spur(
                    matrix, weight, spur, dst, removed, bound - root_cost
                )
                if spur_path is not None:
                    candidate = root[:-1] + tuple(spur_path)
                    if candidate not in queued:
                        queued.add(candidate)
                        heapq.heappush(queue, (root_cost + spur_cost, next(counter), candidate))
                # the spur node joins the root: no later spur may pass through it
                lo, hi = int(self.indptr[spur]), int(self.indptr[spur + 1])
                work[lo:hi] = np.inf
                touched.append((lo, hi))
                root_cost += steps[i]
            for lo, hi in touched:
                work[lo:hi] = base[lo:hi]

    def _spur(
        self, matrix: csr_array, weight: str, spur: int, dst: int, removed: list[int], cap: float
    ) -> tuple[list[int] | None, float]:
        """Least-cost path ``spur → dst`` (positions) without the ``removed`` edges, if it
        costs at most ``cap``; the ``matrix`` shares its data with the working weights."""
        if cap < 0:
            return None, np.inf
        work = matrix.data
        saved = work[removed].copy()
        work[removed] = np.inf
        try:
            return self._one(matrix, weight, spur, dst, cap)
        finally:
            work[removed] = saved

    def _one(
        self, matrix: csr_array, weight: str, src: int, dst: int, cap: float
    ) -> tuple[list[int] | None, float]:
        """Least-cost path ``src → dst`` (positions) costing at most ``cap``, and its cost."""
        target = np.array([dst])
        for _k, dist, pred in self._settle(matrix, weight, np.array([src]), [target], cap):
            if np.isfinite(dist[dst]):
                return self._trace_index(pred, src, dst), float(dist[dst])
        return None, np.inf

    # --- contraction hierarchies (routes.routing.ch) ---------------------------------------------

    def use(self, search: str = "auto", queries: int = 1) -> bool:
        """Search with a contraction hierarchy or Dijkstra from now on (``search`` one of
        :data:`~routes.routing.ch.SEARCHES`; ``auto`` decides by size and ``queries``);
        whether it is the hierarchy. Each weight is contracted on its first query."""
        from routes.routing.ch import use_ch

        self._ch = use_ch(search, self.edges, queries)
        return self._ch

    def over(self, base: Router) -> None:
        """Mark this router's graph as ``base``'s with edges removed (areas to avoid): while
        ``base`` searches a hierarchy, a path of it that uses only edges kept here, at the
        same weight, is also a least-cost path here; other queries fall back to Dijkstra."""
        if base is not self and not np.array_equal(base.ids, self.ids):
            raise ValueError("the graphs do not have the same nodes")
        self._base = None if base is self else base

    def hierarchy(self, weight: str = "travel_time") -> Hierarchy:
        """The contraction hierarchy of one weight, contracted on first use (or, with a
        ``hierarchy_cache``, read from where it was saved)."""
        if weight not in self._hierarchies:
            from routes.routing.ch import Hierarchy

            if weight not in self.weights:
                raise KeyError(f"weight {weight!r} is not compiled; have {sorted(self.weights)}")
            self._hierarchies[weight] = (
                self.hierarchy_cache(self, weight)
                if self.hierarchy_cache is not None
                else Hierarchy(self.indptr, self.indices, self.weights[weight], weight)
            )
        return self._hierarchies[weight]

    def _hierarchic(self) -> Router | None:
        """The router whose hierarchy answers queries: this one, its base, or none."""
        if self._ch:
            return self
        return self._base if self._base is not None and self._base._ch else None

    def _ch_paths(
        self, src: NDArray[np.intp], dst: NDArray[np.intp], weight: str
    ) -> list[list[int] | None]:
        """Pairs of positions searched on the hierarchy; what it cannot answer (a path
        through an edge this graph lacks) goes to Dijkstra. No path in the base graph
        means none here."""
        owner = self._hierarchic()
        assert owner is not None
        ch = owner.hierarchy(weight)
        found: list[list[int] | None] = []
        misses: list[int] = []
        for i, (s, t) in enumerate(zip(src.tolist(), dst.tolist(), strict=True)):
            path, _cost = ch.path(s, t)
            if owner is not self and path is not None and not self._keeps(owner, path, weight):
                misses.append(i)
            found.append(None if path is None else self.ids[path].tolist())
        if misses:
            at = np.array(misses, dtype=np.intp)
            for i, path in zip(misses, self._dijkstra_paths(src[at], dst[at], weight), strict=True):
                found[i] = path
        return found

    def _keeps(self, base: Router, path: list[int], weight: str) -> bool:
        """Whether every edge of ``path`` (positions) is here at ``base``'s weight."""
        mine, theirs = self.weights[weight], base.weights[weight]
        try:
            return all(
                mine[self._position(a, b)] == theirs[base._position(a, b)]
                for a, b in itertools.pairwise(path)
            )
        except KeyError:
            return False

    # --- snapping and connectivity -------------------------------------------------------------

    def core(self) -> NDArray[np.bool_]:
        """Mask of the largest strongly connected component: there every node reaches every other.

        A least-cost path between two of its nodes never leaves it, so routing on the
        whole graph between core nodes gives the routes routing on the core would.
        """
        if self._core is None:
            from scipy.sparse.csgraph import connected_components

            if not len(self.ids):
                self._core = np.zeros(0, dtype=bool)
            else:
                structure = self._matrix_over(np.ones(len(self.indices)))
                _n, labels = connected_components(structure, directed=True, connection="strong")
                self._core = labels == np.bincount(labels).argmax()
        return self._core

    def nearest(
        self, lons: ArrayLike, lats: ArrayLike, *, core: bool = True
    ) -> tuple[list[int], list[float]]:
        """Nearest node (of the core, by default) to each point, and its distance in metres.

        Great-circle distance on a lon/lat graph (as ``osmnx.distance.nearest_nodes``
        measures it there), straight-line distance on a projected one.
        """
        pool = np.flatnonzero(self.core()) if core else np.arange(len(self.ids))
        if not len(pool):
            raise ValueError("the graph has no nodes to snap to")
        px, py = self.x[pool], self.y[pool]
        nodes: list[int] = []
        dists: list[float] = []
        for lon, lat in zip(np.atleast_1d(lons), np.atleast_1d(lats), strict=True):
            d = (
                great_circle(float(lat), float(lon), py, px)
                if self.geographic
                else np.hypot(px - float(lon), py - float(lat))
            )
            best = int(np.argmin(d))
            nodes.append(int(self.ids[pool[best]]))
            dists.append(float(d[best]))
        return nodes, dists

    def metres(self, a: int, b: NDArray[np.intp]) -> NDArray[np.float64]:
        """Straight-line distances from node position ``a`` to positions ``b``, metres."""
        if self.geographic:
            return great_circle(self.y[a], self.x[a], self.y[b], self.x[b])
        return np.asarray(np.hypot(self.x[b] - self.x[a], self.y[b] - self.y[a]), dtype=float)

    # --- internals -----------------------------------------------------------------------------

    def _rows(self) -> NDArray[np.int64]:
        return np.repeat(np.arange(len(self.ids), dtype=np.int64), np.diff(self.indptr))

    def _steps(self, path: Sequence[int]) -> NDArray[np.intp]:
        """Where each step of a path of node ids sits in the CSR arrays."""
        at = self.index(list(path)).tolist()
        return np.array([self._position(a, b) for a, b in itertools.pairwise(at)], dtype=np.intp)

    def _position(self, a: int, b: int) -> int:
        """Where edge ``a→b`` (node positions) sits in the CSR arrays."""
        lo, hi = int(self.indptr[a]), int(self.indptr[a + 1])
        at = lo + int(np.searchsorted(self.indices[lo:hi], b))
        if at >= hi or self.indices[at] != b:
            raise KeyError(f"no edge {self.ids[a]} → {self.ids[b]}")
        return at

    def _matrix(self, weight: str) -> csr_array:
        if weight not in self._matrices:
            if weight not in self.weights:
                raise KeyError(f"weight {weight!r} is not compiled; have {sorted(self.weights)}")
            self._matrices[weight] = self._matrix_over(self.weights[weight])
        return self._matrices[weight]

    def _matrix_over(self, data: NDArray[np.float64]) -> csr_array:
        """A CSR matrix that shares ``data`` (edit it in place to change weights)."""
        from scipy.sparse import csr_array

        n = len(self.ids)
        matrix = csr_array((data, self.indices, self.indptr), shape=(n, n), copy=False)
        matrix.has_sorted_indices = True
        return matrix

    def _ratio(self, weight: str) -> float:
        """Least weight per metre of straight line over all edges: cost ≥ ratio × distance."""
        if weight not in self._ratios:
            rows, ratio = self._rows(), np.inf
            for lo in range(0, len(rows), 1 << 18):  # in slices: small temporaries
                a, b = rows[lo : lo + (1 << 18)], self.indices[lo : lo + (1 << 18)]
                if self.geographic:
                    metres = great_circle(self.y[a], self.x[a], self.y[b], self.x[b])
                else:
                    metres = np.hypot(self.x[a] - self.x[b], self.y[a] - self.y[b])
                apart = metres > 0
                if apart.any():
                    w = self.weights[weight][lo : lo + (1 << 18)]
                    ratio = min(ratio, float((w[apart] / metres[apart]).min()))
            ratio = 0.0 if ratio == np.inf else ratio
            self._ratios[weight] = ratio * (1 - 1e-9) if np.isfinite(ratio) else 0.0
        return self._ratios[weight]

    def _profile(self, weight: str) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The graph's detour profile: upper ends of lower-bound bands, and for each the
        :data:`PROFILE_QUANTILE` of cost over lower bound, from a few sampled searches."""
        if weight not in self._profiles:
            from scipy.sparse.csgraph import dijkstra

            core = np.flatnonzero(self.core())
            ratio = self._ratio(weight)
            bands, factors = np.array([np.inf]), np.array([2.0])
            if len(core) > 1 and ratio > 0:
                picks = np.unique(core[np.linspace(0, len(core) - 1, PROFILE_SOURCES).astype(int)])
                found: list[tuple[NDArray[np.float64], NDArray[np.float64]]] = []
                for p in picks.tolist():  # one search at a time: temporaries of one row
                    cost = dijkstra(self._matrix(weight), directed=True, indices=p)[core]
                    bound = self.metres(p, core) * ratio
                    ok = np.isfinite(cost) & (bound > 0)
                    found.append((bound[ok], cost[ok] / bound[ok]))
                lbs, detours = (np.concatenate(parts) for parts in zip(*found, strict=True))
                if len(lbs) >= PROFILE_BANDS:
                    quantiles = np.linspace(0, 1, PROFILE_BANDS + 1)[1:]
                    bands = np.quantile(lbs, quantiles)
                    bands[-1] = np.inf
                    band = np.searchsorted(bands, lbs)
                    factors = np.array(
                        [
                            np.quantile(detours[band == b], PROFILE_QUANTILE)
                            if (band == b).any()
                            else 2.0
                            for b in range(len(bands))
                        ]
                    )
            self._profiles[weight] = (bands, np.maximum(factors, 1.0) * (1 + 1e-9))
        return self._profiles[weight]

    def _first_limits(
        self, weight: str, sources: NDArray[np.intp], targets: list[NDArray[np.intp]]
    ) -> NDArray[np.float64]:
        """A first distance limit per source: its farthest target's lower bound × the profile."""
        reach = np.array(
            [self.metres(int(s), t).max(initial=0.0) for s, t in zip(sources, targets, strict=True)]
        )
        lower = reach * self._ratio(weight)
        bands, factors = self._profile(weight)
        limits = lower * factors[np.minimum(np.searchsorted(bands, lower), len(factors) - 1)]
        return np.where(limits > 0, limits, _UNLIMITED)

    def _settle(
        self,
        matrix: csr_array,
        weight: str,
        sources: NDArray[np.intp],
        targets: list[NDArray[np.intp]],
        cap: float = _UNLIMITED,
    ) -> Iterator[tuple[int, NDArray[np.float64], NDArray[np.int32]]]:
        """Dijkstra from each source until all its targets are reached (or the limit reaches
        ``cap``): ``(k, costs, predecessors)`` for ``sources[k]``, in no particular order.

        Limits start at :meth:`_first_limits`, double up to :data:`BOUND_TRIES` times,
        then are ``cap``. Sources with similar limits share a call (:data:`CHUNK`).
        """
        from scipy.sparse.csgraph import dijkstra

        limits = np.minimum(self._first_limits(weight, sources, targets), cap)
        pending = np.arange(len(sources))
        chunk = max(1, min(CHUNK, MAX_CELLS // max(1, len(self.ids))))
        for attempt in range(BOUND_TRIES + 2):
            if not len(pending):
                return
            if attempt > BOUND_TRIES:
                limits[pending] = cap
            pending = pending[np.argsort(limits[pending], kind="stable")]
            retry: list[int] = []
            for at in range(0, len(pending), chunk):
                group = pending[at : at + chunk]
                limit = float(limits[group].max())
                dist, pred = dijkstra(
                    matrix,
                    directed=True,
                    indices=sources[group],
                    return_predecessors=True,
                    limit=limit,
                )
                for row, k in enumerate(group.tolist()):
                    if limit >= cap or np.isfinite(dist[row, targets[k]]).all():
                        yield k, dist[row], pred[row]
                    else:
                        retry.append(k)
            pending = np.array(retry, dtype=np.intp)
            limits[pending] = np.minimum(limits[pending] * 2, cap)

    def _trace_index(
        self, pred: NDArray[np.int32], src: int, dst: int, step: Any = None
    ) -> list[int]:
        """Node positions from ``src`` to ``dst`` along the predecessor array."""
        step = step or pred.item
        out = [dst]
        node = dst
        while node != src:
            node = step(node)
            out.append(node)
        out.reverse()
        return out

    def _trace(self, pred: NDArray[np.int32], src: int, dst: int, step: Any = None) -> list[int]:
        ids: list[int] = self.ids[self._trace_index(pred, src, dst, step)].tolist()
        return ids


def _cheapest(
    weights: NDArray[np.float64], starts: NDArray[np.intp]
) -> tuple[NDArray[np.float64], NDArray[np.intp]]:
    """Per run ``weights[starts[i]:starts[i + 1]]``: its least weight, and where the first
    element of that weight sits."""
    if not len(starts):
        return weights[:0], starts
    least = np.minimum.reduceat(weights, starts)
    runs = np.diff(np.append(starts, len(weights)))
    at = np.where(weights == np.repeat(least, runs), np.arange(len(weights)), len(weights))
    first: NDArray[np.intp] = np.minimum.reduceat(at, starts)
    return least, first


def _vector(array: Any, kinds: str) -> bool:
    """Whether ``array`` is a one-axis numpy array of one of the dtype ``kinds`` ("i", "f")."""
    return isinstance(array, np.ndarray) and array.ndim == 1 and array.dtype.kind in kinds
