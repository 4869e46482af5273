"""The map page as written: layers, escaping, reproducibility, size (the browser tests open it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from conftest import write_yaml

from routes import render
from routes.cli import app

HOSTILE = {
    "script": "<script>alert(1)</script>",
    "template": "x`${alert(2)}`y",
    "backslash": "back\\slash` and </script><img src=x onerror=alert(3)>",
}


@pytest.fixture(scope="module")
def aleppo_html(tmp_path_factory: pytest.TempPathFactory) -> str:
    from typer.testing import CliRunner

    out = tmp_path_factory.mktemp("map") / "aleppo.html"
    result = CliRunner().invoke(app, ["map", "--output", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(out)
    return out.read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "layer",
    [
        "Places: origin",
        "Places: besieged town",
        "Places: destination",
        "Places: border crossing",
        "Places: place passed on the way",
        "Places: town or city",
        "Places: neighbourhood",
        "Corridors",
        "Roads (OpenStreetMap, August 2021)",
        "Incidents",
        "Areas",
    ],
)
def test_every_layer_is_in_the_layer_control(aleppo_html: str, layer: str) -> None:
    assert f'"{layer}" :' in aleppo_html


def test_map_content(aleppo_html: str) -> None:
    assert "Evacuation of eastern Aleppo" in aleppo_html and "15 December 2016" in aleppo_html
    assert "Marianne Gasser" in aleppo_html and "about 3,000 people" in aleppo_html
    assert "Dr Hamza al-Khateab" in aleppo_html
    assert "OpenStreetMap" in aleppo_html and "GeoNames (CC BY 4.0)" in aleppo_html
    assert "Roads as mapped in OpenStreetMap in August 2021" in aleppo_html  # stored roads
    for asset in ("bootstrap", "font-awesome", "fontawesome", "awesome-markers"):
        assert asset not in aleppo_html, f"{asset} is loaded but nothing uses it"


def test_same_inputs_same_bytes(aleppo_html: str, tmp_path: Path, runner: Any) -> None:
    again = tmp_path / "again.html"
    assert runner.invoke(app, ["map", "--output", str(again)]).exit_code == 0
    assert again.read_text(encoding="utf-8") == aleppo_html


def test_map_is_small(aleppo_html: str) -> None:
    assert len(aleppo_html.encode()) < 1_000_000  # its roads included


def test_default_output_path(tmp_path: Path, runner: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["map"])
    assert result.exit_code == 0, result.output
    assert result.stdout.strip() == str(Path("output") / "aleppo-2016-12.html")
    assert (tmp_path / "output" / "aleppo-2016-12.html").stat().st_size > 10_000


def test_escape() -> None:
    escaped = render.escape("<a href='x'>`${y}`\\</a>")
    assert not set("<>'\"`$\\") & set(escaped)
    assert escaped == "&lt;a href=&#x27;x&#x27;&gt;&#96;&#36;{y}&#96;&#92;&lt;/a&gt;"


def test_hostile_text_is_escaped_everywhere(
    aleppo_raw: dict[str, Any], tmp_path: Path, runner: Any
) -> None:
    aleppo_raw["places"][1]["name"] = HOSTILE["script"]  # eastern Aleppo: labelled, in the legend
    aleppo_raw["places"][0]["aliases"] = [HOSTILE["template"]]
    aleppo_raw["corridors"][0]["name"] = HOSTILE["backslash"]
    aleppo_raw["sources"][0]["title"] = HOSTILE["template"]
    aleppo_raw["story"]["title"] = HOSTILE["script"]
    aleppo_raw["incidents"][0]["description"] = HOSTILE["backslash"]
    path = write_yaml(tmp_path / "hostile.yaml", aleppo_raw)
    out = tmp_path / "hostile.html"
    assert runner.invoke(app, ["map", "--scenario", str(path), "--output", str(out)]).exit_code == 0
    page = out.read_text(encoding="utf-8")
    for text in HOSTILE.values():
        assert text not in page
    assert "alert(1)" in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "${alert(2)}" not in page and "&#36;{alert(2)}" in page
    assert "onerror=alert(3)&gt;" in page and "<img src=x" not in page


def test_accessible_page(aleppo_html: str) -> None:
    """Readers can zoom, the language is declared, and the corridors are there as text."""
    assert "user-scalable=no" not in aleppo_html
    assert '<html lang="en">' in aleppo_html
    summary = aleppo_html.split('<section class="routes-summary"', 1)[1].split("</section>", 1)[0]
    for name in ("Eastern Aleppo to Idlib province", "Al-Fu&#x27;ah and Kafriya"):
        assert name in summary
    assert "about 3,000 people according to Marianne Gasser" in summary
    assert '<details class="routes-legend" open' in aleppo_html
    # each corridor its own colour, from the colour-blind-safe Okabe & Ito palette
    legend = aleppo_html.split('<details class="routes-legend"', 1)[1].split("</details>", 1)[0]
    colours = re.findall(r"border-top:4px \w+ (#[0-9A-Fa-f]{6})", legend)
    assert len(colours) == 3 and len(set(colours)) == 3, colours
    assert set(colours) <= set(render.OKABE_ITO.values())


def test_legend_gives_each_corridor_its_figure(aleppo_html: str, aleppo: Any) -> None:
    """The key names each corridor with the figure of the day shown (the first) and, apart,
    the final one its line is sized by ("final: 35,000, ICRC"); it says what a thicker line
    means and which status each line style stands for; no figure the story never gives."""
    import html

    from routes.render import timeline

    legend = aleppo_html.split('<details class="routes-legend"', 1)[1].split("</details>", 1)[0]
    first = timeline.story_days(aleppo)[0]
    for corridor in aleppo.corridors:
        said = html.escape(timeline.said_on(corridor, first))
        assert f'<span class="routes-day">{said}</span>' in legend, corridor.id
        final = html.escape(timeline.final_text(corridor))
        assert f'<span class="routes-final">{final}</span>' in legend, corridor.id
    assert "final: 35,000, ICRC" in legend
    assert "final: more than 1,200, ICRC" in legend
    assert "A thicker line: more people." in legend
    assert "under way" in legend and "completed" in legend
    assert "800 people" not in legend and "--osm" not in legend


def test_the_default_page_links_nothing(aleppo_html: str) -> None:
    """The page ``routes map`` writes carries Leaflet and its plugins itself, from the
    installed package that ships them: no script or stylesheet is fetched."""
    assert "<script src=" not in aleppo_html and 'rel="stylesheet" href=' not in aleppo_html
    assert "Leaflet 1.9.3" in aleppo_html
    assert "url(data:image/png;base64," in aleppo_html  # leaflet's control images, inlined
    assert len(aleppo_html.encode()) < 1_000_000


def test_cdn_page_links_the_same_files(tmp_path: Path, runner: Any) -> None:
    """``--cdn`` writes the small page: the same files, linked; under 300 KB."""
    from routes.render import assets

    out = tmp_path / "cdn.html"
    result = runner.invoke(app, ["map", "--network", "proxy", "--cdn", "-o", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    linked = re.findall(r'<script src="([^"]+)"|<link rel="stylesheet" href="([^"]+)"', page)
    assert {a or b for a, b in linked} <= set(assets.ASSETS) and len(linked) >= 5
    assert out.stat().st_size < 300_000


def test_title_and_description_come_from_the_story(aleppo_html: str) -> None:
    head = aleppo_html.split("</head>", 1)[0]
    assert "<title>Evacuation of eastern Aleppo (CNN, 15 December 2016)</title>" in head
    found = re.search(r'<meta name="description" content="([^"]+)">', head)
    assert found and "Eastern Aleppo to Idlib province" in found[1], head[-600:]


def test_drawing_projection_is_the_one_pyproj_resolves() -> None:
    """Routes are simplified in an azimuthal equidistant projection given to PROJ as a
    pipeline; it gives the coordinates ``Transformer.from_crs`` gives, both ways (to a
    nanometre: from_crs rounds the centre to 15 digits, the pipeline keeps it)."""
    import geopandas as gpd
    import numpy as np
    import shapely
    from pyproj import Transformer

    from routes.render import geometry

    frame = gpd.GeoSeries([shapely.LineString([(36.61, 35.93), (37.29, 36.31)])], crs="EPSG:4326")
    to_local, to_lonlat = geometry.local_projection(frame)
    west, south, east, north = frame.total_bounds
    aeqd = f"+proj=aeqd +lat_0={(south + north) / 2} +lon_0={(west + east) / 2} +datum=WGS84"
    forward = Transformer.from_crs("EPSG:4326", aeqd, always_xy=True)
    backward = Transformer.from_crs(aeqd, "EPSG:4326", always_xy=True)
    rng = np.random.default_rng(7)
    lonlat = np.column_stack([rng.uniform(35, 39, 500), rng.uniform(34, 38, 500)])
    local = np.column_stack(forward.transform(lonlat[:, 0], lonlat[:, 1]))
    assert np.abs(to_local(lonlat) - local).max() < 1e-6
    back = np.column_stack(backward.transform(*local.T))
    assert np.abs(to_lonlat(local) - back).max() < 1e-11 and np.abs(back - lonlat).max() < 1e-9
    assert np.abs(local).max() > 100_000  # metres, not degrees
