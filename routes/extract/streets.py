"""Streets and roads ("Main Street", "Wichita Drive", "Main St."): found by their last word,
placed at the town the story names nearest to them.

No gazetteer here has streets, so a street is put at the nearest town-level place the
story names around it (a local story's streets are in its town), with a low confidence
that says so. The corpora that annotate streets (LGL) score them; the scenario drafter
never uses them.
"""

from __future__ import annotations

from dataclasses import replace

from routes.extract.findings import Rejection, Toponym
from routes.places import normalize

__all__ = ["STREET_CONFIDENCE", "place_streets"]

#: A street's confidence, as a share of its town's.
STREET_CONFIDENCE = 0.5
#: Places too large to stand for a street's town.
_TOO_BIG = {"country", "continent", "sea", "admin1"}


def place_streets(
    streets: list[tuple[int, int, int, str]], toponyms: list[Toponym]
) -> tuple[list[Toponym], list[Rejection]]:
    """``(start, end, sentence, surface)`` streets, each at the nearest town the story names."""
    towns = [t for t in toponyms if t.place.feature not in _TOO_BIG]
    placed: list[Toponym] = []
    rejected: list[Rejection] = []
    for start, end, sentence, surface in streets:
        if not towns:
            rejected.append(
                Rejection(start, end, surface, "a street, but the story names no town to put it in")
            )
            continue
        town = min(towns, key=lambda t: abs(t.start - start))
        place = replace(
            town.place,
            ref=f"street:{normalize(surface)}@{town.place.ref}",
            name=surface,
            feature="street",
            primary=False,
            population=0,
            geonames_id=None,
        )
        why = f"street, placed at {town.text} (the nearest town the story names)"
        confidence = round(STREET_CONFIDENCE * town.confidence, 2)
        placed.append(Toponym(start, end, surface, place, confidence, sentence, why, "street"))
    return placed, rejected
