"""The road network every stage gets: its columns and its compiled router, no networkx.

A :class:`RoadNetwork` is what :func:`routes.network.choose` returns for every source
(an OSM file, a stored extract, an Overpass download, the proxy network): the graph's
columns (:class:`~routes.routing.arrays.RoadArrays`, memory-mapped from the cache), its
:class:`~routes.routing.backend.Router`, and the graph's attributes (``network_source``,
``source``, ``osm_date``, ``crs``). Routing searches the router and reads only the columns
of the edges its routes take; the map and the exports read the columns they draw or
write. :meth:`RoadNetwork.to_networkx` gives the osmnx-schema ``MultiDiGraph`` on
request (notebooks, comparisons with osmnx); nothing in a run needs it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from routes.routing.arrays import RoadArrays
from routes.routing.backend import WEIGHTS, Router

if TYPE_CHECKING:
    from collections.abc import Sequence

    import geopandas as gpd
    import networkx as nx
    from numpy.typing import NDArray

__all__ = ["RoadNetwork"]


@dataclass(eq=False)
class RoadNetwork:
    """A road network as columns (``arrays``) and its compiled ``router``.

    ``kept`` marks the edges routes may use when some were taken out (areas to avoid:
    :meth:`without`); None means every edge. ``base`` is then the network they were taken
    from: stops snap to it, so a stop cut off by an area to avoid has no route rather than
    moving. The columns are shared, never copied.
    """

    arrays: RoadArrays
    router: Router
    kept: NDArray[np.bool_] | None = None
    base: RoadNetwork | None = None

    @classmethod
    def from_arrays(cls, arrays: RoadArrays) -> RoadNetwork:
        """The network of ``arrays``, its router compiled from the columns."""
        return cls(arrays, _compile(arrays, None))

    @classmethod
    def from_networkx(cls, G: nx.MultiDiGraph) -> RoadNetwork:
        """The network of an osmnx-schema graph (integer node ids, JSON-able attributes)."""
        return cls.from_arrays(RoadArrays.from_networkx(G))

    @property
    def graph(self) -> dict[str, Any]:
        """The graph's attributes: ``network_source`` (``osm`` or ``proxy``), ``source``,
        ``osm_date``, ``crs``, ..."""
        return self.arrays.graph

    @property
    def n_nodes(self) -> int:
        return len(self.router.ids)

    @property
    def n_edges(self) -> int:
        """Edges, parallel edges and self-loops included (``number_of_edges()``)."""
        return self.arrays.n_edges if self.kept is None else int(self.kept.sum())

    def to_networkx(self) -> nx.MultiDiGraph:
        """The osmnx-schema ``MultiDiGraph`` of the edges kept, in the columns' order."""
        G = self.arrays.to_networkx()
        if self.kept is not None:
            out = np.flatnonzero(~self.kept)
            edges = self.arrays.edges
            G.remove_edges_from(
                zip(*(edges[k][out].tolist() for k in ("u", "v", "key")), strict=True)
            )
        return G

    def without(self, rows: Sequence[int] | NDArray[np.integer[Any]]) -> RoadNetwork:
        """This network less the edges at ``rows`` (e.g. those inside areas to avoid): the
        same columns and nodes, a router compiled over the other edges."""
        kept = np.ones(self.arrays.n_edges, dtype=bool) if self.kept is None else self.kept.copy()
        kept[np.asarray(rows, dtype=np.intp)] = False
        return RoadNetwork(self.arrays, _compile(self.arrays, kept), kept, self.base or self)

    # --- reading the columns -------------------------------------------------------------

    def edges(
        self,
        columns: Sequence[str] = (),
        *,
        within: tuple[float, float, float, float] | None = None,
    ) -> gpd.GeoDataFrame:
        """The edges kept as a table, in the graph's edge order, indexed by row: ``u``,
        ``v``, ``key``, the attribute ``columns`` (:meth:`RoadArrays.column`) and the
        geometry (a straight line between its nodes where the graph has none, as
        ``osmnx.graph_to_gdfs`` draws it). With ``within`` (west, south, east, north),
        only the edges whose bounding box meets that box, looked for only in the runs of
        edges whose box meets it (:meth:`RoadArrays.rows_near`): just their rows are read,
        just those lines are made."""
        import geopandas as gpd

        if within is None:
            rows = (
                np.arange(self.arrays.n_edges) if self.kept is None else np.flatnonzero(self.kept)
            )
        else:
            rows = self.arrays.rows_near(within)
            rows = rows if self.kept is None else rows[self.kept[rows]]
            west, south, east, north = within
            low_x, low_y, high_x, high_y = self._boxes(rows)
            meets = (high_x >= west) & (low_x <= east) & (high_y >= south) & (low_y <= north)
            rows = rows[meets]
        table: dict[str, Any] = {k: self.arrays.take(k, rows) for k in ("u", "v", "key")}
        table.update({name: self.arrays.column(name, rows) for name in columns})
        return gpd.GeoDataFrame(
            table,
            geometry=self._lines(rows),
            crs=self.graph.get("crs", "EPSG:4326"),
            index=rows,
        )

    def _lines(self, rows: NDArray[np.integer[Any]]) -> NDArray[Any]:
        """Each edge's line (shapely), its geometry or the straight line between its nodes."""
        import shapely

        starts, counts = self.arrays.runs(rows)
        lines = np.empty(len(rows), dtype=object)
        drawn = counts > 0
        if drawn.any():
            points = self.arrays.take("geometry_xy", _runs(starts[drawn], counts[drawn]))
            line_of = np.repeat(np.arange(drawn.sum()), counts[drawn])
            lines[drawn] = shapely.linestrings(points, indices=line_of)
        if not drawn.all():
            ends = self._ends(rows[~drawn])
            line_of = np.repeat(np.arange(len(ends)), 2)
            lines[~drawn] = shapely.linestrings(ends.reshape(-1, 2), indices=line_of)
        return lines

    def points(self, rows: NDArray[np.integer[Any]]) -> list[list[list[float]]]:
        """Each edge's points, [x, y] lists: its geometry, or its two nodes."""
        starts, counts = self.arrays.runs(rows)
        xy = self.arrays.take("geometry_xy", _runs(starts, counts)).tolist()
        ends = iter(self._ends(np.asarray(rows)[counts == 0]).tolist())
        out = []
        at = 0
        for count in counts.tolist():
            out.append(xy[at : at + count] if count else next(ends))
            at += count
        return out

    def node_values(self, name: str, ids: Sequence[int] | None = None) -> list[Any]:
        """Node attribute ``name`` of the nodes ``ids`` (default: all, in node order), None
        where a node lacks it."""
        if ids is None:
            return self.arrays.column(name, node=True).tolist()
        if not self.arrays.has(name, node=True):
            return [None] * len(ids)
        node_ids = np.asarray(self.arrays.nodes["id"])
        order = np.argsort(node_ids, kind="stable")
        at = order[np.searchsorted(node_ids, np.asarray(ids, dtype=np.int64), sorter=order)]
        return self.arrays.column(name, at, node=True).tolist()

    def _ends(self, rows: NDArray[np.integer[Any]]) -> NDArray[np.float64]:
        """(len(rows), 2, 2): each edge's first and last node as (x, y)."""
        router = self.router
        u = router.index(self.arrays.take("u", rows))
        v = router.index(self.arrays.take("v", rows))
        first = np.column_stack([router.x[u], router.y[u]])
        last = np.column_stack([router.x[v], router.y[v]])
        return np.stack([first, last], axis=1)

    def _boxes(self, rows: NDArray[np.integer[Any]]) -> tuple[NDArray[np.float64], ...]:
        """West, south, east, north of each edge's line."""
        ends = self._ends(rows)
        low, high = ends.min(axis=1), ends.max(axis=1)
        starts, counts = self.arrays.runs(rows)
        drawn = np.flatnonzero(counts > 0)
        if len(drawn):
            picked = self.arrays.take("geometry_xy", _runs(starts[drawn], counts[drawn]))
            heads = np.cumsum(counts[drawn]) - counts[drawn]
            low[drawn] = np.minimum.reduceat(picked, heads, axis=0)
            high[drawn] = np.maximum.reduceat(picked, heads, axis=0)
        return low[:, 0], low[:, 1], high[:, 0], high[:, 1]


