"""The scenario file: what the bundled Aleppo scenario holds, and how a broken file is reported."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import write_yaml

from routes import scenario
from routes.cli import app


def test_bundled_scenario_has_the_story_corridors(aleppo: scenario.Scenario) -> None:
    corridors = {(c.origin, c.destination): c for c in aleppo.corridors}
    to_idlib = corridors[("eastern-aleppo", "idlib")]
    assert to_idlib.waypoints[:2] == ["al-amiriyeh", "ramouseh"]
    to_turkey = corridors[("eastern-aleppo", "reyhanli")]
    assert aleppo.place(to_turkey.waypoints[-1]).role == "border_crossing"
    enclaves = corridors[("al-fuah-kafriya", "jibreen")]
    assert "ramouseh" in enclaves.waypoints
    assert aleppo.story.date.isoformat() == "2016-12-15"
    assert aleppo.story.publisher == "CNN"


def test_every_fact_has_a_source(aleppo: scenario.Scenario) -> None:
    known = {s.id for s in aleppo.sources}
    assert all(p.source in known for p in aleppo.places)
    figures = [f for c in aleppo.corridors for f in c.figures]
    figures += [f for i in aleppo.incidents for f in i.figures]
    assert figures and all(f.source in known and f.according_to for f in figures)
    assert all(c.route_sources for c in aleppo.corridors)


def test_story_figures(aleppo: scenario.Scenario) -> None:
    to_idlib = aleppo.corridor("eastern-aleppo-to-idlib")
    story = [(f.kind, f.value) for f in to_idlib.figures if f.source == "cnn-2016-12-15"]
    assert story == [("people", 3000), ("wounded", 40), ("buses", 20), ("ambulances", 13)]
    enclaves = aleppo.corridor("foua-kafriya-to-jibreen")
    assert enclaves.figure("buses") is not None and enclaves.figure("buses").value == 29  # type: ignore[union-attr]
    incident = aleppo.incidents[0]
    assert {(f.kind, f.value) for f in incident.figures} == {("killed", 1), ("injured", 4)}


def test_places_match_the_facts_file(
    aleppo: scenario.Scenario, facts: dict[str, tuple[float, float]]
) -> None:
    for place in aleppo.places:
        if place.id in facts:
            assert (place.lat, place.lon) == pytest.approx(facts[place.id], abs=1e-5), place.id


def test_arabic_aliases_are_kept(aleppo: scenario.Scenario) -> None:
    assert "الفوعة" in aleppo.place("al-fuah").aliases
    assert "كفريا" in aleppo.place("kafriya").aliases


def _drop(raw: dict[str, Any], section: str, index: int, field: str) -> None:
    del raw[section][index][field]


BROKEN = {
    "missing field": (
        lambda r: _drop(r, "places", 0, "lat"),
        "places[0] (id: aleppo) field lat: missing",
    ),
    "unknown place id": (
        lambda r: r["corridors"][0].update(waypoints=["nowhere"]),
        "corridors[0] (id: eastern-aleppo-to-idlib) field waypoints.0: unknown place id 'nowhere'",
    ),
    "bad latitude": (
        lambda r: r["places"][2].update(lat=123.4),
        "places[2] (id: al-ansari-mashhad) field lat: Input should be less than or equal to 90",
    ),
    "bad longitude": (
        lambda r: r["places"][2].update(lon="east"),
        "places[2] (id: al-ansari-mashhad) field lon:",
    ),
    "bad date": (
        lambda r: r["corridors"][1].update(date="2016-13-45"),
        "corridors[1] (id: eastern-aleppo-to-turkey) field date:",
    ),
    "unknown source": (
        lambda r: r["corridors"][0]["figures"][0].update(source="rumour"),
        "corridors[0] (id: eastern-aleppo-to-idlib) field figures.0.source: "
        "unknown source id 'rumour'",
    ),
    "misspelt field": (
        lambda r: r["places"][0].update(latitude=1.0),
        "places[0] (id: aleppo) field latitude: unknown field",
    ),
    "duplicate id": (
        lambda r: r["places"].append(dict(r["places"][0])),
        "places id 'aleppo': used 2 times",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_broken_scenario_names_file_record_and_field(
    case: str, aleppo_raw: dict[str, Any], tmp_path: Path
) -> None:
    breakage, expected = BROKEN[case]
    breakage(aleppo_raw)
    path = write_yaml(tmp_path / "broken.yaml", aleppo_raw)
    with pytest.raises(scenario.ScenarioError) as excinfo:
        scenario.load(path)
    message = str(excinfo.value)
    assert message.startswith(str(path)), message
    assert expected in message


@pytest.mark.parametrize("case", ["missing field", "unknown place id", "bad latitude", "bad date"])
def test_cli_reports_a_broken_scenario_in_one_line_with_exit_2(
    case: str, aleppo_raw: dict[str, Any], tmp_path: Path, runner: Any
) -> None:
    breakage, expected = BROKEN[case]
    breakage(aleppo_raw)
    path = write_yaml(tmp_path / "broken.yaml", aleppo_raw)
    out = tmp_path / "map.html"
    result = runner.invoke(app, ["map", "--scenario", str(path), "--output", str(out)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and expected in result.stderr
    assert "Traceback" not in result.output
    assert not out.exists() and list(tmp_path.iterdir()) == [path]


def test_invalid_yaml_gives_the_line(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    path.write_text("story:\n  id: x\nplaces: [\n", encoding="utf-8")
    with pytest.raises(scenario.ScenarioError, match=r"bad\.yaml: line \d+: not valid YAML"):
        scenario.load(path)


def test_unknown_bundled_scenario(runner: Any) -> None:
    result = runner.invoke(app, ["corridors", "--scenario", "atlantis-1999"])
    assert result.exit_code == 2
    assert "no bundled dataset named 'atlantis-1999'" in result.stderr
