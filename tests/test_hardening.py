"""Hostile scenarios through the real CLI: one line, exit 2, nothing written outside."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

import pytest
import yaml
from conftest import write_yaml

from routes.cli import app

SCENARIO = Path(__file__).resolve().parents[1] / "geodata" / "scenarios" / "aleppo-2016-12.yaml"


def aleppo() -> dict[str, Any]:
    return yaml.safe_load(SCENARIO.read_text(encoding="utf-8"))


def one_line_exit_2(result: Any) -> None:
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize("story_id", ["../../escaped", "/tmp/escaped-abs", "a/b"])
def test_story_id_that_is_not_a_slug_is_refused(
    story_id: str, runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data = aleppo()
    data["story"]["id"] = story_id
    work = tmp_path / "deep" / "er"
    work.mkdir(parents=True)
    monkeypatch.chdir(work)
    scenario = write_yaml(work / "s.yaml", data)
    one_line_exit_2(runner.invoke(app, ["map", "--offline", "-s", str(scenario)]))
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["s.yaml"]
    assert not Path("/tmp/escaped-abs.html").exists()


@pytest.mark.parametrize(
    "spoil",
    [
        lambda d: d.update(corridors=[]),
        lambda d: d["corridors"][0]["figures"][0].update(value=2**63),
        lambda d: d["places"][0].update(lat=90.0),
    ],
    ids=["no-corridors", "huge-figure", "pole"],
)
def test_degenerate_scenario_is_refused_at_load(spoil: Any, runner: Any, tmp_path: Path) -> None:
    data = aleppo()
    spoil(data)
    out = tmp_path / "m.html"
    scenario = write_yaml(tmp_path / "s.yaml", data)
    one_line_exit_2(runner.invoke(app, ["map", "--offline", "-s", str(scenario), "-o", str(out)]))
    assert not out.exists()


def test_csv_cells_never_start_a_formula(runner: Any, tmp_path: Path) -> None:
    data = aleppo()
    data["places"][0]["name"] = '=HYPERLINK("http://evil","x")'
    data["corridors"][0]["name"] = "@SUM(1+1)\u202e"
    scenario = write_yaml(tmp_path / "s.yaml", data)
    result = runner.invoke(
        app, ["export", "-f", "csv", "--offline", "-s", str(scenario), "-o", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    cells = [
        cell
        for path in tmp_path.glob("*.csv")
        for row in csv.reader(path.open(encoding="utf-8"))
        for cell in row
    ]
    assert cells, "export wrote no CSV"
    assert '\'=HYPERLINK("http://evil","x")' in cells
    assert not any(c.startswith(("=", "@", "+")) for c in cells)
    assert not any("\u202e" in c for c in cells)
