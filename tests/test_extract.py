"""Drafting a scenario from a story's text: places, movements, figures, dates, review.

The CNN story is read from ``../shared/articles/`` (it is not in this repository);
the short texts in ``tests/fixtures/texts/`` are invented for these tests.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import ARTICLE, shared
from osmnx.distance import great_circle
from rich.console import Console

from routes import scenario
from routes.cli import app
from routes.extract import Extraction, draft_scenario, explain, extract, sentences
from routes.places import geonames_in

ROOT = Path(__file__).resolve().parents[1]
TEXTS = Path(__file__).parent / "fixtures" / "texts"
STORY_DATE = dt.date(2016, 12, 15)
NOT_PLACES = ["Chatham House", "Turkish President", "Syrian American Medical Society", "Anadolu"]


@pytest.fixture(scope="module")
def cnn_text() -> str:
    return shared(ARTICLE).read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def cnn(cnn_text: str) -> Extraction:
    return extract(cnn_text, story_date=STORY_DATE, publisher="CNN")


@pytest.fixture(scope="module")
def drafted(cnn_text: str) -> scenario.Scenario:
    return draft_scenario(cnn_text, story_date=STORY_DATE, publisher="CNN")


@pytest.fixture(scope="module")
def draft(drafted: scenario.Scenario) -> dict[str, Any]:
    """The draft as plain data, the way a person reads its YAML."""
    return drafted.model_dump()


def _fixture(name: str) -> str:
    return (TEXTS / f"{name}.txt").read_text(encoding="utf-8")


def _corridor(draft: dict[str, Any], origin: str, destination: str) -> dict[str, Any]:
    found = [
        c for c in draft["corridors"] if c["origin"] == origin and c["destination"] == destination
    ]
    assert len(found) == 1, f"no single corridor {origin} → {destination}: {draft['corridors']}"
    return found[0]


def _figure(item: dict[str, Any], kind: str, value: int) -> dict[str, Any]:
    found = [f for f in item["figures"] if f["kind"] == kind and f["value"] == value]
    assert len(found) == 1, f"{value} {kind} not on {item['id']}: {item['figures']}"
    return found[0]


# --- The draft is a scenario ------------------------------------------------------------


def test_draft_is_a_scenario_that_loads_and_maps(
    drafted: scenario.Scenario, tmp_path: Path, runner: Any
) -> None:
    path = tmp_path / "draft.yaml"
    path.write_text(scenario.dump(drafted), encoding="utf-8")
    loaded = scenario.load(path)  # the schema and every cross-reference
    assert loaded.story.date == STORY_DATE and loaded.story.publisher == "CNN"
    out = tmp_path / "draft.html"
    args = ["map", "--scenario", str(path), "--output", str(out)]
    refused = runner.invoke(app, args)  # review items left: a draft maps only with --draft
    assert refused.exit_code == 2 and "--draft" in refused.stderr and not out.exists()
    result = runner.invoke(app, [*args, "--draft"])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert "Idlib" in page and "Kafriya" in page
    assert re.search(r'class="routes-title"[^>]*>DRAFT: ', page)


def test_undated_story_stays_undated(cnn_text: str, tmp_path: Path, runner: Any) -> None:
    """No --date and no date in the text: no date at all, never today's."""
    draft = draft_scenario(cnn_text, publisher="CNN")
    assert draft.story.date is None and draft.story.published is None
    dumped = scenario.dump(draft)
    assert not re.search(rf"\b{dt.date.today().year}-\d\d-\d\d\b", dumped), "today's year"
    assert any("undated" in item and "--date" in item for item in draft.review)
    story = shared(ARTICLE)
    piped = runner.invoke(app, ["extract", str(story)]).stdout
    out = tmp_path / "map.html"
    result = runner.invoke(app, ["map", "-s", "-", "-o", str(out)], input=piped)
    assert result.exit_code == 2 and not out.exists()
    assert result.stderr.count("\n") == 1, result.stderr
    assert "has no date" in result.stderr and "--date" in result.stderr
    assert "--draft" in result.stderr
    result = runner.invoke(app, ["map", "-s", "-", "-o", str(out), "--draft"], input=piped)
    assert result.exit_code == 0, result.output
    title = re.search(r'class="routes-title"[^>]*>([^<]*)<span>([^<]*)', out.read_text())
    assert title and title.group(1).startswith("DRAFT: ")
    assert "date not given" in title.group(2)


