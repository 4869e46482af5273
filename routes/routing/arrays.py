"""A road graph as columns of arrays: what the network layer builds and caches, and what
every later stage reads.

A :class:`RoadArrays` is a road graph in columns: node ids and coordinates; per edge
``u``, ``v``, ``key``, float columns (``length``, ``travel_time``, ``speed_kph``, ...),
geometry as coordinate offsets, and every other attribute (``highway``, ``name``,
``oneway``, ``osmid``, ...) as integer codes into a JSON list of its distinct values;
and the bounds of each run of :data:`BOX_ROWS` edges, so that the edges near a place are
found without reading every edge.
Edges are in the order networkx lists them (:func:`networkx_order`), so
:meth:`RoadArrays.to_networkx` gives back the osmnx-schema ``MultiDiGraph`` edge for edge.
:meth:`RoadArrays.arrays` names every column for a file (:mod:`routes.network.store`
writes and maps them); nothing here reads or writes files.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NoReturn, TypeAlias, TypeVar

import numpy as np

if TYPE_CHECKING:
    import networkx as nx
    from numpy.typing import NDArray

__all__ = ["FORMAT", "MISSING", "LazyColumns", "RoadArrays", "networkx_order"]

#: Edge and node attributes kept as float64 columns when every element has a float.
FLOAT_COLUMNS = ("length", "travel_time", "speed_kph", "x", "y")

#: Layout version of the arrays in a file; a file of another version is not read.
FORMAT = 1

#: Edges per box of :meth:`RoadArrays.boxes`: each bounds that many consecutive edges.
BOX_ROWS = 4096

_T = TypeVar("_T")


@dataclass
class RoadArrays:
    """A road graph as columns: ``nodes`` and ``edges`` map a column name to an array.

    ``nodes["id"]``, ``edges["u"]``/``["v"]``/``["key"]`` are int64; float columns
    are float64; geometry is ``edges["geometry_offsets"]`` (n + 1 positions into
    ``edges["geometry_xy"]``, an edge without geometry has an empty run); a coded
    column ``name`` is ``codes[name]`` (int32, -1 where the element lacks it) into
    ``values[name]`` (its distinct values). ``graph`` holds the graph's attributes.
    """

    nodes: Mapping[str, NDArray[Any]]
    edges: Mapping[str, NDArray[Any]]
    graph: dict[str, Any] = field(default_factory=dict)
    values: dict[str, list[Any]] = field(default_factory=dict)
    _boxes: NDArray[np.float64] | None = field(default=None, init=False, repr=False)

    @property
    def n_edges(self) -> int:
        return _shape(self.edges, "u")[0]

    @property
    def n_nodes(self) -> int:
        return _shape(self.nodes, "id")[0]

    # --- from and to networkx ------------------------------------------------------------

    @classmethod
    def from_networkx(cls, G: nx.MultiDiGraph) -> RoadArrays:
        """Columns of an osmnx-schema graph (integer node ids, JSON-able attributes)."""
        node_data = [d for _, d in G.nodes(data=True)]
        edges = list(G.edges(keys=True, data=True))
        data = [d for *_, d in edges]
        offsets, xy = _geometry(data)
        return cls.from_columns(
            nodes=np.fromiter(G.nodes, dtype=np.int64, count=len(G)),
            node_columns=_by_column(node_data),
            uvk=np.array([e[:3] for e in edges], dtype=np.int64).reshape(-1, 3),
            edge_columns=_by_column(data, skip={"geometry"}),
            geometry=(offsets, xy),
            graph=dict(G.graph),
        )

    @classmethod
    def from_columns(
        cls,
        *,
        nodes: NDArray[np.int64],
        node_columns: Mapping[str, Column],
        uvk: NDArray[np.int64] | tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]],
        edge_columns: Mapping[str, Column],
        geometry: tuple[NDArray[np.int64], NDArray[np.float64]],
        graph: Mapping[str, Any],
    ) -> RoadArrays:
        """Columns from node ids, edges ``(u, v, key)`` rows, attribute columns and geometry
        offsets and points (``uvk``: rows, or the three columns). An attribute column is a
        list (one value per row, :data:`MISSING` where a row lacks it), a float array, or
        ``(codes, values)``."""
        values: dict[str, list[Any]] = {}
        offsets, xy = geometry
        u, v, key = (uvk[:, 0], uvk[:, 1], uvk[:, 2]) if isinstance(uvk, np.ndarray) else uvk
        edges = {
            "u": np.ascontiguousarray(u, dtype=np.int64),
            "v": np.ascontiguousarray(v, dtype=np.int64),
            "key": np.ascontiguousarray(key, dtype=np.int64),
            "geometry_offsets": offsets,
            "geometry_xy": xy,
            **_coded(edge_columns, "edge:", values),
        }
        node_table = {"id": nodes, **_coded(node_columns, "node:", values)}
        return cls(node_table, edges, dict(graph), values)

    def to_networkx(self) -> nx.MultiDiGraph:
        """The osmnx-schema ``MultiDiGraph`` these columns hold, node and edge order kept."""
        import networkx as nx
        from shapely import linestrings

        G = nx.MultiDiGraph(**self.graph)
        G.add_nodes_from(
            zip(self.nodes["id"].tolist(), self._records(self.nodes, "node:"), strict=True)
        )
        records = self._records(self.edges, "edge:")
        offsets = self.edges["geometry_offsets"]
        counts = np.diff(offsets)
        xy = np.asarray(self.edges["geometry_xy"])
        with_geometry = np.flatnonzero(counts > 0)
        if len(with_geometry):
            runs = np.repeat(np.arange(len(with_geometry)), counts[with_geometry])
            lines = linestrings(xy, indices=runs)
            for i, line in zip(with_geometry.tolist(), lines, strict=True):
                records[i]["geometry"] = line
        G.add_edges_from(
            zip(
                self.edges["u"].tolist(),
                self.edges["v"].tolist(),
                self.edges["key"].tolist(),
                records,
                strict=True,
            )
        )
        return G

    def _records(self, table: Mapping[str, NDArray[Any]], prefix: str) -> list[dict[str, Any]]:
        """One attribute dict per row of ``table``, keys in a fixed order."""
        n = len(next(iter(table.values())))
        records: list[dict[str, Any]] = [{} for _ in range(n)]
        for name, column in table.items():
            if name.startswith("code:"):
                attr = name[len("code:") :]
                vocab = self.values[prefix + attr]
                for record, code in zip(records, column.tolist(), strict=True):
                    if code >= 0:
                        record[attr] = vocab[code]
            elif name.startswith("float:"):
                attr = name[len("float:") :]
                for record, value in zip(records, column.tolist(), strict=True):
                    record[attr] = value
        return records

    def column(
        self, name: str, rows: NDArray[np.integer[Any]] | None = None, *, node: bool = False
    ) -> NDArray[Any]:
        """Attribute ``name`` of the edges (or nodes) at ``rows`` (default: all, the column
        itself where it is floats): floats for a float column, else objects, None where a
        row lacks it (every row, if none has it). Only that column is read."""
        table = self.nodes if node else self.edges
        if f"float:{name}" in table:
            if rows is None:
                floats: NDArray[Any] = np.asarray(table[f"float:{name}"])
                return floats
            return self.take(f"float:{name}", rows, node=node)
        if f"code:{name}" not in table:
            count = (self.n_nodes if node else self.n_edges) if rows is None else len(rows)
            return np.full(count, None, dtype=object)
        vocab = self.values[("node:" if node else "edge:") + name]
        lookup = np.full(len(vocab) + 1, None, dtype=object)  # code -1 picks the None at the end
        for i, value in enumerate(vocab):
            lookup[i] = value  # one by one: a list value stays one object
        if rows is None:
            codes = np.asarray(table[f"code:{name}"])
        else:
            codes = self.take(f"code:{name}", rows, node=node)
        picked: NDArray[Any] = lookup[codes]
        return picked

    def has(self, name: str, *, node: bool = False) -> bool:
        """Whether some edge (or node) has attribute ``name`` (:meth:`column` is not all None)."""
        table = self.nodes if node else self.edges
        return f"float:{name}" in table or f"code:{name}" in table

    def take(
        self, name: str, rows: NDArray[np.integer[Any]], *, node: bool = False
    ) -> NDArray[Any]:
        """The stored values of column ``name`` (``u``, ``float:length``, ``code:highway``,
        ``geometry_xy``, ...) at ``rows``, a copy: from a file, only the blocks that hold
        them are read, and checked."""
        rows = np.asarray(rows, dtype=np.intp).ravel()
        return _take(self.nodes if node else self.edges, name, rows)

    def runs(self, rows: NDArray[np.integer[Any]]) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
        """Where the geometry of each edge at ``rows`` is in ``geometry_xy``: its first
        point and its number of points (0 for an edge without geometry)."""
        rows = np.asarray(rows, dtype=np.intp).ravel()
        bounds = self.take("geometry_offsets", np.stack([rows, rows + 1], axis=-1))
        return bounds[0::2], bounds[1::2] - bounds[0::2]

    # --- where edges are ----------------------------------------------------------------

    def boxes(self) -> NDArray[np.float64]:
        """West, south, east and north of the lines and end nodes of each run of
        :data:`BOX_ROWS` consecutive edges, (runs, 4): what :meth:`rows_near` looks up
        (stored with the columns; made here from them, once, when they have none)."""
        if self._boxes is None:
            self._boxes = _edge_boxes(self)
        return self._boxes

    def rows_near(self, box: tuple[float, float, float, float]) -> NDArray[np.intp]:
        """Rows, ascending, of every edge whose line may meet ``box`` (west, south, east,
        north): those of the runs of :data:`BOX_ROWS` edges whose box meets it. Finding
        them reads no column."""
        west, south, east, north = box
        low_x, low_y, high_x, high_y = self.boxes().T
        meets = np.flatnonzero(
            (high_x >= west) & (low_x <= east) & (high_y >= south) & (low_y <= north)
        )
        rows = (meets[:, None] * BOX_ROWS + np.arange(BOX_ROWS)).ravel()
        near: NDArray[np.intp] = rows[rows < self.n_edges]
        return near

    # --- files ---------------------------------------------------------------------------

    def arrays(self) -> dict[str, NDArray[Any]]:
        """Every column as a named array, and the :meth:`boxes` (what :meth:`from_arrays`
        reads back)."""
        meta = {"format": FORMAT, "graph": self.graph, "values": self.values}
        out: dict[str, NDArray[Any]] = {
            "meta": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8),
            "boxes": self.boxes(),
        }
        out.update({f"nodes/{k}": v for k, v in self.nodes.items()})
        out.update({f"edges/{k}": v for k, v in self.edges.items()})
        return out

    @classmethod
    def from_arrays(
        cls,
        arrays: Mapping[str, NDArray[Any]],
        *,
        lazy: bool = False,
        damaged: Callable[[ValueError], NoReturn] | None = None,
    ) -> RoadArrays:
        """Columns from :meth:`arrays` (e.g. mapped from a file); ValueError if they are not.

        Every column is checked now, or with ``lazy`` each one when first read: whole,
        or the rows read (:meth:`take`; of a mapped file, only the blocks that hold them
        are paged in). A column that fails then calls ``damaged`` with the ValueError (by
        default, raises it).
        """
        try:
            meta = json.loads(bytes(arrays["meta"]))
            if not isinstance(meta, dict) or meta.get("format") != FORMAT:
                raise ValueError(f"road arrays of another format, not {FORMAT}")
            if not isinstance(meta["graph"], dict) or not isinstance(meta["values"], dict):
                raise ValueError("road arrays whose graph or values are not mappings")
            _typed(arrays)
            roads = cls({}, {}, meta["graph"], meta["values"])
            hook = damaged if lazy else None
            roads.nodes = _Checked(arrays, "nodes/", roads, hook)
            roads.edges = _Checked(arrays, "edges/", roads, hook)
            missing = {"u", "v", "key", "geometry_offsets", "geometry_xy"} - roads.edges.keys()
            if missing or "id" not in roads.nodes:
                raise ValueError(f"road arrays without {sorted(missing) or ['id']}")
            if "boxes" in arrays:
                roads._boxes = np.asarray(arrays["boxes"])
                if roads._boxes.shape != (-(-roads.n_edges // BOX_ROWS), 4) or not (
                    roads._boxes.dtype.kind == "f"
                ):
                    raise ValueError(f"edge boxes of shape {roads._boxes.shape}")
        except (KeyError, TypeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"not road arrays ({exc!r})") from None
        if not lazy:
            roads.check()
        return roads

    def check(self) -> None:
        """ValueError unless the columns fit together: lengths, codes, geometry offsets."""
        for table in (self.nodes, self.edges):
            for name, column in table.items():
                self.check_column(table is self.nodes, name, column)

    def check_column(self, node: bool, name: str, column: NDArray[Any]) -> None:
        """ValueError unless one whole column fits the others (columns from a file are
        checked when first read)."""
        _column_type(name, column)
        self.check_shape(node, name, column.shape)
        self.check_rows(node, name, None, column)
        if name == "geometry_offsets" and (column[0] != 0 or column[-1] != self._points):
            raise ValueError("geometry offsets do not fit the edges and points")

    def check_shape(self, node: bool, name: str, shape: tuple[int, ...]) -> None:
        """ValueError unless a column of ``shape`` fits the table: a value per row (the
        geometry: an offset per row and one more; points as (x, y) rows)."""
        if name == "geometry_xy":
            if len(shape) != 2:
                raise ValueError("geometry offsets do not fit the edges and points")
            return
        n = self.n_nodes if node else self.n_edges
        expected = (n + 1,) if name == "geometry_offsets" else (n,)
        if shape != expected:
            raise ValueError(f"column {name} has shape {shape}, expected {expected}")

    def check_rows(
        self, node: bool, name: str, rows: NDArray[np.intp] | None, values: NDArray[Any]
    ) -> None:
        """ValueError unless ``values``, column ``name`` at ``rows`` (None: all of it), can
        be used: of the type its name says, every code has its value, every float is a
        number, every end is a node; geometry offsets point into the points and never
        decrease from one row read to the next."""
        _column_type(name, values)
        if name.startswith("code:"):
            vocab = self.values.get(("node:" if node else "edge:") + name[len("code:") :])
            if not isinstance(vocab, list) or (
                values.size and not -1 <= values.min() <= values.max() < len(vocab)
            ):
                raise ValueError(f"column {name} has codes without values")
        elif name.startswith("float:") and not np.isfinite(values).all():
            raise ValueError(f"column {name} has values that are not finite numbers")
        elif name in {"u", "v"} and not np.isin(values, self.nodes["id"]).all():
            raise ValueError(f"column {name} names nodes the graph does not have")
        elif name == "geometry_offsets" and values.size:
            steps = np.diff(values) if rows is None else np.diff(values)[np.diff(rows) == 1]
            if values.min() < 0 or values.max() > self._points or (steps < 0).any():
                raise ValueError("geometry offsets do not fit the edges and points")

    @property
    def _points(self) -> int:
        return _shape(self.edges, "geometry_xy")[0]


class LazyColumns(Mapping[str, "NDArray[Any]"]):
    """Arrays whose names are known up front and whose values are read on first access:
    asking for a name, or listing them, reads nothing. Subclasses set ``_names`` and
    define ``__getitem__``, and may read less for :meth:`shape` and :meth:`take`."""

    _names: Collection[str]

    def __contains__(self, name: object) -> bool:
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def shape(self, name: str) -> tuple[int, ...]:
        """The shape of array ``name``."""
        return np.shape(self[name])

    def dtype(self, name: str) -> np.dtype[Any]:
        """The type of the elements of array ``name``."""
        return np.asarray(self[name]).dtype

    def take(self, name: str, rows: NDArray[np.intp]) -> NDArray[Any]:
        """Rows ``rows`` of array ``name`` (along its first axis), a copy."""
        return np.asarray(self[name])[rows]


class _Checked(LazyColumns):
    """The columns of one table (``source`` members under ``prefix``), checked by ``roads``
    when first read: a whole column (:meth:`RoadArrays.check_column`), or the rows read
    (:meth:`RoadArrays.check_shape`, :meth:`RoadArrays.check_rows`). What is never read is
    never paged in. A read that fails (it or its check raises ValueError) goes to ``damaged``."""

    def __init__(
        self,
        source: Mapping[str, NDArray[Any]],
        prefix: str,
        roads: RoadArrays,
        damaged: Callable[[ValueError], NoReturn] | None = None,
    ) -> None:
        self._source, self._prefix, self._roads = source, prefix, roads
        self._node = prefix == "nodes/"
        self._damaged = damaged
        self._names = [k[len(prefix) :] for k in source if k.startswith(prefix)]
        self._whole: set[str] = set()  # columns checked whole
        self._shaped: set[str] = set()  # columns whose shape is checked

    def __getitem__(self, name: str) -> NDArray[Any]:
        if name not in self._names:
            raise KeyError(name)

        def read() -> NDArray[Any]:
            column = self._source[self._prefix + name]
            if name not in self._whole:
                self._roads.check_column(self._node, name, column)
                self._whole.add(name)
            return column

        return self._read(read)

    def shape(self, name: str) -> tuple[int, ...]:
        return self._read(lambda: _shape(self._source, self._prefix + name))

    def take(self, name: str, rows: NDArray[np.intp]) -> NDArray[Any]:
        def read() -> NDArray[Any]:
            if name not in self._shaped:
                self._roads.check_shape(self._node, name, self.shape(name))
                self._shaped.add(name)
            values = _take(self._source, self._prefix + name, rows)
            self._roads.check_rows(self._node, name, rows, values)
            return values

        return self._read(read)

    def _read(self, read: Callable[[], _T]) -> _T:
        try:
            return read()
        except ValueError as exc:
            if self._damaged is None:
                raise
            self._damaged(exc)


def _edge_boxes(roads: RoadArrays) -> NDArray[np.float64]:
    """:meth:`RoadArrays.boxes`, made from the columns a run of edges at a time."""
    n = roads.n_edges
    ids = np.asarray(roads.nodes["id"])
    order = np.argsort(ids, kind="stable")
    x, y = (np.asarray(roads.column(k, node=True), dtype=np.float64) for k in ("x", "y"))
    u, v = np.asarray(roads.edges["u"]), np.asarray(roads.edges["v"])
    offsets, xy = (
        np.asarray(roads.edges["geometry_offsets"]),
        np.asarray(roads.edges["geometry_xy"]),
    )
    out = np.empty((-(-n // BOX_ROWS), 4))
    for i, lo in enumerate(range(0, n, BOX_ROWS)):
        hi = min(lo + BOX_ROWS, n)
        ends = order[np.searchsorted(ids, np.concatenate([u[lo:hi], v[lo:hi]]), sorter=order)]
        points = xy[offsets[lo] : offsets[hi]]
        xs, ys = np.concatenate([x[ends], points[:, 0]]), np.concatenate([y[ends], points[:, 1]])
        out[i] = np.fmin.reduce(xs), np.fmin.reduce(ys), np.fmax.reduce(xs), np.fmax.reduce(ys)
    return out


#: What each column of a table may be: its dtype kinds and number of axes, by its name.
_COLUMN_TYPES = {"id": ("i", 1), "u": ("i", 1), "v": ("i", 1), "key": ("i", 1),
                 "geometry_offsets": ("i", 1), "geometry_xy": ("f", 2), "float:": ("f", 1),
                 "code:": ("i", 1)}  # fmt: skip
#: The columns routing and drawing read that every graph has.
_REQUIRED = ("nodes/id", "nodes/float:x", "nodes/float:y", "edges/u", "edges/v", "edges/key",
             "edges/geometry_offsets", "edges/geometry_xy", "edges/float:length",
             "edges/float:travel_time")  # fmt: skip


def _typed(arrays: Mapping[str, NDArray[Any]]) -> None:
    """ValueError unless the columns every graph has are there, and those that count its
    nodes, edges and points have their type (the others are checked when first read,
    :func:`_column_type`; of a mapped file, only their headers are read here)."""
    if missing := [name for name in _REQUIRED if name not in arrays]:
        raise ValueError(f"road arrays without {missing}")
    for name, kind, axes in (
        ("nodes/id", "i", 1),
        ("edges/u", "i", 1),
        ("edges/geometry_xy", "f", 2),
    ):
        dtype = arrays.dtype(name) if isinstance(arrays, LazyColumns) else arrays[name].dtype
        if dtype.kind != kind or len(_shape(arrays, name)) != axes:
            raise ValueError(f"column {name} is not what a graph's {name} holds")


def _column_type(name: str, values: NDArray[Any]) -> None:
    """ValueError unless ``values`` (a column, or rows of it) have the type and axes that
    column ``name`` holds (:data:`_COLUMN_TYPES`)."""
    kinds, axes = _COLUMN_TYPES.get(name.split(":")[0] + ":" * (":" in name), ("", 0))
    if values.dtype.kind not in kinds or values.ndim != axes:
        raise ValueError(f"column {name} is not what a graph's {name} holds")
    if name == "geometry_xy" and values.shape[1:] != (2,):
        raise ValueError("geometry points are not (x, y) pairs")


def _shape(table: Mapping[str, NDArray[Any]], name: str) -> tuple[int, ...]:
    """The shape of ``table[name]``, read from its header where the table is mapped."""
    return table.shape(name) if isinstance(table, LazyColumns) else np.shape(table[name])


def _take(table: Mapping[str, NDArray[Any]], name: str, rows: NDArray[np.intp]) -> NDArray[Any]:
    """Rows ``rows`` of ``table[name]``, a copy; only those are read where it is mapped."""
    if isinstance(table, LazyColumns):
        return table.take(name, rows)
    picked: NDArray[Any] = np.asarray(table[name])[rows]
    return picked


#: Marks a row without the attribute in a column given to :meth:`RoadArrays.from_columns`.
MISSING: Any = object()


def _by_column(rows: list[Mapping[str, Any]], skip: set[str] | None = None) -> dict[str, list[Any]]:
    """Attribute dicts as columns, :data:`MISSING` where a row lacks the attribute."""
    names = dict.fromkeys(k for row in rows for k in row if not skip or k not in skip)
    return {name: [row.get(name, MISSING) for row in rows] for name in names}


#: An attribute column given to :meth:`RoadArrays.from_columns`.
Column: TypeAlias = "list[Any] | NDArray[np.float64] | tuple[NDArray[np.int32], list[Any]]"


def _coded(
    columns: Mapping[str, Column], prefix: str, values: dict[str, list[Any]]
) -> dict[str, NDArray[Any]]:
    """``float:<name>`` where every row has a float, else ``code:<name>`` into
    ``values[prefix + name]`` (its distinct values, JSON-able)."""
    out: dict[str, NDArray[Any]] = {}
    for name, column in columns.items():
        if isinstance(column, np.ndarray):
            out[f"float:{name}"] = np.asarray(column, dtype=np.float64)  # no copy
            continue
        if isinstance(column, tuple):
            out[f"code:{name}"], values[prefix + name] = column
            continue
        floats = all(isinstance(value, float | np.floating) for value in column)
        if name in FLOAT_COLUMNS and floats:
            out[f"float:{name}"] = np.array(column, dtype=np.float64)
            continue
        index: dict[Any, int] = {}
        vocab: list[Any] = []
        codes = np.full(len(column), -1, dtype=np.int32)
        for i, value in enumerate(column):
            if value is MISSING:
                continue
            if isinstance(value, str | int | float):  # bool is an int: keyed by type too
                token: Any = (type(value), value)
            else:
                token = json.dumps(value, sort_keys=True)
                value = json.loads(token)
            if token not in index:
                index[token] = len(vocab)
                vocab.append(value)
            codes[i] = index[token]
        out[f"code:{name}"] = codes
        values[prefix + name] = vocab
    return out


def _geometry(rows: list[Mapping[str, Any]]) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Edge geometries as offsets into one (m, 2) array of coordinates."""
    import shapely

    counts = np.zeros(len(rows), dtype=np.int64)
    parts = []
    for i, row in enumerate(rows):
        line = row.get("geometry")
        if line is not None:
            coords = shapely.get_coordinates(line)
            counts[i] = len(coords)
            parts.append(coords)
    offsets = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum(counts, out=offsets[1:])
    xy = np.concatenate(parts) if parts else np.zeros((0, 2))
    return offsets, xy.astype(np.float64)


def networkx_order(u: NDArray[np.integer[Any]], v: NDArray[np.integer[Any]]) -> NDArray[np.intp]:
    """The order in which networkx lists edges ``u[i] → v[i]`` (node positions, in the
    order nodes were added) added in the order given: by ``u``, then by the first edge
    of each node pair, then as given. Columns in that order make :meth:`RoadArrays.to_networkx`
    list its edges in row order, so every reader of the columns meets them as it would
    meet the graph's."""
    if not len(u):
        return np.zeros(0, dtype=np.intp)
    n = int(max(u.max(), v.max())) + 1
    pair = u.astype(np.int64) * n + v
    by_pair = np.argsort(pair, kind="stable")
    ranked = pair[by_pair]
    del pair
    new = np.ones(len(ranked), dtype=bool)
    new[1:] = ranked[1:] != ranked[:-1]
    del ranked
    group_start = np.maximum.accumulate(np.where(new, np.arange(len(new)), 0))
    leader = np.empty(len(u), dtype=np.intp)  # each edge's pair's first edge
    leader[by_pair] = by_pair[group_start]
    order: NDArray[np.intp] = np.lexsort((leader, u))
    return order
