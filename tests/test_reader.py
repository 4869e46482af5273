"""The reader: movements read from each sentence's structure and followed across the story.

Each text is our own short example of a class of sentences (examples, not evidence: accuracy
is measured on real news in ``test_movements_dev.py`` and ``docs/extraction.md``).
"""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

from conftest import movement_legs

from routes.extract import draft_scenario, extract

DAY = dt.date(2021, 6, 15)


def _legs(text: str) -> set[tuple[str, str]]:
    return movement_legs(extract(text, story_date=DAY))


def _movements(text: str) -> list[Any]:
    return extract(text, story_date=DAY).movements


def _people(text: str) -> dict[tuple[str, str], set[int]]:
    """Each movement's (origin, destination) as the text names them → its people figures."""
    found = extract(text, story_date=DAY)

    def said(refs: list[str]) -> str:
        return str(found.mentions(refs[0])[0].text) if refs and found.mentions(refs[0]) else ""

    return {
        (said(m.origins), said(m.destinations)): {f.value for f in m.figures if f.kind == "people"}
        for m in found.movements
    }


# --- roles from the sentence's structure -----------------------------------------------------


def test_a_phrase_of_direction_on_a_road_is_no_end_unless_people_go_along_it() -> None:
    assert _legs("Civilians fled Kharkiv as shells hit the road to Poltava.") == set()
    assert _legs("Civilians fled Kharkiv along the road to Poltava.") == {("Kharkiv", "Poltava")}


def test_a_passive_without_an_agent_moves_its_subject() -> None:
    assert _legs("About 500 nurses were flown from Kabul to Doha.") == {("Kabul", "Doha")}


def test_a_noun_of_movement_has_its_own_ends() -> None:
    assert _legs("The exodus of families from Herat to Mashhad continued.") == {
        ("Herat", "Mashhad")
    }


def test_a_second_leg_in_a_relative_clause() -> None:
    legs = _legs("The wounded were driven to Kandahar, from where they were flown to Kabul.")
    assert ("Kandahar", "Kabul") in legs


def test_people_named_by_their_work_or_their_people_move() -> None:
    assert _legs("Dozens of teachers fled Herat for Kabul.") == {("Herat", "Kabul")}
    assert _legs("Some 300 Hazaras crossed from Herat into Iran.") == {("Herat", "Iran")}


def test_a_from_phrase_that_says_who_people_are_is_where_they_come_from_only_if_they_move() -> None:
    assert _legs("Volunteers from Lviv cooked for the crowds at the station.") == set()


def test_vehicles_sent_in_to_fetch_people_move_them_out_of_where_they_went() -> None:
    legs = _legs("Buses entered Daraya on Friday to take the families to Idlib.")
    assert legs == {("Daraya", "Idlib")}


def test_a_place_on_a_span_of_time_is_where_the_verb_went() -> None:
    text = "Thousands fled Jasper overnight. Many sought refuge for the night in Hinton."
    assert _legs(text) == {("Jasper", "Hinton")}


def test_where_fighting_drove_people_out_is_their_origin() -> None:
    text = "Some 5,000 Sudanese fled to Chad after fighting in Nyala."
    assert _legs(text) == {("Nyala", "Chad")}
    assert _legs("Heavy shelling in Kherson drove hundreds of families to Odesa.") == {
        ("Kherson", "Odesa")
    }
    assert _legs("Some 5,000 people fled to Chad after fighting in Chad.") == set()


def test_what_people_fled_locates_where_they_left() -> None:
    moves = _movements("Thousands of people continue to flee hunger and fighting in South Sudan.")
    assert [(m.origins, m.notes) for m in moves] == [
        (
            ["geonames:7909807"],
            ["origin: where its sentence says what drove people out happened (sentence 1)"],
        )
    ]


def test_on_to_is_a_destination() -> None:
    text = "Thousands fled Mosul for Erbil. Some are continuing on to the city of Dohuk."
    assert ("Erbil", "Dohuk") in _legs(text)


def test_a_building_named_for_its_town_is_in_that_town() -> None:
    text = "Thousands were evacuated from Tacloban to the Cebu City Sports Center."
    assert _legs(text) == {("Tacloban", "Cebu City")}
    assert _legs("Some 380 refugees from Juba arrived at the Kiryandongo Reception Centre.") == {
        ("Juba", "Kiryandongo")
    }
    text = "Stranded Pakistanis were flown from Kabul to Benazir International Airport Islamabad."
    assert _legs(text) == {("Kabul", "Islamabad")}  # the building's word first


