"""The story index: every place a name may refer to, for many names at once.

Curated places (with their sources), GeoNames countries and the countries' other
names (:data:`COUNTRY_ALIASES`), continents and regions, and GeoNames cities500 towns,
keyed by :func:`~routes.places.names.normalize`. The extractor asks it for the
capitalised runs of a story, rates the answers with :func:`base_confidences` (the scale
of :func:`routes.places.candidates`) and weighs them against the story itself.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace

from routes.distance import great_circle_km
from routes.places import regions
from routes.places.areas import areas_named_all
from routes.places.areas import countries as indexed_countries
from routes.places.candidates import (
    NAMESAKE_POPULATION,
    SAME_PLACE_KM,
    SIMILAR_SPELLING_FACTOR,
    match_confidence,
    namesake,
    renowned,
    town_confidences,
)
from routes.places.curated import CuratedPlace, curated_places
from routes.places.features import placed_subdivision
from routes.places.former import FormerName, former_names
from routes.places.geocoder import NEAR_MARGIN_DEG
from routes.places.geonames import (
    OTHER_NAME_POPULATION,
    GeoName,
    capital_of,
    geonames_by_id,
    geonames_in,
    geonames_named_all,
    own_spelling,
)
from routes.places.names import normalize
from routes.places.regions import Area
from routes.places.spellings import region_namesakes, spelled_towns
from routes.scenario import Place

__all__ = [
    "CONTAINS_KM",
    "COUNTRY_ALIASES",
    "IndexCandidate",
    "NameIndex",
    "as_of",
    "base_confidences",
    "contains",
]

#: Countries by other names a story may use; GeoNames' own English name is always known too.
COUNTRY_ALIASES = {
    "US": ["U.S.", "U.S", "US", "USA", "U.S.A.", "United States of America", "America"],
    "GB": ["UK", "U.K.", "U.K", "Britain", "Great Britain"],
    "SY": ["Syrian Arab Republic"],
    "RU": ["Russian Federation"],
    "TR": ["Türkiye", "Turkiye"],
    "IR": ["Islamic Republic of Iran", "Persia"],
    "PS": ["Palestine", "Palestinian Territories", "State of Palestine"],
    "CD": ["DRC", "DR Congo", "Congo-Kinshasa", "Congo", "Democratic Republic of Congo"],
    "CG": ["Republic of Congo"],
    "CI": ["Côte d'Ivoire", "Cote d'Ivoire"],
    "CZ": ["Czechia"],
    "MM": ["Burma"],
    "NL": ["Holland", "The Netherlands"],
    "AE": ["UAE", "Emirates"],
    "KR": ["Korea"],
    "MK": ["Macedonia"],
    "VA": ["Vatican"],
}


#: Levels whose own name no town's other name may take ("Illinois", not Riverside, Illinois).
_LEVELS_ABOVE_TOWNS = frozenset({"continent", "sea", "country", "admin1"})
#: A town named so only by another name stays beside the places of that own name when it is
#: this many times the largest of them: "Seville" is Sevilla (686,741), not Seville, Ohio.
#: LGL dev: acc@161 .887 keeping every such town, .890 at 100 and at 1000 (precision .831
#: and .832), .891 at 10 and 30 (precision .830, .831).
OTHER_NAME_FACTOR = 100


@dataclass(frozen=True)
class IndexCandidate:
    """A place a name may refer to, as the story index keeps it (see :func:`base_confidences`)."""

    ref: str  # "curated:<place id>" or "geonames:<GeoNames id>"
    name: str
    lat: float
    lon: float
    feature: str  # curated role, "country" or "populated place"
    country: str | None
    kind: str  # "curated", "country" or "geonames"
    primary: bool  # the name matched is the place's main name
    population: int = 0
    geonames_id: int | None = None
    admin1: str | None = None  # the first-level region it is in (or is), when known
    source: str = ""  # where a continent's or region's point comes from (its Area's source)
    capital: str = ""  # a GeoNames town that is its country's capital: the capital's name key
    variant: bool = False  # found by another spelling of its name (:meth:`NameIndex.variants`)
    #: The former name it was found by (a town or country renamed since: "Leningrad"),
    #: which :func:`as_of` keeps or drops by the story's date
    former: FormerName | None = None

    @property
    def strong(self) -> bool:
        return self.kind in {"curated", "country", "region"}


class NameIndex:
    """Every name a story may use for a place: curated places, countries, regions, towns.

    Built once (it reads the curated places and the country tables), then asked for
    many names at once (:meth:`lookup`); :func:`base_confidences` rates one name's answers
    as :func:`routes.places.candidates`, the one-name lookup, does.

    Examples
    --------
    >>> index = NameIndex()
    >>> [c.kind for c in index.lookup(["idlib"])["idlib"]][:1]
    ['curated']
    >>> index.demonyms["syrians"]
    'SY'
    """

    def __init__(self, curated: Iterable[CuratedPlace] | None = None) -> None:
        self.curated: dict[str, CuratedPlace] = {}
        for record in curated_places() if curated is None else curated:
            self.curated.setdefault(record.place.id, record)
        self._geonames_names = regions.country_names()
        self._areas = {a.country: a for a in indexed_countries()}
        self.country_points = {iso: (a.lat, a.lon) for iso, a in self._areas.items()}
        self._curated_index: dict[str, list[IndexCandidate]] = defaultdict(list)
        self._country_index: dict[str, list[IndexCandidate]] = defaultdict(list)
        curated_countries: set[str] = set()
        names_by_iso = self._country_names()
        for record in self.curated.values():
            place = record.place
            iso = self._curated_country(place, names_by_iso)
            if place.role == "country" and iso:
                curated_countries.add(iso)
            gid = re.search(r"GeoNames (\d+)", f"{place.detail or ''} {record.source.title}")
            extra = COUNTRY_ALIASES.get(iso or "", []) if place.role == "country" else []
            for i, name in enumerate(dict.fromkeys([place.name, *place.aliases, *extra])):
                self._curated_index[normalize(name)].append(
                    IndexCandidate(
                        f"curated:{place.id}",
                        place.name,
                        place.lat,
                        place.lon,
                        place.role,
                        iso,
                        "curated",
                        i == 0,
                        geonames_id=int(gid.group(1)) if gid else None,
                    )
                )
        for iso, names in names_by_iso.items():
            area = self._areas.get(iso)
            if iso in curated_countries or area is None:
                continue
            for i, name in enumerate(dict.fromkeys([*names, *area.aliases])):
                self._country_index[normalize(name)].append(
                    IndexCandidate(
                        f"geonames:{area.geonames_id}",
                        area.name,
                        area.lat,
                        area.lon,
                        "country",
                        iso,
                        "country",
                        i == 0,
                        area.population,
                        area.geonames_id,
                    )
                )
        self._by_iso: dict[str, IndexCandidate] = {}
        for c in [*self._curated_index.values(), *self._country_index.values()]:
            for cand in c:
                if cand.primary and cand.feature == "country" and cand.country:
                    self._by_iso.setdefault(cand.country, cand)
        self.demonyms = regions.demonym_countries(self._by_iso, self._areas.values())
        self._acronyms = {
            name for names in COUNTRY_ALIASES.values() for name in names if name.isupper()
        }
        self._former = self._former_candidates()

    def _former_candidates(self) -> dict[str, list[IndexCandidate]]:
        """The places of each former name (:mod:`routes.places.former`), as candidates
        marked with it: a country's, or a GeoNames town's."""
        table = former_names()
        ids = [int(f.today.split(":")[1]) for fs in table.values() for f in fs
               if f.today.startswith("geonames:")]  # fmt: skip
        towns = {town.id: town for town in geonames_by_id(ids)}
        found: dict[str, list[IndexCandidate]] = {}
        for key, records in table.items():
            for f in records:
                kind, code = f.today.split(":")
                place = self._by_iso.get(code) if kind == "country" else None
                if kind == "geonames" and int(code) in towns:
                    place = _town(towns[int(code)], True)
                if place is not None and f.part:  # Kosovo in 1999: a province, at its point
                    place = replace(
                        place, ref=f"region:part:{code}", feature="admin1", kind="region",
                        source=regions.COUNTRY_SOURCE,
                    )  # fmt: skip
                if place is not None:
                    found.setdefault(key, []).append(replace(place, primary=True, former=f))
        return found

    def country(self, iso: str) -> IndexCandidate | None:
        """The country ``iso`` as a candidate (curated if curated), for its adjective."""
        return self._by_iso.get(iso)

    def capital(self, iso: str) -> IndexCandidate | None:
        """The national capital of ``iso``, a GeoNames town ("the Thai capital": Bangkok)."""
        town = capital_of(iso)
        return _town(town, True) if town is not None else None

    def _country_names(self) -> dict[str, list[str]]:
        return {
            iso: [name, *COUNTRY_ALIASES.get(iso, [])] for iso, name in self._geonames_names.items()
        }

    def _curated_country(self, place: Place, names_by_iso: dict[str, list[str]]) -> str | None:
        """ISO code of a curated place: its record's, by name for countries, else the nearest
        GeoNames town's.

        Towns are searched within :data:`routes.places.geocoder.NEAR_MARGIN_DEG` of the
        place (the one region margin of name lookups; 0.3° before, same result for every
        bundled place).
        """
        if place.country:
            return place.country
        if place.role == "country":
            keys = {normalize(n) for n in [place.name, *place.aliases]}
            for iso, names in names_by_iso.items():
                if keys & {normalize(n) for n in names}:
                    return iso
            return None
        m = NEAR_MARGIN_DEG
        towns = geonames_in((place.lon - m, place.lat - m, place.lon + m, place.lat + m))
        if not towns:
            return None
        return min(towns, key=lambda t: great_circle_km(place.lat, place.lon, t.lat, t.lon)).country

    def lookup(self, keys: Iterable[str]) -> dict[str, list[IndexCandidate]]:
        """Every candidate for each normalised name: curated, countries, then GeoNames.

        Own names come first (:func:`_own_names_first`): a town that has the name only as
        another name is left out beside a place of that own name, unless much larger.
        """
        keys = {k for k in keys if k}
        found: dict[str, list[IndexCandidate]] = {}
        geonames = _geonames_lookup(keys)
        keyed = {key: normalize(key) for key in keys}
        named_areas = areas_named_all(keyed.values())  # one connection for the story's names
        for key in keys:
            curated = self._curated_index.get(key, [])
            countries = self._country_index.get(key, [])
            known = {c.geonames_id for c in [*curated, *countries] if c.geonames_id}
            towns = [
                t
                for t in geonames.get(key, [])
                if t.geonames_id not in known
                and not any(
                    c.kind == "curated" and great_circle_km(c.lat, c.lon, t.lat, t.lon) < 2
                    for c in curated
                )
            ]
            areas = [] if curated else _region_candidates(named_areas.get(keyed[key], ()))
            if countries:  # a first-level region may share a country's name ("Georgia")
                areas = [a for a in areas if a.feature == "admin1" and a.primary]
            # A division known by its ISO name alone makes no town's other name its own; a
            # town of its country the name spells is found by another spelling of its name.
            recorded = [a for a in areas if not placed_subdivision(a.source)]
            regions = [(a.country, a.name) for a in recorded if a.feature == "admin1" and a.primary]
            towns = _with_namesakes(key, towns, [] if countries else regions)
            if any(c.primary for c in [*curated, *countries, *recorded, *towns]):
                towns = [_own_name(key, t, regions) for t in towns]
            placed = {a.country for a in areas if a not in recorded}
            towns = [_spelling_of(key, t, placed) for t in towns]
            # "Homs", "Amman", "Idlib": a city beats the province named after it.
            own = {t.country for t in towns if _renowned(t, regions)}
            areas = [
                replace(a, primary=False) if a.feature == "admin1" and a.country in own else a
                for a in areas
            ]
            towns = _own_names_first([*curated, *countries, *recorded], towns)
            former = self._former.get(key, [])
            candidates = _dedupe([*former, *curated, *countries, *areas, *towns])
            if candidates:
                found[key] = candidates
        return found

    def variants(self, key: str, countries: Iterable[str]) -> list[IndexCandidate]:
        """Towns of ``countries`` that the name key ``key`` names another way: one of their
        other names GeoNames lists, or a transliteration of their own name
        (:func:`~routes.places.spellings.spelled_towns`), marked ``variant``.

        For a name no place of the story's countries is called exactly ("Ein Issa" in a
        story about Syria: ‘Ayn ‘Īsá); the caller says which countries.

        Examples
        --------
        >>> [(c.name, c.country, c.variant) for c in NameIndex().variants("ein issa", ["SY"])]
        [('‘Ayn ‘Īsá', 'SY', True)]
        """
        return [_town(town, True, variant=True) for town, _listed in spelled_towns(key, countries)]

    def is_acronym_name(self, surface: str) -> bool:
        """An all-capitals name we know as a country's (``US``, ``UK``)."""
        return surface in self._acronyms or surface.replace(".", "") in self._acronyms


