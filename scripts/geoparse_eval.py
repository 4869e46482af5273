#!/usr/bin/env python
"""Score `routes.extract` on the LGL and GeoVirus corpora with the shared scorer.

The corpora and ``score.py`` live in ``../shared/geoparse-dev/`` beside the
repository (never copied into it). Each article's toponyms come from
``Extractor.extract``; predictions go to a temporary JSONL file that
``score.py`` reads. Splits: ``dev`` is the articles at even positions of a
corpus file, ``test`` the odd ones, ``all`` every article; rules are tuned on
LGL ``dev`` only.

    python scripts/geoparse_eval.py lgl --split dev
    python scripts/geoparse_eval.py geovirus --split all --json
    python scripts/geoparse_eval.py lgl --limit 60 --errors 40   # a quick look at misses
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEV = ROOT.parent / "shared" / "geoparse-dev"
CORPORA = {"lgl": "lgl.jsonl", "geovirus": "geovirus.jsonl"}
#: The mention types each corpus annotates: LGL marks demonyms ("Georgian") and places
#: inside longer names ("Ohio Supreme Court") and streets; GeoVirus's guidelines leave
#: demonyms out, and it has no street among its 2,167 toponyms.
TYPES = {
    "lgl": {"literal", "adjective", "embedded", "street"},
    "geovirus": {"literal", "embedded"},
}


def articles(corpus: str, split: str = "all", limit: int | None = None) -> Iterator[dict[str, Any]]:
    """Gold lines of ``corpus`` in ``split`` (``dev`` even positions, ``test`` odd, ``all``)."""
    with (DEV / CORPORA[corpus]).open(encoding="utf-8") as lines:
        kept = 0
        for i, line in enumerate(lines):
            if (split == "dev" and i % 2) or (split == "test" and not i % 2):
                continue
            if limit is not None and kept >= limit:
                return
            kept += 1
            yield json.loads(line)


def predict(article: dict[str, Any], types: set[str] = TYPES["lgl"]) -> dict[str, Any]:
    """One prediction line for the scorer, with the mentions of ``types``."""
    from routes.extract import default_extractor

    found = [
        t for t in default_extractor().extract(article["text"]).all_toponyms() if t.type in types
    ]
    return {
        "id": article["id"],
        "toponyms": [
            {"start": t.start, "end": t.end, "lat": t.place.lat, "lon": t.place.lon} for t in found
        ],
    }


def score(corpus: str, split: str = "all", limit: int | None = None) -> dict[str, Any]:
    """The scorer's JSON report for ``corpus``/``split``, over the articles of that split."""
    gold_lines = list(articles(corpus, split, limit))
    with tempfile.TemporaryDirectory() as tmp:
        gold = Path(tmp) / "gold.jsonl"
        pred = Path(tmp) / "pred.jsonl"
        gold.write_text("".join(json.dumps(a) + "\n" for a in gold_lines), encoding="utf-8")
        pred.write_text(
            "".join(json.dumps(predict(a, TYPES[corpus])) + "\n" for a in gold_lines),
            encoding="utf-8",
        )
        done = subprocess.run(
            [sys.executable, str(DEV / "score.py"), str(pred), "--gold", str(gold), "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
    return json.loads(done.stdout)


def headline(report: dict[str, Any]) -> dict[str, float]:
    """Exact P/R/F1 and acc@161 over the recognised toponyms, from a scorer report."""
    exact = report["recognition"]["exact"]
    resolved = report["resolution"]["exact"]["recognised"]
    return {
        "precision": exact["precision"],
        "recall": exact["recall"],
        "f1": exact["f1"],
        "acc161": resolved["acc161"],
    }


def errors(corpus: str, split: str, limit: int | None, count: int) -> None:
    """Print missed gold spans and false positives, for development on ``dev`` only."""
    shown = 0
    for article in articles(corpus, split, limit):
        text = article["text"]
        gold = {(t["start"], t["end"]) for t in article["toponyms"]}
        pred = {(t["start"], t["end"]) for t in predict(article, TYPES[corpus])["toponyms"]}
        for start, end in sorted(gold ^ pred):
            mark = "MISS" if (start, end) in gold else "FP  "
            print(
                mark,
                repr(text[start:end]),
                "|",
                text[max(0, start - 40) : end + 40].replace("\n", " "),
            )
            shown += 1
            if shown >= count:
                return


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus", choices=sorted(CORPORA))
    parser.add_argument("--split", choices=["dev", "test", "all"], default="all")
    parser.add_argument("--limit", type=int, default=None, help="first N articles of the split")
    parser.add_argument("--json", action="store_true", help="the scorer's whole report")
    parser.add_argument("--errors", type=int, default=0, help="print N span errors instead")
    args = parser.parse_args()
    if not (DEV / "score.py").exists():
        sys.exit(f"needs {DEV} (../shared/ beside the repository)")
    if args.errors:
        errors(args.corpus, args.split, args.limit, args.errors)
        return
    report = score(args.corpus, args.split, args.limit)
    print(json.dumps(report if args.json else headline(report), indent=1))


if __name__ == "__main__":
    main()
