"""Every text field of a scenario hostile at once, through the real CLI: the map in Chromium
and every export show it literally, run none of it, and drop bidi controls.

Each free-text field of the bundled scenario (titles, publishers, names, aliases, details,
who, notes, claims' ``according_to`` and ``by``, descriptions, URLs...) becomes its own
marker (``F017:``) followed by template syntax, HTML, ``</script>``, backticks, ``${}``
and bidi controls; the story title is that repeated to 1 MB. A field the map shows must
show whole and unevaluated; names and claims must show.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from browser_support import CdnResolver, open_map
from conftest import write_yaml
from typer.testing import CliRunner

from routes import cli, datasets
from routes.text import BIDI_CONTROLS, for_display

if TYPE_CHECKING:
    from playwright.sync_api import Browser

PAYLOAD = (
    "{{ 7*7 }} {% raw %} {# c #} {%- endraw %} <img src=x onerror=alert(1)> "
    "</script><script>alert(2)</script> `x` ${1+1} \u202eevil\u2066 &amp; \\ ' \""
)
#: Fields that hold free text (the rest are ids, enums, dates and numbers).
TEXT_KEYS = {"title", "publisher", "name", "aliases", "detail", "who", "note", "according_to",
             "by", "description", "location_note", "method", "url"}  # fmt: skip
#: Fields the map must show (every one of them, for every record that has it).
SHOWN_ON_MAP = {"name", "according_to"}
#: Fields each export must hold (``key`` or ``section.key``): CSV is flowmap.blue's
#: locations and flows; KML has no claims table.
IN_EXPORTS = {
    "csv": {"places.name"},
    "kml": {"places.name", "corridors.name", "corridors.according_to"},
    "geojson": {"places.name", "corridors.name", "according_to", "by"},
    "gpkg": {"places.name", "corridors.name", "according_to", "by"},
}
BIG = 2**20  # the story title's length


@dataclass(frozen=True)
class Field:
    where: str  # e.g. ".corridors[0].name"
    key: str
    text: str

    def kind(self) -> set[str]:
        """What a must-show set may name it by: ``name`` or ``corridors.name``."""
        return {self.key, f"{self.where[1:].split('[')[0].split('.')[0]}.{self.key}"}


@dataclass(frozen=True)
class Hostile:
    scenario: Path
    html: Path
    fields: dict[str, Field]  # marker -> field


def _fill(data: Any, fields: dict[str, Field], where: str = "") -> None:
    """Replace every free-text value under ``data`` with a marker and the payload."""

    def text(key: str, at: str) -> str:
        marker = f"F{len(fields):03d}"
        fields[marker] = Field(at, key, f"{marker}: {PAYLOAD}")
        return fields[marker].text

    if isinstance(data, dict):
        for key, value in data.items():
            if key in TEXT_KEYS and isinstance(value, str):
                data[key] = text(key, f"{where}.{key}")
            elif key in TEXT_KEYS and isinstance(value, list):
                data[key] = [text(key, f"{where}.{key}[{i}]") for i in range(len(value))]
            else:
                _fill(value, fields, f"{where}.{key}")
    elif isinstance(data, list):
        for i, value in enumerate(data):
            _fill(value, fields, f"{where}[{i}]")


def invoke(*args: str) -> Any:
    result = CliRunner().invoke(cli.app, list(args))
    assert result.exit_code == 0, result.output
    return result


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Hostile:
    """The hostile scenario and its map, written by ``routes map``."""
    tmp = tmp_path_factory.mktemp("hostile-all")
    raw = yaml.safe_load(datasets.get_path("aleppo-2016-12").read_text(encoding="utf-8"))
    fields: dict[str, Field] = {}
    _fill(raw, fields)
    title = next(m for m, f in fields.items() if f.where == ".story.title")
    repeated = (fields[title].text + " ") * (BIG // len(fields[title].text) + 1)
    fields[title] = Field(".story.title", "title", repeated[:BIG].rstrip())
    raw["story"]["title"] = fields[title].text
    scenario = write_yaml(tmp / "hostile.yaml", raw)
    html = tmp / "hostile.html"
    invoke("map", "--offline", "--network", "proxy", "-s", str(scenario), "-o", str(html))
    return Hostile(scenario, html, fields)


def _check_literal(seen: str, fields: dict[str, Field], must: set[str], where: str) -> None:
    """Every field in ``seen`` whole (bidi controls dropped); every ``must`` field there."""
    assert not BIDI_CONTROLS.search(seen), f"{where}: a bidi control reached the reader"
    shown = {m for m in fields if f"{m}: " in seen}
    broken = [f.where for m, f in fields.items() if m in shown and for_display(f.text) not in seen]
    assert not broken, f"{where}: not shown literally: {broken[:10]}"
    missing = [f.where for m, f in fields.items() if f.kind() & must and m not in shown]
    assert not missing, f"{where}: missing {missing[:10]}"


# Every text the page shows: its DOM text (scripts and styles left out), then every
# popup and tooltip of every layer, overlays switched on first, each opened for real.
_COLLECT = """async () => {
  const map = Object.values(window).find(v => v instanceof L.Map);
  const texts = [];
  const code = n => n.parentElement.closest('script,style');
  document.body.normalize();  // the parser splits a text over 65,536 characters into nodes
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode: n => code(n) ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT});
  while (walker.nextNode()) texts.push(walker.currentNode.nodeValue);
  for (const control of Object.values(window).filter(v => v instanceof L.Control.Layers))
    for (const entry of control._layers) if (!map.hasLayer(entry.layer)) map.addLayer(entry.layer);
  const layers = [];
  map.eachLayer(layer => layers.push(layer));
  let popups = 0;
  for (const layer of layers) {
    if (layer.getPopup && layer.getPopup()) {
      layer.openPopup();
      const element = layer.getPopup().getElement();
      if (element) {
        texts.push(element.querySelector('.leaflet-popup-content').innerText);
        popups++;
      }
      layer.closePopup();
    }
    if (layer.getTooltip && layer.getTooltip()) {
      layer.openTooltip();
      const element = layer.getTooltip().getElement();
      if (element) texts.push(element.innerText);
    }
  }
  await new Promise(resolve => setTimeout(resolve, 500));  // an onerror would fire by now
  return {texts, popups};
}"""


@pytest.fixture(scope="module")
def page_text(
    hostile: Hostile, browser: Browser, cdn_assets: CdnResolver
) -> Iterator[tuple[str, dict[str, list[str]]]]:
    """All the hostile map's text and what went wrong while it was open in Chromium."""
    view = open_map(browser, hostile.html, cdn_assets)
    try:
        found = view.page.evaluate(_COLLECT)
        assert found["popups"] >= 20, found["popups"]
        yield "\n".join(found["texts"]), view.problems()
    finally:
        view.close()