def test_draft_round_trips_through_yaml_unchanged(drafted: scenario.Scenario) -> None:
    dumped = scenario.dump(drafted)
    assert "&id" not in dumped  # no YAML anchors for a person to puzzle over
    assert scenario.validate(yaml.safe_load(dumped)) == drafted


def test_a_draft_without_corridors_is_a_valid_draft_that_maps_as_a_draft(
    tmp_path: Path, runner: Any
) -> None:
    """Movements with an end not stated make a draft; it maps with --draft (its open
    movements as arrows at the end they have), and not without it."""
    draft = draft_scenario("About 500 people fled Raqqa on Tuesday.", story_date=STORY_DATE)
    assert draft.corridors == [] and draft.movements and draft.is_draft
    assert any(item.startswith("corridors: none") for item in draft.review)
    path = tmp_path / "draft.yaml"
    path.write_text(scenario.dump(draft), encoding="utf-8")
    assert scenario.load(path) == draft
    out = tmp_path / "m.html"
    args = ["map", "--offline", "-s", str(path), "-o", str(out)]
    result = runner.invoke(app, args)
    assert result.exit_code == 2 and not out.exists(), result.output
    assert len(result.stderr.strip().splitlines()) == 1 and "is a draft" in result.stderr
    result = runner.invoke(app, [*args, "--draft"])
    assert result.exit_code == 0, result.output
    assert f"{draft.movements[0].name}: destination not stated" in out.read_text(encoding="utf-8")


