"""Run a corpus on Dask.distributed: cached stories reused, the rest drafted on the workers.

The driver reads the stories, looks each one's content hash up in the cache (a pair of
files per finished partition under ``DIR/cache/<code key>/``: :mod:`routes.corpus.cache`),
sends the rest to the cluster in partitions, whose workers cache each one as it finishes
and return only its summary, and at the end merges the stories' flow contributions and
streams ``stories.jsonl`` from the cache files: the driver never holds the records, so its
memory does not grow with them. A run killed at any moment leaves only whole cache files;
the next run reuses them and drafts only what was unfinished.
"""

from __future__ import annotations

import functools
import itertools
import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from routes._io import inside, make_folder
from routes.corpus import cache as cache_files
from routes.corpus import flows as flow_tables
from routes.corpus.cache import Index
from routes.corpus.page import write_map
from routes.corpus.stories import (
    PARTITION_CHARS,
    STORY_SECONDS,
    Corpus,
    Entry,
    code_key,
    partitions,
    scan_stories,
)
from routes.errors import UsageError
from routes.text import brief

__all__ = ["IN_FLIGHT_PER_WORKER", "Report", "run_corpus", "scheduler_address"]

log = logging.getLogger("routes")

#: Partitions sent to each worker ahead of its results (the rest wait, texts unread).
IN_FLIGHT_PER_WORKER = 3

#: Called with (stories done, stories to do) as partitions finish.
Progress = Callable[[int, int], None]


@dataclass
class Report:
    """What a corpus run did: counts, time, the cluster it used and the files it wrote."""

    stories: int
    reused: int
    extracted: int
    failed: int
    flows: int
    partitions: int
    workers: int
    seconds: float
    drafting_seconds: float = 0.0  # from the first partition sent to the last one back
    dashboard: str | None = None
    memory: dict[str, int] = field(default_factory=dict)  # worker address -> bytes
    paths: list[Path] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Stories drafted per second of drafting (reused ones not counted)."""
        return self.extracted / self.drafting_seconds if self.drafting_seconds else 0.0


def run_corpus(
    source: str | Path,
    output: str | Path,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    sample: int | None = None,
    progress: Progress | None = None,
    on_cluster: Callable[[str | None], None] | None = None,
    partition_chars: int = PARTITION_CHARS,
    story_seconds: float = STORY_SECONDS,
) -> Report:
    """Draft every story of ``source`` and merge them into flows under ``output``.

    ``workers`` sizes the default :class:`distributed.LocalCluster` (one process per
    worker, one thread each; default: the cores); ``scheduler`` uses an existing cluster
    instead; ``partition_chars`` sizes the partitions (the outputs never depend on it,
    only how much a killed run redoes). ``on_cluster`` gets the dashboard link (or
    ``None``) once the cluster is up. A story that takes longer than ``story_seconds`` to
    draft is an error line in ``stories.jsonl``, as a story that fails is.
    """
    started = time.perf_counter()
    if workers is not None and workers < 1:
        raise UsageError(f"--workers must be at least 1, not {workers}")
    if scheduler is not None:
        scheduler = scheduler_address(scheduler)
    folder = Path(output)
    cache = (folder / "cache" / code_key()).absolute()  # the workers' path to it too
    corpus = scan_stories(source, cache.name, sample=sample)
    make_folder(folder)
    hashes = [e.hash for e in corpus.entries]
    index = cache_files.scan(cache, set(hashes))
    todo = [e for e in corpus.entries if e.hash not in index.where]
    report = Report(len(hashes), len(hashes) - len(todo), len(todo), 0, 0, 0, workers or 0, 0.0)
    if todo:
        with _client(workers, scheduler) as client:
            report.workers = len(client.scheduler_info()["workers"])
            report.dashboard = _dashboard(client)
            if on_cluster is not None:
                on_cluster(report.dashboard)
            parts = partitions(todo, report.workers, chars=partition_chars, length=_chars)
            report.partitions = len(parts)
            drafting = time.perf_counter()
            _compute(client, parts, corpus, index, progress, story_seconds)
            report.drafting_seconds = time.perf_counter() - drafting
            report.memory = _memory(client)
    missing = sum(h not in index.where for h in hashes)
    if missing:  # its texts were read back after the scan: the file changed meanwhile
        raise UsageError(f"{missing} stories changed in {source} during the run; run again "
                         "(the finished partitions are kept)")  # fmt: skip
    report.failed = index.failed
    merged = flow_tables.merge_contributions(cache_files.contributions(index))
    report.flows = len(merged)
    stories_file = cache_files.write_stories(index, hashes, inside(folder, "stories.jsonl"))
    sentences = _sentences(corpus, merged)
    tables = flow_tables.write_outputs(folder, merged)
    report.paths = [stories_file, *tables, write_map(folder, merged, sentences)]
    report.seconds = time.perf_counter() - started
    return report


def _sentences(corpus: Corpus, merged: list[dict[str, Any]]) -> dict[tuple[str, int, int], str]:
    """The words each flow's evidence spans, by (story, start, end), read back from the
    stories that report a flow (their texts are not kept meanwhile)."""
    spans = {(e["story"], e["start"], e["end"]) for f in merged for e in f["evidence"]}
    wanted = {story for story, _start, _end in spans}
    entries = [e for e in corpus.entries if e.id in wanted]
    texts = {story["id"]: story["text"] for story in corpus.load(entries)}
    return {(s, a, b): texts[s][a:b] for s, a, b in spans if s in texts}


def _chars(entry: Entry) -> int:
    return entry.chars


def _compute(
    client: Any,
    parts: list[list[Entry]],
    corpus: Corpus,
    index: Index,
    progress: Progress | None,
    seconds: float,
) -> None:
    """Draft every partition on the cluster; each worker caches its partition as it finishes.

    A few partitions per worker are in flight at a time, their texts read from the corpus
    as they go out, so neither the driver nor the scheduler holds every text at once.
    """
    from distributed import as_completed

    from routes.corpus.work import draft_partition, extract_story

    cache, code = cache_files.own_folder(index.cache), index.cache.name
    waiting, futures = iter(parts), {}

    def send(part: list[Entry]) -> Any:
        future = client.submit(
            draft_partition, corpus.load(part), str(cache), code, seconds=seconds, pure=False
        )
        futures[future] = part
        return future

    window = IN_FLIGHT_PER_WORKER * max(1, len(client.scheduler_info()["workers"]))
    running = as_completed([send(part) for part in itertools.islice(waiting, window)])
    total, finished = sum(map(len, parts)), 0
    for future in running:
        part = futures.pop(future)
        if future.status == "error":  # a worker died on it: each story alone, once
            log.warning("a partition failed (%s); drafting its stories one by one",
                        type(future.exception()).__name__)  # fmt: skip
            draft = functools.partial(extract_story, seconds=seconds)
            records = [_alone(client, draft, story) for story in corpus.load(part)]
            summary = cache_files.store(cache, [e.hash for e in part], records)
        else:
            summary = future.result()
        if not (cache / f"{summary['name']}.jsonl").is_file():
            raise UsageError(
                f"the workers wrote their results where this machine cannot read them ({cache}); "
                "give --output a folder the workers share, at the same path"
            )
        index.add(summary["name"], summary["stories"])
        following = next(waiting, None)
        if following is not None:
            running.add(send(following))
        finished += len(part)
        if progress is not None:
            progress(finished, total)


def _alone(client: Any, fn: Callable[..., dict[str, Any]], story: dict[str, Any]) -> dict[str, Any]:
    """``fn(story)`` on the cluster; an error record if even that kills its worker."""
    try:
        result: dict[str, Any] = client.submit(fn, story, pure=False, retries=0).result()
    except Exception as exc:  # KilledWorker and the like: the story's line, not the run's end
        record = {f: story.get(f) for f in ("id", "date", "publisher", "url")}
        record.update(status="error", error=f"{type(exc).__name__}: the worker drafting it failed")
        return record
    return result


def scheduler_address(text: str) -> str:
    """``text`` checked as a Dask scheduler's address before anything connects to it:
    ``tcp://HOST:PORT`` (or ``tls://`` with Dask's TLS certificates configured)."""
    from urllib.parse import urlsplit

    shown = brief(text, 60)
    try:
        parts = urlsplit(text)
        port = parts.port
    except ValueError:
        port, parts = None, urlsplit("")
    if parts.scheme not in {"tcp", "tls"} or not parts.hostname or port is None or not port:
        raise UsageError(f"--scheduler {shown} is not a scheduler address; give "
                         "tcp://HOST:PORT (dask-scheduler prints it)")  # fmt: skip
    if parts.scheme == "tls":
        import dask

        if not dask.config.get("distributed.comm.tls.client.cert", None):
            raise UsageError(f"--scheduler {shown}: tls:// needs Dask's TLS certificates "
                             "(distributed.comm.tls in its config); or use tcp://")  # fmt: skip
    return text


