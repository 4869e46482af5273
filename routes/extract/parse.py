"""Parse: the sentences that can hold a movement, as dependency trees.

The model in ``routes/extract/model/`` is the project's own: a spaCy tagger and dependency
parser trained by ``scripts/train_parser.py`` from the UD English EWT and GUM treebanks
(CC BY-SA 4.0: ``model/NOTICE.md``). It is loaded once per process, on first use, after
every file is checked against ``model/SHA256SUMS``: spaCy and thinc are imported only then,
so commands that parse nothing never load them. The parser sees the words as they are,
names split as the treebanks split them; the frames find a place by the token that heads
its name.

>>> doc = next(load().pipe(["Families fled to Idlib."]))
>>> [(t.text, t.dep_, t.head.text) for t in doc][:3]
[('Families', 'nsubj', 'fled'), ('fled', 'ROOT', 'fled'), ('to', 'case', 'Idlib')]
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from routes._io import file_sha256
from routes.errors import RoutesError

if TYPE_CHECKING:
    from spacy.language import Language
    from spacy.tokens import Doc

    from routes.extract.findings import Sentence

__all__ = ["MODEL_DIR", "Parsed", "load", "parse"]

#: The shipped model's folder (package data).
MODEL_DIR = Path(__file__).with_name("model")
#: Components the reader does not use at run time (trained for the model's evaluation).
_UNUSED = ("morphologizer", "trainable_lemmatizer")


def _verify(folder: Path) -> None:
    """Every file ``SHA256SUMS`` lists is there with its sum, or one line saying to reinstall."""

    def damaged(what: str) -> RoutesError:
        return RoutesError(f"the parser model in {folder} is damaged ({what}); reinstall routes")

    try:
        listed = (folder / "SHA256SUMS").read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        raise damaged("SHA256SUMS is missing or unreadable") from None
    if not listed:
        raise damaged("SHA256SUMS is empty")
    for line in listed:
        sha, _, name = line.partition("  ")
        if not (folder / name).is_file():
            raise damaged(f"{name} is missing")
        if file_sha256(folder / name) != sha:
            raise damaged(f"{name} differs from SHA256SUMS")


def load(folder: Path = MODEL_DIR) -> Language:
    """The pipeline in ``folder`` (tagger and parser), checked against its ``SHA256SUMS``;
    loaded once per process."""
    return _load(folder.resolve())


@functools.cache
def _load(folder: Path) -> Language:
    _verify(folder)
    import spacy
    from thinc.api import use_ops

    # numpy's own matrix product (OpenBLAS's kernels for the CPU) in place of blis's: the
    # same trees, and a sixth less time per word where blis has no kernel for the CPU
    # (benchmarks/bench_parser_ops.py)
    with use_ops("numpy", use_blis=False):
        return spacy.load(folder, exclude=list(_UNUSED))


@dataclass(frozen=True)
class Parsed:
    """One sentence's tree: ``doc`` covers ``text[offset:offset + len(doc.text)]``."""

    sentence: int  # 0-based
    offset: int
    doc: Doc
    #: The sentence as the story writes it (the parser may have read it otherwise)
    source: str

    def words(self, first: int, last: int) -> str:
        """The story's words from token ``first`` to token ``last``."""
        return self.source[self.doc[first].idx : self.doc[last].idx + len(self.doc[last])]

    def start(self, i: int) -> int:
        """Character offset of token ``i`` in the story."""
        return self.offset + int(self.doc[i].idx)

    def end(self, i: int) -> int:
        t = self.doc[i]
        return self.offset + int(t.idx) + len(t.text)


def parse(
    text: str, sentences: Sequence[Sentence], which: Iterable[int], read: str | None = None
) -> list[Parsed]:
    """Trees of the sentences ``which`` (0-based indices into ``sentences``), parsed from
    ``read`` where given: the text as the parser reads it best, of ``text``'s length."""
    picked = list(which)
    read = text if read is None else read
    texts = (read[sentences[si].start : sentences[si].end] for si in picked)
    docs = load().pipe(texts, batch_size=64)
    return [
        Parsed(si, sentences[si].start, d, text[sentences[si].start : sentences[si].end])
        for si, d in zip(picked, docs, strict=True)
    ]
