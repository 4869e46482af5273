"""Context support: how close a candidate lies to the places the rest of the story names.

Spatial minimality (Leidner 2008, "Toponym Resolution in Text"): the places one
story names tend to lie near one another, so of the many towns called "Alexandria"
the story means the one near its "Rapides Parish" and "Pineville". Each other
name in the story votes with its own candidates, weighted by how likely each is
on its own (a softmax of the prior scores), so a name with thirty homonyms
("Springfield") spreads its vote thin and a unique one ("Rapides Parish") does not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import numpy as np

from routes.distance import great_circle
from routes.extract.findings import Candidate

__all__ = ["CONTEXT_RADIUS_KM", "COUNTRY_NAME_VOTE", "country_support", "support"]

#: Distance at which a neighbour's vote falls to 1/e, km.
CONTEXT_RADIUS_KM = 150.0
#: The most candidates of one name that take part (by prior score).
TOP = 12
#: Temperature of the softmax that turns prior scores into a name's weights.
TEMPERATURE = 0.5
#: How much a country's (or continent's) name weighs in :func:`country_support`, against a
#: town's 1: it says in which country, not which town. LGL dev acc@161 .892 at 0 (a country's
#: name casting no vote), .892 at 0.25 to 0.75, .893 at 1 (which makes "Moscow" beside "the
#: US" Moscow, Idaho).
COUNTRY_NAME_VOTE = 0.5
#: Levels too large to say where nearby places are.
_TOO_BIG = {"country", "continent", "sea"}


def _weights(
    key: str, cands: Sequence[Candidate], prior: Callable[[str, Candidate], float]
) -> np.ndarray:
    """Softmax of the prior scores: how likely each candidate of name ``key`` is on its own."""
    scores = np.array([prior(key, c) for c in cands])
    weights = np.exp((scores - scores.max()) / TEMPERATURE)
    return weights / weights.sum()


def country_support(
    names: Sequence[tuple[str, Sequence[Candidate]]],
    prior: Callable[[str, Candidate], float],
) -> dict[tuple[str, str], float]:
    """``(name key, candidate ref)`` → the share of the story's other names in its country.

    Each other name (counted once however often it is used) gives its weight to the
    countries its candidates lie in, as :func:`support` gives it to places nearby; a
    country's share is its weight over the other names. "Georgia" beside "Tbilisi" and
    "Georgian" is the country; beside "Atlanta" and "Fulton County", the US state. A
    country's own name votes for its country too, with :data:`COUNTRY_NAME_VOTE` of a
    town's weight: "Monrovia" beside "Liberia" is the capital of Liberia, and "Moscow"
    beside "the US" is still Russia's.
    """
    groups: dict[str, dict[str, float]] = {}
    for key, cands in names:
        if key in groups or not cands:
            continue
        ranked = sorted(cands, key=partial(prior, key), reverse=True)[:TOP]
        share: dict[str, float] = {}
        for c, w in zip(ranked, _weights(key, ranked, prior), strict=True):
            if c.country:
                vote = float(w) * (COUNTRY_NAME_VOTE if c.feature in _TOO_BIG else 1.0)
                share[c.country] = share.get(c.country, 0.0) + vote
        groups[key] = share
    found: dict[tuple[str, str], float] = {}
    if len(groups) < 2:
        return found
    total: dict[str, float] = {}
    for share in groups.values():
        for iso, w in share.items():
            total[iso] = total.get(iso, 0.0) + w
    others = len(groups) - 1
    for key, cands in names:
        own = groups.get(key, {})
        for c in cands:
            if c.country:
                found[(key, c.ref)] = (total.get(c.country, 0.0) - own.get(c.country, 0.0)) / others
    return found


def support(
    names: Sequence[tuple[str, Sequence[Candidate]]],
    prior: Callable[[str, Candidate], float],
) -> dict[tuple[str, str], float]:
    """``(name key, candidate ref)`` → the mean vote of the story's other names, 0..1."""
    groups: list[tuple[str, list[Candidate], np.ndarray]] = []
    seen: set[str] = set()
    for key, cands in names:
        if key in seen:
            continue
        seen.add(key)
        # The weights are shared with the countries and continents the name may mean ("China"
        # the country, or China, Maine), which vote for nowhere in particular.
        ranked = sorted(cands, key=partial(prior, key), reverse=True)[:TOP]
        weights = _weights(key, ranked, prior)
        local = [k for k, c in enumerate(ranked) if c.feature not in _TOO_BIG]
        if local:
            groups.append((key, [ranked[k] for k in local], weights[local]))
    found: dict[tuple[str, str], float] = {}
    if len(groups) < 2:
        return found
    lat = np.array([c.lat for _k, top, _w in groups for c in top])
    lon = np.array([c.lon for _k, top, _w in groups for c in top])
    owner = np.repeat(np.arange(len(groups)), [len(top) for _k, top, _w in groups])
    weight = np.concatenate([w for _k, _t, w in groups])
    # Great-circle distances, every candidate against every other.
    km = great_circle(lat[:, None], lon[:, None], lat[None, :], lon[None, :]) / 1000
    near = np.exp(-km / CONTEXT_RADIUS_KM) * weight[None, :]
    near[owner[:, None] == owner[None, :]] = 0.0
    votes = near.sum(axis=1) / (len(groups) - 1)
    row = 0
    for key, top, _w in groups:
        for c in top:
            found[(key, c.ref)] = float(votes[row])
            row += 1
    return found
