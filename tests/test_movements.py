"""The movement grammar: from where to where, in the stated direction, moving people.

Each sentence here is our own short example of one shape of English news grammar (examples,
not evidence: accuracy is measured on real stories in ``test_movements_dev.py``).
"""

from __future__ import annotations

import datetime as dt
import json
from typing import Any

import pytest
from conftest import SHARED, movement_legs, shared

from routes import scenario
from routes.extract import draft_scenario, extract

DAY = dt.date(2022, 3, 31)


_legs = movement_legs


def _draft(text: str) -> dict[str, Any]:
    return draft_scenario(text, story_date=DAY).model_dump()


# --- Each shape of the grammar ---------------------------------------------------------------

SHAPES = [
    ("About 400 civilians were evacuated from Sumy to Poltava on Tuesday.", {("Sumy", "Poltava")}),
    ("Hundreds of families left Kharkiv for Dnipro overnight.", {("Kharkiv", "Dnipro")}),
    ("Thousands of residents fled Mosul to Erbil.", {("Mosul", "Erbil")}),
    (
        "A group of 300 evacuees arrived in Zaporizhzhia from Berdiansk.",
        {("Berdiansk", "Zaporizhzhia")},
    ),
    (
        "Families from Sinjar sought refuge in the towns of Dohuk and Erbil.",
        {("Sinjar", "Dohuk"), ("Sinjar", "Erbil")},
    ),
    ("Residents of Homs were bused to Hama on Sunday.", {("Homs", "Hama")}),
    ("The wounded were taken to Latakia from Idlib.", {("Idlib", "Latakia")}),
    ("Residents of Marawi headed to Iligan.", {("Marawi", "Iligan")}),
    (
        "A humanitarian corridor from Mariupol to Zaporizhzhia opened.",
        {("Mariupol", "Zaporizhzhia")},
    ),
    ("About 500 refugees returned to Aleppo from Beirut.", {("Beirut", "Aleppo")}),
    (
        "Evacuees were taken from Kherson to Mykolaiv and Odesa.",
        {("Kherson", "Mykolaiv"), ("Kherson", "Odesa")},
    ),
    (
        "Tens of thousands of Yemenis fled their homes in and around Hodeidah to Sanaa.",
        {("Hodeidah", "Sanaa")},
    ),
    ("Civilians fled ISIS rule in Raqqa to Tabqa.", {("Raqqa", "Tabqa")}),
    ("On a beach in Beira, relatives boarded boats to Dondo.", {("Beira", "Dondo")}),
]


@pytest.mark.parametrize(("text", "legs"), SHAPES, ids=[s[0][:40] for s in SHAPES])
def test_each_shape_reads_its_ends_in_the_stated_direction(
    text: str, legs: set[tuple[str, str]]
) -> None:
    assert _legs(extract(text, story_date=DAY)) == legs


def test_a_route_through_a_town_is_a_waypoint() -> None:
    draft = _draft("About 400 civilians were evacuated from Sumy to Poltava via Lubny.")
    [corridor] = draft["corridors"]
    assert (corridor["origin"], corridor["waypoints"], corridor["destination"]) == (
        "sumy",
        ["lubny"],
        "poltava",
    )


def test_a_crossing_into_a_country_goes_on_from_where_the_group_was_and_says_so() -> None:
    found = extract("Refugees fled Lviv on Monday. Many crossed into Poland.", story_date=DAY)
    [move] = [m for m in found.movements if m.destinations]
    places = found.places()
    assert [places[o].name for o in move.origins] == ["Lviv"]
    assert [places[d].name for d in move.destinations] == ["Poland"]
    assert any("last said to be (sentence 1)" in note for note in move.notes)


def test_a_sentence_keeps_its_own_origin() -> None:
    found = extract("Civilians fled Aleppo on Monday. Others fled Homs to Hama.", story_date=DAY)
    assert _legs(found) == {("Homs", "Hama")}


def test_a_return_never_takes_the_story_s_origin() -> None:
    found = extract("Residents fled Raqqa on Monday. Some returned to Tabqa.", story_date=DAY)
    assert _legs(found) == set()


def test_then_goes_on_from_where_the_clause_before_ended() -> None:
    text = "Thousands trekked from Sinjar into Syria, and then looped back into Iraq."
    legs = _legs(extract(text, story_date=DAY))
    assert ("Syria", "Iraq") in legs and ("Iraq", "Syria") not in legs


def test_continue_goes_on_from_where_people_stay() -> None:
    text = "Civilians were evacuated from Sumy. They can stay in Poltava or continue to Lviv."
    assert ("Poltava", "Lviv") in _legs(extract(text, story_date=DAY))


