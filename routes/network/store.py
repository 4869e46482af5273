"""The files that hold road graphs: the parsed-graph cache's ``.npz`` entries.

An entry holds a :class:`~routes.routing.arrays.RoadArrays`' columns and its router's
arrays. Files are uncompressed ``.npz`` (numpy's zip of ``.npy`` arrays, readable anywhere
with ``numpy.load(..., allow_pickle=False)``); beside each member larger than a
:data:`BLOCK` (64 KiB) is the CRC-32 of each of its blocks (member ``blocks/<name>``).
:func:`read_npz` maps them into memory instead of reading them, refuses object arrays (no
pickle is ever loaded), and checks what is read: a whole member against all its block
checksums (a small one against the CRC-32 the zip stores for it), some rows of it
(:meth:`MappedNpz.take`) against those of the blocks that hold them. A truncated or
garbled file raises :class:`ValueError` where it is read, and the cache builds the entry
again.
"""

from __future__ import annotations

import io
import logging
import mmap
import struct
import zipfile
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import numpy as np

from routes._io import open_binary_atomically, write_atomically
from routes.errors import RoutesError
from routes.routing.arrays import LazyColumns

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from routes.routing.backend import Router
    from routes.routing.ch import Hierarchy

__all__ = ["BLOCK", "SUMS", "MappedNpz", "read_npz", "saved_hierarchies", "write_npz"]

#: Bytes per checked block of a member: reading rows checks, and pages in, only the blocks
#: that hold them. A member of one block or less is checked whole (its zip CRC-32).
BLOCK = 1 << 16

#: Names of the members that hold each larger member's block checksums: ``blocks/<name>``.
SUMS = "blocks/"

_LOCAL_HEADER = struct.Struct("<4s5H3L2H")  # a zip member's local file header
_MAX_NPY_HEADER = 1 << 16

log = logging.getLogger("routes")


# --- .npz files, memory-mapped and checked -----------------------------------------------------


def write_npz(path: str | Path, arrays: Mapping[str, NDArray[Any]]) -> None:
    """Write ``arrays`` as an uncompressed ``.npz`` at ``path``, atomically (no object arrays).

    A member larger than one :data:`BLOCK` gets a member ``blocks/<name>``: the CRC-32 of
    each block of its bytes, so that a reader checks only the blocks it reads. The file is a
    cache entry: a link in its place is replaced, never followed.
    """
    for name, array in arrays.items():
        if np.asarray(array).dtype.hasobject:
            raise ValueError(f"array {name!r} holds Python objects; store data only")
        if name.startswith(SUMS):
            raise ValueError(f"array {name!r}: names starting {SUMS!r} hold checksums")
    with (
        open_binary_atomically(path, entry=True) as f,
        zipfile.ZipFile(f, "w", zipfile.ZIP_STORED, allowZip64=True) as z,
    ):
        for name, array in arrays.items():
            with z.open(f"{name}.npy", "w", force_zip64=True) as member:
                summed = _Summed(member)
                np.lib.format.write_array(summed, np.asarray(array), allow_pickle=False)
            if summed.size > BLOCK:
                with z.open(f"{SUMS}{name}.npy", "w", force_zip64=True) as member:
                    np.lib.format.write_array(member, summed.sums(), allow_pickle=False)


class _Summed:
    """A stream that passes bytes on to ``out`` and takes the CRC-32 of each :data:`BLOCK`."""

    def __init__(self, out: IO[bytes]) -> None:
        self._out = out
        self._sums: list[int] = []
        self._crc = self._filled = self.size = 0

    def write(self, data: bytes) -> int:
        view = memoryview(data).cast("B")
        self._out.write(view)
        self.size += len(view)
        while len(view):
            part = view[: BLOCK - self._filled]
            self._crc = zlib.crc32(part, self._crc)
            self._filled += len(part)
            view = view[len(part) :]
            if self._filled == BLOCK:
                self._sums.append(self._crc)
                self._crc = self._filled = 0
        return len(data)

    def sums(self) -> NDArray[np.uint32]:
        """The CRC-32 of each block written, the last one partial."""
        return np.array(self._sums + [self._crc] * bool(self._filled), dtype=np.uint32)


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
                    loaded = ContractionHierarchy.load_file(str(native))
                    log.info("contraction hierarchy: read the saved one (%s)", file.name)
                    return Hierarchy(*graph, native=loaded)
                except (OSError, ValueError, RuntimeError) as exc:
                    log.warning("saved hierarchy %s is unusable (%s); contracting again",
                                file.name, exc)  # fmt: skip
            hierarchy = Hierarchy(*graph)
            hierarchy.native.save_file(str(native))
            arrays = split_native(native.read_bytes(), hierarchy.weights)
        try:
            write_npz(file, arrays)
        except (OSError, RoutesError) as exc:
            log.warning("cannot save the hierarchy beside the graph cache (%s)", exc)
        return hierarchy

    return load_or_contract


