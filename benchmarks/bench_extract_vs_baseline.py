"""Extraction speed against a simpler baseline, on the same texts in one run.

The baseline looks up every run of capitalised words in the same gazetteer
(:meth:`routes.extract.Extractor.lookup`) and takes the most likely candidate, with
no rules, context or movements: what the extractor costs beyond its lookups. The
texts are the first LGL dev articles when ``../shared/geoparse-dev`` is there (read at
run time, never copied), else the test fixture texts. Reported: median ms per 1,000
words over several rounds, for each.

Run: ``python -m pytest benchmarks/bench_extract_vs_baseline.py -s``.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from routes.extract import default_extractor
from routes.places import normalize

LGL = Path(__file__).resolve().parents[2] / "shared" / "geoparse-dev" / "lgl.jsonl"
TEXTS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "texts"
ARTICLES = 10 if os.environ.get("ROUTES_BENCH_QUICK") else 60
ROUNDS = 3 if os.environ.get("ROUTES_BENCH_QUICK") else 5
_RUN = re.compile(r"[A-Z][\w'’.-]*(?:\s+[A-Z][\w'’.-]*)*")


def _texts() -> list[str]:
    if not LGL.is_file():
        return [p.read_text(encoding="utf-8") for p in sorted(TEXTS.glob("*.txt"))]
    with LGL.open(encoding="utf-8") as lines:
        dev = [json.loads(line)["text"] for i, line in enumerate(lines) if i % 2 == 0]
    return dev[:ARTICLES]


def baseline(text: str) -> list[tuple[int, int, str]]:
    """Capitalised runs that name a place, each as its most populous candidate."""
    runs = [(m.start(), m.end(), normalize(m.group())) for m in _RUN.finditer(text)]
    found = default_extractor().lookup(key for _s, _e, key in runs)
    return [
        (start, end, max(found[key], key=lambda c: c.population).ref)
        for start, end, key in runs
        if key in found
    ]


def _ms_per_1000_words(run: Callable[[str], object], texts: list[str]) -> float:
    words = sum(len(t.split()) for t in texts)
    rounds = []
    for _ in range(ROUNDS):
        began = time.perf_counter()
        for text in texts:
            run(text)
        rounds.append((time.perf_counter() - began) * 1000 / words * 1000)
    return statistics.median(rounds)


def test_extractor_against_baseline() -> None:
    texts = _texts()
    extractor = default_extractor()
    for text in texts:  # start-up and first lookups, not timed
        extractor.extract(text)
        baseline(text)
    current = _ms_per_1000_words(extractor.extract, texts)
    simple = _ms_per_1000_words(baseline, texts)
    print(
        f"\n{len(texts)} texts, {sum(len(t.split()) for t in texts):,} words: extractor "
        f"{current:.1f} ms per 1,000 words, baseline {simple:.1f} ms (median of {ROUNDS})"
    )
    assert simple > 0 and current > 0