def as_of(found: Sequence[IndexCandidate], date: dt.date | None) -> list[IndexCandidate]:
    """A name's candidates read on ``date``: the places it was the name of then, when it
    was a former name in use (a story of 1985's "Leningrad"); after its years (or before
    them), the place it named is only another name's reading, so a place of that own
    name comes first ("Salisbury" in 2020 is England's, not Harare). Undated, all stay.
    """
    if date is None or not any(c.former for c in found):
        return list(found)
    then = [c for c in found if c.former and c.former.in_use(date.year)]
    if then:
        return then
    found = [c for c in found if not (c.former and c.former.part)]  # a country of its own now
    return [replace(c, primary=False, former=None) if c.former else c for c in found]


def base_confidences(
    found: Sequence[IndexCandidate], near: Callable[[IndexCandidate], bool] | None = None
) -> dict[str, float]:
    """The confidence (0–1) of each of one name's candidates, by ref, on the places scale.

    The rules are the ones :func:`routes.places.candidates` (and so the Geocoder) rates
    with: :func:`~routes.places.candidates.match_confidence` for curated places, countries
    and regions, :func:`~routes.places.candidates.town_confidences` for GeoNames towns,
    ``near`` saying which lie in the region the name is read in.

    Examples
    --------
    >>> found = NameIndex().lookup(["idlib"])["idlib"]
    >>> base_confidences(found)[found[0].ref]
    1.0
    """
    curated: list[IndexCandidate] = []
    for c in found:
        if c.kind == "curated" and not any(
            great_circle_km(c.lat, c.lon, o.lat, o.lon) < SAME_PLACE_KM for o in curated
        ):
            curated.append(c)
    towns = [c for c in found if c.kind == "geonames"]
    regions = [(c.country, c.admin1 or "") for c in found if c.feature == "admin1"]
    rated = town_confidences(
        [(t.primary, near is not None and near(t)) for t in towns],
        None if near is not None else [_renowned(t, regions) for t in towns],
    )
    out = {
        t.ref: round(confidence * (SIMILAR_SPELLING_FACTOR if t.variant else 1.0), 2)
        for t, confidence in zip(towns, rated, strict=True)
    }
    for c in found:
        if c.kind == "curated":
            out[c.ref] = match_confidence("curated", c.primary, shared=len(curated) > 1)
        elif c.kind != "geonames":
            out[c.ref] = match_confidence(c.feature, c.primary)
    return out


