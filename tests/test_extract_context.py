"""Resolution in context (routes.extract.context and the country lead), on invented text."""

from __future__ import annotations

from routes.extract import extract
from routes.extract.context import country_support
from routes.extract.gazetteer import Candidate


def town(ref: str, country: str, lat: float, lon: float) -> Candidate:
    return Candidate(ref, ref, lat, lon, "populated place", country, "geonames", True, 1000)


def test_country_support_is_the_share_of_the_other_names_in_each_country() -> None:
    names = [
        ("georgia", [town("ge", "GE", 42.0, 43.5), town("us-ga", "US", 32.7, -83.4)]),
        ("tbilisi", [town("tbilisi", "GE", 41.7, 44.8)]),
        ("batumi", [town("batumi", "GE", 41.6, 41.6)]),
    ]
    share = country_support(names, lambda key, c: 0.5)
    assert share[("georgia", "ge")] == 1.0
    assert share[("georgia", "us-ga")] == 0.0
    assert share[("tbilisi", "tbilisi")] == 0.75  # half of Georgia's weight is the state's


def test_a_country_beats_a_small_town_of_its_name_in_a_us_story() -> None:
    text = (
        "The US and Egypt signed an accord in Washington. US officials said Egypt "
        "would host the talks next year."
    )
    got = {t.text: t.place for t in extract(text).toponyms}
    assert got["Egypt"].feature == "country" and got["Egypt"].country == "EG"


def test_georgia_is_the_state_beside_atlanta_and_the_country_beside_tbilisi() -> None:
    state = extract("Georgia lawmakers met in Atlanta and Macon, Georgia, on Monday.")
    country = extract("Russian troops left Georgia; Tbilisi and Gori were quiet.")
    assert {t.place.country for t in state.toponyms if t.text == "Georgia"} == {"US"}
    assert {t.place.country for t in country.toponyms if t.text == "Georgia"} == {"GE"}


def test_a_world_city_beats_a_small_town_of_its_name_without_local_context() -> None:
    text = "Flights from the US to Moscow start in May, US officials said."
    got = {t.text: t.place for t in extract(text).toponyms}
    assert got["Moscow"].country == "RU"


def test_own_names_come_before_other_names() -> None:
    # "Illinois" is the state, never Riverside (a town it is another name of); "Mexico" the
    # country, whatever the State of Mexico; "Mecca" is Makkah, the other name of a city a
    # hundred times larger than Mecca, California; "St. Petersburg" is Saint Petersburg's.
    text = (
        "Farmers in Illinois sold corn to Mexico. Pilgrims flew from Mecca to Moscow "
        "and St. Petersburg, Russia."
    )
    got = {t.text: t.place for t in extract(text).toponyms}
    assert (got["Illinois"].feature, got["Illinois"].country) == ("admin1", "US")
    assert (got["Mexico"].feature, got["Mexico"].country) == ("country", "MX")
    assert got["Mecca"].country == "SA"
    # A small town's other names are mostly old names and neighbourhoods: no place here.
    assert "Middle East" not in {t.text for t in extract("The Middle East was calm.").toponyms}
    assert got["St. Petersburg"].country == "RU"


def test_a_large_state_beats_a_small_town_of_its_name() -> None:
    got = extract("Snow fell in Albany and Buffalo, and Florida stayed warm.").toponyms
    florida = next(t.place for t in got if t.text == "Florida")
    assert (florida.feature, florida.country) == ("admin1", "US")


def test_capitals_beside_their_countries_beat_a_cluster_of_small_namesakes() -> None:
    # Indiana has a Monrovia, an Atlanta and a Geneva close together; the story's countries
    # and the size of Atlanta, Georgia, outweigh their nearness to one another.
    text = (
        "The Ebola outbreak in Guinea, Sierra Leone and Liberia had killed 1,000 people. "
        "In Monrovia, clinics were full. Doctors in Atlanta sent staff to Conakry and Freetown."
    )
    got = {t.text: t.place for t in extract(text).toponyms}
    assert got["Monrovia"].country == "LR"
    assert got["Freetown"].country == "SL"
    assert (got["Atlanta"].country, round(got["Atlanta"].lat)) == ("US", 34)


def test_congo_is_the_congo_its_story_is_about() -> None:
    kinshasa = extract("Ebola returned to Kinshasa and Goma. Vaccines reached Congo.").toponyms
    brazzaville = extract("Oil flowed from Congo to Gabon; Brazzaville was calm.").toponyms
    congo = next(t for t in kinshasa if t.text.startswith("Congo"))
    assert (congo.text, congo.place.country) == ("Congo", "CD")  # no period: no abbreviation
    assert next(t.place.country for t in brazzaville if t.text == "Congo") == "CG"


def test_wales_is_wales_not_the_united_kingdom() -> None:
    got = extract("Flooding hit Wales and Scotland.").toponyms
    wales = next(t.place for t in got if t.text == "Wales")
    assert wales.feature == "admin1" and round(wales.lat) == 52


def test_a_region_after_a_comma_says_which_town() -> None:
    got = extract("The fair in Paris, Texas, opened Friday.").toponyms
    paris = next(t.place for t in got if t.text == "Paris")
    assert (paris.country, paris.admin1) == ("US", "Texas")
