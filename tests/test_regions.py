"""Countries, continents and regions: sourced points, and they beat towns only also so called."""

import pytest

from routes.places import Geocoder, regions
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
    assert "derived" in match.source


def test_a_town_keeps_its_own_name_against_a_county(geocoder: Geocoder) -> None:
    assert geocoder.resolve("Paris").source.startswith("GeoNames")


def test_areas_named_lists_larger_levels_first() -> None:
    levels = [area.level for area, _main in regions.areas_named("Georgia")]
    assert levels[:2] == ["country", "admin1"]
    assert {area.country for area, _main in regions.areas_named("Orange County")} == {"US"}


def test_demonyms_come_from_countryinfo() -> None:
    found = regions.demonyms()
    assert found["russian"] == "RU" and found["nigerian"] == "NG"
    assert found["indian"] == "IN"  # not the British Indian Ocean Territory (IO)


@pytest.mark.parametrize(("name", "country"), [("Xinjiang", "CN"), ("Zhejiang", "CN")])
def test_a_province_goes_by_its_short_name(name: str, country: str) -> None:
    # GeoNames says "Xinjiang Uygur Zizhiqu", "Zhejiang Sheng"; countryinfo the short name.
    found = [(area.level, area.country) for area, _main in regions.areas_named(name)]
    assert ("admin1", country) in found


def test_a_generic_word_is_no_province_name() -> None:
    short = {alias for area in regions.regions() for alias in area.aliases}
    assert not short & {"Eastern", "Northern", "Central", "Chechen"}