def test_a_range_of_places_is_not_a_journey() -> None:
    text = "Hundreds leave Antakya daily. Buses take them all over Turkey, from Izmir to Ankara."
    legs = _legs(extract(text, story_date=DAY))
    assert ("Izmir", "Ankara") not in legs
    assert {("Antakya", "Izmir"), ("Antakya", "Ankara")} <= legs


def test_a_part_of_a_country_is_the_town_the_story_leaves() -> None:
    text = (
        "About 2,000 migrants departed from Tapachula on Saturday. The caravan set out from "
        "southern Mexico in the hope of reaching Tijuana."
    )
    assert ("Tapachula", "Tijuana") in _legs(extract(text, story_date=DAY))


# --- Vehicles going in are not people ---------------------------------------------------------


def test_the_mariupol_corridor_runs_out_of_mariupol_and_the_buses_are_vehicles() -> None:
    text = (
        "Officials said a humanitarian corridor would open from Mariupol to Zaporizhzhia, via "
        "the port city of Berdiansk, on Friday. Forty-five buses were sent to Mariupol."
    )
    draft = _draft(text)
    [corridor] = draft["corridors"]
    assert (corridor["origin"], corridor["waypoints"], corridor["destination"]) == (
        "mariupol",
        ["berdyansk"],
        "zaporizhzhya",
    )
    city = next(p for p in draft["places"] if p["id"] == corridor["destination"])
    assert "GeoNames 687700 " in city["detail"]  # the city of 710,052, not a namesake village
    assert not [f for f in corridor["figures"] if f["kind"] == "buses"]
    [buses] = draft["vehicles"]
    assert (buses["what"], buses["destinations"]) == ("empty", ["mariupol"])
    assert [(f["kind"], f["value"]) for f in buses["figures"]] == [("buses", 45)]
    assert any(item.startswith("vehicles ") for item in draft["review"])
    scenario.validate(draft)


@pytest.mark.parametrize(
    ("text", "what", "target"),
    [
        ("Thirty-five buses were sent to Sumy for the evacuation.", "empty", "sumy"),
        ("A convoy of 40 trucks headed toward Idlib to evacuate civilians.", "empty", "idlib"),
        ("Aid trucks arrived in Madaya from Damascus on Friday.", "aid", "madaya"),
    ],
)
def test_vehicles_going_in_or_carrying_aid_move_no_one(text: str, what: str, target: str) -> None:
    draft = _draft(text)
    assert draft["corridors"] == []
    assert not [m for m in draft["movements"] if target in m["destinations"]]
    [vehicles] = draft["vehicles"]
    assert (vehicles["what"], vehicles["destinations"]) == (what, [target])


def test_people_move_out_of_where_empty_buses_went() -> None:
    draft = _draft("Twenty buses were sent from Poltava to Sumy to evacuate civilians.")
    pairs = {(c["origin"], c["destination"]) for c in draft["corridors"]}
    assert pairs == {("sumy", "poltava")}
    assert draft["vehicles"][0]["origins"] == ["poltava"]


def test_buses_that_carry_people_are_a_movement_of_people() -> None:
    found = extract("Buses carrying residents of Mariupol arrived in Zaporizhzhia.", story_date=DAY)
    assert _legs(found) == {("Mariupol", "Zaporizhzhia")} and not found.vehicles


# --- A flow needs people ----------------------------------------------------------------------


def test_a_place_in_an_establishment_s_name_is_no_place_and_police_are_no_flow() -> None:
    found = extract("His officers were called to Knucklehead's Bar on Friday.", story_date=DAY)
    assert not [t for t in found.toponyms if t.text == "Bar"]
    assert any(r.text == "Bar" and "establishment" in r.reason for r in found.rejected)
    assert found.movements == []


def test_a_place_before_s_still_locates_the_next_one() -> None:
    found = extract("Residents fled Ukraine's Mariupol for Zaporizhzhia.", story_date=DAY)
    assert _legs(found) == {("Mariupol", "Zaporizhzhia")}


def test_without_a_moved_subject_there_is_no_movement() -> None:
    assert extract("The talks moved from Geneva to Vienna.", story_date=DAY).movements == []


# --- Unresolved ends stay named ---------------------------------------------------------------


def test_a_camp_no_gazetteer_has_stays_named_and_its_movement_open() -> None:
    text = "Civilians fled Raqqa to the Tal Maltha camp on Monday."
    draft = _draft(text)
    assert draft["corridors"] == []
    [unknown] = draft["unresolved"]
    assert unknown["name"] == "Tal Maltha"
    [move] = draft["movements"]
    assert move["origins"] == ["raqqah"] and move["destinations"] == [unknown["id"]]
    assert any("unresolved place 'Tal Maltha'" in item for item in draft["review"])
    assert text[unknown["evidence"][0]["start"] : unknown["evidence"][0]["end"]] == "Tal Maltha"


