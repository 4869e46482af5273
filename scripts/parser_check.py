#!/usr/bin/env python
"""Score a parser on the motion-attachment check: where the phrases of movement attach.

``bench/parser/motion_attachment.jsonl`` holds news-style sentences written for this
project, one a line: ``{"id", "shapes", "text", "checks"}``. Each check is ``[phrase,
relation, head]``: the phrase (a nominal without its preposition, a subject, an object,
or a motion verb) attaches to the word ``head`` with a relation of that family (UD's
part before the colon, so ``obl:agent`` is ``obl``, ``acl:relcl`` is ``acl``,
``nsubj:pass`` is ``nsubj``). A phrase or head that occurs more than once names its
occurrence: ``"to@2"``. The phrase is found as its tokens in the parsed sentence; it is
right when exactly one of its tokens has its head outside the phrase, and that head is
the ``head`` word with a relation of the family: so "Thousands of civilians" is right
whichever of its nouns the parser makes the head, as long as the phrase hangs off the
right word in the right way.

    python scripts/parser_check.py                         # the shipped model
    python scripts/parser_check.py build/parser/w96/model --failures
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc, Span, Token

ROOT = Path(__file__).resolve().parents[1]
CHECK = ROOT / "bench" / "parser" / "motion_attachment.jsonl"
MODEL = ROOT / "routes" / "extract" / "model"


@dataclass
class Report:
    """Checks right out of all, and each wrong one as a line to read."""

    right: int = 0
    total: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.right / self.total if self.total else 0.0


def family(label: str) -> str:
    """``obl`` for ``obl:agent``, ``root`` for spaCy's ``ROOT``."""
    return label.split(":")[0].lower()


def find(nlp: Language, doc: Doc, phrase: str) -> Span:
    """The ``n``-th occurrence (``phrase@n``, first by default) of ``phrase``'s tokens."""
    words, _, nth = phrase.partition("@")
    wanted = [t.text for t in nlp.make_doc(words)]
    found = [
        doc[i : i + len(wanted)]
        for i in range(len(doc) - len(wanted) + 1)
        if [t.text for t in doc[i : i + len(wanted)]] == wanted
    ]
    if len(found) < int(nth or 1):
        raise ValueError(f"{phrase!r} is not in {doc.text!r}")
    return found[int(nth or 1) - 1]


def attachment(span: Span) -> tuple[Token, str] | None:
    """The head outside the phrase and the relation, if the phrase has one root."""
    roots = [t for t in span if t.head.i == t.i or not span.start <= t.head.i < span.end]
    if len(roots) != 1:
        return None
    return roots[0].head, roots[0].dep_


def check(nlp: Language, doc: Doc, phrase: str, relation: str, head: str) -> str | None:
    """``None`` when right, else what the parser said instead."""
    span, want = find(nlp, doc, phrase), find(nlp, doc, head)
    got = attachment(span)
    if got is None:
        return f"{phrase!r} is not one phrase"
    token, label = got
    if token.i == want.start and family(label) == family(relation):
        return None
    return f"{phrase!r} {relation} {head!r}: parsed {label} of {token.text!r}"


def score(nlp: Language, path: Path = CHECK) -> Report:
    """Every check of ``path``, parsed by ``nlp``."""
    items = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    report = Report()
    for item, doc in zip(items, nlp.pipe(i["text"] for i in items), strict=True):
        for phrase, relation, head in item["checks"]:
            wrong = check(nlp, doc, phrase, relation, head)
            report.total += 1
            report.right += wrong is None
            if wrong:
                report.failures.append(f"{item['id']}: {wrong}")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("model", type=Path, nargs="?", default=MODEL)
    parser.add_argument("--check", type=Path, default=CHECK)
    parser.add_argument("--failures", action="store_true", help="list every wrong check")
    args = parser.parse_args()
    import spacy

    report = score(spacy.load(args.model), args.check)
    if args.failures:
        print("\n".join(report.failures))
    print(f"{report.right}/{report.total} right: {report.share:.3f}")
    sys.exit(0 if report.share >= 0.9 else 1)


if __name__ == "__main__":
    main()