def test_a_headline_in_title_case_is_read_as_a_sentence() -> None:
    assert _legs("Thousands Flee Mosul for Erbil as Fighting Nears\n\nMore text.") == {
        ("Mosul", "Erbil")
    }
    found = extract("Fighting Prompts an Exodus From Yemen, Often on Boats", story_date=DAY)
    assert [t.text for t in found.toponyms] == ["Yemen"]


def test_their_country_is_the_country_of_the_people_who_left_it() -> None:
    assert _legs("Some 3.7 million Syrians fled their country for Turkey.") == {
        ("Syrians", "Turkey")
    }
    assert _legs("The refugees fled their country for Turkey.") == set()


def test_a_town_that_took_people_in_is_where_they_went() -> None:
    text = "The town of Erbil took in thousands of refugees from Mosul."
    assert _legs(text) == {("Mosul", "Erbil")}


def test_people_who_left_a_place_and_leave_again_leave_from_there() -> None:
    text = "Residents of Mosul moved to the eastern districts on Monday. Many later left for Erbil."
    assert _legs(text) == {("Mosul", "Erbil")}


def test_a_peoples_name_before_a_noun_of_place_is_no_unknown_place() -> None:
    moves = _movements("Hundreds of refugees returned to a shattered Kyrgyz town.")
    assert not [r for m in moves for r in [*m.origins, *m.destinations]]


def test_the_towns_residents_come_from_the_town_told_of() -> None:
    text = "Fighting broke out in Malakal last week. Many of the town's residents fled into Sudan."
    assert _legs(text) == {("Malakal", "Sudan")}


def test_a_place_a_sentence_opens_on_is_where_those_who_fled_are() -> None:
    text = "At the Adre border post, refugees said they had fled fighting around Nyala."
    assert _legs(text) == {("Nyala", "Adre")}
    assert _legs("In Sudan, residents fled Nyala.") == set()  # the country holding it


def test_the_people_named_again_are_the_group_told_of() -> None:
    text = (
        "At least 5,000 Burundian nationals were seeking refuge in Tanzania. "
        "The Burundians were fleeing violence in Bujumbura."
    )
    assert _legs(text) == {("Bujumbura", "Tanzania")}
    text = "The UNHCR will fly in aid from Dubai. Many people fled to Tbilisi."
    assert _legs(text) == set()  # "the UNHCR" is no people named again


def test_a_return_with_no_origin_comes_back_from_where_people_were_told_going() -> None:
    text = (
        "About 9,000 refugees streamed into Uganda in May. "
        "Last week 2,000 refugees walked back into South Sudan."
    )
    assert ("Uganda", "South Sudan") in _legs(text)
    notes = [n for m in _movements(text) for n in m.notes]
    assert "origin: where the story last told people reaching, for a return (sentence 1)" in notes


def test_money_sent_back_is_no_return() -> None:
    text = "Thousands crossed into Poland. He hopes to send money back to Ukraine."
    assert ("Poland", "Ukraine") not in _legs(text)


def test_a_list_end_is_drafted_to_a_place_the_gazetteer_has() -> None:
    text = "Residents left Thatta on foot, heading for Quzzwala and Karachi."
    assert _legs(text) == {("Thatta", "Karachi")}
    (move,) = _movements(text)
    assert move.destinations == ["geonames:1174872"]  # Karachi drafted; Quzzwala kept as "also"


# --- status ----------------------------------------------------------------------------------


def test_a_movement_that_did_not_happen_is_not_drawn() -> None:
    text = "The refugees could not cross from Gevgelija into Idomeni because the gate was shut."
    assert _legs(text) == set()
    assert _legs("The families were unable to leave Madaya for Beirut.") == set()


def test_a_planned_movement_is_drawn_as_planned() -> None:
    moves = _movements("The residents will be taken from Sumy to Poltava on Friday.")
    assert [m.status for m in moves if m.complete] == ["planned"]


# --- figures ---------------------------------------------------------------------------------


def test_the_killed_of_one_clause_are_not_the_movers_of_the_next() -> None:
    text = (
        "At least 300 people were killed in the battle for Mosul and thousands more fled the city."
    )
    assert 300 not in {v for values in _people(text).values() for v in values}


def test_a_total_is_not_one_leg_s_figure() -> None:
    text = (
        "About 2,000 people were bused from Aleppo to Idlib on Monday. "
        "In all, 10,000 people have been evacuated from Aleppo."
    )
    assert _people(text)[("Aleppo", "Idlib")] == {2000}


def test_the_killed_are_not_counted_as_moved() -> None:
    text = "Shelling killed 40 people in Kharkiv as 3,000 residents fled to Poltava."
    figures = _people(text)
    assert figures.get(("Kharkiv", "Poltava"), figures.get(("", "Poltava"))) == {3000}