def read_npz(path: str | Path, *, lazy: bool = False) -> MappedNpz:
    """The arrays of an uncompressed ``.npz``, mapped read-only into memory.

    Every member is checked against its CRC-32s: all of them now, or with ``lazy`` each
    part when it is first read (what is never read is never paged in). A missing file
    raises OSError, anything else wrong (truncated, garbled, compressed, object arrays)
    ValueError.
    """
    members = MappedNpz(path)
    if not lazy:
        for name in members:
            members[name]
    return members


class MappedNpz(LazyColumns):
    """The members of an uncompressed ``.npz``, mapped; each block checked on first read.

    ``members[name]`` is the whole array, every block of it checked; :meth:`take` reads
    rows and checks only the blocks that hold them, :meth:`shape` reads the header
    alone. The checksum members (``blocks/<name>``) are not listed.
    """

    def __init__(self, path: str | Path) -> None:
        with Path(path).open("rb") as f:
            try:
                self._mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:  # an empty file
                raise ValueError(f"{path}: empty file") from None
        try:
            with zipfile.ZipFile(path) as z:
                infos = {m.filename.removesuffix(".npy"): m for m in z.infolist()}
        except (zipfile.BadZipFile, struct.error, EOFError) as exc:
            raise ValueError(f"{path}: not a readable .npz ({exc})") from None
        self._members = {k: m for k, m in infos.items() if not k.startswith(SUMS)}
        self._sums = {k[len(SUMS) :]: m for k, m in infos.items() if k.startswith(SUMS)}
        self._names = self._members.keys()
        self._path = path
        self._open: dict[str, _Member] = {}

    def __getitem__(self, name: str) -> NDArray[Any]:
        return self._member(name).whole()

    def shape(self, name: str) -> tuple[int, ...]:
        """The shape of member ``name``, from its header (only the block holding it is read)."""
        shape: tuple[int, ...] = self._member(name).array.shape
        return shape

    def dtype(self, name: str) -> np.dtype[Any]:
        """The type of member ``name``'s elements, from its header."""
        return self._member(name).array.dtype

    def take(self, name: str, rows: NDArray[np.integer[Any]]) -> NDArray[Any]:
        """Rows ``rows`` (integers, along the first axis) of member ``name``, a copy; only
        the blocks that hold them are checked, and so paged in."""
        member = self._member(name)
        values: NDArray[Any] = member.array[rows]  # IndexError for a row it lacks
        member.check(member.holding(np.asarray(rows, dtype=np.intp).ravel()))
        return values

    def checked(self, name: str) -> NDArray[np.bool_]:
        """Which blocks of member ``name`` have been checked (and so paged in) so far."""
        if name in self._open:
            return self._open[name].ok.copy()
        size = self._members[name].file_size
        return np.zeros(-(-size // BLOCK) if name in self._sums else 1, dtype=bool)

    def _member(self, name: str) -> _Member:
        if name not in self._open:
            try:
                sums = self._sums.get(name)
                self._open[name] = _Member(
                    self._mapped,
                    self._members[name],
                    None if sums is None else _Member(self._mapped, sums, None).whole(),
                )
            except (struct.error, EOFError) as exc:
                raise ValueError(f"{self._path}: not a readable .npz ({exc})") from None
        return self._open[name]


class _Member:
    """One ``.npy`` member of a mapped zip: its bytes, its array over them, and the CRC-32
    of each :data:`BLOCK` of them (``sums``; None: one CRC, the zip's, for the whole)."""

    def __init__(
        self, mapped: mmap.mmap, member: zipfile.ZipInfo, sums: NDArray[Any] | None
    ) -> None:
        self.name = member.filename
        if member.compress_type != zipfile.ZIP_STORED:
            raise ValueError(f"{self.name}: compressed member")
        fixed = _LOCAL_HEADER.unpack_from(mapped, member.header_offset)
        start = member.header_offset + _LOCAL_HEADER.size + fixed[-2] + fixed[-1]
        end = start + member.file_size
        if fixed[0] != b"PK\x03\x04" or end > len(mapped):
            raise ValueError(f"{self.name}: truncated")
        self.view = memoryview(mapped)[start:end]
        size = len(self.view)
        self.block = BLOCK if sums is not None else max(size, 1)
        self.sums = np.array([member.CRC], dtype=np.uint32) if sums is None else sums
        if self.sums.dtype != np.uint32 or self.sums.shape != (-(-size // self.block),):
            raise ValueError(f"{self.name}: block checksums do not fit it")
        self.ok = np.zeros(len(self.sums), dtype=bool)
        self.check(self.spans(np.array([0]), np.array([_MAX_NPY_HEADER])))  # the header's
        self.array, self.fortran = _array(self.view, self.name)

    def whole(self) -> NDArray[Any]:
        """The array, every block checked."""
        self.check(np.ones(len(self.ok), dtype=bool))
        return self.array

    def holding(self, rows: NDArray[np.intp]) -> NDArray[np.bool_]:
        """Which blocks hold rows ``rows`` of the array (a mask; every block if its rows are
        not one after another in the file)."""
        if self.fortran or self.array.ndim == 0 or not len(self.array):
            return np.ones(len(self.ok), dtype=bool)
        row_bytes = self.array.nbytes // len(self.array)
        rows = np.where(rows < 0, rows + len(self.array), rows)
        first = len(self.view) - self.array.nbytes + rows * row_bytes
        return self.spans(first, first + row_bytes)

    def spans(self, first: NDArray[np.intp], end: NDArray[np.intp]) -> NDArray[np.bool_]:
        """Which blocks hold some of bytes ``first[i]`` up to ``end[i]`` (a mask)."""
        last = len(self.ok) - 1
        starts = np.minimum(first // self.block, last)
        stops = np.minimum((np.maximum(end, first + 1) - 1) // self.block, last) + 1
        marks = np.bincount(starts, minlength=last + 2) - np.bincount(stops, minlength=last + 2)
        needed: NDArray[np.bool_] = np.cumsum(marks[:-1]) > 0
        return needed

    def check(self, needed: NDArray[Any]) -> None:
        """ValueError unless each block marked in ``needed`` matches its CRC-32."""
        for i in np.flatnonzero(needed & ~self.ok).tolist():
            if zlib.crc32(self.view[i * self.block : (i + 1) * self.block]) != self.sums[i]:
                raise ValueError(
                    f"{self.name}: checksum mismatch (block {i + 1} of {len(self.ok)})"
                )
            self.ok[i] = True


def _array(view: memoryview, name: str) -> tuple[NDArray[Any], bool]:
    """The array a ``.npy`` member's bytes hold (a view over them), and whether it is in
    Fortran order (more than one axis)."""
    header = io.BytesIO(bytes(view[:_MAX_NPY_HEADER]))
    version = np.lib.format.read_magic(header)
    read_header = (
        np.lib.format.read_array_header_1_0
        if version == (1, 0)
        else np.lib.format.read_array_header_2_0
    )
    shape, fortran, dtype = read_header(header)
    if dtype.hasobject:
        raise ValueError(f"{name}: object array refused")
    count = int(np.prod(shape, dtype=np.int64))
    if header.tell() + count * dtype.itemsize != len(view):
        raise ValueError(f"{name}: its size does not fit its header")
    array = np.frombuffer(view, dtype=dtype, count=count, offset=header.tell())
    return array.reshape(shape, order="F" if fortran else "C"), fortran and len(shape) > 1
