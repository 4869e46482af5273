"""`routes corpus` throughput: stories per second on 1 and 2 Dask workers, memory per worker.

The input is LGL's and GeoVirus's texts (``../shared/geoparse-dev/``) repeated under new
ids, so every story is drafted (the cache keys on the id too). Each size runs on a fresh
local cluster into a fresh folder; the rate counts drafting time only (first partition
sent to last one back), not cluster start-up or writing the outputs.

The driver's memory: a corpus of 2,000 and one of 8,000 stories whose results are all in
the cache already (:func:`seeded`), so the run is the driver alone (read, look up, merge,
write); its peak RSS should not grow with the stories' records.

Run: ``python -m pytest benchmarks/bench_corpus.py -q -s`` (about two minutes on a quiet
machine), or as a script for one size:
``python benchmarks/bench_corpus.py --stories 100000 --workers 2``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from conftest import at_least

from routes.corpus import run_corpus

SHARED = Path(__file__).resolve().parents[2] / "shared" / "geoparse-dev"
CORPORA = (SHARED / "lgl.jsonl", SHARED / "geovirus.jsonl")
QUICK = bool(os.environ.get("ROUTES_BENCH_QUICK"))
STORIES = 20 if QUICK else 40
#: Stories a second one worker drafts, the parser loaded when it starts (issue 34).
ONE_WORKER_GOAL = 20.0
OUT = Path(os.environ.get("ROUTES_BENCH_OUT", "output/benchmarks"))
#: The environment as the shell gave it: a LocalCluster sets MALLOC_TRIM_THRESHOLD_ and
#: OMP_NUM_THREADS in its own process's, which would change a child's memory.
SHELL_ENV = dict(os.environ)


def synthetic(path: Path, n: int) -> Path:
    """``n`` stories: LGL and GeoVirus texts, alternating, repeated under new ids."""
    texts = []
    for corpus in CORPORA:
        if not corpus.is_file():
            pytest.skip(f"needs {corpus} (../shared/ beside the repository)")
        texts.append([json.loads(line)["text"] for line in corpus.read_text().splitlines()])
    mixed = [t for pair in itertools.zip_longest(*texts) for t in pair if t]
    with path.open("w", encoding="utf-8") as f:
        for i, text in zip(range(n), itertools.cycle(mixed), strict=False):
            f.write(json.dumps({"id": f"s{i:08d}", "text": text}) + "\n")
    return path


def template(folder: Path, n: int) -> list[tuple[str, dict[str, Any]]]:
    """The first ``n`` stories of :func:`synthetic`, drafted for real: (text, record) each."""
    drafted = folder / "template"
    run_corpus(synthetic(folder / "template.jsonl", n), drafted, workers=1)
    lines = (drafted / "stories.jsonl").read_text(encoding="utf-8").splitlines()
    records = [json.loads(line) for line in lines]
    assert not any(r["id"] in json.dumps(r.get("draft")) for r in records)  # id-free drafts
    texts = [json.loads(line)["text"] for line in (folder / "template.jsonl").open()]
    return list(zip(texts, records, strict=True))


def seeded(folder: Path, n: int, drafted: list[tuple[str, dict[str, Any]]]) -> Path:
    """``n`` stories whose results ``folder/out``'s cache already holds; the stories file.

    Story ``i`` is :func:`template` story ``i % len(drafted)`` under a new id, and its
    cached record is that story's record under the new id: what drafting it gives, since
    a draft does not depend on the story's id (:func:`template` checks it).
    """
    from routes.corpus.cache import store
    from routes.corpus.stories import code_key, story_hash

    stories = [{"id": f"s{i:08d}", "text": drafted[i % len(drafted)][0], "date": None,
                "publisher": None, "url": None} for i in range(n)]  # fmt: skip
    cache, size = folder / "out" / "cache" / code_key(), 50
    for start in range(0, n, size):
        part = stories[start : start + size]
        results = [
            drafted[i % len(drafted)][1] | {"id": s["id"]} for i, s in enumerate(part, start)
        ]
        store(cache, [story_hash(s, cache.name) for s in part], results)
    source = folder / "stories.jsonl"
    source.write_text("".join(json.dumps({"id": s["id"], "text": s["text"]}) + "\n"
                              for s in stories), encoding="utf-8")  # fmt: skip
    return source


#: The driver's peak RSS: VmHWM of its own address space (ru_maxrss would carry over the
#: RSS of the process that forked it, since Linux keeps it across exec).
_PEAK = (
    "import json, re, sys\n"
    "from pathlib import Path\n"
    "from routes.corpus import run_corpus\n"
    "if __name__ == '__main__':\n"
    "    r = run_corpus(sys.argv[1], sys.argv[2], workers=1)\n"
    "    status = Path('/proc/self/status').read_text()\n"
    "    peak = int(re.search(r'VmHWM:\\s+(\\d+) kB', status)[1]) / 1024\n"
    "    print(json.dumps({'stories': r.stories, 'reused': r.reused, 'flows': r.flows,\n"
    "                      'seconds': round(r.seconds, 1), 'driver_peak_mb': round(peak)}))\n"
)


def driver_peak_mb(source: Path, out: Path) -> dict[str, Any]:
    """Run the corpus in a fresh process (nice 5); its peak RSS, MB, and what it did."""
    command = ["nice", "-n", "5", sys.executable, "-c", _PEAK, str(source), str(out)]
    done = subprocess.run(
        command, capture_output=True, text=True, check=True, timeout=600, env=SHELL_ENV
    )
    result: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return result


def test_driver_memory_does_not_grow_with_records(tmp_path: Path) -> None:
    sizes = (500, 2_500) if QUICK else (2_000, 8_000)
    drafted, runs = template(tmp_path, 20 if QUICK else 40), []
    for n in sizes:
        source = seeded(tmp_path / str(n), n, drafted)
        runs.append(driver_peak_mb(source, tmp_path / str(n) / "out"))
        assert runs[-1]["reused"] == runs[-1]["stories"] == n
    record_kb = (
        (tmp_path / str(sizes[-1]) / "out" / "stories.jsonl").stat().st_size / sizes[-1] / 1024
    )
    grown = runs[1]["driver_peak_mb"] - runs[0]["driver_peak_mb"]
    result = {"runs": runs, "record_kb": round(record_kb, 1), "grown_mb": grown}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "corpus-driver.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    records_mb = (sizes[1] - sizes[0]) * record_kb / 1024
    assert grown < records_mb, f"the driver grew {grown} MB for {records_mb:.0f} MB of records"


#: Peak RSS above the imports, MB, of reading a corpus as the driver does (or whole).
_READ = (
    "import re, sys\n"
    "from pathlib import Path\n"
    "from routes.corpus.stories import read_stories, scan_stories\n"
    "def hwm():\n"
    "    return int(re.search(r'VmHWM:\\s+(\\d+)', Path('/proc/self/status').read_text())[1])\n"
    "base = hwm()\n"
    "scan = sys.argv[2] == 'scan'\n"
    "kept = scan_stories(sys.argv[1], 'code') if scan else read_stories(sys.argv[1])\n"
    "print(round((hwm() - base) / 1024))\n"
)


def test_the_driver_reads_a_jsonl_corpus_without_its_texts(tmp_path: Path) -> None:
    """What the driver keeps of each story of a JSON-lines corpus (id, hash, length, line
    offset) against the stories themselves, at two sizes."""
    sizes, result = (2_000, 8_000) if QUICK else (8_000, 32_000), {}
    for n in sizes:
        source = synthetic(tmp_path / f"{n}.jsonl", n)
        for how in ("scan", "whole"):
            command = [sys.executable, "-c", _READ, str(source), how]
            done = subprocess.run(
                command, capture_output=True, text=True, check=True, env=SHELL_ENV
            )
            result[f"{how} {n}"] = int(done.stdout.split()[-1])
    per_story = {h: (result[f"{h} {sizes[1]}"] - result[f"{h} {sizes[0]}"]) / (sizes[1] - sizes[0])
                 for h in ("scan", "whole")}  # fmt: skip
    result |= {f"{h}_kb_per_story": round(v * 1024, 2) for h, v in per_story.items()}
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "corpus-read.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    assert per_story["scan"] < per_story["whole"] / 4


def measure(source: Path, out: Path, workers: int) -> dict[str, Any]:
    report = run_corpus(source, out, workers=workers)
    assert report.extracted == report.stories
    memory = sorted(report.memory.values())
    return {
        "workers": workers,
        "stories": report.stories,
        "failed": report.failed,
        "flows": report.flows,
        "partitions": report.partitions,
        "drafting_s": round(report.drafting_seconds, 2),
        "total_s": round(report.seconds, 2),
        "stories_per_s": round(report.rate, 2),
        "worker_rss_mb": [round(m / 2**20) for m in memory],
        "load_average": [round(x, 1) for x in os.getloadavg()],
    }


def test_corpus_rate_on_one_and_two_workers(tmp_path: Path) -> None:
    source = synthetic(tmp_path / "stories.jsonl", STORIES)
    one = measure(source, tmp_path / "one", 1)
    two = measure(source, tmp_path / "two", 2)
    for name in ("stories.jsonl", "flows.parquet", "flows.csv", "locations.csv", "map.html"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    result = {
        "one": one,
        "two": two,
        "speedup": round(two["stories_per_s"] / one["stories_per_s"], 2),
        "cores": os.cpu_count(),
    }
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "corpus.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    assert one["stories_per_s"] >= at_least(ONE_WORKER_GOAL), one


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stories", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source = synthetic(Path(tmp) / "stories.jsonl", args.stories)
        print(json.dumps(measure(source, Path(tmp) / "out", args.workers), indent=2))


if __name__ == "__main__":
    main()
