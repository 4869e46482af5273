"""Reading inputs once, strictly; writing files so that a failed or killed run leaves the old
file or the new one, never half.

Every file `routes` writes goes through here: the data goes to a temporary file in
the target's folder, is flushed to disk (fsync), checked (its size is what was written;
a writer that cannot report a failed write, such as GDAL's KML and GeoJSON drivers, has
it read back), then moved over the target with ``os.replace`` (atomic on POSIX).
Nothing is deleted before its replacement is complete; a write whose size is known
first checks the free space. The target must be a regular file (or not exist) in a
folder that exists: a link to one is followed, a device, pipe or folder is refused, and
no folder is created here. A temporary file's name carries the writing process's id,
so one left by a killed run is swept by the next write into that folder.

A cache entry (``entry=True``) is written otherwise: a link or any other file in its place
is replaced, never followed, and its folder must be a real one (:func:`cache_folder` makes
a cache's folders, never through a link). Entries are read back only from regular files,
up to a stated size (:func:`read_entry`, :func:`open_entry`): whatever else is there is
unusable, which the cache that reads it takes as a missing entry.

Inputs are read as bytes from regular files only (a FIFO, a device or ``/dev/zero``
would block or never end), up to a stated size, and decoded once, strictly, as UTF-8:
:func:`read_input`, :func:`decode`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import secrets
import shutil
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, TextIO

from routes.errors import UsageError, WriteError

__all__ = [
    "MAX_SCENARIO_BYTES",
    "atomic_path",
    "cache_folder",
    "decode",
    "file_sha256",
    "inside",
    "make_folder",
    "open_atomically",
    "open_binary_atomically",
    "open_entry",
    "parse_json",
    "read_entry",
    "read_input",
    "regular_file",
    "writable",
    "write_atomically",
]

#: The largest scenario file read, bytes: a scenario is a few kilobytes of YAML.
MAX_SCENARIO_BYTES = 32 * 2**20

_TEMP = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp(?:\..*)?")

#: The longest file name a temporary file's name repeats whole (the file system allows 255
#: bytes; the temporary name adds about 30): a longer one is cut and a digest of it added.
_NAME_BYTES = 200


def write_atomically(path: str | Path, data: bytes, *, entry: bool = False) -> Path:
    """Write ``data`` to ``path``: readers see the previous file or the new one, never a part.
    ``entry``: ``path`` is a cache entry (see the module's docstring)."""
    path = writable(path, entry=entry)
    _room_for(path, len(data))
    with atomic_path(path, entry=entry) as tmp:
        with open(tmp, "xb") as f:
            f.write(data)
        _expect_size(tmp, len(data), path)
    return path


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of a file's bytes, hex, read in blocks (a large OSM file is not loaded)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


@contextlib.contextmanager
def open_atomically(path: str | Path) -> Iterator[TextIO]:
    """A UTF-8 text file to stream ``path`` through; it appears whole on success, else not."""
    with atomic_path(path) as tmp:
        with open(tmp, "x", encoding="utf-8") as f:
            yield f
            f.flush()
            size = f.tell()  # UTF-8 has no shift state: the position is the bytes written
        _expect_size(tmp, size, Path(path))


@contextlib.contextmanager
def open_binary_atomically(path: str | Path, *, entry: bool = False) -> Iterator[BinaryIO]:
    """A binary file to stream ``path`` through (large arrays need no copy in memory)."""
    with atomic_path(path, entry=entry) as tmp:
        with open(tmp, "xb") as f:
            yield f
            f.flush()
            size = f.tell()
        _expect_size(tmp, size, Path(path))


@contextlib.contextmanager
def atomic_path(
    path: str | Path, *, verify: Callable[[Path], None] | None = None, entry: bool = False
) -> Iterator[Path]:
    """A fresh temporary path beside ``path`` (same suffix, so GDAL picks the same driver).

    Write it inside the ``with``; on success it is fsynced, checked by ``verify`` (which
    raises when what was written is not whole: a writer that does not report a failed
    write is read back) and replaces ``path``; on any failure it (and any
    ``-journal``/``-wal`` SQLite leaves beside it) is removed and ``path`` is untouched.
    ``entry``: ``path`` is a cache entry, replaced whatever is there, never followed.
    """
    path = writable(path, entry=entry)
    _sweep(path)
    suffix = path.suffix if len(path.suffix) <= 16 else ""
    tmp = path.with_name(
        f".{_temp_stem(path.name)}.{os.getpid()}.{secrets.token_hex(4)}.tmp{suffix}"
    )
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        if verify is not None:
            verify(tmp)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
        _fsync_dir(path.parent)
    finally:
        for leftover in (tmp, *tmp.parent.glob(f"{tmp.name}-*")):
            leftover.unlink(missing_ok=True)


def writable(path: str | Path, *, entry: bool = False) -> Path:
    """``path`` as a file to write: its folder must exist, and it must be a regular file or
    not exist (a link to a regular file is followed, so the link stays a link); a device,
    a pipe or a folder (``-o /dev/stdout``) is refused rather than replaced.

    ``entry`` (a cache entry): no link is followed, neither in its place (whatever is there
    but a folder will be replaced) nor as its folder (:func:`cache_folder` made it)."""
    path = Path(path)
    if entry:
        if os.path.islink(path.parent) or not path.parent.is_dir():
            raise WriteError(f"cannot write the cache entry {path}: its folder is missing or "
                             "a link")  # fmt: skip
        if os.path.isdir(path) and not os.path.islink(path):
            raise WriteError(f"cannot write the cache entry {path}: a folder is in its place")
        return path
    if path.is_symlink() and path.resolve().is_file():
        path = path.resolve()
    if os.path.lexists(path) and not stat.S_ISREG(os.lstat(path).st_mode):
        raise UsageError(f"{path} is not a regular file (a device, pipe, link or folder); "
                         "write to a file path")  # fmt: skip
    if not path.parent.is_dir():
        raise UsageError(f"cannot write {path}: the folder {path.parent} does not exist; "
                         "create it first or choose another path")  # fmt: skip
    return path


def regular_file(path: str | Path, what: str = "input") -> Path:
    """``path``, which must be a regular file (links followed): never a FIFO, which blocks,
    a device such as ``/dev/zero``, which never ends, or a folder."""
    path = Path(path)
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise UsageError(f"cannot read the {what} {path}: {exc.strerror}") from None
    if not stat.S_ISREG(mode):
        raise UsageError(f"{path}: the {what} is not a regular file (a pipe, device or folder); "
                         "pass a file")  # fmt: skip
    return path


def read_input(source: str | Path, *, limit: int, what: str = "input") -> bytes:
    """The bytes of a regular file, or of standard input for ``"-"``, refused past ``limit``."""
    if str(source) == "-":
        data = sys.stdin.buffer.read(limit + 1)
        name = "<stdin>"
    else:
        path = regular_file(source, what)
        name = str(path)
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    if len(data) > limit:
        raise UsageError(f"{name}: the {what} is larger than {limit:,} bytes")
    return data


def decode(data: bytes, name: str) -> str:
    """``data`` as UTF-8, strictly: one error naming ``name`` and the byte offset otherwise."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        bad = data[exc.start : exc.start + 1].hex()
        raise UsageError(f"{name}: not UTF-8 at byte {exc.start} (0x{bad}); "
                         "save it as UTF-8 text") from None  # fmt: skip


def inside(folder: str | Path, name: str) -> Path:
    """``folder / name``, refusing a name that would resolve outside ``folder``."""
    folder = Path(folder)
    path = folder / name
    if not path.resolve().is_relative_to(folder.resolve()) or path.resolve() == folder.resolve():
        raise UsageError(f"{name!r} would be written outside {folder}; use a plain file name")
    return path


def make_folder(path: str | Path) -> Path:
    """The folder ``path`` an output goes into, created if missing; its parent must exist
    (a mistyped ``-o`` is an error, not a tree of new folders)."""
    path = Path(path)
    if not path.is_dir():
        if not path.parent.is_dir():
            raise UsageError(f"cannot write into {path}: the folder {path.parent} does not "
                             "exist; create it first or choose another folder")  # fmt: skip
        path.mkdir(exist_ok=True)
    return path


def cache_folder(root: str | Path, *parts: str) -> Path:
    """The cache folder ``root/parts…``, each folder made if missing, readable by its owner
    only (0700).

    ``root`` is the user's choice (a link there is followed). Below it, a link or a file in
    place of a folder is removed (never followed) and a real folder made: a cache's own
    folders lead nowhere else. Nothing that exists is chmod-ed: only what is made here is
    private, by the mode it is made with.
    """
    folder = Path(root)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for part in parts:
        folder = folder / part
        if os.path.islink(folder) or (os.path.lexists(folder) and not folder.is_dir()):
            folder.unlink()  # planted in the cache: it goes, whatever it leads to stays
        folder.mkdir(mode=0o700, exist_ok=True)
    return folder


@contextlib.contextmanager
def open_entry(path: str | Path) -> Iterator[BinaryIO]:
    """A cache entry open to read: a regular file (a link to one is followed); ValueError
    for anything else (a FIFO opens without waiting for a writer, and is refused), and
    FileNotFoundError when there is none."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{Path(path).name} is not a regular file")
        os.set_blocking(fd, True)
        f = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with f:
        yield f