# --- Spellings, regions and far namesakes (issue 26's extraction side) -----------------------


@pytest.mark.parametrize(
    ("text", "name", "geonames_id"),
    [
        ("Families fled Raqqa in Syria to the Ein Issa camp on Monday.", "Ein Issa", 172134),
        ("Families fled Raqqa in Syria to the camp at Ain Issa on Monday.", "Ain Issa", 172134),
        ("Thousands fled Khan Younis in Gaza toward Deir Al-Balah.", "Deir Al-Balah", 281141),
        ("Buses took families from Hasakah in Syria to the Al-Hool camp.", "Al-Hool", 173797),
    ],
)
def test_another_spelling_of_a_town_of_the_story_s_country_is_that_town(
    text: str, name: str, geonames_id: int
) -> None:
    """‘Ayn ‘Īsá, Dayr al Balaḩ and Al Ḩawl (not Hool, Mexico) by the spellings news uses."""
    [top] = [t for t in extract(text, story_date=DAY).toponyms if t.text == name]
    assert top.place.geonames_id == geonames_id
    assert "another spelling" in top.why and top.confidence < 0.8


def test_the_oblast_s_spelling_is_its_city_unless_the_text_says_oblast() -> None:
    city = extract("Evacuees from Mariupol in Ukraine arrived in Zaporizhia.", story_date=DAY)
    assert [t.place.geonames_id for t in city.toponyms if t.text == "Zaporizhia"] == [687700]
    area = extract("Shelling hit villages in the Zaporizhia region overnight.", story_date=DAY)
    assert [t.place.feature for t in area.toponyms if t.text == "Zaporizhia"] == ["admin1"]


@pytest.mark.parametrize(
    ("text", "features"),
    [
        ("Families fled Jenin in the West Bank toward Qalqilya.", ["populated place"] * 2),
        ("Raids hit the Jenin governorate and Qalqilya governorate.", ["admin2"] * 2),
    ],
)
def test_a_division_only_iso_names_is_its_town_unless_the_text_marks_it(
    text: str, features: list[str]
) -> None:
    """PS-JEN and PS-QQA, divisions ISO 3166-2 names at derived points, are the towns
    Janīn and Qalqīlyah (another spelling) unless a word of division follows."""
    found = extract(text, story_date=DAY).toponyms
    assert [t.place.feature for t in found if t.text in {"Jenin", "Qalqilya"}] == features
    assert all(t.place.country == "PS" for t in found)


@pytest.mark.parametrize(
    ("text", "feature"),
    [
        ("Heavy fighting in Hama countryside forced families to flee.", "admin1"),
        ("Heavy fighting in the countryside of Hama forced families to flee.", "admin1"),
        ("Shelling hit Idlib, Homs and Hama provinces on Sunday.", "admin1"),
        ("Shelling hit the provinces of Homs and Hama on Sunday.", "admin1"),
        ("Heavy fighting in Hama forced families to flee.", "populated place"),
        ("Families fled Hama for the coast on Sunday.", "populated place"),
    ],
)
def test_a_word_of_division_makes_a_name_the_division(text: str, feature: str) -> None:
    [hama] = [t for t in extract(text, story_date=DAY).toponyms if t.text == "Hama"]
    assert hama.place.feature == feature and hama.place.country == "SY"


def test_a_far_namesake_is_no_movement_s_end_and_the_review_says_why() -> None:
    """Nokomis has namesakes only in the US; a story about Syria's camps never goes there."""
    text = (
        "Syrian families fled Raqqa in Syria on Monday. "
        "Hundreds of them arrived at the camp in Nokomis, aid workers said."
    )
    draft = _draft(text)
    assert all(p["name"] != "Nokomis" for p in draft["places"])
    assert [u["name"] for u in draft["unresolved"]] == ["Nokomis"]
    assert any(
        item.startswith("unresolved 'Nokomis'") and "outside the story's countries (SY)" in item
        for item in draft["review"]
    )


def test_a_renowned_far_namesake_names_no_country_for_itself() -> None:
    """San-Pédro, a city of Côte d'Ivoire, is the best reading of "San Pedro" alone; it makes
    no story of Mozambique one of Côte d'Ivoire, so the camp stays named and unresolved."""
    text = (
        "Cyclone survivors in Beira, Mozambique, crowded into schools. "
        "Teams moved families from Beira to the San Pedro camp on Monday."
    )
    draft = _draft(text)
    assert all(p.get("country") != "CI" for p in draft["places"])
    assert "San Pedro" in [u["name"] for u in draft["unresolved"]]


