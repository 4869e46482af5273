"""Extraction time grows linearly with the text (issue 29, finding 9).

A story of short sentences naming places, at 10, 20, 40 and 80 thousand characters:
linear time is 8× from the first to the last, quadratic 64×. Before the fix (tokens of a
sentence and figures of a sentence were found by scanning the whole story once per
sentence) 10k took 0.09 s and 80k 2.4 s (27×, and 160k 10.9 s); after, 0.06 s and
0.46 s (8×). Run: ``python -m pytest benchmarks/bench_extract_linear.py``.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Callable

from conftest import ms, timed

from routes.extract import default_extractor, draft_scenario

SIZES = (10_000, 20_000, 40_000, 80_000)
#: Time at 80k over time at 10k: 8 is linear; quadratic would be 64.
GOAL = 12.0

_PLACES = ("Aleppo", "Idlib", "Homs", "Hama", "Damascus", "Raqqa", "Latakia", "Tartus",
           "Daraa", "Manbij", "Azaz", "Afrin", "Jarablus", "Palmyra")  # fmt: skip
_SENTENCES = ("Buses left {a} for {b}.", "Families fled from {a} to {b}.",
              "About 300 people reached {b} from {a}.", "Convoys went to {b}.")  # fmt: skip


def story(chars: int) -> str:
    """Short sentences naming places, five to a paragraph, cut to ``chars`` characters."""
    parts, size = [], 0
    for i in itertools.count():
        a, b = _PLACES[i % len(_PLACES)], _PLACES[(i * 7 + 3) % len(_PLACES)]
        sentence = _SENTENCES[i % len(_SENTENCES)].format(a=a, b=b)
        parts.append(sentence + ("\n\n" if i % 5 == 4 else " "))
        size += len(parts[-1])
        if size >= chars:
            return "".join(parts)[:chars]
    raise AssertionError("unreachable")


def test_extraction_is_linear_in_the_text(report: Callable[..., None]) -> None:
    default_extractor()  # start-up, not timed
    day = dt.date(2016, 12, 15)
    seconds = {}
    for size in SIZES:
        text = story(size)
        seconds[size], draft = timed(lambda t=text: draft_scenario(t, story_date=day), rounds=3)
        assert draft.corridors, f"no corridor drafted from {size:,} characters"
    ratio = seconds[SIZES[-1]] / seconds[SIZES[0]]
    report(
        "draft_scenario at 10k, 20k, 40k, 80k characters",
        "linear: 8× from 10k to 80k",
        ", ".join(ms(seconds[s]) for s in SIZES),
        f"{ratio:.1f}×",
        f"≤ {GOAL:g}×",
        ratio <= GOAL,
    )
    assert ratio <= GOAL, f"80k characters took {ratio:.1f}× the time of 10k (linear: 8×)"
