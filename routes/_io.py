"""Writing files so that a failed or killed run leaves the old file or the new one, never half.

Every file `routes` writes goes through here: the data goes to a temporary file in
the target's folder, is flushed to disk (fsync), then moved over the target with
``os.replace`` (atomic on POSIX). Nothing is deleted before its replacement is
complete. A temporary file's name carries the writing process's id, so one left
by a killed run is swept by the next write into that folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO, TextIO

from routes.errors import UsageError

__all__ = [
    "atomic_path",
    "file_sha256",
    "inside",
    "open_atomically",
    "open_binary_atomically",
    "private_dir",
    "write_atomically",
]

_TEMP = re.compile(r"\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}\.tmp(?:\..*)?")


def write_atomically(path: str | Path, data: bytes) -> Path:
    """Write ``data`` to ``path``: readers see the previous file or the new one, never a part."""
    path = Path(path)
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        f.write(data)
    return path


def file_sha256(path: str | Path) -> str:
    """The SHA-256 of a file's bytes, hex, read in blocks (a large OSM file is not loaded)."""
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


@contextlib.contextmanager
def open_atomically(path: str | Path) -> Iterator[TextIO]:
    """A UTF-8 text file to stream ``path`` through; it appears whole on success, else not."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8") as f:
        yield f


@contextlib.contextmanager
def open_binary_atomically(path: str | Path) -> Iterator[BinaryIO]:
    """A binary file to stream ``path`` through (large arrays need no copy in memory)."""
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        yield f


@contextlib.contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A fresh temporary path beside ``path`` (same suffix, so GDAL picks the same driver).

    Write it inside the ``with``; on success it is fsynced and replaces ``path``, on
    any failure it (and any ``-journal``/``-wal`` SQLite leaves beside it) is removed.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    _sweep(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp{path.suffix}")
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, path)
        _fsync_dir(path.parent)
    finally:
        for leftover in (tmp, *tmp.parent.glob(f"{tmp.name}-*")):
            leftover.unlink(missing_ok=True)


def inside(folder: str | Path, name: str) -> Path:
    """``folder / name``, refusing a name that would resolve outside ``folder``."""
    folder = Path(folder)
    path = folder / name
    if not path.resolve().is_relative_to(folder.resolve()) or path.resolve() == folder.resolve():
        raise UsageError(f"{name!r} would be written outside {folder}; use a plain file name")
    return path


def private_dir(path: str | Path) -> Path:
    """Create ``path`` (a cache folder) readable by its owner only (0700)."""
    path = Path(path)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    if path.stat().st_mode & 0o077:
        path.chmod(0o700)
    return path


def _sweep(path: Path) -> None:
    """Remove temporary files for ``path`` left by processes that no longer run."""
    with contextlib.suppress(OSError):
        for entry in path.parent.iterdir():
            match = _TEMP.fullmatch(entry.name)
            if match and match["name"] == path.name and not _alive(int(match["pid"])):
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
