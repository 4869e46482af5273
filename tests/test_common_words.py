"""No common words as places (issue 35), built from data: the US Census given names the
``names`` package ships, beside "said", are no towns; the most common English words
(``wordfreq``), capitalised at a sentence's start, are no places unless a country, a
first-level region or a city of 100,000 is called so ("Turkey", "Reading")."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator
from pathlib import Path

from routes.extract import extract
from routes.extract.gazetteer import default_extractor

#: Sentences per story: the names of one story vote for each other's places (context), so
#: a few at a time, as a story names them.
PER_STORY = 40
#: How many of the most common English words are asked.
WORDS = 3000


def _given_names() -> list[str]:
    spec = importlib.util.find_spec("names")
    assert spec is not None and spec.submodule_search_locations
    folder = Path(next(iter(spec.submodule_search_locations)))
    found = {
        line.split()[0].title()
        for table in ("dist.male.first", "dist.female.first")
        for line in (folder / table).read_text(encoding="ascii").splitlines()
    }
    return sorted(found)


def _stories(sentences: list[str]) -> Iterator[str]:
    for at in range(0, len(sentences), PER_STORY):
        yield " ".join(sentences[at : at + PER_STORY])


def test_given_names_beside_said_are_no_towns() -> None:
    """ "Maria said …": a person speaking, whatever town is called Maria."""
    names = _given_names()
    assert len(names) > 5000
    towns = [
        t.text
        for story in _stories([f"{name} said the water was rising." for name in names])
        for t in extract(story).toponyms
        if t.place.kind == "geonames"
    ]
    assert not towns, towns


def test_common_english_words_are_no_places() -> None:
    """ "Island residents were evacuated": no place, unless a country, first-level region
    or city of 100,000 is called so ("Turkey", "Chad", "Reading" stay places)."""
    import wordfreq

    words = [w for w in wordfreq.top_n_list("en", WORDS) if w.isalpha() and len(w) > 2]
    found = default_extractor().lookup(words)
    common = [
        w
        for w in words
        if not any(
            c.kind == "country"
            or c.feature == "country"
            or (c.primary and (c.strong or c.population >= 100_000))
            for c in found.get(w, [])
        )
    ]
    assert len(common) > 2000
    places = [
        t.text
        for story in _stories([f"{w.title()} was the word on every lip." for w in common])
        for t in extract(story).toponyms
    ]
    assert not places, places