def test_hostile_map_runs_nothing(page_text: tuple[str, dict[str, list[str]]]) -> None:
    """No dialog, no console error or warning, no page error, no blocked request."""
    _, problems = page_text
    assert not any(problems.values()), problems


def test_hostile_map_shows_every_field_literally(
    hostile: Hostile, page_text: tuple[str, dict[str, list[str]]]
) -> None:
    text, _ = page_text
    _check_literal(text, hostile.fields, SHOWN_ON_MAP, "map")
    title = next(f for f in hostile.fields.values() if f.where == ".story.title")
    assert for_display(title.text) in text  # the 1 MB title, whole
    assert "</script><script>alert(2)" not in hostile.html.read_text(encoding="utf-8")


def _cells(fmt: str, folder: Path) -> list[str]:
    """Every text cell of every file an export wrote, as GDAL or the csv module reads it."""
    if fmt == "csv":
        return [c for p in folder.glob("*.csv") for row in csv.reader(p.open()) for c in row]
    import pyogrio

    cells: list[str] = []
    for path in folder.iterdir():
        for layer, _ in pyogrio.list_layers(path):
            frame = pyogrio.read_dataframe(path, layer=layer, read_geometry=False)
            cells += [v for column in frame for v in frame[column] if isinstance(v, str)]
    return cells


@pytest.mark.parametrize("fmt", ["csv", "geojson", "kml", "gpkg"])
def test_hostile_exports_keep_the_text_literal(hostile: Hostile, fmt: str, tmp_path: Path) -> None:
    invoke("export", "-f", fmt, "--offline", "--network", "proxy",
           "-s", str(hostile.scenario), "-o", str(tmp_path))  # fmt: skip
    cells = _cells(fmt, tmp_path)
    assert cells, f"{fmt}: nothing written"
    _check_literal("\n".join(cells), hostile.fields, IN_EXPORTS[fmt], fmt)
    assert not any(re.match(r"[=+@-]", c) for c in cells if fmt == "csv")
