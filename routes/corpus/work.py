"""What a Dask worker runs: a partition of stories to draft scenarios (or error records).

The gazetteer index (:func:`routes.extract.default_extractor`) is built once per worker
process: :class:`WarmExtractor` builds it when the worker starts, and every later call
gets the same one from the function's cache. Results are plain JSON data (dates as
ISO strings), written by the worker to the run's cache (:mod:`routes.corpus.cache`), so
the driver gets a summary per partition, never the records.
"""

from __future__ import annotations

import ctypes
import datetime as dt
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from distributed.diagnostics.plugin import WorkerPlugin

from routes.corpus.stories import STORY_SECONDS

__all__ = [
    "StoryTimeout",
    "WarmExtractor",
    "draft_partition",
    "extract_story",
    "time_limit",
    "warm",
    "worker_memory",
]


def warm() -> int:
    """Build this process's extractor (gazetteer, GeoNames index) and load its parser;
    return the process id."""
    from routes.extract import default_extractor
    from routes.extract.parse import load

    default_extractor()
    load()
    return os.getpid()


class WarmExtractor(WorkerPlugin):
    """Builds the extractor when a worker starts, so no partition waits for it."""

    name = "routes-warm-extractor"

    def setup(self, worker: Any) -> None:
        warm()


class StoryTimeout(BaseException):
    """A story took longer than its time limit to draft.

    A ``BaseException``, like ``KeyboardInterrupt``: no ``except Exception`` inside the
    extractor may swallow it and let the story run on.
    """


def extract_story(story: dict[str, Any], *, seconds: float = STORY_SECONDS) -> dict[str, Any]:
    """One story's record for ``stories.jsonl``: its draft scenario, or the error it gave.

    Any exception becomes an error record (type and one-line message): one bad story
    never stops a corpus; nor does one that runs past ``seconds``.
    """
    from routes.extract import default_extractor, draft_scenario

    record: dict[str, Any] = {f: story.get(f) for f in ("id", "date", "publisher", "url", "title")}
    try:
        day = dt.date.fromisoformat(story["date"]) if story.get("date") else None
        with time_limit(seconds):
            draft = draft_scenario(
                story["text"], story_date=day, publisher=story.get("publisher"),
                extractor=default_extractor(),
            )  # fmt: skip
    except StoryTimeout:
        error = f"StoryTimeout: drafting took longer than {seconds:g} s; the story was skipped"
        record.update(status="error", error=error)
        return record
    except Exception as exc:  # every failure is the story's line, not the run's end
        record.update(status="error", error=f"{type(exc).__name__}: {_one_line(exc)}")
        return record
    record.update(status="ok", draft=draft.model_dump(mode="json"))
    return record


@contextmanager
def time_limit(seconds: float) -> Iterator[None]:
    """Raise :class:`StoryTimeout` in this thread if the ``with`` runs past ``seconds``.

    A Dask task runs in a worker's thread, where no signal can reach it, so a watcher
    thread raises the exception in it (``PyThreadState_SetAsyncExc``): the story stops at
    its next Python instruction. A library's bare ``except`` may swallow one such raise, so
    the watcher raises again every 50 ms until the ``with`` is left; once it is left,
    under the watcher's lock, nothing more is raised.
    """
    target, lock, left = threading.get_ident(), threading.Lock(), threading.Event()

    def watch() -> None:
        if left.wait(seconds):
            return
        while True:
            with lock:
                if left.is_set():
                    return
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(target), ctypes.py_object(StoryTimeout)
                )
            if left.wait(0.05):
                return

    watcher = threading.Thread(target=watch, daemon=True, name="routes-story-time-limit")
    watcher.start()
    try:
        yield
    finally:
        with lock:
            left.set()
        watcher.join()


def draft_partition(
    stories: list[dict[str, Any]], cache: str, code: str, *, seconds: float = STORY_SECONDS
) -> dict[str, Any]:
    """:func:`extract_story` for each story of a partition, cached in the folder ``cache``.

    Returns the partition's cache name and its stories (content hash under ``code``, id,
    drafted or not), not the records: those stay in the cache files for the driver to stream.
    """
    from routes.corpus.cache import store
    from routes.corpus.stories import story_hash

    records = [extract_story(s, seconds=seconds) for s in stories]
    return store(Path(cache), [story_hash(s, code) for s in stories], records)


def worker_memory() -> int:
    """Resident memory of this worker process, bytes."""
    import psutil

    return int(psutil.Process().memory_info().rss)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__
