"""Geocoding: aliases and spelling variants resolve to the right place, offline."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from osmnx.distance import great_circle

from routes import scenario
from routes.cli import app
from routes.places import (
    CONFIDENCE,
    SIMILAR_SPELLING_FACTOR,
    Geocoder,
    UnknownPlaceError,
    candidates,
    geonames_in,
    normalize,
)

REPO = Path(__file__).resolve().parents[1]


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


def test_cli_unknown_name_is_one_line_and_exit_1(runner: Any) -> None:
    result = runner.invoke(app, ["geocode", "--offline", "Idlibz"])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert (
        "unknown place 'Idlibz'" in result.stderr and "Closest known names: Idlib" in result.stderr
    )


def test_cli_usage_errors_exit_2(runner: Any, tmp_path: Path) -> None:
    assert runner.invoke(app, ["geocode"]).exit_code == 2
    missing = runner.invoke(app, ["geocode", "-s", str(tmp_path / "none.yaml"), "Idlib"])
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def routes_cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m routes ARGS`` as a user runs it, in this checkout."""
    env = {**os.environ, "PYTHONPATH": str(REPO), "COLUMNS": "200"}
    return subprocess.run(
        [sys.executable, "-m", "routes", *args],
        env=env,
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_geocode_resolves_what_it_can_and_reports_each_unknown(
    facts: dict[str, tuple[float, float]],
) -> None:
    """Issue 14: three resolved places and one unknown, exit 1, through the real CLI."""
    names = ["Idlib", "Nowhere", "Aleppo, Syria", "Foah"]
    table = routes_cli("geocode", "--offline", *names)
    assert table.returncode == 1, table.stderr
    assert "Traceback" not in table.stderr
    [unknown] = table.stderr.splitlines()
    assert unknown.startswith("error: unknown place 'Nowhere'. Closest known names: ")
    rows = [line for line in table.stdout.splitlines() if line.startswith("│ ")]
    assert [row.split("│")[1].strip() for row in rows] == ["Idlib", "Aleppo, Syria", "Foah"]
    result = routes_cli("geocode", "--offline", "--json", *names)
    assert result.returncode == 1
    found = {row["query"]: row for row in json.loads(result.stdout)}
    assert [found[n]["status"] for n in names] == ["resolved", "unknown", "resolved", "resolved"]
    assert len(found["Nowhere"]["suggestions"]) == 3
    for name, place in {"Idlib": "idlib", "Aleppo, Syria": "aleppo", "Foah": "al-fuah"}.items():
        lat, lon = facts[place]
        assert found[name]["place_id"] == place
        assert great_circle(found[name]["lat"], found[name]["lon"], lat, lon) < 2000
    assert found["Foah"]["confidence"] < found["Idlib"]["confidence"]


@pytest.mark.parametrize(
    ("query", "place", "country"),
    [
        ("Aleppo, Syria", "aleppo", "SY"),
        ("Kafriya, Idlib", "kafriya", "SY"),
        ("Idlib, Syria", "idlib", "SY"),
    ],
)
def test_a_qualifier_names_the_country_or_region(query: str, place: str, country: str) -> None:
    match = Geocoder().resolve(query)
    assert (match.place_id, match.country) == (place, country)


def test_a_qualifier_keeps_to_its_region() -> None:
    """Brussels is in Belgium unless the qualifier says Ontario; a wrong qualifier finds nothing."""
    assert Geocoder().resolve("Brussels").country == "BE"
    ontario = Geocoder().resolve("Brussels, Ontario")
    assert ontario.country == "CA" and 43 < ontario.lat < 44.5
    assert Geocoder().resolve("Brussels, Canada").country == "CA"
    assert candidates("Kafriya, Lebanon") == []
    assert candidates("Aleppo, Narnia") == []


@pytest.mark.parametrize(
    ("query", "place"),
    [("Foah", "al-fuah"), ("Fuaah", "al-fuah"), ("Kafrayah", "kafriya"), ("Kefraia", "kafriya")],
)
def test_transliterations_match_by_sound_less_confidently(query: str, place: str) -> None:
    best = candidates(query)[0]
    assert (best.place_id, best.how) == (place, "similar spelling")
    assert best.confidence <= CONFIDENCE["curated name"] * SIMILAR_SPELLING_FACTOR


def test_names_that_sound_like_nothing_known_stay_unknown() -> None:
    for name in ("Nowhere", "Idlibz", "Alepponia"):
        assert candidates(name) == [], name


@pytest.mark.parametrize("query", ALIASES)
def test_curated_aliases_work_without_the_scenario(query: str) -> None:
    """The curated gazetteer holds every bundled scenario's places: no scenario needs loading."""
    match = Geocoder().resolve(query)
    assert match.place_id == ALIASES[query] and match.confidence >= 0.9


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


def test_a_scenarios_own_place_wins_over_the_gazetteers(aleppo: scenario.Scenario) -> None:
    """A story's own "Idlib" (here: moved 50 km east) is the one its geocoder finds, surely."""
    idlib = aleppo.place("idlib").model_copy(update={"id": "my-idlib", "lon": 37.2})
    story = aleppo.model_copy(update={"places": [idlib]})
    match = Geocoder.for_scenario(story).resolve("Idleb")
    assert (match.place_id, match.lon, match.confidence) == ("my-idlib", 37.2, 0.95)
