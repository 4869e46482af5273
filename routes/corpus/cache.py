"""A corpus run's cache: two files per finished partition, so the driver never holds records.

``part-<name>.jsonl`` holds the partition's ``stories.jsonl`` lines (one record a line, by
story id), byte for byte as ``stories.jsonl`` shows them. ``part-<name>.json``, written
just before it, is its summary: the lines file's sha256, each line's story (content
hash, id, drafted or not) and each drafted story's *contribution* to the flows (its
places and its movements' reports: all that merging flows reads). A worker writes both
and returns the summary's story list; the driver keeps one small entry per story
(:class:`Index`), merges flows from the contributions, one summary at a time, and
streams ``stories.jsonl`` from the lines files. A lines file without its summary, or
whose checksum does not match, is not reused: its stories are drafted again.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import logging
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from pydantic import ValidationError

from routes._io import (
    cache_folder,
    open_binary_atomically,
    open_entry,
    read_entry,
    write_atomically,
)
from routes.corpus.records import Summary
from routes.errors import UsageError
from routes.text import brief

__all__ = ["Index", "contribution", "contributions", "own_folder", "scan", "store", "write_stories"]

log = logging.getLogger("routes")

#: Marks a cached story that the next run drafts again (no content hash starts so).
RETRY = "retry-"

#: Lines files kept open at once while ``stories.jsonl`` is streamed (the others reopen).
OPEN_FILES = 16


@dataclass
class Index:
    """Where each wanted story's record is: content hash -> (file number, line number)."""

    cache: Path
    wanted: set[str]
    files: list[str] = field(default_factory=list)
    where: dict[str, tuple[int, int]] = field(default_factory=dict)
    failed: int = 0

    def add(self, name: str, stories: list[list[Any]]) -> None:
        """Take the stories of partition ``name`` (its summary's ``[hash, id, ok]`` list)."""
        number = len(self.files)
        self.files.append(name)
        for line, (digest, _, ok) in enumerate(stories):
            if digest in self.wanted and digest not in self.where:
                self.where[digest] = (number, line)
                self.failed += not ok


def store(cache: Path, hashes: list[str], records: list[dict[str, Any]]) -> dict[str, Any]:
    """Cache one finished partition (summary first, then its lines); return name and stories."""
    data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records).encode("utf-8")
    name = "part-" + hashlib.sha256("".join(hashes).encode()).hexdigest()[:24]
    stories = [[h, r["id"], r["status"] == "ok"] for h, r in zip(hashes, records, strict=True)]
    flows = [[n, r["id"], c] for n, r in enumerate(records) if (c := contribution(r))]
    # A story stopped by its time limit is this run's error line but not remembered: the
    # limit is the machine's load as much as the story's, so the next run drafts it again.
    kept = [
        [RETRY + h if _timed_out(r) else h, *rest]
        for (h, *rest), r in zip(stories, records, strict=True)
    ]
    summary = {"sha256": hashlib.sha256(data).hexdigest(), "stories": kept, "flows": flows}
    cache = own_folder(cache)
    write_atomically(cache / f"{name}.json", json.dumps(summary).encode("utf-8"), entry=True)
    write_atomically(cache / f"{name}.jsonl", data, entry=True)
    return {"name": name, "stories": stories}


def own_folder(cache: Path) -> Path:
    """The run's cache folder ``DIR/cache/<code>``, made if missing: no link in place of
    ``cache`` or ``<code>`` is followed (:func:`routes._io.cache_folder`)."""
    return cache_folder(cache.parent.parent, cache.parent.name, cache.name)


def _timed_out(record: dict[str, Any]) -> bool:
    return str(record.get("error") or "").startswith("StoryTimeout:")


def scan(cache: Path, wanted: set[str]) -> Index:
    """The finished partitions in ``cache`` holding any of the ``wanted`` stories."""
    index = Index(cache, wanted)
    for file in sorted(cache.glob("part-*.jsonl")) if cache.is_dir() else []:
        try:
            summary = _summary(file)
        except (OSError, ValueError) as exc:  # garbled or hand-edited: its stories redone
            log.warning("cache file %s is unreadable (%s); drafting its stories again", file,
                        brief(str(exc), 200))  # fmt: skip
            continue
        index.add(file.stem, [list(entry) for entry in summary["stories"]])
    return index


#: The largest summary of a partition read back, bytes (a partition's flows: megabytes).
SUMMARY_BYTES = 1 << 30


