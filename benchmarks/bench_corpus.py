"""`routes corpus` throughput: stories per second on 1 and 2 Dask workers, memory per worker.

The input is LGL's and GeoVirus's texts (``../shared/geoparse-dev/``) repeated under new
ids, so every story is drafted (the cache keys on the id too). Each size runs on a fresh
local cluster into a fresh folder; the rate counts drafting time only (first partition
sent to last one back), not cluster start-up or writing the outputs.

Run: ``python -m pytest benchmarks/bench_corpus.py -q -s`` (about two minutes on a quiet
machine), or as a script for one size:
``python benchmarks/bench_corpus.py --stories 100000 --workers 2``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from routes.corpus import run_corpus

SHARED = Path(__file__).resolve().parents[2] / "shared" / "geoparse-dev"
CORPORA = (SHARED / "lgl.jsonl", SHARED / "geovirus.jsonl")
QUICK = bool(os.environ.get("ROUTES_BENCH_QUICK"))
STORIES = 20 if QUICK else 40
OUT = Path(os.environ.get("ROUTES_BENCH_OUT", "output/benchmarks"))


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