def test_a_return_is_a_movement_of_its_own_in_its_own_direction_and_day() -> None:
    text = "On Monday 5,000 people fled Mosul for Erbil. On Thursday 800 of them returned to Mosul."
    found = extract(text, story_date=dt.date(2021, 6, 18))
    legs = movement_legs(found)
    assert legs == {("Mosul", "Erbil"), ("Erbil", "Mosul")}
    back = next(m for m in found.movements if found.mentions(m.origins[0])[0].text == "Erbil")
    assert back.date == dt.date(2021, 6, 17)
    assert {f.value for f in back.figures} == {800}


def test_one_family_s_journey_told_over_three_sentences() -> None:
    text = (
        "The Haddad family left Homs before dawn on Monday. "
        "By noon they had reached Hama. "
        "That night they crossed into Turkey at Reyhanli."
    )
    legs = _legs(text)
    assert ("Homs", "Hama") in legs
    assert ("Hama", "Turkey") in legs or ("Hama", "Reyhanli") in legs


def test_the_draft_names_the_sentence_an_origin_came_from() -> None:
    draft = draft_scenario(
        "Hundreds of families left Sinjar on Sunday. They reached Duhok two days later.",
        story_date=DAY,
    ).model_dump()
    corridor = draft["corridors"][0]["id"]
    notes = " ".join(r for r in draft["review"] if r.startswith(f"corridor {corridor}:"))
    assert "sentence 1" in notes


def test_a_crossing_s_direction_hung_on_what_was_crossed_is_the_crossing_s() -> None:
    """ "Crossed the border into X": the parser may hang "into X" on "border"; the road to X
    still says only where a road goes."""
    assert _legs("Thousands crossed the border into Turkey from Idlib.") == {("Idlib", "Turkey")}
    assert _legs("Thousands of families waited on the road to Idlib.") == set()


def test_a_place_the_parse_hung_away_from_its_verb_is_still_its_end() -> None:
    """ "into" read as the marker of "neighbouring": Sudan is still where they crossed to."""
    assert ("Idlib", "Turkey") in _legs(
        "Thousands of families from Idlib crossed a river into neighbouring Turkey."
    )


def test_what_is_seen_happening_happened() -> None:
    """ "Could be seen crossing": "could" is the seeing's, not the crossing's."""
    moves = _movements("Families could be seen crossing from Idlib into Turkey on Friday.")
    assert [m.status for m in moves if m.complete] == ["reported"]


def test_a_clause_hung_on_a_closing_said_keeps_its_own_mover() -> None:
    """The parse may hang "after escaping X" on "officials said": the escape is still the
    group's, so X is where it came from."""
    assert _legs(
        "About 900 families reached Kano on Monday after escaping the takeover of the town of "
        "Monguno, officials said."
    ) == {("Monguno", "Kano")}


def test_taking_refuge_in_a_house_in_a_town_is_going_to_the_town() -> None:
    """ "Took refuge in X" is where people went (not "took" people from X), and a house's
    owner is no place: the town it is in is."""
    assert _legs(
        "Fourteen relatives fled Lahaina as the fire spread. The relatives took refuge in "
        "Lawrence's house in Pukalani."
    ) == {("Lahaina", "Pukalani")}


def test_a_group_s_origin_told_more_finely_soon_after_is_the_finer_one() -> None:
    text = (
        "Around 2,000 migrants set out from southern Mexico in a caravan toward the United "
        "States. The migrants had departed from Tapachula early Saturday."
    )
    assert _legs(text) == {("Tapachula", "United States")}


def test_a_headline_told_by_no_one_is_the_story_s_movement_told_again() -> None:
    text = (
        "Heading from Mexico to the US\n\nAround 2,000 migrants left Tapachula for the "
        "United States on Saturday."
    )
    assert _legs(text) == {("Tapachula", "US")}


def test_the_rest_of_a_group_housed_in_a_town_of_the_country_came_from_its_origin() -> None:
    """ "The rest" are of the group just told; housed in a town of the country they reached,
    they came there from where they left."""
    text = (
        "Some 28,000 refugees have arrived in Armenia from Nagorno-Karabakh since Sunday. "
        "The rest are being housed in hotels in the city of Goris."
    )
    assert ("Nagorno-Karabakh", "Goris") in _legs(text)


def test_the_name_after_a_region_s_capital_is_where_its_people_are_from() -> None:
    """ "The residents of Tigray capital Mekelle": the town, however the parse hangs it, not
    the region."""
    assert _legs("Half the residents of Tigray capital Mekelle have fled to Addis Ababa.") == {
        ("Mekelle", "Addis Ababa")
    }


