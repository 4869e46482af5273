"""People's names that look like places: "Mayor Bobby E. Horton", "Mrs. Parsons", "Jim Hartmann".

A capitalised word right after a person's title ("Sen.", "Mayor", "City Manager") or
right after a given name (with or without a middle initial) is part of a person's name,
and a surname found so is a person's wherever else the story uses it alone ("Horton
said"). Given names are the US Census Bureau's 1990 lists of frequent first names
(``dist.male.first``, ``dist.female.first``, shipped by the ``names`` package, MIT).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Container
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from routes.extract.lexicon import (
    LOCATIVE,
    ORG_HEADS,
    PERSON_TITLES,
    PLACE_HEADS,
    STOPWORDS,
    STREET_ABBREVIATIONS,
    STREET_WORDS,
)
from routes.extract.senses import MOVEMENT_NOUNS, PEOPLE_NOUNS, VERBS, lemma
from routes.places import normalize

if TYPE_CHECKING:
    from routes.extract.text import Document

__all__ = [
    "COMMON_WORDS",
    "common_words",
    "first_names",
    "person_tokens",
    "plain_word",
    "surnames",
]

#: The rarest given names kept, in percent of the Census sample (rarer ones are mostly
#: words or places: "Alexandria" 0.014).
MIN_FREQUENCY = 0.02


#: How many of the most common English words :func:`common_words` gives.
COMMON_WORDS = 5000


@cache
def common_words() -> frozenset[str]:
    """The :data:`COMMON_WORDS` most common English words (``wordfreq``'s list, from
    subtitles, news, books and the web): capitalised, a place only where the text says so
    ("Island residents", "Hope was fading", "Day one")."""
    import wordfreq

    return frozenset(wordfreq.top_n_list("en", COMMON_WORDS))


def plain_word(low: str, lower_words: Container[str]) -> bool:
    """A word that is no name (``low``, in lower case): common, a word of movement or of
    people, or one the story also writes in lower case (``lower_words``)."""
    return (
        low in common_words()
        or low in lower_words
        or lemma(low) in VERBS
        or lemma(low) in MOVEMENT_NOUNS
        or lemma(low) in PEOPLE_NOUNS
    )


@cache
def first_names(least: float = MIN_FREQUENCY) -> frozenset[str]:
    """US given names (Census 1990) of at least ``least`` percent of the sample, as name
    keys: ``"james"``, ``"mary"`` (``least=0``: all 5,163, for a name beside "said")."""
    spec = importlib.util.find_spec("names")
    if spec is None or not spec.submodule_search_locations:
        return frozenset()
    folder = Path(next(iter(spec.submodule_search_locations)))
    found: set[str] = set()
    for table in ("dist.male.first", "dist.female.first"):
        for line in (folder / table).read_text(encoding="ascii").splitlines():
            name, frequency, *_ = line.split()
            if float(frequency) >= least:
                found.add(name.lower())
    return frozenset(found)


def person_tokens(doc: Document) -> tuple[set[int], set[int]]:
    """Tokens that are part of a person's name, and of those the surnames after a given name."""
    given = first_names()
    toks = doc.toks
    found: set[int] = set()
    after_given: set[int] = set()
    for k in range(1, len(toks)):
        tok, prev = toks[k], toks[k - 1]
        if (
            not tok.is_namey
            or prev.sentence != tok.sentence
            or tok.text.isupper()
            or tok.lower in STOPWORDS
        ):
            continue
        gap = doc._gap(prev, tok)
        if prev.lower in PERSON_TITLES and (gap == " " or (gap == ". " and len(prev.text) <= 4)):
            found.add(k)
            continue
        first = k - 1 if gap == " " else k - 2  # Jim Hartmann, Bobby E. Horton
        if first < 0 or toks[first].lower not in given or not toks[first].is_namey:
            continue
        if first == k - 2 and not (
            gap == ". " and len(prev.text) == 1 and doc._gap(toks[first], prev) == " "
        ):
            continue
        before = doc._prev_word(first)
        if (before is not None and before.lower in LOCATIVE) or _names_a_thing(doc, k):
            continue  # "in Clinton", "Old Alton Edwardsville Road"
        found.update((first, k))
        after_given.add(k)
    return found, after_given


def _names_a_thing(doc: Document, k: int) -> bool:
    """The capitalised words from ``k`` on end in an organisation's or a place's head word."""
    toks = doc.toks
    while k + 1 < len(toks) and toks[k + 1].is_namey and doc._gap(toks[k], toks[k + 1]) == " ":
        k += 1
    return toks[k].lower in ORG_HEADS | PLACE_HEADS | STREET_WORDS | STREET_ABBREVIATIONS


def surnames(doc: Document, after_given: set[int]) -> set[str]:
    """Name keys of the surnames found after a given name (not after a title: "Mr. Arlington")."""
    return {normalize(doc.toks[k].text) for k in after_given if k + 1 not in after_given}
