"""Movement rules that make the grammar hold on other crises than the ones it was shaped on.

Each sentence is our own short example (examples, not evidence: accuracy is measured on real
stories in ``test_movements_dev.py``).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from conftest import movement_legs

from routes.extract import draft_scenario, extract

DAY = dt.date(2021, 6, 15)


_legs = movement_legs


def _draft(text: str) -> dict[str, Any]:
    return draft_scenario(text, story_date=DAY).model_dump()


def test_a_convoy_after_its_speaker_is_the_mover_not_the_speaker() -> None:
    draft = _draft(
        "The envoy said he regretted that a relief convoy has yet to cross into Syria from "
        "Turkey and reach Idlib, where 9,000 people wait without food."
    )
    assert not draft["corridors"] and not draft["movements"]
    assert {v["what"] for v in draft["vehicles"]} == {"aid"}


@pytest.mark.xfail(
    strict=True,
    reason=(
        "the reader has no frame for 'delivering food to X' or 'a convoy was under way to "
        "Y' (issue 34: nouns and idioms of movement)"
    ),
)
def test_the_same_vehicles_just_after_an_aid_convoy_are_that_convoy() -> None:
    draft = _draft(
        "A United Nations convoy is delivering food to Madaya on Monday. Officials said a "
        "convoy was also under way to Zabadani."
    )
    assert not draft["corridors"] and not draft["movements"]
    assert [v["what"] for v in draft["vehicles"]] == ["aid", "aid"]


def test_buses_after_an_aid_convoy_still_carry_people() -> None:
    text = "Aid trucks reached Madaya on Monday. Buses later left Madaya for Idlib."
    assert _legs(extract(text, story_date=DAY)) == {("Madaya", "Idlib")}


def test_a_demonym_is_no_unresolved_place() -> None:
    draft = _draft("Thousands of refugees fled from Sudan to the Chadian town of Adre.")
    assert not draft["unresolved"]
    assert ("sudan", "adre") in {(c["origin"], c["destination"]) for c in draft["corridors"]} | {
        (o, d) for m in draft["movements"] for o in m["origins"] for d in m["destinations"]
    }


def test_a_region_before_capital_locates_the_town_after_it() -> None:
    """The parser reads "El Fasher" as the subject of "fled"; a town does not flee, its
    people do, from it."""
    text = "The people of North Darfur capital El Fasher fled to Tawila."
    assert _legs(extract(text, story_date=DAY)) == {("El Fasher", "Tawila")}


def test_a_demonym_among_the_people_is_not_their_origin() -> None:
    text = "Around 100 passengers including Americans landed in Doha on Thursday."
    assert _legs(extract(text, story_date=DAY)) == set()


def test_a_town_s_airport_is_the_town() -> None:
    text = "Around 100 passengers arrived in Doha after flying from Kabul airport."
    assert _legs(extract(text, story_date=DAY)) == {("Kabul", "Doha")}


def test_a_hyphened_name_keeps_its_small_words() -> None:
    text = "Thousands of people fled Port-au-Prince to Jacmel this week."
    assert _legs(extract(text, story_date=DAY)) == {("Port-au-Prince", "Jacmel")}


def test_kosovo_is_a_country() -> None:
    text = "Thousands of families crossed from Skopje into Kosovo."
    assert _legs(extract(text, story_date=DAY)) == {("Skopje", "Kosovo")}


def test_what_people_flee_at_a_place_makes_it_their_origin() -> None:
    text = (
        "Refugees used a ceasefire to flee the cold and the siege at the enclave of "
        "Srebrenica. They reached safety in the city of Tuzla."
    )
    assert _legs(extract(text, story_date=DAY)) == {("Srebrenica", "Tuzla")}


def test_flee_a_long_name_for_a_place_and_a_part_of_another() -> None:
    text = (
        "Thousands continue to flee the former Yugoslav Republic of Macedonia for Kosovo and "
        "southern Serbia."
    )
    legs = _legs(extract(text, story_date=DAY))
    assert legs == {("Republic of Macedonia", "Kosovo"), ("Republic of Macedonia", "Serbia")}


def test_a_country_that_only_names_a_border_is_no_destination() -> None:
    text = "Civilians in Daraa have begun to flee to the border with Jordan."
    assert _legs(extract(text, story_date=DAY)) == set()
    text = "Families from Daraa fled toward the Jordan border."
    assert _legs(extract(text, story_date=DAY)) == set()


def test_one_resident_of_a_town_gives_its_origin() -> None:
    text = "Abdullah, a resident of Kandahar, crossed into Pakistan on Tuesday."
    assert _legs(extract(text, story_date=DAY)) == {("Kandahar", "Pakistan")}


def test_a_town_s_people_are_a_movement_of_their_own_a_region_s_are_not() -> None:
    text = "Thousands fled Afghanistan to Pakistan. Families from Kandahar fled to Pakistan too."
    legs = _legs(extract(text, story_date=DAY))
    assert legs == {("Afghanistan", "Pakistan"), ("Kandahar", "Pakistan")}
    text = "Thousands fled Ethiopia to Sudan. Families from Tigray fled to Sudan too."
    assert _legs(extract(text, story_date=DAY)) == {("Ethiopia", "Sudan"), ("Tigray", "Sudan")}


def test_a_famous_far_namesake_of_a_small_town_stays_unresolved() -> None:
    draft = _draft(
        "Insurgents attacked the town of Palma in Cabo Delgado province of Mozambique. "
        "Thousands of people fled Palma to Pemba by boat."
    )
    assert not draft["corridors"]
    assert [u["name"] for u in draft["unresolved"]] == ["Palma"]
    assert any("only places outside the story's countries (MZ)" in r for r in draft["review"])


def test_a_city_of_a_million_may_be_named_far_from_the_story() -> None:
    text = "Hundreds of Syrians fled from Aleppo to Turkey and then flew on to Hamburg."
    assert ("Turkey", "Hamburg") in _legs(extract(text, story_date=DAY))  # on from Turkey


def test_a_small_town_before_s_is_part_of_a_longer_name() -> None:
    draft = _draft(
        "About 3,500 refugees arrived from Myanmar in the Cox's Bazaar area of Bangladesh."
    )
    assert not draft["unresolved"]
    assert all(t["text"] != "Cox" for t in draft["toponyms"])


def test_a_city_before_s_locates_only_the_name_right_after_it() -> None:
    text = "Others fled Mosul's Old City to Erbil. Civilians fled Yemen's capital Sanaa for Aden."
    assert _legs(extract(text, story_date=DAY)) == {("Mosul", "Erbil"), ("Sanaa", "Aden")}


@pytest.mark.xfail(
    strict=True,
    reason=(
        "the shipped parser reads 'to relief camps' as a clause ('to' a marker, 'relief' "
        "a verb) (issue 34: the parser)"
    ),
)
def test_to_a_noun_of_place_after_its_modifier_is_a_destination() -> None:
    text = "About 2,000 people from Dadu were moved to relief camps in Hyderabad."
    assert _legs(extract(text, story_date=DAY)) == {("Dadu", "Hyderabad")}


def test_people_forced_from_a_place_move() -> None:
    text = "The floods forced 30,000 people from Dadu to Hyderabad."
    assert _legs(extract(text, story_date=DAY)) == {("Dadu", "Hyderabad")}


def test_residents_of_a_name_written_another_way_are_its_people() -> None:
    text = "Residents of Kiryat Shmona were evacuated to hotels in Tiberias."
    assert _legs(extract(text, story_date=DAY)) == {("Kiryat Shmona", "Tiberias")}


def test_the_old_city_of_a_town_is_that_town() -> None:
    text = "Rebels left the Old City of Homs for Idlib under a deal."
    assert _legs(extract(text, story_date=DAY)) == {("Homs", "Idlib")}


def test_a_site_no_gazetteer_has_in_a_town_takes_the_town() -> None:
    text = "Thousands of evacuees from Metairie were bused to the Astrodome in Houston."
    assert _legs(extract(text, story_date=DAY)) == {("Metairie", "Houston")}


def test_a_country_s_people_and_a_town_s_bound_for_one_town_are_one_flight() -> None:
    text = "Evacuees from Afghanistan landed in Doha. The flight from Kabul landed in Doha at noon."
    assert _legs(extract(text, story_date=DAY)) == {("Kabul", "Doha")}


def test_a_humanitarian_convoy_is_aid_a_humanitarian_corridor_people() -> None:
    draft = _draft("A humanitarian convoy of 20 trucks arrived in Mekelle on Friday.")
    assert not draft["movements"] and not draft["corridors"]
    assert [v["what"] for v in draft["vehicles"]] == ["aid"]
    text = "Officials said a humanitarian corridor would open from Mariupol to Zaporizhzhia."
    assert _legs(extract(text, story_date=DAY)) == {("Mariupol", "Zaporizhzhia")}


def test_across_the_border_from_a_place_is_a_crossing_not_a_range() -> None:
    text = "Tens of thousands of ethnic Albanians poured across the border from Kosovo into Kukes."
    assert _legs(extract(text, story_date=DAY)) == {("Kosovo", "Kukes")}


def test_an_ethnic_group_is_no_country_s_people() -> None:
    text = "Thousands of ethnic Albanians crossed into Kukes on Monday."
    assert _legs(extract(text, story_date=DAY)) == set()


def test_a_site_at_a_place_no_gazetteer_has_keeps_it_named() -> None:
    draft = _draft("Thousands of refugees from Srebrenica fled to the UN base at Potocari.")
    assert [u["name"] for u in draft["unresolved"]] == ["Potocari"]
    draft = _draft("Families were bused from Potocari to Kladanj on Wednesday.")
    assert [u["name"] for u in draft["unresolved"]] == ["Potocari"]


def test_people_vehicles_went_in_for_leave_where_the_vehicles_went() -> None:
    text = "Buses entered Douma on Thursday to take fighters and their families to Jarablus."
    assert _legs(extract(text, story_date=DAY)) == {("Douma", "Jarablus")}


def test_victims_are_people_who_move() -> None:
    text = "Flood victims from Dadu district have moved to Karachi."
    assert _legs(extract(text, story_date=DAY)) == {("Dadu", "Karachi")}


def test_food_for_people_is_no_people_carried() -> None:
    draft = _draft("The 15 trucks, carrying food for 13,000 people, travelled from Adre to Nyala.")
    assert not draft["corridors"] and not draft["movements"]
    assert [v["what"] for v in draft["vehicles"]] == ["aid"]


@pytest.mark.xfail(
    strict=True,
    reason=(
        "the reader takes vehicles leaving a place for people; an organisation's convoy "
        "is not yet read as aid (issue 34)"
    ),
)
def test_people_where_a_convoy_goes_are_not_its_load() -> None:
    draft = _draft(
        "The UN said its convoy would travel from Gaziantep to Aleppo, where people starve."
    )
    assert not draft["corridors"] and not draft["movements"]
    assert [v["what"] for v in draft["vehicles"]] == ["aid"]


def test_shelters_at_a_named_building_in_a_town_go_to_the_town() -> None:
    text = (
        "Paradise residents were evacuated to shelters at the Silver Dollar Fairgrounds in Chico."
    )
    assert _legs(extract(text, story_date=DAY)) == {("Paradise", "Chico")}


def test_hostilities_from_a_place_are_no_one_s_origin() -> None:
    text = "Residents of towns exposed to rockets from Gaza were evacuated to Eilat."
    assert _legs(extract(text, story_date=DAY)) == set()


def test_a_name_spelled_another_way_is_looked_up_beyond_the_story_s_focus() -> None:
    text = (
        "Strikes hit Gaza City, Khan Younis, Rafah and Deir al-Balah again. In Israel, "
        "residents of Kiryat Shmona fled to Haifa."
    )
    assert ("Kiryat Shmona", "Haifa") in _legs(extract(text, story_date=DAY))


def test_from_a_country_s_border_is_no_origin_in_that_country() -> None:
    text = "Others travelled north from Egypt's border to Wadi Halfa."
    assert _legs(extract(text, story_date=DAY)) == set()


def test_twin_towns_across_a_border_are_two_places() -> None:
    text = "Nearly 2,000 migrants crossed the river from Piedras Negras into Eagle Pass."
    assert _legs(extract(text, story_date=DAY)) == {("Piedras Negras", "Eagle Pass")}


def test_arrived_by_train_in_a_place_is_a_destination() -> None:
    text = "Evacuees from Kharkiv arrived by train in Lviv."
    assert _legs(extract(text, story_date=DAY)) == {("Kharkiv", "Lviv")}


def test_displaced_in_a_place_left_it() -> None:
    text = "Thousands were displaced in Mosul to Erbil."
    assert _legs(extract(text, story_date=DAY)) == {("Mosul", "Erbil")}