def test_a_town_parsed_as_the_subject_of_fleeing_is_where_its_people_fled_from() -> None:
    """The parse may make the town the subject ("... capital El Fasher has fled"): a town
    does not flee, its people do, from it; a dateline's place ("Manila: ...") is no subject."""
    assert _legs(
        "Most of the population of North Darfur capital El Fasher has fled to the town of Tawila."
    ) == {("El Fasher", "Tawila")}
    assert ("Manila", "Iligan") not in _legs(
        "Manila: Residents of the city of Marawi fled in droves to Iligan."
    )


def test_a_flow_of_people_is_a_movement_and_a_flow_of_water_is_not() -> None:
    """ "Stem a flood of refugees into X": the parse hangs "into X" on "stem", the verb the
    noun of movement is the object of; its ends are the noun's."""
    assert _legs(
        "Aid workers failed to stem a flood of hungry refugees into Chad from Darfur."
    ) == {("Darfur", "Chad")}
    assert _legs("Flood waters from the Wadi Derna river poured into Derna.") == set()


def test_others_of_a_group_came_from_areas_including_a_named_town() -> None:
    """ "Others" are of the group just told; "areas including the capital, X" names X (the
    parse may hang X anywhere after its comma); arriving from X, they came where the group
    is."""
    text = (
        "More than 6,000 refugees fleeing Burundi have crossed into Tanzania. Many have "
        "arrived from neighbouring Makamba province, but others have come from other areas "
        "including the capital, Bujumbura fearful that elections could bring more unrest."
    )
    assert ("Bujumbura", "Tanzania") in _legs(text)


def test_a_speaker_s_we_is_not_the_group_told_of() -> None:
    """A quoted "we" is the speaker's own group: it does not go on from where the story's
    group went."""
    text = (
        "Thousands fled Khan Younis to al-Mawasi on Monday. Others traveled by car. "
        '"We moved to Rafah," said one evacuee.'
    )
    assert ("al-Mawasi", "Rafah") not in _legs(text)


def test_where_a_group_came_from_told_just_after_its_arrival() -> None:
    assert _legs("Ms Sato came to Saitama on Thursday. She had fled Iwaki by car.") == {
        ("Iwaki", "Saitama")
    }


def test_the_city_is_the_town_just_named() -> None:
    """ "The town", "the city" stand for the last town named (any town of the gazetteer, not
    only the curated ones), never for a country named since."""
    assert _legs("Shells hit Antakya in Turkey on Monday. Residents fled the city for Konya.") == {
        ("Antakya", "Konya")
    }


def test_a_decision_told_as_taken_is_a_movement_made() -> None:
    (movement,) = _movements("The Sato family decided to move from Iwaki to Konan.")
    assert movement.status != "planned"
    (planned,) = _movements("The Sato family plans to move from Iwaki to Konan.")
    assert planned.status == "planned"


def test_a_people_s_name_is_no_origin() -> None:
    """ "Egyptians" says who moved, not where from: Egyptians leaving Libya came from Libya,
    and "Lebanese fled to Syria" alone says where they went, not whence (issue 34)."""
    legs = _legs(
        "Thousands of migrant workers fled Libya for Tunisia on Monday. More than 2,000 "
        "Egyptians crossed into Tunisia on Thursday."
    )
    assert ("Egyptians", "Tunisia") not in legs and ("Libya", "Tunisia") in legs
    assert _legs("Some 250,000 Lebanese fled to Syria in 2006.") == set()


def test_towns_such_as_x_and_the_place_of_what_drove_people_out() -> None:
    assert _legs(
        "Residents fled coastal towns such as Pensacola and took shelter in Tallahassee."
    ) == {("Pensacola", "Tallahassee")}
    assert _legs("Families displaced by the floods in Garissa have moved to Nairobi.") == {
        ("Garissa", "Nairobi")
    }


def test_a_return_s_origin_told_in_the_next_sentence() -> None:
    text = (
        "More than 100,000 Afghans have returned to Afghanistan in two weeks. The Afghans had "
        "traveled from Karachi to the border crossing."
    )
    assert ("Karachi", "Afghanistan") in _legs(text)


def test_a_place_a_verb_of_its_own_governs_is_no_stray_end() -> None:
    """ "As compared to X" hangs X on "compared", not on the flight; "crossing into
    neighbouring X" (the preposition read as marking "neighbouring") still reaches X."""
    text = (
        "Most new arrivals in Uganda are now mostly fleeing from Central Equatoria, as "
        "compared to Eastern Equatoria in earlier weeks."
    )
    assert ("Central Equatoria", "Eastern Equatoria") not in _legs(text)
    assert ("Mosul", "Syria") in _legs("Thousands fled Mosul, crossing into neighboring Syria.")


