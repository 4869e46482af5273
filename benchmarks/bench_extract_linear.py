"""Extraction time grows linearly with the text (issue 29, finding 9; issue 39, finding 4).

A story of short sentences naming places, at 10, 20, 40 and 80 thousand characters:
linear time is 8× from the first to the last, quadratic 64×. Before the fix (tokens of a
sentence and figures of a sentence were found by scanning the whole story once per
sentence) 10k took 0.09 s and 80k 2.4 s (27×, and 160k 10.9 s); after, 0.06 s and
0.46 s (8×).

The same sentences as one paragraph, and ``--explain`` (:func:`routes.extract.explain`)
of it, at 20 and 80 thousand characters: linear is 4×, quadratic 16×. Before issue 39,
splitting a paragraph searched its whole beginning at every sentence end: splitting
alone took 1.5 s at 20k and 17 s at 80k (11×; 78 s at 160k), and ``--explain`` split
the story again. Run: ``python -m pytest benchmarks/bench_extract_linear.py``.
"""

from __future__ import annotations

import datetime as dt
import gc
import itertools
from collections.abc import Callable
from typing import Any

from conftest import ms, pick, timed

from routes.extract import default_extractor, draft_scenario, explain

SIZES = (10_000, 20_000, 40_000, 80_000)
#: Time at 80k over time at 10k: 8 is linear; quadratic would be 64.
GOAL = 12.0
#: One paragraph at four times the characters (20k, then 80k; quick: 10k, then 40k).
PARAGRAPH_SIZES = pick((20_000, 80_000), (10_000, 40_000))
#: Time at four times the text over time at the first size: 4 is linear, 16 quadratic.
PARAGRAPH_GOAL = 6.0

_PLACES = ("Aleppo", "Idlib", "Homs", "Hama", "Damascus", "Raqqa", "Latakia", "Tartus",
           "Daraa", "Manbij", "Azaz", "Afrin", "Jarablus", "Palmyra")  # fmt: skip
_SENTENCES = ("Buses left {a} for {b}.", "Families fled from {a} to {b}.",
              "About 300 people reached {b} from {a}.", "Convoys went to {b}.")  # fmt: skip


def story(chars: int, *, paragraph: int = 5) -> str:
    """Short sentences naming places, ``paragraph`` to a paragraph (0: all in one), cut to
    ``chars`` characters."""
    parts, size = [], 0
    for i in itertools.count():
        a, b = _PLACES[i % len(_PLACES)], _PLACES[(i * 7 + 3) % len(_PLACES)]
        sentence = _SENTENCES[i % len(_SENTENCES)].format(a=a, b=b)
        parts.append(sentence + ("\n\n" if paragraph and i % paragraph == paragraph - 1 else " "))
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
    _holds(report, "draft_scenario at 10k, 20k, 40k, 80k characters", seconds, GOAL)


def test_one_paragraph_and_its_explanation_are_linear(report: Callable[..., None]) -> None:
    default_extractor()
    day = dt.date(2016, 12, 15)
    drafting, explaining, shown = {}, {}, {}
    for size in PARAGRAPH_SIZES:
        text = story(size, paragraph=0)
        assert "\n" not in text
        drafting[size], draft = timed(lambda t=text: draft_scenario(t, story_date=day), rounds=3)
        assert draft.corridors, f"no corridor drafted from {size:,} characters"
        gc.disable()  # as timeit does: a collection of the whole heap (the place index's
        try:  # objects) falling in one of these short rounds or another is not their cost
            seconds, said = timed(lambda t=text, d=draft: _explained(t, d), rounds=5)
            explaining[size] = seconds / EXPLAINED
        finally:
            gc.enable()
        shown[size] = len(said.plain)
    small, large = PARAGRAPH_SIZES
    grown = shown[large] / shown[small]  # what it prints, as well as the time it takes
    assert grown <= PARAGRAPH_GOAL, f"4× the text: an explanation {grown:.1f}× as long"
    sizes = f"{small // 1000}k and {large // 1000}k characters"
    _holds(report, f"draft_scenario, one paragraph, {sizes}", drafting, PARAGRAPH_GOAL)
    _holds(report, f"explain, one paragraph, {sizes}", explaining, PARAGRAPH_GOAL)


#: Explanations timed in one round: one takes tens of milliseconds, too short to time alone.
EXPLAINED = 5


def _explained(text: str, draft: Any) -> Any:
    """:func:`explain` of ``draft`` :data:`EXPLAINED` times; the last explanation."""
    for _ in range(EXPLAINED):
        said = explain(text, draft)
    return said


def _holds(report: Callable[..., None], what: str, seconds: dict[int, float], goal: float) -> None:
    """Report the time at each size, and hold the time at the largest over the smallest
    to ``goal`` (linear is the ratio of the sizes)."""
    small, large = min(seconds), max(seconds)
    ratio = seconds[large] / seconds[small]
    linear = f"linear: {large / small:g}× from {small // 1000}k to {large // 1000}k"
    times = ", ".join(ms(seconds[s]) for s in sorted(seconds))
    report(what, linear, times, f"{ratio:.1f}×", f"≤ {goal:g}×", ratio <= goal)
    assert ratio <= goal, f"{what}: {large:,} characters took {ratio:.1f}× the time ({linear})"
