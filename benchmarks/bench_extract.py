"""Extraction speed on a story of about 1,000 words, after start-up (pytest-benchmark).

Run: ``python -m pytest benchmarks/bench_extract.py``. Start-up (loading the curated
places, the GeoNames index, country points) happens once, before timing.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

import pytest

from routes.extract import Extraction, default_extractor, draft_scenario

SHARED = Path(__file__).resolve().parents[2] / "shared"
ARTICLE = SHARED / "articles" / "cnn-2016-12-15-aleppo-evacuation.txt"
TEXTS = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "texts"
WORDS = 1000


def _story() -> str:
    """The CNN story cut to ~1,000 words at a line break, else the test texts repeated."""
    if ARTICLE.is_file():
        source = ARTICLE.read_text(encoding="utf-8")
    else:
        source = "\n".join(p.read_text(encoding="utf-8") for p in sorted(TEXTS.glob("*.txt")))
    lines: list[str] = []
    while sum(len(line.split()) for line in lines) < WORDS:
        for line in source.splitlines():
            lines.append(line)
            if sum(len(x.split()) for x in lines) >= WORDS:
                break
    return "\n".join(lines)


@pytest.fixture(scope="module")
def story() -> str:
    text = _story()
    assert abs(len(text.split()) - WORDS) < 60
    default_extractor().extract(text)  # start-up, not timed
    return text


def test_extract_1000_words(benchmark: Any, story: str) -> None:
    found: Extraction = benchmark(
        default_extractor().extract, story, story_date=dt.date(2016, 12, 15), publisher="CNN"
    )
    assert len(found.toponyms) > 20


def test_draft_scenario_1000_words(benchmark: Any, story: str) -> None:
    draft = benchmark(draft_scenario, story, story_date=dt.date(2016, 12, 15), publisher="CNN")
    assert draft.corridors
