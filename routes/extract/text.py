"""Sentences, tokens and the document state the extraction steps share."""

from __future__ import annotations

import bisect
import datetime as dt
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from routes.extract.findings import FigureMention, Sentence, Token
from routes.extract.lexicon import ABBREVIATIONS
from routes.places import normalize

if TYPE_CHECKING:
    from routes.extract.findings import Rejection
    from routes.places.index import NameIndex

__all__ = ["Document", "Sentence", "Token", "by_sentence", "sentences", "tokens", "unique"]


_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s+[\"'“‘(\[]?[A-Z0-9\u0600-\u06FF])")
_TOKEN = re.compile(
    r"(?:[A-Z]\.){2,}"  # U.N., U.S.A.
    r"|[A-Z]\.[A-Z]\b"  # U.S
    r"|\d+(?:[.,]\d+)*"
    r"|[^\W\d_]+(?:['’ʼ‘`][^\W\d_]+)*"
)


def sentences(text: str) -> list[Sentence]:
    """Split ``text`` into sentences: at line breaks, and after ``.!?`` before a capital."""
    spans: list[tuple[int, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        start = line.start()
        backwards = line.group()[::-1]  # the word before each end is read back from the end
        for m in _SENTENCE_END.finditer(line.group()):
            word = _word_before(backwards, m.start()).lower()
            if word in ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)*[a-z]", word):
                continue  # Dr. Hamza, U.N. envoy
            end = line.start() + m.end()
            spans.append((start, end))
            start = end
        spans.append((start, line.end()))
    out: list[Sentence] = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            out.append(Sentence(len(out) + 1, a, b))
    return out


_WORD_BACKWARDS = re.compile(r"[\w.]*")


def _word_before(backwards: str, end: int) -> str:
    """The word (letters, digits, dots) just before position ``end`` of a line, its dots cut
    from its end, given the line reversed: the match reads only that word, so splitting a
    paragraph stays linear in its length (a search of the whole line before each end was
    quadratic)."""
    at = len(backwards) - end
    word = _WORD_BACKWARDS.match(backwards, at)
    assert word is not None  # it may match nothing, never fail
    return word.group()[::-1].rstrip(".")


def _quoted_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges inside double quotes, paragraph by paragraph."""
    ranges: list[tuple[int, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        opened: int | None = None
        for m in re.finditer(r"[\"“”]", line.group()):
            ch, pos = m.group(), line.start() + m.start()
            if opened is None and ch != "”":
                opened = pos
            elif opened is not None and ch != "“":
                ranges.append((opened, pos + 1))
                opened = None
        if opened is not None:
            ranges.append((opened, line.end()))
    return ranges


def tokens(text: str, sents: Sequence[Sentence]) -> list[Token]:
    quoted = _quoted_ranges(text)  # sorted and disjoint: a binary search finds the one
    opens = [a for a, _ in quoted]
    out: list[Token] = []
    for si, s in enumerate(sents):
        for m in _TOKEN.finditer(text, s.start, s.end):
            word, start = m.group(), m.start()
            k = bisect.bisect_right(opens, start) - 1
            is_quoted = k >= 0 and start < quoted[k][1]
            possessive = re.search(r"['’]s$", word)
            if possessive and len(word) > 2:
                cut = len(word) - 2
                out.append(Token(word[:cut], start, start + cut, si, is_quoted))
                out.append(Token(word[cut:], start + cut, m.end(), si, is_quoted))
            else:
                out.append(Token(word, start, m.end(), si, is_quoted))
    return out


#: A line with no full stop whose words of four letters or more are capitalised this often
#: is a headline.
HEADLINE_SHARE = 0.8


class Document:
    """One text and the state the extraction steps share: sentences, tokens, findings so far."""

    def __init__(
        self,
        extractor: NameIndex,
        text: str,
        story_date: dt.date | None,
        publisher: str | None,
    ) -> None:
        self.x = extractor
        self.text = text
        self.story_date = story_date
        self.publisher = publisher
        self.sents = sentences(text)
        self.toks = tokens(text, self.sents)
        #: Each sentence's tokens, as a range of indices into ``toks`` (tokens are in order).
        self.sentence_tokens = _sentence_tokens(self.toks, len(self.sents))
        self.review: list[str] = []
        self.rejected: list[Rejection] = []
        self.lower_words = {t.text for t in self.toks if t.is_word and t.text.islower()}
        self.persons: set[str] = set()  # surnames of people named in the story
        #: Start of each toponym only far namesakes have → why: no movement's end
        self.far_only: dict[int, str] = {}
        #: The countries the story names (itself, by its people or by a sure place) → the
        #: names (normalised) that name each
        self.countries: dict[str, set[str]] = {}
        self._possessive_names: set[str] = set()
        #: Each sentence in title case ("Thousands Flee Kirkuk"): its capitals make no names
        self.headlines = [
            self._title_case(r) and not text[s.start : s.end].rstrip().endswith(".")
            for s, r in zip(self.sents, self.sentence_tokens, strict=True)
        ]

    def _title_case(self, r: range) -> bool:
        words = [
            self.toks[k].text for k in r if self.toks[k].is_word and len(self.toks[k].text) > 3
        ]
        return len(words) >= 3 and sum(w[0].isupper() for w in words) >= HEADLINE_SHARE * len(words)

    # -- runs of name-like tokens

    def _gap(self, a: Token, b: Token) -> str:
        return self.text[a.end : b.start]

    def _sentence_initial(self, i: int) -> bool:
        t = self.toks[i]
        prev = self.text[self.sents[t.sentence].start : t.start]
        return not re.search(r"\w", prev)

    def _key(self, i: int, j: int) -> str:
        return normalize(self.text[self.toks[i].start : self.toks[j].end])

    def _prev_word(self, i: int, skip: int = 0) -> Token | None:
        k = i - 1 - skip
        if k < 0 or self.toks[k].sentence != self.toks[i].sentence:
            return None
        return self.toks[k]

    def _next(self, j: int, skip: int = 0) -> Token | None:
        k = j + 1 + skip
        if k >= len(self.toks) or self.toks[k].sentence != self.toks[j].sentence:
            return None
        return self.toks[k]


def _sentence_tokens(toks: Sequence[Token], count: int) -> list[range]:
    """The range of token indices of each of ``count`` sentences, in one pass."""
    starts = [len(toks)] * (count + 1)
    for k in reversed(range(len(toks))):
        starts[toks[k].sentence] = k
    for si in reversed(range(count)):
        starts[si] = min(starts[si], starts[si + 1])
    return [range(starts[si], starts[si + 1]) for si in range(count)]


def by_sentence(figures: Iterable[FigureMention]) -> dict[int, list[FigureMention]]:
    """Figures by their sentence (1-based), in one pass: never a scan of all per sentence."""
    out: dict[int, list[FigureMention]] = {}
    for f in figures:
        out.setdefault(f.sentence, []).append(f)
    return out


def unique(items: Iterable[str]) -> list[str]:
    """``items`` without repeats, in first-seen order."""
    return list(dict.fromkeys(items))