@contextmanager
def _client(workers: int | None, scheduler: str | None) -> Iterator[Any]:
    """A client of the cluster at ``scheduler``, or of a new local one of ``workers`` processes."""
    import os

    from distributed import Client, LocalCluster

    from routes.corpus.work import WarmExtractor, warm

    if scheduler:
        try:
            client = Client(scheduler, timeout="10s")
        except (OSError, TimeoutError, ValueError, TypeError) as exc:
            raise UsageError(
                f"cannot reach the Dask scheduler at {scheduler} ({type(exc).__name__}); "
                "start it (dask-scheduler) or leave out --scheduler for a local cluster"
            ) from None
        cluster = None
    else:
        cluster = LocalCluster(
            n_workers=workers or os.cpu_count() or 1,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",  # a free port: never a clash with another cluster
            silence_logs=logging.ERROR,
        )
        client = Client(cluster)
    try:
        if not client.scheduler_info()["workers"]:
            client.wait_for_workers(1, timeout=60)
        first = next(iter(client.scheduler_info()["workers"]))
        client.submit(warm, workers=[first], pure=False).result()  # builds shared caches once
        client.register_plugin(WarmExtractor())
        yield client
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


def _has_bokeh() -> bool:
    from importlib.util import find_spec

    return find_spec("bokeh") is not None


def _dashboard(client: Any) -> str | None:
    """The Dask dashboard's address, when the scheduler serves one."""
    services = client.scheduler_info().get("services", {})
    live = "dashboard" in services and _has_bokeh()  # without bokeh it is a notice page
    return str(client.dashboard_link) if live else None


def _memory(client: Any) -> dict[str, int]:
    from routes.corpus.work import worker_memory

    memory: dict[str, int] = client.run(worker_memory)
    return memory
