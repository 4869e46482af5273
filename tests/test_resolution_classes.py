"""The story's own geography decides (issue 35), one class of resolution at a time, with
sentences of our own: a named country picks the namesake, a locator after a comma or a
word of division narrows the namesakes, a region holding the other end keeps the leg,
and common words and given names are no places unless the text marks them."""

from __future__ import annotations

import datetime as dt

import pytest

from routes.extract import extract
from routes.places import contains
from routes.places.index import NameIndex


def _places(text: str) -> dict[str, tuple[str, str | None, str]]:
    """Each literal toponym's text → (the place's name, its country, its feature)."""
    return {
        t.text: (t.place.name, t.place.country, t.place.feature) for t in extract(text).toponyms
    }


def test_a_named_country_picks_the_namesake() -> None:
    """San Jose, California (a million people) is the bare name's likelier reading; in a
    story about Costa Rica it is San José."""
    found = _places("In Costa Rica, hundreds of families fled from San Jose after the floods.")
    assert found["San Jose"][1] == "CR"
    assert (
        _places("Hundreds of families fled from San Jose after the floods.")["San Jose"][1] == "US"
    )


def test_a_named_country_does_not_pull_a_city_into_a_village_of_its_name() -> None:
    """Naming where people fled to does not move where they fled from: the Herat of a
    story that names Iran is Afghanistan's city, as the Herāt villages of Iran are small;
    the movement stays a movement."""
    found = _places("Some 300 families fled Herat into Iran after the fighting.")
    assert found["Herat"][1] == "AF" and found["Iran"][1] == "IR"
    legs = {(m.origins[0], m.destinations[0]) for m in extract(
        "Some 300 families fled Herat into Iran after the fighting.").movements
        if m.origins and m.destinations}  # fmt: skip
    assert len(legs) == 1


def test_a_town_the_text_puts_in_a_country_is_no_namesake_elsewhere() -> None:
    """ "The Syrian town of X": a town of the name in a neighbouring country is not it (no
    Syrian Tripoli is known), so the movement's origin stays named and unresolved."""
    found = extract("Families fled the Syrian town of Tripoli to Beirut.")
    (movement,) = found.movements
    assert movement.origins == ["unresolved:tripoli"]
    assert found.mentions(movement.destinations[0])[0].text == "Beirut"


@pytest.mark.parametrize(
    ("text", "name", "region"),
    [
        ("Families were moved from Ofunato in Iwate prefecture to Morioka.", "Iwate", "admin1"),
        ("Villagers fled from Ishinomaki, Miyagi Prefecture, to Sendai.", "Miyagi", "admin1"),
    ],
)
def test_a_prefecture_word_marks_the_region(text: str, name: str, region: str) -> None:
    """ "Iwate prefecture" is the prefecture, not a town called Iwate by another name."""
    assert _places(text)[name][1:] == ("JP", region)


def test_a_locator_in_a_province_chooses_among_namesakes() -> None:
    """ "X in Y province" narrows X to Y as "X, Y" does: of the towns called Cordoba, the
    one in the province of Veracruz (Mexico), not Córdoba of Argentina or Spain."""
    bare = _places("Families fled from Cordoba on Monday.")["Cordoba"]
    marked = _places("Families fled from Cordoba in Veracruz state on Monday.")["Cordoba"]
    assert bare[1] != "MX" and marked[1] == "MX"


@pytest.mark.parametrize(
    ("text", "origin", "destination"),
    [
        ("Hundreds of families fled from Hatay province to Antakya on Monday.", "Hatay", "Antakya"),
        ("About 2,000 people fled from the Bekaa Valley to Baalbek.", "Bekaa Valley", "Baalbek"),
    ],
)
def test_a_region_holding_the_destination_keeps_the_leg(
    text: str, origin: str, destination: str
) -> None:
    """Containment is not identity: a move from a region to a town in it is a movement."""
    found = extract(text)
    by_text = {t.text: t.place for t in found.toponyms}
    assert contains(by_text[origin], by_text[destination])
    legs = {(o, d) for m in found.movements for o in m.origins for d in m.destinations}
    assert (by_text[origin].ref, by_text[destination].ref) in legs


def test_a_town_in_its_own_country_is_no_movement() -> None:
    """ "From Antakya to Turkey" says nothing of where people went: no leg."""
    found = extract("Thousands of people fled from Antakya to Turkey.")
    assert not [m for m in found.movements if m.complete]


