"""Road graphs as columns of arrays, and the files that hold them: the parsed-graph cache.

A :class:`RoadArrays` is a road graph in columns: node ids and coordinates; per edge
``u``, ``v``, ``key``, float columns (``length``, ``travel_time``, ``speed_kph``, ...),
geometry as coordinate offsets, and every other attribute (``highway``, ``name``,
``oneway``, ``osmid``, ...) as integer codes into a JSON list of its distinct values.
:meth:`RoadArrays.to_networkx` gives back the osmnx-schema ``MultiDiGraph``.

Files are uncompressed ``.npz`` (numpy's zip of ``.npy`` arrays, readable anywhere
with ``numpy.load(..., allow_pickle=False)``). :func:`read_npz` maps them into memory
instead of reading them, refuses object arrays (no pickle is ever loaded), and checks
every member against the CRC-32 the zip stores for it: a truncated or garbled file
raises :class:`ValueError`, and the cache builds the entry again.
"""

from __future__ import annotations

import io
import json
import logging
import mmap
import struct
import zipfile
import zlib
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

import numpy as np

from routes._io import open_binary_atomically, write_atomically

if TYPE_CHECKING:
    import networkx as nx
    from numpy.typing import NDArray

    from routes.routing.backend import Router
    from routes.routing.ch import Hierarchy

__all__ = ["MISSING", "RoadArrays", "read_npz", "saved_hierarchies", "write_npz"]

log = logging.getLogger("routes")

#: Edge and node attributes kept as float64 columns when every element has a float.
FLOAT_COLUMNS = ("length", "travel_time", "speed_kph", "x", "y")

#: Layout version of the arrays in a file; a file of another version is not read.
FORMAT = 1

_LOCAL_HEADER = struct.Struct("<4s5H3L2H")  # a zip member's local file header
_MAX_NPY_HEADER = 1 << 16


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

    @property
    def n_edges(self) -> int:
        return len(self.edges["u"])

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

    # --- files ---------------------------------------------------------------------------

    def arrays(self) -> dict[str, NDArray[Any]]:
        """Every column as a named array (what :meth:`from_arrays` reads back)."""
        meta = {"format": FORMAT, "graph": self.graph, "values": self.values}
        out = {"meta": np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)}
        out.update({f"nodes/{k}": v for k, v in self.nodes.items()})
        out.update({f"edges/{k}": v for k, v in self.edges.items()})
        return out

    @classmethod
    def from_arrays(cls, arrays: Mapping[str, NDArray[Any]]) -> RoadArrays:
        """Columns from :meth:`arrays` (e.g. read by :func:`read_npz`); ValueError if not."""
        try:
            meta = json.loads(bytes(arrays["meta"]))
            if meta.get("format") != FORMAT:
                raise ValueError(f"road arrays of format {meta.get('format')}, not {FORMAT}")
            roads = cls({}, {}, meta["graph"], meta["values"])
            roads.nodes = _Checked(arrays, "nodes/", roads.check_column)
            roads.edges = _Checked(arrays, "edges/", roads.check_column)
            missing = {"u", "v", "key", "geometry_offsets", "geometry_xy"} - roads.edges.keys()
            if missing or "id" not in roads.nodes:
                raise ValueError(f"road arrays without {sorted(missing) or ['id']}")
        except (KeyError, TypeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ValueError(f"not road arrays ({exc!r})") from None
        if not isinstance(arrays, MappedNpz) or arrays.checked:
            roads.check()
        return roads

    def check(self) -> None:
        """ValueError unless the columns fit together: lengths, codes, geometry offsets."""
        for table in (self.nodes, self.edges):
            for name, column in table.items():
                self.check_column(table is self.nodes, name, column)

    def check_column(self, node: bool, name: str, column: NDArray[Any]) -> None:
        """ValueError unless one column fits the others (columns from a file are checked
        when first read)."""
        if name in ("geometry_offsets", "geometry_xy"):
            offsets, xy = self.edges["geometry_offsets"], self.edges["geometry_xy"]
            if (
                offsets.shape != (self.n_edges + 1,)
                or xy.ndim != 2
                or offsets[0] != 0
                or offsets[-1] != len(xy)
                or (np.diff(offsets) < 0).any()
            ):
                raise ValueError("geometry offsets do not fit the edges and points")
            return
        n = len(self.nodes["id"]) if node else self.n_edges
        if column.shape != (n,):
            raise ValueError(f"column {name} has shape {column.shape}, expected ({n},)")
        if name.startswith("code:"):
            vocab = self.values.get(("node:" if node else "edge:") + name[len("code:") :])
            if vocab is None or (n and not -1 <= column.min() <= column.max() < len(vocab)):
                raise ValueError(f"column {name} has codes without values")


class _Checked(Mapping[str, "NDArray[Any]"]):
    """The columns of one table (``source`` members under ``prefix``), each checked by
    ``check(node, name, column)`` when first read: a column never read is never paged in."""

    def __init__(
        self,
        source: Mapping[str, NDArray[Any]],
        prefix: str,
        check: Callable[[bool, str, NDArray[Any]], None],
    ) -> None:
        self._source, self._prefix, self._check = source, prefix, check
        self._names = [k[len(prefix) :] for k in source if k.startswith(prefix)]
        self._done: set[str] = set()

    def __getitem__(self, name: str) -> NDArray[Any]:
        if name not in self._names:
            raise KeyError(name)
        column = self._source[self._prefix + name]
        if name not in self._done:
            self._done.add(name)  # a check may read this column again
            try:
                self._check(self._prefix == "nodes/", name, column)
            except BaseException:
                self._done.discard(name)
                raise
        return column

    def __contains__(self, name: object) -> bool:  # without reading the column
        return name in self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)


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