def read_entry(path: str | Path, *, limit: int) -> bytes | None:
    """The bytes of the cache entry at ``path`` (None when there is none); ValueError when it
    is not a regular file or is larger than ``limit`` bytes."""
    try:
        with open_entry(path) as f:
            data = f.read(limit + 1)
    except FileNotFoundError:
        return None
    if len(data) > limit:
        raise ValueError(f"{Path(path).name} is larger than {limit:,} bytes")
    return data


def parse_json(text: str, name: str) -> Any:
    """JSON text parsed; a syntax error, or a lone surrogate escape (``"\\ud800"``, text no
    UTF-8 file can hold), is one error naming ``name`` and where."""
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise UsageError(f"{name}: not JSON ({exc})") from None
    _no_lone_surrogates(value, name)
    return value


def _no_lone_surrogates(value: Any, name: str) -> None:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            bad = _SURROGATE.search(item)
            if bad:
                raise UsageError(f"{name}: a lone surrogate (\\u{ord(bad.group()):04x}) at "
                                 f"character {bad.start()} of a string; text must be valid "
                                 "Unicode")  # fmt: skip
        elif isinstance(item, dict):
            stack += [*item.keys(), *item.values()]
        elif isinstance(item, list):
            stack += item


_SURROGATE = re.compile("[\ud800-\udfff]")


