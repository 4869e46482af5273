"""Geocoding: aliases and spelling variants resolve to the right place, offline."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from osmnx.distance import great_circle

from routes import scenario
from routes.cli import app
from routes.places import (
    CONFIDENCE,
    Geocoder,
    UnknownPlaceError,
    candidates,
    geonames_in,
    normalize,
)


@pytest.fixture(scope="module")
def geocoder() -> Geocoder:
    return Geocoder.for_scenario(scenario.load("aleppo-2016-12"))


ALIASES = {
    "Al-Foua": "al-fuah",
    "Fu'ah": "al-fuah",
    "Foua": "al-fuah",
    "al-Fu‘ah": "al-fuah",
    "الفوعة": "al-fuah",
    "Kefreia": "kafriya",
    "Kefraya": "kafriya",
    "KAFRAYA": "kafriya",
    "Kifraya": "kafriya",
    "Idleb": "idlib",
    "إدلب": "idlib",
    "eastern Aleppo": "eastern-aleppo",
    "east Aleppo": "eastern-aleppo",
    "Halab": "aleppo",
    "Ramousa": "ramouseh",
    "Bab el-Hawa": "bab-al-hawa",
    "Cilvegozu": "bab-al-hawa",
    "Reyhanli": "reyhanli",
    "al-Sukkari": "as-sukkari",
    "Sukkari": "as-sukkari",
    "Salah al-Din": "salah-ad-deen",
}


@pytest.mark.parametrize("query", ALIASES)
def test_aliases_resolve_within_2_km_of_the_facts(
    query: str, geocoder: Geocoder, facts: dict[str, tuple[float, float]]
) -> None:
    match = geocoder.resolve(query)
    lat, lon = facts[ALIASES[query]]
    assert match.place_id == ALIASES[query]
    assert great_circle(match.lat, match.lon, lat, lon) < 2000
    assert match.confidence >= 0.9


def _nearest_town_country(lat: float, lon: float) -> str:
    towns = geonames_in((lon - 1, lat - 1, lon + 1, lat + 1))
    assert towns, "no GeoNames town within 1 degree"
    return min(towns, key=lambda t: great_circle(lat, lon, t.lat, t.lon)).country


def test_turkey_resolves_inside_turkey(geocoder: Geocoder) -> None:
    match = geocoder.resolve("Turkey")
    assert match.name == "Turkey" and "298795" in match.source
    assert _nearest_town_country(match.lat, match.lon) == "TR"


def test_kefreia_is_never_the_lebanese_kefraya(geocoder: Geocoder) -> None:
    for spelling in ("Kefreia", "Kefraya", "Kafraya"):
        match = geocoder.resolve(spelling)
        assert match.lat > 35.5, f"{spelling} resolved to {match} (Lebanon lies south of 34.7°N)"
        assert match.place_id == "kafriya"


def test_geonames_prefers_the_story_region(geocoder: Geocoder) -> None:
    """Names the scenario lacks come from GeoNames cities500, preferring the story's region."""
    saraqib = geocoder.resolve("Taftanaz")
    assert "GeoNames" in saraqib.source and saraqib.country == "SY"
    assert 35.9 < saraqib.lat < 36.1 and saraqib.confidence >= 0.7
    brussels = geocoder.resolve("Brussels")
    assert brussels.country == "BE" and brussels.confidence < 0.7


def test_unknown_name_suggests_three_known_names(geocoder: Geocoder) -> None:
    with pytest.raises(UnknownPlaceError) as excinfo:
        geocoder.resolve("Idlibz")  # sounds like no known name: "Idlibb" is Idlib, spelled so
    assert len(excinfo.value.suggestions) == 3
    assert excinfo.value.suggestions[0] == "Idlib"