def test_a_move_within_one_town_maps_as_a_draft_labelled_so(tmp_path: Path, runner: Any) -> None:
    text = "Thousands of civilians fled Malakal on Monday. Many fled to the U.N. base nearby."
    draft = draft_scenario(text, story_date=STORY_DATE)
    path, out = tmp_path / "draft.yaml", tmp_path / "m.html"
    path.write_text(scenario.dump(draft), encoding="utf-8")
    result = runner.invoke(app, ["map", "--offline", "--draft", "-s", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "Malakal to U.N. base: a move within one town, not routed" in out.read_text("utf-8")


def test_an_undated_story_is_extracted_once(cnn_text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The story's date comes from the text in the same pass (no second extraction)."""
    from routes.extract import Extractor

    real = Extractor.extract
    runs: list[dt.date | None] = []

    def counted(self: Extractor, text: str, **options: Any) -> Extraction:
        found = real(self, text, **options)
        runs.append(found.story_date)
        return found

    monkeypatch.setattr(Extractor, "extract", counted)
    draft = draft_scenario("On 3 March 2017 about 500 people fled Raqqa to Manbij.")
    assert runs == [dt.date(2017, 3, 3)] and draft.story.date == dt.date(2017, 3, 3)


# --- Toponyms ----------------------------------------------------------------------------


def _place_for(draft: dict[str, Any], surface: str) -> dict[str, Any]:
    ids = {t["place"] for t in draft["toponyms"] if t["text"] == surface}
    assert len(ids) == 1 and None not in ids, f"{surface!r} → {ids}"
    return next(p for p in draft["places"] if p["id"] in ids)


@pytest.mark.parametrize(
    ("surface", "fact"),
    [
        ("eastern Aleppo", "eastern-aleppo"),
        ("East Aleppo", "eastern-aleppo"),
        ("Idlib", "idlib"),
        ("Al-Foua", "al-fuah"),
        ("Kefreia", "kafriya"),
    ],
)
def test_key_places_resolve_within_2_km_of_the_facts(
    draft: dict[str, Any], facts: dict[str, tuple[float, float]], surface: str, fact: str
) -> None:
    place = _place_for(draft, surface)
    lat, lon = facts[fact]
    assert great_circle(place["lat"], place["lon"], lat, lon) < 2000


def test_eastern_aleppo_is_the_curated_sub_area(draft: dict[str, Any]) -> None:
    for surface in ("eastern Aleppo", "East Aleppo", "Eastern Aleppo"):
        found = [t for t in draft["toponyms"] if t["text"] == surface]
        assert found and {t["resolved"] for t in found} == {"curated:eastern-aleppo"}


def test_turkey_resolves_inside_turkey(draft: dict[str, Any]) -> None:
    turkey = _place_for(draft, "Turkey")
    towns = geonames_in(
        (turkey["lon"] - 1, turkey["lat"] - 1, turkey["lon"] + 1, turkey["lat"] + 1)
    )
    nearest = min(towns, key=lambda t: great_circle(turkey["lat"], turkey["lon"], t.lat, t.lon))
    assert nearest.country == "TR"


@pytest.mark.parametrize(
    ("surface", "country"),
    [("Brussels", "BE"), ("Srebrenica", "BA"), ("Aleppo", "SY"), ("London", "GB"), ("Syria", "SY")],
)
def test_other_real_places_are_found(draft: dict[str, Any], surface: str, country: str) -> None:
    found = [t for t in draft["toponyms"] if t["text"] == surface]
    assert found, f"{surface} not found"
    assert {t["country"] for t in found} == {country}


def test_organisations_people_and_adjectives_are_not_places(
    draft: dict[str, Any], cnn_text: str
) -> None:
    spans = [(t["start"], t["end"]) for t in draft["toponyms"]]
    for name in NOT_PLACES:
        start = cnn_text.index(name)
        end = start + len(name)
        assert not any(a < end and start < b for a, b in spans), f"{name} taken as a place"
    surfaces = {t["text"] for t in draft["toponyms"]}
    names = {n for p in draft["places"] for n in [p["name"], *p.get("aliases", [])]}
    for word in ("Chatham", "Turkish", "Syrian", "Anadolu", "Kerry", "Hasan", "Quds"):
        assert word not in surfaces and word not in names


def test_every_toponym_says_where_it_is_and_what_it_is(
    draft: dict[str, Any], cnn_text: str
) -> None:
    assert len(draft["toponyms"]) >= 30
    for t in draft["toponyms"]:
        assert cnn_text[t["start"] : t["end"]] == t["text"]
        kind, _, ident = t["resolved"].partition(":")
        assert kind in {"curated", "geonames"} and ident
        assert -90 <= t["lat"] <= 90 and -180 <= t["lon"] <= 180
        assert t["feature"] and t["country"] and 0 < t["confidence"] <= 1
        if kind == "geonames":
            assert t["geonames_id"] == int(ident)


def test_context_breaks_ties_between_same_named_places() -> None:
    tripoli = [t for t in extract(_fixture("ambiguous-names")).toponyms if t.text == "Tripoli"]
    assert tripoli and {t.place.country for t in tripoli} == {"LB"}  # not Libya's capital
    sinjar = [t for t in extract(_fixture("iraq-context")).toponyms if t.text == "Sinjar"]
    assert [t.place.country for t in sinjar] == ["IQ"]  # not the Syrian village
    kafraya = [t for t in extract(_fixture("transliterations")).toponyms if t.text == "Kafraya"]
    assert [t.place.ref for t in kafraya] == ["curated:kafriya"]  # not Kefraya in Lebanon


def test_hard_cases_in_the_invented_texts() -> None:
    def surfaces(name: str) -> set[str]:
        return {t.text for t in extract(_fixture(name)).toponyms}

    assert surfaces("nested-names") == {"Idlib", "Aleppo", "London"}
    assert "حلب" in surfaces("arabic-script") and "دمشق" in surfaces("arabic-script")
    assert surfaces("people-and-places") == {"Homs", "Ireland", "Hama", "Jordan", "Amman"}
    assert surfaces("demonyms") == {"Turkey", "Kilis", "Gaziantep", "Britain"}
    assert {"Deir al-Zour", "Ar-Raqqah", "Hasakeh", "Halab"} <= surfaces("transliterations")


# --- Movements, figures, dates ---------------------------------------------------------


def test_corridors_out_of_eastern_aleppo(draft: dict[str, Any]) -> None:
    to_idlib = _corridor(draft, "eastern-aleppo", "idlib")
    assert to_idlib["date"] == STORY_DATE
    assert not [c for c in draft["corridors"] if c["destination"] == "turkey"]
    [to_turkey] = [m for m in draft["movements"] if m["destinations"] == ["turkey"]]
    assert to_turkey["origins"] == ["eastern-aleppo"] and to_turkey["date"] == STORY_DATE
    assert "is a country (Turkey)" in to_turkey["note"] and "not routed" in to_turkey["note"]
    # said so, not guessed silently: where the story had those people, and in which sentence
    # ("others ... can go to Turkey" are of the evacuees of eastern Aleppo)
    assert re.search(
        r"origin: (the place the story tells people leaving|where the same people were last "
        r"said to be) \(sentence \d+\)",
        to_turkey["note"],
    )
    assert to_turkey["figures"] == []


def test_movement_out_of_al_foua_and_kefreia_says_its_destination_is_not_stated(
    draft: dict[str, Any],
) -> None:
    [move] = [m for m in draft["movements"] if set(m["origins"]) == {"al-fuah", "kafriya"}]
    assert move["destinations"] == []
    assert "destination not stated" in move["note"]
    assert move["date"] == STORY_DATE
    assert not any(c["origin"] in {"al-fuah", "kafriya"} for c in draft["corridors"])


def test_figures_are_attached_to_the_right_items_with_their_attribution(
    draft: dict[str, Any], cnn_text: str
) -> None:
    to_idlib = _corridor(draft, "eastern-aleppo", "idlib")
    people = _figure(to_idlib, "people", 3000)
    wounded = _figure(to_idlib, "wounded", 40)
    assert (people.get("qualifier"), wounded.get("qualifier")) == ("about", "more than")
    for f in (people, wounded):
        assert "Marianne Gasser" in f["according_to"] and "Red Cross" in f["according_to"]
    assert _figure(to_idlib, "buses", 20)["according_to"] == "CNN"
    assert _figure(to_idlib, "ambulances", 13)["according_to"] == "CNN"
    assert len(to_idlib["figures"]) == 4

    [move] = [m for m in draft["movements"] if "al-fuah" in m["origins"]]
    buses = _figure(move, "buses", 29)
    assert buses["according_to"].lower() == "syrian state tv"

    [incident] = draft["incidents"]
    for kind, value in (("killed", 1), ("injured", 4)):
        f = _figure(incident, kind, value)
        assert "Hamza al-Khateab" in f["according_to"]
    assert incident["corridor"] == to_idlib["id"]
    assert "not stated" in incident["location_note"]

    words = {
        (3000, "people"): "3,000 people",
        (40, "wounded"): "40 wounded",
        (29, "buses"): "Twenty-nine buses",
        (1, "killed"): "one person was killed",
    }
    items = [*draft["corridors"], *draft["movements"], *draft["incidents"]]
    for f in (f for item in items for f in item["figures"]):
        ev = f["evidence"]
        quoted = cnn_text[ev["start"] : ev["end"]]
        assert str(f["value"]) in quoted.replace(",", "") or quoted[0].isalpha()
        if (f["value"], f["kind"]) in words:
            assert words[(f["value"], f["kind"])] in quoted


def test_no_figure_is_attached_twice(draft: dict[str, Any]) -> None:
    items = [*draft["corridors"], *draft["movements"], *draft["incidents"]]
    spans = [(f["evidence"]["start"], f["evidence"]["end"]) for i in items for f in i["figures"]]
    assert len(spans) == len(set(spans)) == 7


def test_weekdays_resolve_against_the_story_date(cnn: Extraction, cnn_text: str) -> None:
    by_word = {(d.text, d.date) for d in cnn.dates}
    assert ("Thursday", dt.date(2016, 12, 15)) in by_word
    assert ("Wednesday", dt.date(2016, 12, 14)) in by_word
    later = extract(cnn_text, story_date=dt.date(2016, 12, 16))  # published on the Friday
    assert {d.date for d in later.dates if d.text == "Thursday"} == {dt.date(2016, 12, 15)}
    assert {d.date for d in later.dates if d.text == "Wednesday"} == {dt.date(2016, 12, 14)}


def test_story_date_defaults_are_said_out_loud() -> None:
    text = "On 3 March 2017 about 500 people fled Raqqa to Manbij on foot."
    draft = draft_scenario(text).model_dump()
    assert draft["story"]["date"] == dt.date(2017, 3, 3)
    assert "story date not given" in draft["review"][0]
    [corridor] = draft["corridors"]
    assert corridor["origin"] == "raqqah" and corridor["destination"] == "manbij"
    assert _figure(corridor, "people", 500)["qualifier"] == "about"


def test_movements_pair_origins_with_their_destinations() -> None:
    draft = draft_scenario(
        _fixture("transliterations"), story_date=dt.date(2016, 12, 23)
    ).model_dump()
    pairs = {(c["origin"], c["destination"]) for c in draft["corridors"]}
    [aid] = draft["vehicles"]  # "Aid convoys left Idleb for Deir al-Zour": they moved no one
    assert (aid["what"], aid["origins"], aid["destinations"]) == ("aid", ["idlib"], ["deir-ez-zor"])
    assert pairs == {
        ("raqqah", "hasakah"),
        ("latakia", "tartus"),
        ("al-fuah", "jibreen"),
        ("kafriya", "jibreen"),
    }
    dates = {c["origin"]: c["date"] for c in draft["corridors"]}
    assert dates["raqqah"] == dt.date(2016, 12, 23)  # not stated: the story's own day


def test_a_drafted_country_or_region_cites_where_its_point_comes_from() -> None:
    text = "About 2,000 people fled from Alaska to Ontario by bus. Others went on to Mexico."
    draft = draft_scenario(text, story_date=STORY_DATE).model_dump()
    places = {p["id"]: p for p in draft["places"]}
    titles = {s["id"]: s["title"] for s in draft["sources"]}
    for region in ("alaska", "ontario"):
        assert "Natural Earth" in titles[places[region]["source"]]
        assert "None" not in places[region]["detail"]
    assert "countryinfo" in titles[places["mexico"]["source"]]


def test_a_sea_is_found_by_its_whole_name_and_is_never_a_movement_end() -> None:
    text = (
        "On Monday 300 people fled from Izmir to Lesbos across the Aegean Sea, and others "
        "from Benghazi to Lampedusa across the Mediterranean Sea. Ships waited in the "
        "Gulf of Mexico."
    )
    found = extract(text, story_date=STORY_DATE)
    seas = {t.text: t.place.feature for t in found.toponyms if t.place.feature == "sea"}
    assert seas == {"Aegean Sea": "sea", "Mediterranean Sea": "sea", "Gulf of Mexico": "sea"}
    ends = {r for m in found.movements for r in [*m.origins, *m.destinations]}
    assert ends and not any(r.startswith("region:sea") for r in ends)
    draft = draft_scenario(text, story_date=STORY_DATE).model_dump()
    assert not {"aegean-sea", "mediterranean-sea", "gulf-of-mexico"} & {
        p["id"] for p in draft["places"]
    }


def test_text_without_places_is_refused() -> None:
    with pytest.raises(ValueError, match="no place"):
        draft_scenario("Nothing happened here, said nobody.", story_date=STORY_DATE)


# --- Review ------------------------------------------------------------------------------


def test_explain_shows_each_item_in_its_sentence_highlighted(
    drafted: scenario.Scenario, cnn_text: str
) -> None:
    shown = explain(cnn_text, drafted)
    console = Console(record=True, width=400, color_system=None)
    console.print(shown)
    plain = console.export_text()
    for needle in (
        "eastern-aleppo-to-idlib",
        "eastern-aleppo-to-turkey",
        "destination not stated",
        "29 buses, according to Syrian State TV",
        "about 3,000 people, according to Marianne Gasser",
        "1 killed, according to Dr. Hamza al-Khateab",
        "Al-Foua and Kefreia in rebel-held Idlib province",
        "not a place: 'Chatham'",
    ):
        assert needle in plain, needle
    styled = {shown.plain[span.start : span.end] for span in shown.spans if span.style}
    assert {"Kefreia", "Al-Foua", "Twenty-nine buses", "Approximately 3,000 people"} <= styled


def test_explain_flags_offsets_that_do_not_fit_the_text(draft: dict[str, Any]) -> None:
    assert "not in this text" in explain("Short text.", draft).plain


def test_sentences_keep_abbreviations_whole(cnn_text: str) -> None:
    texts = [cnn_text[s.start : s.end] for s in sentences(cnn_text)]
    assert any(t.startswith("It was attempting") and "Dr. Hamza al-Khateab" in t for t in texts)
    assert any("U.N. special envoy for Syria" in t for t in texts)


# --- Measurement -------------------------------------------------------------------------


def _evaluate(*args: str) -> subprocess.CompletedProcess[str]:
    script = ROOT / "scripts" / "evaluate_extraction.py"
    return subprocess.run(
        [sys.executable, str(script), *args], cwd=ROOT, capture_output=True, text=True
    )


def test_evaluation_meets_its_thresholds() -> None:
    shared(ARTICLE)  # the CNN gold file is scored against the story in ../shared/articles
    result = _evaluate("--json")
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    rows = {r["name"]: r for r in report["texts"]}
    assert rows["cnn-2016-12-15-aleppo-evacuation"]["gold"] >= 35
    assert len(rows) >= 6  # the story and at least five invented texts
    total = report["total"]
    for key, minimum in report["thresholds"].items():
        assert total[key] >= minimum


def test_evaluation_fails_when_the_extractor_is_wrong(tmp_path: Path) -> None:
    for suffix in (".txt", ".gold.yaml"):
        shutil.copy(TEXTS / f"transliterations{suffix}", tmp_path)
    gold_path = tmp_path / "transliterations.gold.yaml"
    gold = yaml.safe_load(gold_path.read_text(encoding="utf-8"))
    for t in gold["toponyms"]:
        t["expect"] = ["geonames:1"]  # no extractor resolves anything to this
    gold_path.write_text(yaml.safe_dump(gold, allow_unicode=True), encoding="utf-8")
    result = _evaluate("--gold", str(tmp_path))
    assert result.returncode == 1 and "BELOW: accuracy" in result.stdout

    gold["toponyms"].append({"start": 0, "end": 3, "text": "Aid", "expect": ["geonames:1"]})
    gold_path.write_text(yaml.safe_dump(gold, allow_unicode=True), encoding="utf-8")
    result = _evaluate("--gold", str(tmp_path))
    assert result.returncode == 1 and "recall" in result.stdout


def test_evaluation_refuses_gold_that_does_not_match_its_text(tmp_path: Path) -> None:
    for suffix in (".txt", ".gold.yaml"):
        shutil.copy(TEXTS / f"demonyms{suffix}", tmp_path)
    gold_path = tmp_path / "demonyms.gold.yaml"
    gold = yaml.safe_load(gold_path.read_text(encoding="utf-8"))
    gold["toponyms"][0]["start"] += 1
    gold_path.write_text(yaml.safe_dump(gold, allow_unicode=True), encoding="utf-8")
    result = _evaluate("--gold", str(tmp_path))
    assert result.returncode == 2 and "not" in result.stderr


def test_every_fixture_text_has_gold() -> None:
    texts = {p.stem for p in TEXTS.glob("*.txt")}
    golds = {p.name.removesuffix(".gold.yaml") for p in TEXTS.glob("*.gold.yaml")}
    assert len(texts) >= 5 and texts <= golds


@pytest.mark.parametrize(
    ("text", "surface", "country", "lat"),
    [
        (
            "Police in Alexandria arrested a man from Pineville. He was taken to Rapides Parish.",
            "Alexandria",
            "US",
            31.3,
        ),
        (
            "Police in Alexandria arrested a man from Cairo. He was taken to Giza.",
            "Alexandria",
            "EG",
            31.2,
        ),
        (
            "Residents of Paris and Henry County met on Monday. Officials from Murray came too.",
            "Paris",
            "US",
            36.3,
        ),
    ],
)
def test_the_other_places_of_a_story_choose_between_homonyms(
    text: str, surface: str, country: str, lat: float
) -> None:
    found = [t for t in extract(text).all_toponyms() if t.text == surface]
    assert found and {t.place.country for t in found} == {country}
    assert all(abs(t.place.lat - lat) < 0.5 for t in found)


def test_explain_says_an_undated_draft_is_undated(cnn_text: str) -> None:
    shown = explain(cnn_text, draft_scenario(cnn_text, publisher="CNN")).plain
    assert shown.splitlines()[0].endswith("— CNN, undated")
