"""The curated gazetteer: places with a sourced point, looked up by every name they go by.

The gazetteer is the places of every scenario bundled in ``geodata/scenarios/``,
of ``geodata/gazetteer.yaml`` and of ``geodata/sites.yaml`` (camps, border crossings
and named areas), each citing its source; a story's own places can be put in front
(:meth:`Curated.with_places`). Names compare by
:func:`~routes.places.names.normalize`; spellings that differ more (``Foah`` for
``Foua``) by :func:`~routes.places.names.skeleton`.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from routes.places.names import normalize, skeleton
from routes.scenario import Place, Source

__all__ = ["Curated", "CuratedPlace", "curated_gazetteer", "curated_places"]


@dataclass(frozen=True)
class CuratedPlace:
    """A curated place with the source it cites and the file it came from."""

    place: Place
    source: Source
    origin: str  # the bundled file, e.g. "aleppo-2016-12", "gazetteer" or "sites"


class Curated:
    """Curated places by name key, first given first.

    Examples
    --------
    >>> gazetteer = curated_gazetteer()
    >>> [(place.id, main) for place, main in gazetteer.named("Foua")]
    [('al-fuah', False)]
    """

    def __init__(self, places: Iterable[Place]) -> None:
        self.places: list[Place] = []
        seen: set[str] = set()
        for place in places:
            if place.id not in seen:
                seen.add(place.id)
                self.places.append(place)
        self._by_key: dict[str, list[tuple[Place, bool]]] = defaultdict(list)
        self._by_skeleton: dict[str, list[tuple[str, str, Place, bool]]] = defaultdict(list)
        for place in self.places:
            for i, name in enumerate([place.name, *place.aliases]):
                key = normalize(name)
                if key and not any(p is place for p, _ in self._by_key[key]):
                    self._by_key[key].append((place, i == 0))
                    self._by_skeleton[skeleton(key)].append((key, name, place, i == 0))

    def with_places(self, places: Iterable[Place]) -> Curated:
        """``places`` (a story's own) in front of these; a repeated id keeps the first."""
        return Curated([*places, *self.places])

    def named(self, name: str) -> list[tuple[Place, bool]]:
        """Places called ``name``, and whether it is the place's main name."""
        return list(self._by_key.get(normalize(name), []))

    def spelled_like(self, name: str) -> list[tuple[str, str, Place, bool]]:
        """``(key, name, place, main)`` for other names with the :func:`skeleton` of ``name``."""
        key = normalize(name)
        return [hit for hit in self._by_skeleton.get(skeleton(key), []) if hit[0] != key]

    def names(self) -> set[str]:
        """Every name and alias, as written."""
        return {name for place in self.places for name in [place.name, *place.aliases]}


@cache
def curated_places() -> tuple[CuratedPlace, ...]:
    """Every bundled scenario's places, then ``gazetteer.yaml``'s and ``sites.yaml``'s,
    each with its source (one citing a source its file does not list is left out, with a
    warning).

    Examples
    --------
    >>> first = curated_places()[0]
    >>> first.place.source == first.source.id
    True
    """
    from routes import datasets, scenario

    records: list[CuratedPlace] = []
    for name in datasets.available():
        if name in datasets.GAZETTEERS:
            loaded: scenario.Gazetteer | scenario.Scenario = scenario.load_gazetteer(name)
        else:
            loaded = scenario.load(name)
        sources = {s.id: s for s in loaded.sources}
        for p in loaded.places:
            if p.source in sources:
                records.append(CuratedPlace(p, sources[p.source], name))
            else:  # a contributor's slip: tests/test_sites.py fails on it, the user goes on
                logging.getLogger("routes").warning(
                    "geodata %s: place %s cites the source %r, which it does not list; "
                    "left out", name, p.id, p.source)  # fmt: skip
    return tuple(records)


@cache
def curated_gazetteer() -> Curated:
    """The bundled curated places: every bundled scenario's, then the gazetteers'."""
    return Curated(record.place for record in curated_places())