@pytest.mark.parametrize(
    ("raw", "key"),
    [
        ("Al-Fu'ah", "fuah"),
        ("al-Foua", "foua"),
        ("as-Sukkari", "sukkari"),
        ("ad-Dana", "dana"),
        ("Bab el-Hawa", "bab hawa"),
        ("Ma’arrat Misrin", "maarrat misrin"),
        ("Reyhanlı", "reyhanli"),
        ("ʿAyn al-ʿArab", "ayn arab"),
        ("Khān al-ʿAsal", "khan asal"),
        ("Al", "al"),
    ],
)
def test_normalize(raw: str, key: str) -> None:
    assert normalize(raw) == key


def test_cli_geocode_acceptance_names(runner: Any, facts: dict[str, tuple[float, float]]) -> None:
    names = ["Al-Foua", "Kefreia", "eastern Aleppo", "Idleb", "Turkey"]
    result = runner.invoke(app, ["geocode", "--offline", "--json", *names])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert [r["query"] for r in rows] == names
    expected = {
        "Al-Foua": "al-fuah",
        "Kefreia": "kafriya",
        "eastern Aleppo": "eastern-aleppo",
        "Idleb": "idlib",
    }
    for row in rows:
        assert set(row) >= {"query", "name", "lat", "lon", "source", "confidence"}
        if row["query"] in expected:
            lat, lon = facts[expected[row["query"]]]
            assert great_circle(row["lat"], row["lon"], lat, lon) < 2000


def test_cli_geocode_table(runner: Any) -> None:
    result = runner.invoke(app, ["geocode", "--offline", "Fu'ah"], env={"COLUMNS": "200"})
    assert result.exit_code == 0
    assert "Al-Fu'ah" in result.stdout and "35.98167" in result.stdout


def test_cli_unknown_name_exits_2_with_suggestions(runner: Any) -> None:
    result = runner.invoke(app, ["geocode", "--offline", "Idlibz"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert (
        "unknown place 'Idlibz'" in result.stderr and "Closest known names: Idlib" in result.stderr
    )


def test_a_towns_own_name_beats_an_alternate_name() -> None:
    """Without a story, 'Ariha' is the Syrian town called so, not Jericho (an alternate name)."""
    bare = Geocoder([], region=None)
    ariha = bare.resolve("Ariha")
    assert ariha.country == "SY" and ariha.name == "Arīḩā"
    amiriyah = bare.resolve("Amiriyah")  # only ever an alternate name: low confidence
    assert amiriyah.confidence <= 0.3


def test_candidates_hold_every_source_on_one_scale() -> None:
    """Idlib: the curated city (GeoNames 169389), then the governorate; confidences never rise."""
    found = candidates("Idlib")
    assert [(c.ref, c.level, c.country) for c in found[:2]] == [
        ("curated:idlib", "town", "SY"),
        ("admin1:SY::Idlib", "admin1", "SY"),
    ]
    assert found[0].geonames_id == 169389 and found[0].confidence == CONFIDENCE["curated name"]
    assert all(a.confidence >= b.confidence for a, b in itertools.pairwise(found))
    assert len({c.ref for c in found}) == len(found)


def test_candidates_prefer_towns_near_the_story() -> None:
    """Brussels, Ontario outranks Brussels, Belgium only when the story is in Ontario."""
    anywhere = candidates("Brussels")
    assert anywhere[0].country == "BE" and anywhere[0].feature == "populated place"
    ontario = candidates("Brussels", near=(-82.0, 43.0, -80.5, 44.5))
    assert ontario[0].country == "CA" and ontario[0].confidence > anywhere[0].confidence
    assert ontario[0].geonames_id and ontario[0].ref == f"geonames:{ontario[0].geonames_id}"


def test_the_geocoder_takes_the_first_candidate(geocoder: Geocoder) -> None:
    for name in ("Idlib", "Taftanaz", "Mexico", "UK", "Fu'ah"):
        best = geocoder.candidates(name)[0]
        match = geocoder.resolve(name)
        assert (match.lat, match.lon, match.confidence) == (best.lat, best.lon, best.confidence)
