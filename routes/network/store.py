"""The files that hold road graphs: the parsed-graph cache's ``.npz`` entries.

An entry holds a :class:`~routes.routing.arrays.RoadArrays`' columns and its router's
arrays. Files are uncompressed ``.npz`` (numpy's zip of ``.npy`` arrays, readable anywhere
with ``numpy.load(..., allow_pickle=False)``). :func:`read_npz` maps them into memory
instead of reading them, refuses object arrays (no pickle is ever loaded), and checks
every member against the CRC-32 the zip stores for it: a truncated or garbled file
raises :class:`ValueError`, and the cache builds the entry again.
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
from typing import TYPE_CHECKING, Any

import numpy as np

from routes._io import open_binary_atomically, write_atomically
from routes.routing.arrays import LazyColumns

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from routes.routing.backend import Router
    from routes.routing.ch import Hierarchy

__all__ = ["read_npz", "saved_hierarchies", "write_npz"]

_LOCAL_HEADER = struct.Struct("<4s5H3L2H")  # a zip member's local file header
_MAX_NPY_HEADER = 1 << 16

log = logging.getLogger("routes")


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


class MappedNpz(LazyColumns):
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
                self._names = self._members.keys()
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