def _room_for(path: Path, size: int) -> None:
    """Refuse a write of ``size`` bytes that the folder's free space cannot hold."""
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        return
    if free < size:
        raise WriteError(f"cannot write {path}: it needs {size:,} bytes, {path.parent} has "
                         f"{free:,} free; free some space (the old file is kept)")  # fmt: skip


def _expect_size(tmp: Path, size: int, path: Path) -> None:
    """Refuse a temporary file whose size is not what was written (a short write)."""
    written = os.stat(tmp).st_size
    if written != size:
        raise WriteError(f"cannot write {path}: {written:,} of {size:,} bytes reached the disk "
                         "(is it full?); the old file is left as it was")  # fmt: skip


def _temp_stem(name: str) -> str:
    """What a temporary file's name says of the file it becomes: its name, or, past
    :data:`_NAME_BYTES`, the start of it and a digest of the whole."""
    if len(name.encode("utf-8", "surrogateescape")) <= _NAME_BYTES:
        return name
    digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:12]
    return name.encode("utf-8", "surrogateescape")[:100].decode("utf-8", "ignore") + "~" + digest


def _sweep(path: Path) -> None:
    """Remove temporary files for ``path`` left by processes that no longer run."""
    stem = _temp_stem(path.name)
    with contextlib.suppress(OSError):
        for entry in path.parent.iterdir():
            match = _TEMP.fullmatch(entry.name)
            if match and match["name"] == stem and not _alive(int(match["pid"])):
                entry.unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _fsync_dir(folder: Path) -> None:
    with contextlib.suppress(OSError):  # not every file system lets a folder be fsynced
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