def test_a_continent_is_no_end_to_draw() -> None:
    """ "On their way to Europe": no point to draw a line to; the movement stays open."""
    found = extract(
        "Thousands of migrants left Edirne to make their way to Europe.", story_date=DAY
    )
    assert _legs("Thousands of migrants left Edirne to make their way to Europe.") == set()
    assert [m.origins for m in found.movements] == [["geonames:747712"]]


def test_newcomers_in_a_place_went_there() -> None:
    """ "New arrivals in X are fleeing Y": from Y to X; "continued harassment" is no
    movement, "continued their journey to X" is."""
    assert _legs("Most new arrivals in Uganda are now fleeing from Central Equatoria.") == {
        ("Central Equatoria", "Uganda")
    }
    assert _legs("Arrivals in Arua report continued harassment from armed men in Yei.") == set()
    assert _legs("The families left Gulu and continued their journey to Kampala.") == {
        ("Gulu", "Kampala")
    }


def test_where_people_were_raised_and_whom_they_fled_with() -> None:
    """Born, raised or grown up in X, people are from X; those who fled "along with the
    people of X" left X too."""
    assert _legs("Refugees who grew up in Peshawar are going to Kabul.") == {("Peshawar", "Kabul")}
    text = (
        "Boko Haram attacked Rann in northeast Nigeria on Monday. Several have fled to "
        "Cameroon, along with the majority of the population of Rann."
    )
    assert ("Rann", "Cameroon") in _legs(text)


def test_a_place_under_its_verb_without_a_preposition_is_the_verb_s_object() -> None:
    # the parser may call an unknown town "xcomp" ("fled Malakal"): still what they fled
    (move,) = _movements("Thousands of civilians fled Malakal on Monday.")
    assert move.origins == ["geonames:370737"] and not move.destinations


def test_a_building_named_without_its_town_is_in_the_town_told_of() -> None:
    text = "Thousands of civilians fled Malakal on Monday. Many fled to the U.N. base nearby."
    assert _legs(text) == {("Malakal", "U.N. base")}  # a move within the town
    draft = draft_scenario(text, story_date=DAY).model_dump()
    (base,) = [p for p in draft["places"] if p["name"] == "U.N. base"]
    (town,) = [p for p in draft["places"] if p["name"] == "Malakal"]
    assert (base["lat"], base["lon"]) == (town["lat"], town["lon"])
    assert "Malakal" in base["detail"] and "own point" in base["detail"]
    assert not draft["corridors"]  # not routed: both ends at one point
    (move,) = [m for m in draft["movements"] if m["destinations"] == [base["id"]]]
    assert move["origins"] == [town["id"]] and "within one town" in move["note"]


def test_a_building_listed_after_a_town_is_a_place_of_the_draft() -> None:
    """A building that is only a listed end ("to Juba and the U.N. base") is named in the
    draft's places too: drafting the story failed on it (kept-back kept2, counts only)."""
    text = "Shelling hit Malakal on Monday. Families fled Malakal for Juba and the U.N. base."
    draft = draft_scenario(text, story_date=DAY).model_dump()
    assert "U.N. base" in {p["name"] for p in draft["places"]}
    assert any("U.N. base" in item for item in draft["review"])


def test_a_building_is_not_placed_in_the_town_its_movement_leaves() -> None:
    # "from X to the Y Hospital": the hospital may be anywhere; kept named, not placed in X
    text = "Families reached Bani Suheila. From there, they moved to Nasser Hospital."
    assert not any(p == "Nasser Hospital" for _, p in _legs(text))
    # nor an airport the index lacks in the town told of: airports lie outside towns
    text = "Thousands of civilians fled Malakal on Monday. Many then flew to Wilson Airport."
    assert not any("Airport" in p for _, p in _legs(text))


def test_a_state_that_deports_people_is_where_they_leave() -> None:
    # the people deported are its object ("thousands of Haitians" names no place), the
    # country deporting them is their origin, "back to their country" hangs on "back"
    (move,) = _movements(
        "The Dominican Republic deported thousands of Haitians back to their country."
    )
    assert (move.origins, move.destinations) == (["geonames:3508796"], ["geonames:3723988"])
    assert move.who == ["Haitians"]


def test_the_people_a_noun_of_movement_is_of_are_its_movers() -> None:
    # "of thousands of Haitians" is who moves (the "of Aleppo" of "the evacuation of
    # Aleppo" is a place): so "their country" is Haiti
    (move,) = _movements(
        "Officials ordered the expulsion of thousands of Haitians to their country."
    )
    assert move.destinations == ["geonames:3723988"] and not move.origins


def test_took_in_is_received_when_the_parse_gives_in_to_the_people() -> None:
    # "taken in" with "in" parsed as the people's preposition: Turkey received them, and the
    # relative clause says where they came from
    text = "Turkey has taken in some 3.7 million Syrians who fled their country."
    (move,) = _movements(text)
    assert (move.origins, move.destinations) == (["geonames:163843"], ["curated:turkey"])
    assert [f.value for f in move.figures] == [3_700_000]


