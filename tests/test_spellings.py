"""Other spellings of a town's name (routes.places.spellings, names.variant): transliterations
news uses, found only among the towns of a country whose names are transliterated."""

from __future__ import annotations

import pytest

from routes.places import NameIndex, candidates
from routes.places.names import normalize, variant
from routes.places.spellings import region_namesakes, spelled_towns, transliterated


@pytest.mark.parametrize(
    ("news", "geonames"),
    [
        ("Ain Issa", "‘Ayn ‘Īsá"),
        ("Ein Issa", "‘Ayn ‘Īsá"),
        ("Deir Al-Balah", "Dayr al Balaḩ"),
        ("Deir ez-Zor", "Dayr az Zawr"),
        ("Al-Hool", "Al Ḩawl"),
        ("Zaporizhia", "Zaporizhzhya"),
        ("Hamam Alil", "Ḩammām al ‘Alīl"),
        ("Qamishli", "Al Qāmishlī"),
        ("Kharkov", "Kharkiv"),
        ("Es Suweida", "As Suwayda"),
    ],
)
def test_transliterations_of_one_name_share_its_variant(news: str, geonames: str) -> None:
    assert variant(normalize(news)) == variant(normalize(geonames))


@pytest.mark.parametrize(
    ("one", "other"), [("Homs", "Hama"), ("Raqqa", "Rutba"), ("Gori", "Goris")]
)
def test_other_names_have_other_variants(one: str, other: str) -> None:
    assert variant(normalize(one)) != variant(normalize(other))


def test_only_countries_written_in_another_script_are_searched() -> None:
    assert [transliterated(c) for c in ("SY", "IQ", "UA", "AM", "US", "FR", "AZ")] == [
        True, True, True, True, False, False, False,
    ]  # fmt: skip
    assert spelled_towns("ein issa", ["US"]) == []


def test_a_spelling_finds_the_town_of_the_story_s_country_only() -> None:
    [(town, listed)] = spelled_towns("ein issa", ["SY"])
    assert (town.id, listed) == (172134, False)
    [(hawl, listed)] = spelled_towns("hool", ["SY"])  # GeoNames lists "Hool" among its names
    assert (hawl.id, listed) == (173797, True)
    assert spelled_towns("ein issa", ["IQ"]) == []
    # another name GeoNames lists is the town in a country the story names whose first
    # language is not English, Latin-script or not (a transliteration only where names are
    # transliterated); in an English-speaking one they are old names and nicknames
    [(anod, listed)] = spelled_towns("las anod", ["SO"])
    assert (anod.name, listed) == ("Laascaanood", True)
    assert [(t.name, listed) for t, listed in spelled_towns("santo", ["VU"])] == [
        ("Luganville", True)
    ]
    assert spelled_towns("las anod", ["ET"]) == []
    assert spelled_towns("passover", ["US"]) == []  # an other name of Mountain City
    found = NameIndex().variants("deir balah", ["PS"])
    assert [(c.geonames_id, c.variant, c.primary) for c in found] == [(281141, True, True)]


def test_a_region_s_spelling_is_its_city_when_the_city_spells_it_otherwise() -> None:
    assert [t.id for t in region_namesakes("zaporizhia", [("UA", "Zaporizhia")], 10_000)] == [
        687700
    ]
    best = candidates("Zaporizhia")[0]
    assert (best.geonames_id, best.level) == (687700, "town")
    assert candidates("Zaporizhia region")[0].level == "admin1"
    assert candidates("Taiwan")[0].level == "country"  # no city is "Taiwan" (Tainan)