# --- .npz files, memory-mapped and checked -----------------------------------------------------


def write_npz(path: str | Path, arrays: Mapping[str, NDArray[Any]]) -> None:
    """Write ``arrays`` as an uncompressed ``.npz`` at ``path``, atomically (no object arrays)."""
    for name, array in arrays.items():
        if np.asarray(array).dtype.hasobject:
            raise ValueError(f"array {name!r} holds Python objects; store data only")
    with open_binary_atomically(path) as f:
        np.savez(f, allow_pickle=False, **{name: np.asarray(a) for name, a in arrays.items()})


def saved_hierarchies(entry: Path) -> Callable[[Router, str], Hierarchy]:
    """A router's ``hierarchy_cache`` for the graph cached at ``entry``: each weight's
    contraction hierarchy is kept beside it as checked arrays (``<entry>.ch-<weight>.npz``,
    RoutingKit's file field by field, never the file itself), read back if it checks out,
    else contracted and saved."""

    def load_or_contract(router: Router, weight: str) -> Hierarchy:
        import tempfile

        from routingkit_ch import ContractionHierarchy

        from routes.routing.ch import Hierarchy, integer_weights, join_native, split_native

        file = entry.with_name(f"{entry.stem}.ch-{weight}.npz")
        graph = (router.indptr, router.indices, router.weights[weight], weight)
        with tempfile.TemporaryDirectory() as tmp:
            native = Path(tmp) / "hierarchy.ch"
            if file.is_file():
                try:
                    n, integers = len(router.ids), integer_weights(graph[2], weight)
                    write_atomically(native, join_native(read_npz(file), n, integers))
                    return Hierarchy(*graph, native=ContractionHierarchy.load_file(str(native)))
                except (OSError, ValueError, RuntimeError) as exc:
                    log.warning("saved hierarchy %s is unusable (%s); contracting again",
                                file.name, exc)  # fmt: skip
            hierarchy = Hierarchy(*graph)
            hierarchy.native.save_file(str(native))
            arrays = split_native(native.read_bytes(), hierarchy.weights)
        try:
            write_npz(file, arrays)
        except OSError as exc:
            log.warning("cannot save the hierarchy beside the graph cache (%s)", exc)
        return hierarchy

    return load_or_contract


def read_npz(path: str | Path, *, lazy: bool = False) -> Mapping[str, NDArray[Any]]:
    """The arrays of an uncompressed ``.npz``, mapped read-only into memory.

    Every member's CRC-32 is checked: all of them now, or with ``lazy`` each one when it
    is first read (what is never read is never paged in). A missing file raises OSError,
    anything else wrong (truncated, garbled, compressed, object arrays) ValueError.
    """
    members = MappedNpz(path)
    if not lazy:
        for name in members:
            members[name]
        members.checked = True
    return members


class MappedNpz(Mapping[str, "NDArray[Any]"]):
    """The members of an uncompressed ``.npz``, each mapped and checked on first access."""

    def __init__(self, path: str | Path) -> None:
        with Path(path).open("rb") as f:
            try:
                self._mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:  # an empty file
                raise ValueError(f"{path}: empty file") from None
        try:
            with zipfile.ZipFile(path) as z:
                self._members = {m.filename.removesuffix(".npy"): m for m in z.infolist()}
        except (zipfile.BadZipFile, struct.error, EOFError) as exc:
            raise ValueError(f"{path}: not a readable .npz ({exc})") from None
        self._path = path
        self._read: dict[str, NDArray[Any]] = {}
        self.checked = False  # every member read and checked

    def __getitem__(self, name: str) -> NDArray[Any]:
        if name not in self._read:
            try:
                self._read[name] = _member(self._mapped, self._members[name])
            except (struct.error, EOFError) as exc:
                raise ValueError(f"{self._path}: not a readable .npz ({exc})") from None
        return self._read[name]

    def __contains__(self, name: object) -> bool:  # without reading the member
        return name in self._members

    def __iter__(self) -> Iterator[str]:
        return iter(self._members)

    def __len__(self) -> int:
        return len(self._members)


def _member(mapped: mmap.mmap, member: zipfile.ZipInfo) -> NDArray[Any]:
    """One ``.npy`` member of a mapped zip, as an array over the mapping."""
    if member.compress_type != zipfile.ZIP_STORED:
        raise ValueError(f"{member.filename}: compressed member")
    fixed = _LOCAL_HEADER.unpack_from(mapped, member.header_offset)
    start = member.header_offset + _LOCAL_HEADER.size + fixed[-2] + fixed[-1]
    end = start + member.file_size
    if fixed[0] != b"PK\x03\x04" or end > len(mapped):
        raise ValueError(f"{member.filename}: truncated")
    view = memoryview(mapped)[start:end]
    if zlib.crc32(view) != member.CRC:
        raise ValueError(f"{member.filename}: checksum mismatch")
    header = io.BytesIO(bytes(view[:_MAX_NPY_HEADER]))
    version = np.lib.format.read_magic(header)
    read_header = (
        np.lib.format.read_array_header_1_0
        if version == (1, 0)
        else np.lib.format.read_array_header_2_0
    )
    shape, fortran, dtype = read_header(header)
    if dtype.hasobject:
        raise ValueError(f"{member.filename}: object array refused")
    count = int(np.prod(shape, dtype=np.int64))
    array = np.frombuffer(view, dtype=dtype, count=count, offset=header.tell())
    return array.reshape(shape, order="F" if fortran else "C")