def _own_name(
    key: str, town: IndexCandidate, regions: list[tuple[str | None, str]]
) -> IndexCandidate:
    """``town`` as called by its own name when ``key`` is another spelling of it ("Hama"
    for Ḩamāh) or the name of the region it lies in (as :func:`routes.places.candidates`
    counts them; the caller asks only where the name is some place's own)."""
    if town.primary:
        return town
    if town.capital == key:
        return replace(town, primary=True)
    where = (town.country, town.admin1)
    if own_spelling(key, town.name) or namesake(key, town.name, town.population, where, regions):
        return replace(town, primary=True)
    return town


def _spelling_of(key: str, town: IndexCandidate, countries: set[str | None]) -> IndexCandidate:
    """``town`` as found by another spelling of its name (``variant``, as
    :meth:`NameIndex.variants` finds one) when ``key`` spells its own name another way
    (:func:`~routes.places.geonames.own_spelling`) and is the name of a division of its
    country known by its ISO name alone
    (:func:`~routes.places.features.placed_subdivision`): "Deir Al-Balah", PS-DEB's name,
    is Dayr al Balaḩ by another spelling, as "Aşgabat" is Ashgabat. The extractor reads
    the town before the division unless the text marks the division."""
    if town.primary or town.country not in countries or not own_spelling(key, town.name):
        return town
    return replace(town, primary=True, variant=True)


