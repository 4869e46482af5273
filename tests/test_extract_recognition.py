"""Recognition rules measured on LGL dev (docs/geoparse-accuracy.md), on invented sentences."""

from __future__ import annotations

from routes.extract import extract


def found(text: str) -> dict[str, tuple[str, str | None]]:
    """Surface → (resolved name, country) of every mention extracted from ``text``."""
    return {t.text: (t.place.name, t.place.country) for t in extract(text).all_toponyms()}


def test_state_abbreviations_are_states_with_their_period() -> None:
    got = found(
        "CHARLESTON, W.Va. -- Rep. Nick Rahall, D-W. Va., spoke in Harrisburg, Pa., "
        "and in Louisville, Ky., before flying to Washington, D.C."
    )
    assert got["W.Va."] == ("West Virginia", "US")
    assert got["W. Va."] == ("West Virginia", "US")
    assert got["Pa."] == ("Pennsylvania", "US")
    assert got["Ky."] == ("Kentucky", "US")
    assert got["D.C."][1] == "US"
    assert "Va" not in got and "W" not in got


def test_a_towns_other_name_ending_a_sentence_keeps_no_period() -> None:
    got = found("Thousands fled to Dohuk. Others went to Topeka, Kan.")
    assert got["Dohuk"][1] == "IQ" and "Dohuk." not in got  # GeoNames' other name of Dihok
    assert got["Kan."] == ("Kansas", "US")


def test_saint_and_mount_names_are_kept_whole() -> None:
    got = found("Flights between New York and St. Petersburg start in May. West of St. Paris.")
    assert "St. Petersburg" in got and "Petersburg" not in got
    assert got["St. Paris"][0] == "Saint Paris"  # GeoNames spells it out


def test_surnames_after_a_title_or_a_given_name_are_not_towns() -> None:
    text = (
        "Mayor Bobby E. Horton called the meeting in Hamlet. City Manager Jim Hartmann "
        "said Mrs. Parsons agreed. Later, Horton said the council would vote."
    )
    got = found(text)
    assert not {"Horton", "Jim", "Parsons"} & set(got)
    assert "Hamlet" in got


def test_streets_are_typed_and_placed_at_the_nearest_town() -> None:
    got = extract("A fire damaged a house on Wichita Drive in Dublin, Ohio, near Main St. today.")
    streets = {t.text: t for t in got.all_toponyms() if t.type == "street"}
    assert set(streets) == {"Wichita Drive", "Main St."}
    town = next(t for t in got.toponyms if t.text == "Dublin")
    assert streets["Wichita Drive"].place.lat == town.place.lat
    assert streets["Wichita Drive"].confidence < town.confidence
    assert "Wichita" not in {t.text for t in got.all_toponyms()}
    assert all(t.type == "literal" for t in got.toponyms)  # the drafter never sees streets


def test_a_town_before_a_title_a_party_letter_and_a_saint() -> None:
    got = extract(
        "The council met in Gainesville, Florida. Gainesville Mayor Myrtle Figueras spoke. "
        "State Sen. Robert Ford, D-Charleston, said he would come on St. Patrick's Day."
    )
    found = {t.text: t for t in got.all_toponyms()}
    assert found["Gainesville"].type in {"literal", "embedded"}
    assert sum(t.text == "Gainesville" for t in got.all_toponyms()) == 2
    assert found["Charleston"].place.country == "US"
    assert "St. Patrick" not in found and "Patrick" not in found


def test_a_country_named_with_its_adjective_is_one_name() -> None:
    got = found("The Russian Federation and the Syrian Arab Republic signed it.")
    assert got["Russian Federation"] == ("Russia", "RU")
    assert got["Syrian Arab Republic"][1] == "SY"
    assert "I'll" not in found('"I\'ll swim to Cambridge," he said in Barton.')  # not Ill.
    things = found("He hoped the Duma would vote. Judges in the Hague ruled.")
    assert "Duma" not in things and things["Hague"][1] == "NL"
    us = found("He told us so. US rhetoric changed. Former US envoy Dan Kurtzer spoke.")
    assert us["US"] == ("United States", "US")
    formal = found("Cholera hit Côte d'Ivoire and the Democratic Republic of Congo.")
    assert formal["Côte d'Ivoire"][1] == "CI"
    assert formal["Democratic Republic of Congo"][1] == "CD"
    province = found("A man in Victoria, British Columbia, tested positive.")
    assert province["British Columbia"] == ("British Columbia", "CA")
    assert province["Victoria"][1] == "CA" and "British" not in province
