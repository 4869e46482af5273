#!/usr/bin/env python
"""Score `routes.extract` against gold toponym annotations; exit 1 below the thresholds.

Each ``*.gold.yaml`` in the gold folder (default ``tests/fixtures/texts``) names its
text (``text:`` beside it, or ``article:`` under ``../shared`` next to the repository)
and lists every place mention: ``start``, ``end``, ``text`` and ``expect`` (the place
ids it may resolve to). Recognition counts exact spans: a prediction whose offsets
differ from the gold's is a false positive and a miss. Resolution accuracy is over
the mentions recognised correctly.

A regression check of examples written with the rules, not a measure of accuracy: that
comes from news nobody here wrote (``scripts/geoparse_eval.py``, docs/geoparse-accuracy.md).

Exit codes: 0 at or above every threshold, 1 below one, 2 for unusable gold files.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DEFAULT_GOLD = ROOT / "tests" / "fixtures" / "texts"

#: Micro-averaged over all texts. Set from the measured figures with a small margin,
#: so that a real regression fails.
THRESHOLDS = {"precision": 0.95, "recall": 0.95, "accuracy": 0.95}


@dataclass
class Score:
    """Counts for one text (or all of them)."""

    name: str
    gold: int = 0
    predicted: int = 0
    correct_spans: int = 0
    correct_places: int = 0

    @property
    def precision(self) -> float:
        return self.correct_spans / self.predicted if self.predicted else 1.0

    @property
    def recall(self) -> float:
        return self.correct_spans / self.gold if self.gold else 1.0

    @property
    def f1(self) -> float:
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0

    @property
    def accuracy(self) -> float:
        return self.correct_places / self.correct_spans if self.correct_spans else 1.0

    def add(self, other: Score) -> None:
        self.gold += other.gold
        self.predicted += other.predicted
        self.correct_spans += other.correct_spans
        self.correct_places += other.correct_places

    def row(self) -> dict[str, Any]:
        return {
            **asdict(self),
            "precision": round(self.precision, 3),
            "recall": round(self.recall, 3),
            "f1": round(self.f1, 3),
            "accuracy": round(self.accuracy, 3),
        }


class GoldError(ValueError):
    """A gold file that cannot be used."""


def load_gold(path: Path) -> tuple[str, dt.date | None, list[dict[str, Any]]]:
    """The text, its story date and the gold mentions; offsets checked against the text."""
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    text_path = SHARED / doc["article"] if "article" in doc else path.parent / doc["text"]
    if not text_path.is_file():
        raise GoldError(f"{path.name}: its text {text_path} is missing")
    text = text_path.read_text(encoding="utf-8")
    raw_date = doc.get("story_date")
    story_date = dt.date.fromisoformat(str(raw_date)) if raw_date else None
    gold = doc.get("toponyms") or []
    for g in gold:
        if text[g["start"] : g["end"]] != g["text"]:
            raise GoldError(
                f"{path.name}: chars {g['start']}-{g['end']} read "
                f"{text[g['start'] : g['end']]!r}, not {g['text']!r}"
            )
    return text, story_date, gold


def score(
    name: str, text: str, story_date: dt.date | None, gold: list[dict[str, Any]]
) -> tuple[Score, list[str]]:
    """Score one text; also return a line for each error, for the report."""
    from routes.extract import extract

    found = extract(text, story_date=story_date)
    predicted = {(t.start, t.end): t for t in found.toponyms}
    expected = {(g["start"], g["end"]): g for g in gold}
    s = Score(name, gold=len(expected), predicted=len(predicted))
    errors: list[str] = []
    for span, g in expected.items():
        t = predicted.get(span)
        if t is None:
            errors.append(f"  missed       {g['text']!r} at {span[0]}")
            continue
        s.correct_spans += 1
        if t.place.ref in g["expect"]:
            s.correct_places += 1
        else:
            errors.append(
                f"  wrong place  {g['text']!r} at {span[0]}: {t.place.ref} ({t.place.name}, "
                f"{t.place.country}), expected {' or '.join(g['expect'])}"
            )
    for span, t in predicted.items():
        if span not in expected:
            errors.append(
                f"  not a place  {t.text!r} at {span[0]} → {t.place.ref} ({t.place.name})"
            )
    return s, errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gold", type=Path, default=DEFAULT_GOLD, help="folder of *.gold.yaml")
    parser.add_argument("--json", action="store_true", help="print the scores as JSON")
    parser.add_argument("--verbose", "-v", action="store_true", help="list every error")
    for key, value in THRESHOLDS.items():
        parser.add_argument(f"--min-{key}", type=float, default=value, metavar="X")
    args = parser.parse_args(argv)

    files = sorted(args.gold.glob("*.gold.yaml"))
    if not files:
        print(f"no *.gold.yaml in {args.gold}", file=sys.stderr)
        return 2
    total = Score("all texts")
    rows: list[Score] = []
    report: list[str] = []
    for path in files:
        try:
            text, story_date, gold = load_gold(path)
        except (GoldError, OSError, KeyError, TypeError, yaml.YAMLError) as exc:
            print(f"unusable gold file: {exc}", file=sys.stderr)
            return 2
        name = path.name.removesuffix(".gold.yaml")
        s, errors = score(name, text, story_date, gold)
        rows.append(s)
        total.add(s)
        if errors:
            report += [f"{name}:", *errors]

    limits = {
        "precision": args.min_precision,
        "recall": args.min_recall,
        "accuracy": args.min_accuracy,
    }
    failed = [k for k, v in limits.items() if getattr(total, k) < v]
    if args.json:
        print(
            json.dumps(
                {
                    "texts": [r.row() for r in rows],
                    "total": total.row(),
                    "thresholds": limits,
                    "failed": failed,
                },
                indent=2,
            )
        )
    else:
        _print_table([*rows, total])
        print(
            "thresholds: "
            + ", ".join(f"{k} ≥ {v:.2f}" for k, v in limits.items())
            + (f" — BELOW: {', '.join(failed)}" if failed else " — met")
        )
        if args.verbose and report:
            print("\n".join(report))
    return 1 if failed else 0


def _print_table(rows: list[Score]) -> None:
    header = f"{'text':36} {'gold':>5} {'found':>5} {'P':>6} {'R':>6} {'F1':>6} {'resolved':>9}"
    print(header)
    print("-" * len(header))
    for r in rows:
        if r is rows[-1]:
            print("-" * len(header))
        print(
            f"{r.name:36} {r.gold:5d} {r.predicted:5d} {r.precision:6.3f} {r.recall:6.3f} "
            f"{r.f1:6.3f} {r.accuracy:9.3f}"
        )


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
