"""Built from the data, not a hand list (issue 26): every national capital and every
GeoNames city of 100,000 people named as its own first- or second-level region, asked by
its bare name with no story around it, resolves within 10 km of its GeoNames point.

The exceptions are computed, each with its reason: a country of that name (the country
comes first), or a more populous town elsewhere of that name (a bare name means the
larger). Any other miss fails the test.
"""

from __future__ import annotations

from contextlib import closing
from functools import cache

from routes.distance import great_circle_km
from routes.places import Geocoder, areas, geonames, geonames_db, normalize, regions

#: Within this many km of the town's own point, as a map of a story needs.
WITHIN_KM = 10.0
#: The cities of the second set: this many people or more.
CITY_POPULATION = 100_000


@cache
def _towns() -> list[geonames.GeoName]:
    return geonames.geonames_in((-180.0, -90.0, 180.0, 90.0))  # every town, by id


def _capitals() -> list[tuple[str, geonames.GeoName]]:
    """(countryinfo's name of the capital, its GeoNames town) for every country."""
    names = regions.capital_names()
    return [(names[t.country], t) for t in _towns() if t.capital]


def _namesakes() -> list[tuple[str, geonames.GeoName]]:
    """(own name, town) of each city of CITY_POPULATION named as its own region."""
    with closing(geonames_db()) as db:
        rows = db.execute("SELECT country, admin1, name FROM areas WHERE level = 'admin2'")
        admin2 = {(country, admin1, normalize(name)) for country, admin1, name in rows}
    found = []
    for town in _towns():
        key = normalize(town.name)
        if town.population < CITY_POPULATION or not town.admin1:
            continue
        if key == normalize(town.admin1) or (town.country, town.admin1, key) in admin2:
            found.append((town.name, town))
    return found


def _exception(name: str, town: geonames.GeoName) -> str | None:
    """Why a bare ``name`` may fairly mean another place than ``town``, if it may."""
    key = normalize(name)
    if any(normalize(n) == key for n in regions.country_names().values()):
        return "a country of that name"
    larger = [
        t
        for t, _main in geonames.geonames_named(key)
        if t.population > town.population
        and great_circle_km(t.lat, t.lon, town.lat, town.lon) > WITHIN_KM
    ]
    if larger:
        return f"a more populous {larger[0].name} ({larger[0].country}, {larger[0].population:,})"
    if normalize(town.name) != key and any(
        a.level == "island" and great_circle_km(a.lat, a.lon, town.lat, town.lon) <= 50
        for a, _main in areas.areas_named(name)
    ):  # "Diego Garcia": the island's own name, the capital's other one (its town: Downtown)
        return "the island it stands on, whose own name it is"
    return None


def _misses(cases: list[tuple[str, geonames.GeoName]]) -> dict[str, tuple[float, str | None]]:
    geocoder = Geocoder([])  # no curated places: GeoNames and the regions alone
    missed = {}
    for name, town in cases:
        match = geocoder.resolve(name)
        km = great_circle_km(match.lat, match.lon, town.lat, town.lon)
        if km > WITHIN_KM:
            missed[f"{name} ({town.country})"] = (km, _exception(name, town))
    return missed


def test_every_capital_resolves_to_itself() -> None:
    cases = _capitals()
    assert len(cases) > 200
    missed = _misses(cases)
    unexplained = {case: km for case, (km, why) in missed.items() if why is None}
    assert not unexplained, unexplained
    assert len(missed) < 0.1 * len(cases), missed


def test_every_city_named_as_its_region_resolves_to_the_city() -> None:
    cases = _namesakes()
    assert len(cases) > 100
    missed = _misses(cases)
    unexplained = {case: km for case, (km, why) in missed.items() if why is None}
    assert not unexplained, unexplained
    assert len(missed) < 0.2 * len(cases), missed