def test_a_close_runner_up_far_away_is_named_in_the_review() -> None:
    """A local story (LGL 41662233, read from ../shared) whose "Roy" could as well be the Roy
    of another state, 1,060 km away: the review says which."""
    lgl = shared(SHARED / "geoparse-dev" / "lgl.jsonl")
    [text] = [
        story["text"]
        for story in map(json.loads, lgl.read_text(encoding="utf-8").splitlines())
        if story["id"] == "41662233"
    ]
    review = draft_scenario(text).review
    assert any(
        item.startswith("check 'Roy'") and ", or Roy (US), 1,060 km away" in item for item in review
    )


def test_a_range_of_destinations_is_one_movement_drafted_to_its_first_place() -> None:
    text = (
        "Hundreds of residents are leaving Antakya daily. Buses take them to provinces "
        "all over Turkey, from Istanbul to Hakkari."
    )
    draft = _draft(text)
    assert [c["name"] for c in draft["corridors"]] == ["Antakya to Istanbul"]
    assert any("Hakkâri" in item for item in draft["review"])
    assert any("Hakkâri" in item and "one movement" in item for item in draft["review"])


def test_destinations_each_with_its_own_to_are_movements_of_their_own() -> None:
    text = "Families fled Hodeidah to Sanaa or to the southern port city of Aden."
    assert _legs(extract(text, story_date=DAY)) == {("Hodeidah", "Sanaa"), ("Hodeidah", "Aden")}
    found = extract(text, story_date=DAY)
    assert len([m for m in found.movements if m.complete]) == 2


def test_a_name_that_qualifies_a_noun_is_no_unknown_place() -> None:
    text = "Thousands of Yemenis fled Hodeidah to the Houthi-held capital Sanaa."
    assert [t.text for t in extract(text, story_date=DAY).toponyms] == ["Hodeidah", "Sanaa"]


def test_a_person_s_next_leg_starts_where_people_last_got_to() -> None:
    crossing = "Families crossed into Poland at the border crossing at Medyka on Friday. "
    text = crossing + "Olena said she would travel on to Krakow next week."
    found = extract(text, story_date=DAY)
    assert ("Medyka", "Krakow") in _legs(found)
    assert any("where the previous leg ended" in n for m in found.movements for n in m.notes)
    later = crossing + "Guards were busy. Queues were long. Olena said she would travel to Krakow."
    assert all(origin != "Medyka" for origin, _ in _legs(extract(later, story_date=DAY)))


def test_the_city_is_the_city_the_text_named_last() -> None:
    text = "Shelling hit Aleppo on Monday. Families from Atarib fled to the crowded city centre."
    assert _legs(extract(text, story_date=DAY)) == {("Atarib", "Aleppo")}
    named = "Shelling hit Aleppo on Monday. Families from Atarib fled to the city of Idlib."
    assert _legs(extract(named, story_date=DAY)) == {("Atarib", "Idlib")}


# --- Displacement sites (geodata/sites.yaml) as ends ------------------------------------------


@pytest.mark.parametrize(
    ("text", "leg"),
    [
        (
            "Buses brought families from Baghouz to the al-Hol camp on Tuesday.",
            ("Baghouz", "al-Hol"),
        ),
        ("Thousands of Yazidis fled Sinjar to Mount Sinjar.", ("Sinjar", "Mount Sinjar")),
        ("Families from Mosul were taken to the Hammam al-Alil camp.", ("Mosul", "Hammam al-Alil")),
        ("Families fled Khan Younis to al-Mawasi on Monday.", ("Khan Younis", "al-Mawasi")),
    ],
)
def test_a_camp_or_named_area_is_a_movement_s_end(text: str, leg: tuple[str, str]) -> None:
    """Sites beside a town (al-Mawasi, 5 km from Khan Younis) are ends of their own."""
    found = extract(text, story_date=DAY)
    assert leg in _legs(found)
    [site] = [t for t in found.toponyms if t.text == leg[1]]
    assert site.place.kind == "curated" and site.place.feature in {"camp", "area", "city"}


def test_a_border_crossing_passed_on_the_way_is_a_waypoint() -> None:
    found = extract("Families crossed from Idlib into Turkey at the Bab al-Hawa crossing.")
    places = found.places()
    [move] = found.movements
    assert [places[v].feature for v in move.via] == ["border_crossing"]
    assert [places[d].name for d in move.destinations] == ["Turkey"]