def _with_namesakes(
    key: str, towns: list[IndexCandidate], regions: list[tuple[str | None, str]]
) -> list[IndexCandidate]:
    """``towns`` and the cities the first-level regions ``regions`` (called ``key``) are
    named after, when the name spells the city another way ("Zaporizhia": the oblast's
    name, none of Zaporizhzhya's): :func:`~routes.places.spellings.region_namesakes`."""
    if not regions:
        return towns
    known = {t.geonames_id for t in towns}
    found = [
        _town(town, True)
        for town in region_namesakes(key, regions, NAMESAKE_POPULATION)
        if town.id not in known
    ]
    return sorted([*towns, *found], key=lambda t: t.geonames_id or 0) if found else towns


def _renowned(town: IndexCandidate, regions: list[tuple[str | None, str]]) -> bool:
    """A town called so that a bare name means before a region of its name (``renowned``)."""
    return town.primary and renowned(
        town.population, town.capital, town.country, town.admin1, regions
    )


def _own_names_first(
    larger: list[IndexCandidate], towns: list[IndexCandidate]
) -> list[IndexCandidate]:
    """The towns a name may mean, given the places that have it as their own name.

    A town that has the name only as another name of its own is left out when it has
    fewer than :data:`OTHER_NAME_POPULATION` people (GeoNames' other names of small towns
    are mostly old names, neighbourhoods and nicknames: "Middle East" for a part of
    Baltimore, "Petersburg" for Littlestown), when the name is the own name of a continent,
    country or first-level region ("Illinois" is never Riverside), or of a place at all
    unless the town is :data:`OTHER_NAME_FACTOR` times the largest town of that own name
    ("Mecca" is Makkah, not Mecca, California; "Jerusalem" is never Funkstown, Maryland). A
    town kept so counts as named by its own name: the name is what most readers call it.
    """
    towns = [t for t in towns if t.primary or t.population >= OTHER_NAME_POPULATION]
    if any(c.primary and c.feature in _LEVELS_ABOVE_TOWNS for c in larger):
        return [t for t in towns if t.primary]
    if not any(c.primary for c in [*larger, *towns]):
        return towns
    top = max([t.population for t in towns if t.primary] or [1])
    return [
        t if t.primary else replace(t, primary=True)
        for t in towns
        if t.primary or t.population >= OTHER_NAME_FACTOR * top
    ]