def _runs(starts: NDArray[np.integer[Any]], counts: NDArray[np.integer[Any]]) -> NDArray[np.intp]:
    """Positions ``starts[i] .. starts[i] + counts[i] - 1`` for every i, one after another."""
    heads = np.cumsum(counts) - counts
    return np.repeat(np.asarray(starts) - heads, counts) + np.arange(int(counts.sum()))


def _compile(arrays: RoadArrays, kept: NDArray[np.bool_] | None) -> Router:
    """The router of the edges ``kept`` (all if None); a missing weight counts 1, as
    networkx counts it."""
    rows = None if kept is None else np.flatnonzero(kept)
    weights = {}
    for name in WEIGHTS:
        column = arrays.column(name, rows)
        if column.dtype == object:
            column = np.array([1.0 if w is None else float(w) for w in column.tolist()])
        weights[name] = column
    u, v = (np.asarray(arrays.edges[k]) for k in ("u", "v"))
    crs = str(arrays.graph.get("crs", "EPSG:4326")).lower()
    return Router.from_arrays(
        arrays.nodes["id"],
        arrays.column("x", node=True),
        arrays.column("y", node=True),
        u if rows is None else u[rows],
        v if rows is None else v[rows],
        weights,
        rows=rows,
        geographic=crs in {"epsg:4326", "wgs84"},
    )