def test_the_place_a_war_they_fled_engulfed_is_their_origin() -> None:
    (move,) = _movements(
        "Thousands of civilians are fleeing the civil war that has engulfed Yemen."
    )
    assert move.origins == ["geonames:69543"] and not move.destinations


def test_set_up_is_no_movement_set_off_is() -> None:
    text = (
        "Thousands of evacuees fled Jasper. Officials said reception centres were being set up "
        "in Grande Prairie to the north and Calgary to the south."
    )
    assert ("Jasper", "Calgary") not in _legs(text)
    (move,) = _movements("Thousands set off for Calgary on foot.")
    assert move.destinations == ["geonames:5913490"]


def test_a_country_named_as_a_towns_locator_makes_no_movement_of_its_own() -> None:
    text = "People who fled an attack on Rann, Nigeria, found shelter after arriving in Goura."
    origins = [m.origins for m in _movements(text)]
    assert ["geonames:2324576"] in origins  # Rann
    assert ["geonames:2328926"] not in origins  # Nigeria: where Rann is, told again


def test_refuge_in_a_place_hung_on_refuge_is_where_they_went() -> None:
    text = (
        "Hundreds of people who fled the bloodshed in Andijan to seek refuge in neighbouring "
        "Kyrgyzstan have been telling stories."
    )
    assert _legs(text) == {("Andijan", "Kyrgyzstan")}


def test_people_headed_for_a_place_are_going_there() -> None:
    # "headed" tagged an adjective is still a verb of movement; the place in the people
    # carried is where they go, not where the train left
    (move,) = _movements("An Amtrak train carrying 1,024 people headed for Memphis.")
    assert (move.origins, move.destinations) == ([], ["geonames:4641239"])
    assert [f.value for f in move.figures] == [1024]


def test_home_is_the_country_of_the_people_named() -> None:
    text = "More than 10,000 Mozambicans have fled home from South Africa to escape attacks."
    (move,) = _movements(text)
    assert (move.origins, move.destinations) == (["geonames:953987"], ["geonames:1036973"])
    # going home is not from where the story is: the Kosovars did not leave Dili
    text = "Thousands fled Dili on Monday. Nearly 850,000 Kosovars were escorted home by troops."
    kosovo = next(m for m in _movements(text) if m.destinations == ["geonames:831053"])
    assert kosovo.origins == []


def test_a_peoples_side_is_their_country() -> None:
    text = "Some 15,000 Mauritanians have been forced to cross the river to the Senegalese side."
    (move,) = _movements(text)
    assert move.destinations == ["geonames:2245662"]


def test_people_a_cause_prompted_to_flee_are_the_movers() -> None:
    text = (
        "The fighting in Macedonia has prompted tens of thousands of Albanians to flee across "
        "the border into Kosovo."
    )
    assert _legs(text) == {("Macedonia", "Kosovo")}


def test_a_given_name_no_gazetteer_has_is_no_end() -> None:
    text = "Lance reached Manila by plane. In Manila, Lance's mother Kathy welcomes her family."
    assert not extract(text, story_date=DAY).unresolved  # Kathy is no place they went to


def test_a_verb_read_as_part_of_the_place_after_it_takes_that_place() -> None:
    """The tagger reads "flee" after "Refugees" as a noun, in a headline or a line like one."""
    assert _legs("Refugees flee Burundi following coup. Many reached Rwanda on Monday.") >= {
        ("Burundi", "Rwanda")
    }
    text = (
        "Refugees Flee Burundi Following Coup\n\n"
        "Refugees are still fleeing, following the coup in the capital. Many went to Rwanda."
    )
    assert _legs(text) == {("Burundi", "Rwanda")}


def test_neighbouring_before_a_place_is_an_adjective_and_the_words_stay_the_story_s() -> None:
    """The parser reads "neighbouring" as a verb with the place its object; it reads the
    sentence with an adjective in its stead, and the movers keep the story's words."""
    assert _legs("Thousands fled Darfur to neighbouring Chad and Cameroon.") == {
        ("Darfur", "Chad"),
        ("Darfur", "Cameroon"),
    }
    text = "Refugees fleeing fighting in neighbouring Sudan arrived in Chad."
    assert _legs(text) == {("Sudan", "Chad")}
    (move,) = _movements(text)
    assert move.who == ["Refugees fleeing fighting in neighbouring Sudan"]


