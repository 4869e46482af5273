"""The parser's matrix products: numpy's (OpenBLAS) against thinc's default (blis), in one run.

:func:`routes.extract.parse.load` builds the shipped pipeline with thinc's numpy ops
without blis. This loads the same model both ways, parses the same sentences on one
thread, checks that the trees and tags are the same, and times each. The sentences are
those of the movement stories of ``../shared/movements-dev`` (read at run time), else
the test fixture texts.

Run: ``python -m pytest benchmarks/bench_parser_ops.py -s``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from conftest import ROOT, pick, timed
from threadpoolctl import threadpool_limits

from routes.extract.parse import MODEL_DIR, load

STORIES = ROOT.parent / "shared" / "movements-dev" / "dev-stories.jsonl"
TEXTS = ROOT / "tests" / "fixtures" / "texts"


def _sentences() -> list[str]:
    if STORIES.is_file():
        with STORIES.open(encoding="utf-8") as lines:
            texts = [json.loads(line)["text"] for line in lines]
    else:
        texts = [p.read_text(encoding="utf-8") for p in sorted(TEXTS.glob("*.txt"))]
    return [s for t in texts for s in re.split(r"(?<=[.!?])\s+", t) if s.strip()]


def test_numpy_products_parse_the_same_and_faster(report: Callable[..., None]) -> None:
    import spacy
    from thinc.api import use_ops

    with use_ops("numpy", use_blis=True):
        blis = spacy.load(MODEL_DIR, exclude=["morphologizer", "trainable_lemmatizer"])
    ours = load()
    sentences = _sentences()
    words = sum(len(s.split()) for s in sentences)

    def trees(nlp: spacy.language.Language) -> Callable[[], list[list[tuple[str, int, str]]]]:
        return lambda: [[(t.dep_, t.head.i, t.tag_) for t in d] for d in nlp.pipe(sentences)]

    with threadpool_limits(1):
        stock, by_blis = timed(trees(blis), rounds=pick(5, 2))
        mine, by_numpy = timed(trees(ours), rounds=pick(5, 2))
    assert by_numpy == by_blis
    report(
        f"parsing {len(sentences)} sentences ({words:,} words), one thread, per 1,000 words",
        f"blis {stock * 1e6 / words:.0f} ms",
        f"numpy {mine * 1e6 / words:.0f} ms",
        f"{stock / mine:.2f}×",
        "faster, same trees",
        mine < stock,
    )
    assert mine < stock * 1.05  # never slower beyond noise