def test_containment_by_code_and_by_point() -> None:
    index = NameIndex()
    first = {
        k: v[0]
        for k, v in index.lookup(
            ["syria", "idlib", "hatay", "antakya", "bekaa valley", "baalbek", "homs"]
        ).items()
    }
    assert contains(first["syria"], first["idlib"]) and not contains(first["idlib"], first["syria"])
    assert contains(first["hatay"], first["antakya"]) and not contains(
        first["hatay"], first["idlib"]
    )
    assert contains(first["bekaa valley"], first["baalbek"])
    assert not contains(first["bekaa valley"], first["homs"])


def test_island_alone_and_sto_are_no_places() -> None:
    """ "Island" is Iceland's name in Icelandic, and "Sto." was Stockholm's abbreviation."""
    assert not extract("Island residents were evacuated after the quake.").toponyms
    found = _places("In the Philippines, 3,000 people were evacuated from Sto. Tomas.")
    assert found["Sto. Tomas"][:2] == ("Santo Tomas", "PH")


def test_a_former_name_outside_its_years_is_todays_namesake() -> None:
    """ "Salisbury" was Harare's name until 1982: a story of 1975 means Harare, one of 2020
    the city in England."""
    text = "Thousands of families fled from Salisbury."
    then = extract(text, story_date=dt.date(1975, 6, 1)).toponyms[0].place
    now = extract(text, story_date=dt.date(2020, 6, 1)).toponyms[0].place
    assert (then.name, then.country) == ("Harare", "ZW") and now.country == "GB"


def test_a_name_before_a_plural_word_of_place_is_looked_up_as_another_spelling() -> None:
    """ "The Ein Isa camps": marked as a place by "camps" as by "camp", the name no gazetteer
    spells so is the story's country's ‘Ayn ‘Īsá."""
    found = _places("Thousands fled Raqqa in Syria. The Ein Isa camps have been receiving them.")
    assert found["Ein Isa"][:2] == ("‘Ayn ‘Īsá", "SY")


def test_a_town_and_its_country_after_a_comma_is_only_a_town_there() -> None:
    """ "Bodo, Cameroon": no Bodo of Cameroon is known, so the movement does not go to
    Chad's; a region named so ("Hatay, Turkey") and a list of countries are unaffected."""
    found = extract(
        "Thousands fled Rann, Nigeria, and arrived in Bodo, Cameroon. Aid reached Bodo.",
        story_date=dt.date(2019, 1, 20),
    )
    assert all(d == "unresolved:bodo" for m in found.movements for d in m.destinations)
    assert _places("Residents are leaving Hatay, Turkey, by bus.")["Hatay"][1] == "TR"
    assert _places("Refugees fled to Chad, Cameroon and Nigeria.")["Chad"][1] == "TD"


def test_a_small_region_of_another_country_leaves_a_country_its_lead() -> None:
    """Niger State (39 towns) does not make "Niger" Nigerian; Georgia, a large US state,
    still needs the story's other places to be told from the country."""
    assert _places("Refugees fled to Niger.")["Niger"][1:] == ("NE", "country")
    assert _places("Fighting in Minna, the capital of Niger State, went on.")["Niger"][1] == "NG"


def test_another_spelling_is_looked_for_in_the_country_named_after_the_name() -> None:
    """ "Kokang in Burma" is in Burma: not Kuocang, a Chinese town spelt nearly so, though
    the story names China too; none known in Burma, it stays named and unresolved."""
    text = (
        "Refugees fleeing from Kokang in Burma arrived at the border town of Nansan in "
        "southern China's Yunnan province."
    )
    found = extract(text)
    assert all(t.place.country != "CN" for t in found.toponyms if t.text == "Kokang")
    [move] = found.movements
    assert move.origins == ["unresolved:kokang"] and move.destinations == ["geonames:1281269"]


def test_a_name_the_text_calls_an_island_is_looked_up_as_that_island() -> None:
    """ "Pentecost" alone is the feast; "the island of Pentecost" is Vanuatu's Pentecost Island."""
    text = "Most people will be relocated from Ambae to the neighbouring island of Pentecost."
    assert _places(text)["Pentecost"][:2] == ("Pentecost Island", "VU")
    assert "Pentecost" not in _places("They celebrated Pentecost in Port Vila.")