def test_the_of_name_of_a_town_or_island_is_the_place_and_a_states_is_its_owner() -> None:
    assert _legs("They left the Pacific island of Ambae for Maewo.") == {("Ambae", "Maewo")}
    text = "Rohingyas from the Rakhine state of Myanmar are arriving in Cox's Bazar."
    assert _legs(text) == {("Rakhine", "Cox's Bazar")}
    # a town no gazetteer has: the place named before it at least locates it
    assert _legs("Families fled the Raqqa town of Tal Maltha to Hasakah.") == {("Raqqa", "Hasakah")}


def test_a_sentence_is_parsed_from_past_its_dateline() -> None:
    """A wire story (dev6 D616, CNN, 2008) whose lead opens on "(CNN) --": parsed with it,
    the reader drew the United States to N'Djamena (the U.S. embassy's staff "who want to
    leave" are open, not going there); parsed from past the dateline, it draws no such leg."""
    bench = Path(__file__).parents[1] / "bench" / "movements" / "dev6-stories.jsonl"
    [story] = [s for s in map(json.loads, bench.read_text(encoding="utf-8").splitlines())
               if s["id"] == "D616"]  # fmt: skip
    found = extract(story["text"], story_date=dt.date.fromisoformat(story["date"]))
    assert found.movements and not any(
        "curated:united-states" in m.origins and m.destinations for m in found.movements
    )


def test_a_countrys_capital_named_by_its_country_is_that_capital() -> None:
    """No name of its own: "the Thai capital", "the Chadian capital", "Thailand's capital",
    "the capital of Chad" are Bangkok and N'Djamena; a region's is the region still."""
    assert _legs("Thousands fled the Thai capital for Pattaya.") == {("capital", "Pattaya")}
    assert _movements("Thousands fled the Chadian capital for Kousseri.")[0].origins == [
        "geonames:2427123"
    ]
    assert _movements("Families left Thailand's flooded capital by bus.")[0].origins == [
        "geonames:1609350"
    ]
    assert _movements("Residents fled the capital of Chad to Cameroon.")[0].origins == [
        "geonames:2427123"
    ]
    assert _legs("They fled the North Darfur capital to Chad.") == {("North Darfur", "Chad")}


def test_people_deported_or_repatriated_go_to_their_own_country() -> None:
    """Where a deportation's destination goes unsaid, the people's name says it; a state
    that goes on deporting them (its verb's subject) is where they leave."""
    text = "Despite gang violence, the Dominican Republic continues to deport Haitians."
    assert _legs(text) == {("Dominican Republic", "Haitians")}
    assert _legs("Some 100,000 Mauritanians in Senegal were repatriated by air.") == {
        ("Senegal", "Mauritanians")
    }


def test_people_streaming_in_come_to_the_dateline_s_town() -> None:
    text = "SAITAMA — Many evacuees are streaming in from Iwaki, officials said on Friday."
    assert _legs(text) == {("Iwaki", "SAITAMA")}
    # no dateline, no place for "in": the leg stays open
    assert _legs("Many evacuees are streaming in from Iwaki, officials said on Friday.") == set()


def test_a_count_of_a_people_tagged_singular_is_a_group_they_refers_to() -> None:
    """ "Luos" tagged a singular proper noun: "thousands of" them are many, so "they" in the
    next sentence is them, and their journey goes on from where they were driven out."""
    text = (
        "Thousands of Luos have been driven out of their homes in Naivasha. "
        "They were bused east to Kisumu."
    )
    assert _legs(text) == {("Naivasha", "Kisumu")}


def test_a_noun_of_movement_with_a_copulas_subject_is_still_a_noun_of_movement() -> None:
    text = "The weekend was a constant exodus of Chaitén residents to Puerto Montt."
    assert _legs(text) == {("Chaitén", "Puerto Montt")}


def test_people_dropped_off_in_a_town_went_there_from_the_town_evacuated() -> None:
    text = "Chaitén was evacuated. The residents have been dropped off in Puerto Montt."
    assert _legs(text) == {("Chaitén", "Puerto Montt")}
    assert _legs("Food prices dropped in Puerto Montt as residents fled Chaitén.") == set()


def test_a_name_the_text_calls_a_town_is_an_end_even_unplaced() -> None:
    """ "Las Anod, a town in Somaliland" is where they fled, though no gazetteer has the
    spelling: kept named and open, not taken for a person; "the Taliban" stays no place."""
    text = (
        "Somaliland-(Berberanews)-Thousands of people are still fleeing Las Anod, a town in "
        "disputed Somaliland, because of fighting."
    )
    (move,) = _movements(text)
    assert move.origins == ["unresolved:las anod"]
    assert "Berberanews" not in " ".join(move.who)  # the dateline is no part of them
    assert _movements("Thousands fled the Taliban, officials said.") == []


