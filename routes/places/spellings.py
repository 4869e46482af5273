"""Towns by another transliteration of their name, among the towns of a few countries.

English news writes names from Arabic, Persian, Kurdish, Ukrainian or Russian in many
ways, and GeoNames keeps only some of them ("Ein Issa" is none of ‘Ayn ‘Īsá's names).
:func:`~routes.places.names.variant` gives the consonants such spellings share; being
loose, it is asked only among the towns of a country whose language is written in another
script than the Latin (:func:`transliterated`) and that the story names
(:func:`spelled_towns`), or of the region a name already matched (:func:`region_namesakes`).
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache

from routes.places.geonames import MIN_SIMILARITY, GeoName, geonames_named, geonames_of
from routes.places.names import normalize, normalize_all, variant

__all__ = [
    "MIN_REGION_VARIANT",
    "MIN_VARIANT",
    "region_namesakes",
    "spelled_towns",
    "transliterated",
    "variant_towns",
]

#: Fewest consonants (:func:`~routes.places.names.variant`) a one-word name needs to be
#: read as another spelling of a town's (two words, as "Ein Issa", are enough).
MIN_VARIANT = 3

#: Fewest consonants (:func:`~routes.places.names.variant`) a region's name needs for a
#: city of its region to be called by it as another spelling: "Tainan" is no spelling of
#: "Taiwan" (both "tn").
MIN_REGION_VARIANT = 3


def variant_towns(key: str, country: str) -> tuple[GeoName, ...]:
    """Towns of ``country`` whose own name is a transliteration of the name key ``key``
    (the same :func:`~routes.places.names.variant`), by GeoNames id.

    Examples
    --------
    >>> [town.name for town in variant_towns("ein issa", "SY")]
    ['‘Ayn ‘Īsá']
    """
    return _by_variant(country).get(variant(key), ())


def spelled_towns(key: str, countries: Iterable[str]) -> list[tuple[GeoName, bool]]:
    """Towns of ``countries`` that the name key ``key`` names another way, and whether
    ``key`` is one of their other names as GeoNames lists it (else a transliteration of
    their own name), by GeoNames id.

    GeoNames' other names of a small town are left out of a bare name's answers (they
    are mostly old names and nicknames: :mod:`routes.places.index`); in a country the
    story names, one of them is the town ("Stepanakert" for Khankendi, "Hool" for Al
    Ḩawl), as is another spelling of its own name ("Ain Issa" for ‘Ayn ‘Īsá), where the
    country's names reach English by transliteration (:func:`transliterated`): one with
    the same consonants (:func:`variant_towns`) whose own name GeoNames writes in a
    romanisation's marks (‘Ayn ‘Īsá, Dayr al Balaḩ) or whose letters are close
    (:data:`~routes.places.geonames.MIN_SIMILARITY`; "Zaporizhia", Zaporizhzhya). English
    names keep one spelling: "Gori" is no spelling of Gary, Indiana, nor "Tim" of Tom.

    Examples
    --------
    >>> [(town.name, listed) for town, listed in spelled_towns("hool", ["SY"])]
    [('Al Ḩawl', True)]
    """
    from rapidfuzz import fuzz

    countries = set(countries)
    wanted = {country for country in countries if transliterated(country)}
    exonyms = {country for country in countries if not _english_first(country)}
    found = {town.id: (town, True) for town, _main in geonames_named(key)
             if town.country in exonyms}  # fmt: skip
    if len(variant(key)) < MIN_VARIANT and " " not in key:
        wanted = set()  # "Red" is no spelling of Ar Riyāḑ, nor "Laura" of Ālā'ĕr
    for country in sorted(wanted):
        for town in variant_towns(key, country):
            own = normalize(town.name)
            if not town.name.isascii() or fuzz.ratio(key, own) >= MIN_SIMILARITY:
                found.setdefault(town.id, (town, False))
    return [found[gid] for gid in sorted(found)]


def region_namesakes(
    key: str, regions: Iterable[tuple[str | None, str]], least: int
) -> list[GeoName]:
    """Towns of at least ``least`` people in a first-level region ``(country, name)`` of
    ``regions`` whose own name is a transliteration of the name key ``key`` (the same
    :func:`~routes.places.names.variant` and :data:`~routes.places.geonames.MIN_SIMILARITY`
    of letters), in a country whose names are transliterated (:func:`transliterated`): the
    city a region is named after, spelled as the region is.

    "Zaporizhia" is the oblast's name but none of its city's (Zaporizhzhya); a bare name
    that is a city's and its region's means the city (issue 26).

    Examples
    --------
    >>> [town.id for town in region_namesakes("zaporizhia", [("UA", "Zaporizhia")], 10_000)]
    [687700]
    """
    from rapidfuzz import fuzz

    wanted = variant(key)
    if len(wanted) < MIN_REGION_VARIANT:
        return []
    return [
        town
        for country, region in sorted(set(regions), key=str)
        if country and transliterated(country)
        for town in _towns_in_regions(least).get((country, region), ())
        if _variant_of(town.name) == wanted
        and fuzz.ratio(key, normalize(town.name)) >= MIN_SIMILARITY
    ]


def transliterated(country: str) -> bool:
    """Whether the first language GeoNames gives for ``country`` is written in another
    script than the Latin (CLDR's likely script, through :mod:`langcodes`): its names
    reach English news transliterated, in many spellings.

    Examples
    --------
    >>> transliterated("SY"), transliterated("UA"), transliterated("US"), transliterated("AZ")
    (True, True, False, False)
    """
    return country in _transliterated()


@cache
def _transliterated() -> frozenset[str]:
    """The countries of :func:`transliterated`, read once."""
    import langcodes

    from routes.places.regions import geonames_countries

    found = set()
    for iso, info in geonames_countries().items():
        language = (info.get("languages") or "").split(",")[0]
        try:
            script = langcodes.Language.get(language).maximize().script if language else None
        except (ValueError, LookupError):  # a tag CLDR does not know
            continue
        if script not in {None, "Latn"}:
            found.add(iso)
    return frozenset(found)


@cache
def _english_first(country: str) -> bool:
    """Whether English is the first language GeoNames gives for ``country``: there its
    towns' other names are mostly old names and nicknames ("Passover"), not the names
    English news gives them elsewhere ("Las Anod" for Laascaanood)."""
    from routes.places.regions import geonames_countries

    info = geonames_countries().get(country) or {}
    return (info.get("languages") or "").split(",")[0].split("-")[0] == "en"


@lru_cache(maxsize=64)
def _by_variant(country: str) -> dict[str, tuple[GeoName, ...]]:
    """A country's towns by the :func:`~routes.places.names.variant` of their own name."""
    towns = geonames_of(country)
    found: dict[str, list[GeoName]] = {}
    for town, key in zip(towns, normalize_all([t.name for t in towns]), strict=True):
        found.setdefault(variant(key), []).append(town)
    return {key: tuple(towns) for key, towns in found.items() if key}


@lru_cache(maxsize=4)
def _towns_in_regions(least: int) -> dict[tuple[str, str], tuple[GeoName, ...]]:
    """The towns of at least ``least`` people by ``(country, first-level region)``: read
    once, as a region's city is asked for name after name."""
    found: dict[tuple[str, str], list[GeoName]] = {}
    for town in geonames_of(*sorted(_transliterated()), least=least):
        found.setdefault((town.country, town.admin1), []).append(town)
    return {where: tuple(towns) for where, towns in found.items()}


@lru_cache(maxsize=4096)
def _variant_of(name: str) -> str:
    return variant(normalize(name))