def _dedupe(candidates: list[IndexCandidate]) -> list[IndexCandidate]:
    seen: dict[str, IndexCandidate] = {}
    for c in candidates:
        if c.ref not in seen or (c.primary and not seen[c.ref].primary):
            seen[c.ref] = c
    return list(seen.values())


def _geonames_lookup(keys: set[str]) -> dict[str, list[IndexCandidate]]:
    """GeoNames cities500 towns for each normalised name, as :mod:`routes.places` finds them."""
    found: dict[str, list[IndexCandidate]] = {}
    for key, named in sorted(geonames_named_all(keys).items()):
        towns = [_town(town, main) for town, main in named]
        if towns:
            found[key] = towns
    return found


def _town(town: GeoName, main: bool, variant: bool = False) -> IndexCandidate:
    """A GeoNames town as a candidate (``main``: called so by its own name)."""
    return IndexCandidate(
        f"geonames:{town.id}",
        town.name,
        town.lat,
        town.lon,
        "populated place",
        town.country,
        "geonames",
        main,
        int(town.population or 0),
        int(town.id),
        town.admin1 or None,
        capital=town.capital,
        variant=variant,
    )


def _region_candidates(named: Iterable[tuple[Area, bool]]) -> list[IndexCandidate]:
    """Continents, seas, first-level regions and counties of a name (``named``: each area
    called so and whether it is its own name, from
    :func:`~routes.places.areas.areas_named_all`)."""
    return [
        IndexCandidate(
            f"region:{area.level}:{area.country}:{area.admin1 or ''}:{area.name}",
            area.name,
            area.lat,
            area.lon,
            area.level,
            area.country,
            "region",
            main,
            area.population,
            area.geonames_id,
            area.admin1 or (area.name if area.level == "admin1" else None),
            area.source,
        )
        for area, main in named
        if area.level != "country"
    ]


#: An area known only by its point (a county, a curated area, an island, a valley) holds
#: the places this close to it, km: the reach of the larger valleys and islands news names
#: (Bekaa Valley, Lesbos), never a whole province.
CONTAINS_KM = 50.0

#: Levels whose places are known by their codes: a town's country and first-level region.
_BY_CODE = frozenset({"country", "admin1"})
#: Levels and curated roles that are areas known by their point only.
_BY_POINT = frozenset({"admin2", "island", "landform", "area", "camp"})


def contains(area: IndexCandidate, place: IndexCandidate) -> bool:
    """Whether ``place`` lies in ``area`` (not the same place): a country holds its towns
    and regions, a first-level region its towns and counties; a county, an island, a
    curated area or valley (known by a point only) the places of its country within
    :data:`CONTAINS_KM` of it. Containment is not identity: a movement from a region to a
    town in it is a movement (the reader places it at the town the story names).

    Examples
    --------
    >>> index = NameIndex()
    >>> syria, idlib = index.lookup(["syria"])["syria"][0], index.lookup(["idlib"])["idlib"][0]
    >>> contains(syria, idlib), contains(idlib, syria), contains(syria, syria)
    (True, False, False)
    """
    if area.ref == place.ref or place.feature == "country":
        return False
    if area.feature == "country" or (area.former is not None and area.former.part):
        return place.country == area.country  # (Kosovo in 1999 held all that Kosovo holds)
    if area.feature == "admin1":
        return (
            place.feature != "admin1"
            and place.country == area.country
            and bool(place.admin1)
            and place.admin1 == area.admin1
        )
    if area.feature in _BY_POINT and place.feature not in _BY_CODE:
        same = area.country is None or place.country is None or area.country == place.country
        return same and great_circle_km(area.lat, area.lon, place.lat, place.lon) <= CONTAINS_KM
    return False