def test_the_island_is_the_only_island_the_story_named_before_it() -> None:
    text = (
        "The volcano on Ambae erupted on Tuesday. It has been active for weeks. Ash fell "
        "on the villages. Schools closed. Crops failed. "
        "Many people have already left the island for Espiritu Santo by ship."
    )
    assert ("Ambae", "Espiritu Santo") in _legs(text)
    # two islands named: "the island" is neither
    text = text.replace("on Ambae", "on Ambae and Maewo")
    assert not any(origin == "island" for origin, _ in _legs(text))


def test_weapons_moved_are_goods_and_move_no_one() -> None:
    text = "The crossing is used to transfer weapons from Syria to Hezbollah in Lebanon."
    found = extract(text, story_date=DAY)
    assert found.movements == [] and [v.what for v in found.vehicles] == ["aid"]


def test_each_phrase_of_direction_is_a_claim_of_its_own() -> None:
    """A gapped second clause ("and another 50,000 to B") is a movement to B, whether the
    parse hangs its phrase on the verb of movement or on the verb that caused it."""
    text = (
        "Officials said 200,000 people had fled from Burundi to Rwanda and another 40,000 to "
        "Tanzania."
    )
    assert {("Burundi", "Rwanda"), ("Burundi", "Tanzania")} <= _legs(text)
    text = (
        "The violence has prompted 200,000 people to flee Burundi into Rwanda and 40,000 more "
        "into Tanzania."
    )
    assert {("Burundi", "Rwanda"), ("Burundi", "Tanzania")} <= _legs(text)


def test_a_purpose_clause_moves_those_who_went_not_what_they_crossed() -> None:
    """ "crossed a river to get to X": the river is not who moved; "get to" is a movement."""
    for verb in ("to get to", "to reach"):
        text = f"Thousands of refugees left Maiduguri and crossed a river {verb} Cameroon."
        assert _legs(text) == {("Maiduguri", "Cameroon")}


def test_no_plans_to_return_is_no_return() -> None:
    from routes.extract.frames import frames
    from routes.extract.parse import parse
    from routes.extract.text import sentences

    def status(text: str) -> str:
        (parsed,) = parse(text, sentences(text), [0])
        (found,) = [f for f in frames(parsed, {}) if f.lemma == "return"]
        return found.status

    assert status("They do not have any immediate plans to return home.") == "not made"
    assert status("They have plans to return home.") == "planned"


def test_where_displaced_people_from_a_place_stay_is_where_they_went() -> None:
    assert _legs("Hundreds of evacuees from Lahaina are staying in shelters in Kahului.") == {
        ("Lahaina", "Kahului")
    }
    assert _legs("Hundreds of residents from Lahaina are staying in Kahului.") == set()


def test_people_forced_out_of_the_one_town_a_sentence_names_left_that_town() -> None:
    text = (
        "Covered in ash, the village of Chaiten was empty on Saturday after the eruption "
        "forced 4,000 people to flee. Officials sent many by boat to Puerto Montt."
    )
    assert _legs(text) == {("Chaiten", "Puerto Montt")}
    # the town is where they went, or is where people who are only described are
    assert _legs("Ships took 4,000 people to Puerto Montt. Officials sent others by boat.") == set()
    text = (
        "Refugees fleeing the war waited in Chaiten on Saturday. Officials sent many by boat "
        "to Puerto Montt."
    )
    assert _legs(text) == set()


def test_a_place_hung_on_another_words_phrase_with_its_own_preposition_is_an_end() -> None:
    """ "sending many by boat to A farther north and to B": A, though the parse hangs it on
    "north", is a destination beside B."""
    text = (
        "The eruption forced 4,000 people to flee Chaiten. Authorities sent many by boat to "
        "Chiloe Island farther north and to Puerto Montt on the mainland."
    )
    assert {("Chaiten", "Chiloe Island"), ("Chaiten", "Puerto Montt")} <= _legs(text)


def test_an_evacuation_if_necessary_is_planned() -> None:
    text = (
        "Boats were on standby at Pefki to evacuate residents if necessary. Another 23 people "
        "were taken to Limni."
    )
    assert _legs(text) == set()


def test_verbs_of_haste_are_verbs_of_movement() -> None:
    for verb in ("rushed", "raced", "dashed", "hurried", "scrambled"):
        assert _legs(f"Residents {verb} from Lahaina to Kahului as the fire spread.") == {
            ("Lahaina", "Kahului")
        }, verb


def test_a_named_storm_is_no_one_moving() -> None:
    text = (
        "Tourists fled Key West on Monday. Hurricane Georges was expected to move into Haiti "
        "early today, and Typhoon Haiyan moved toward Tacloban."
    )
    assert _legs(text) == set()