def _summary(lines: Path) -> dict[str, Any]:
    """The summary of the lines file ``lines``, checked against it: its shape
    (:class:`~routes.corpus.records.Summary`), the lines' checksum and their count. Both
    must be regular files (a FIFO or a device is unreadable, not waited on)."""
    summary = json.loads(read_entry(lines.with_suffix(".json"), limit=SUMMARY_BYTES) or b"")
    try:
        Summary.model_validate(summary)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        raise ValueError(f"its summary's {where or 'record'}: {error['msg']}") from None
    with open_entry(lines) as f:
        digest, count = hashlib.sha256(), 0
        for line in f:
            digest.update(line)
            count += 1
    if digest.hexdigest() != summary["sha256"]:
        raise ValueError("its checksum does not match its summary")
    if count != len(summary["stories"]):
        raise ValueError(f"{count} lines for {len(summary['stories'])} stories in its summary")
    return summary


def contributions(index: Index) -> Iterator[tuple[str, dict[str, Any]]]:
    """(story id, contribution) of every indexed story that has one, one summary at a time."""
    used = sorted({number for number, _ in index.where.values()})
    for number in used:
        try:
            summary = _summary(index.cache / f"{index.files[number]}.jsonl")
        except (OSError, ValueError) as exc:  # changed since the scan
            raise UsageError(f"the cache changed during the run ({brief(str(exc), 200)}); "
                             "run again") from None  # fmt: skip
        for line, story, part in summary["flows"]:
            if index.where.get(summary["stories"][line][0]) == (number, line):
                yield story, part


def write_stories(index: Index, hashes: list[str], path: Path) -> Path:
    """Write ``stories.jsonl`` (atomically): the records of ``hashes``, in that order."""
    lines = _Lines(index)
    try:
        with open_binary_atomically(path) as out:
            for digest in hashes:
                out.write(lines.get(*index.where[digest]))
    finally:
        lines.close()
    return path


def contribution(record: dict[str, Any]) -> dict[str, Any] | None:
    """What one ``stories.jsonl`` record gives the flows: its places and its movements' reports.

    ``places`` are ``[ref, name, lat, lon]`` (the first of each gazetteer reference);
    ``reports`` are ``[origin ref, destination ref, report]`` for each movement with both
    ends. ``None`` for an error record.
    """
    if record.get("status") != "ok":
        return None
    draft = record["draft"]
    refs = {t["place"]: t["resolved"] for t in draft.get("toponyms", []) if t.get("place")}
    places: dict[str, list[Any]] = {}
    for p in draft["places"]:
        ref = refs.get(p["id"]) or f"draft:{p['lat']},{p['lon']}"
        places.setdefault(ref, [ref, p["name"], p["lat"], p["lon"]])
        refs[p["id"]] = ref
    moves = [(c, [c["origin"]], [c["destination"]]) for c in draft.get("corridors", [])]
    moves += [(m, m["origins"], m["destinations"]) for m in draft.get("movements", [])]
    reports = [  # an end no gazetteer has (in the draft's ``unresolved``) is no flow's end
        [refs[origin], refs[dest], _report(record, move)]
        for move, origins, dests in moves
        for origin, dest in itertools.product(origins, dests)
        if origin in refs and dest in refs
    ]
    return {"places": list(places.values()), "reports": reports}


def _report(record: dict[str, Any], move: dict[str, Any]) -> dict[str, Any]:
    story = record["id"]
    about = record["draft"].get("story", {})
    return {
        "story": story,
        "title": record.get("title"),
        "publisher": record.get("publisher"),
        "url": record.get("url"),
        "focus_country": about.get("focus_country"),
        "focus_region": about.get("focus_region"),
        "date": move.get("date"),
        "who": move.get("who"),
        "evidence": [{"story": story, **e} for e in move.get("evidence", [])],
        "claims": [
            {
                "kind": f["kind"],
                "value": f["value"],
                "qualifier": f.get("qualifier"),
                "according_to": f.get("according_to"),
                "story": story,
                "publisher": record.get("publisher"),
                "start": f.get("evidence", {}).get("start"),
                "end": f.get("evidence", {}).get("end"),
            }
            for f in move.get("figures", [])
        ],
    }


class _Lines:
    """Lines of the cached lines files, read forward; a few files open at a time."""

    def __init__(self, index: Index) -> None:
        self.index = index
        self.open: OrderedDict[int, tuple[IO[bytes], list[int]]] = OrderedDict()

    def get(self, number: int, line: int) -> bytes:
        reader = self.open.pop(number, None)
        if reader is None or reader[1][0] > line:  # not open, or already past it: from the top
            if reader is not None:
                reader[0].close()
            reader = ((self.index.cache / f"{self.index.files[number]}.jsonl").open("rb"), [0])
        self.open[number] = reader
        while len(self.open) > OPEN_FILES:
            self.open.popitem(last=False)[1][0].close()
        file, at = reader
        text = b""
        while at[0] <= line:  # at[0]: the number of the line readline gives next
            text, at[0] = file.readline(), at[0] + 1
        if not text.endswith(b"\n"):
            raise UsageError(f"{file.name}: line {line} is missing; delete the cache and rerun")
        return text

    def close(self) -> None:
        for file, _ in self.open.values():
            file.close()
        self.open.clear()
