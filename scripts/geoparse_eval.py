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
    python scripts/geoparse_eval.py lgl --split dev --predictions dev.jsonl  # keep them

Beside the scorer's acc@161 it reports what a map needs (over the recognised toponyms,
exact spans, as the scorer measures them): the median error, the share within 25 km and
within 10 km, and the AUC of the error curve as Gritta et al. define it (the area under
the sorted log(1 + error km), divided by log of the largest error, 20,039 km, and by
the number of toponyms less one: 0 is perfect, lower is better). The AUC and median are
the scorer's own; the thresholds are counted on the scorer's matching of the same spans.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
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
#: Error thresholds reported beside the scorer's 161 km, km.
WITHIN_KM = (25, 10)


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


def score(
    corpus: str, split: str = "all", limit: int | None = None, keep: Path | None = None
) -> dict[str, Any]:
    """The scorer's report for ``corpus``/``split``, with ``within_km`` (share of the
    recognised toponyms within each of :data:`WITHIN_KM`); ``keep``: write the predictions
    there too."""
    gold_lines = list(articles(corpus, split, limit))
    predicted = [predict(a, TYPES[corpus]) for a in gold_lines]
    with tempfile.TemporaryDirectory() as tmp:
        gold = Path(tmp) / "gold.jsonl"
        pred = Path(tmp) / "pred.jsonl" if keep is None else keep
        gold.write_text("".join(json.dumps(a) + "\n" for a in gold_lines), encoding="utf-8")
        pred.write_text("".join(json.dumps(p) + "\n" for p in predicted), encoding="utf-8")
        scorer = _scorer()
        gold_toponyms, lengths = scorer.load_gold(gold)
        found, _missing = scorer.load_predictions(pred, lengths)
    report: dict[str, Any] = scorer.score(gold_toponyms, found)
    km = errors_km(scorer, gold_toponyms, found)
    assert len(km) == report["resolution"]["exact"]["recognised"]["n"]
    report["within_km"] = {
        str(t): sum(e <= t for e in km) / len(km) if km else None for t in WITHIN_KM
    }
    return report


def errors_km(scorer: ModuleType, gold: dict[str, Any], found: dict[str, Any]) -> list[float]:
    """The error of each recognised gold toponym with coordinates, as the scorer counts it
    (exact spans; a recognised toponym left without coordinates counts the largest error)."""
    km = []
    for article_id, toponyms in gold.items():
        guesses = found.get(article_id, [])
        pairs = scorer.match_exact(toponyms, guesses)
        for g, toponym in enumerate(toponyms):
            if not toponym.located or g not in pairs:
                continue
            guess = guesses[pairs[g]]
            km.append(
                scorer.haversine_km(toponym.lat, toponym.lon, guess.lat, guess.lon)
                if guess.located
                else scorer.MAX_ERROR_KM
            )
    return km


def _scorer() -> ModuleType:
    """``score.py`` of the shared corpora, loaded as a module (its matching and distances)."""
    spec = importlib.util.spec_from_file_location("geoparse_score", DEV / "score.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def headline(report: dict[str, Any]) -> dict[str, float]:
    """Exact P/R/F1, then acc@161, acc@25, acc@10, median km and AUC over the recognised
    toponyms, from a report of :func:`score`."""
    exact = report["recognition"]["exact"]
    resolved = report["resolution"]["exact"]["recognised"]
    return {
        "precision": exact["precision"],
        "recall": exact["recall"],
        "f1": exact["f1"],
        "acc161": resolved["acc161"],
        **{f"acc{t}": report["within_km"][str(t)] for t in WITHIN_KM},
        "median_km": resolved["median_km"],
        "auc": resolved["auc"],
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
    parser.add_argument("--predictions", type=Path, help="also write the predictions here")
    args = parser.parse_args()
    if not (DEV / "score.py").exists():
        sys.exit(f"needs {DEV} (../shared/ beside the repository)")
    if args.errors:
        errors(args.corpus, args.split, args.limit, args.errors)
        return
    report = score(args.corpus, args.split, args.limit, args.predictions)
    print(json.dumps(report if args.json else headline(report), indent=1))


if __name__ == "__main__":
    main()
