"""The map as a reader gets it: rendered by the CLI, opened in headless Chromium, offline.

One page per map is shared by the tests in this module (browsers are slow);
tests that change it (toggling layers, opening popups) put it back.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
import yaml
from browser_support import (
    TILE_GREY,
    CdnResolver,
    MapPage,
    click_path,
    close_popup,
    collapse_layers,
    expand_layers,
    hover_path,
    map_asset_urls,
    open_map,
    open_popup,
    place_marker,
    render_map,
    wait_map_idle,
)
from PIL import Image

from routes import render
from routes import scenario as scenario_module
from routes.render.labels import place_groups, story_places

if TYPE_CHECKING:
    from playwright.sync_api import Browser  # type hints only: imported where used

REPO = Path(__file__).resolve().parents[1]
SCENARIO_FILE = REPO / "geodata" / "scenarios" / "aleppo-2016-12.yaml"
SCREENSHOT = REPO / "output" / "test-artifacts" / "aleppo-map.png"

LABELS = [
    "Rebel-held pocket of eastern Aleppo, 15 Dec 2016",
    "Al-Fu'ah and Kafriya",  # the two towns, named as one at the first view
    "Bab al-Hawa border crossing",
]
#: The overlay that starts hidden: the proxy network's links, a routing device.
HIDDEN = "Proxy network links near the corridors"

# The hostile scenario: what each field is changed to.
XSS_PLACE = "<script>alert(1)</script>"  # Kafriya, a labelled enclave
XSS_TEMPLATE = "x`${alert(2)}`y"  # Al-Fu'ah
XSS_ACCORDING = "<img src=x onerror=alert(3)>"  # first corridor, first figure
XSS_SOURCE = '"; alert(4); //'  # the CNN source every corridor cites
XSS_CORRIDOR = "Aleppo \\ exit </script><script>alert(5)</script>"  # first corridor


def overlay_names(html: str) -> list[str]:
    """The overlay names in the page's ``L.control.layers`` call, in order."""
    block = re.search(r"overlays\s*:\s*\{(.*?)\}", html, re.S)
    assert block, "no overlays in the layer control's JavaScript"
    keys = re.findall(r'("(?:[^"\\]|\\.)*")\s*:\s*\w+\s*,', block.group(1))
    return [json.loads(k) for k in keys]


def expected_overlays(story: scenario_module.Scenario) -> dict[str, dict[str, int | None]]:
    """Overlay name -> how many SVG paths and marker icons it draws (None: some, not fixed here)."""
    corridors = len(story.corridors)
    overlays: dict[str, dict[str, int | None]] = {
        # the people who left and arrived at each place: a circle each, sized by day
        "People who left and arrived, by day": {"paths": None, "icons": 0},
        "Proxy network links near the corridors": {"paths": None, "icons": 0},
        "Areas": {"paths": len(story.areas), "icons": 0},
        # each corridor: its line, the moving dashes over it, connectors, and an arrowhead
        "Corridors (proxy network: not the roads taken)": {"paths": None, "icons": corridors},
        "Incidents": {"paths": 0, "icons": len(story.incidents)},
    }
    for role, (_colour, _radius, label) in render.ROLE_STYLE.items():
        if count := sum(p.role == role for p in story.places):
            overlays[f"Places: {label.lower()}"] = {"paths": count, "icons": 0}
    return overlays


def drawn(view: MapPage) -> dict[str, int]:
    """How many SVG paths and marker icons the map panes hold."""
    return view.page.evaluate("""() => ({
        paths: document.querySelectorAll('.leaflet-pane svg.leaflet-zoom-animated path').length,
        icons: document.querySelectorAll('.leaflet-marker-pane .leaflet-marker-icon').length,
    })""")


@pytest.fixture(scope="module")
def story() -> scenario_module.Scenario:
    """The bundled Aleppo scenario."""
    return scenario_module.load(str(SCENARIO_FILE))


@pytest.fixture(scope="module")
def aleppo_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The Aleppo map, as ``routes map`` writes it."""
    return render_map(tmp_path_factory.mktemp("aleppo") / "map.html", "--network", "proxy")


@pytest.fixture(scope="module")
def aleppo(browser: Browser, aleppo_html: Path, cdn_assets: CdnResolver) -> Iterator[MapPage]:
    """The Aleppo map open in Chromium."""
    view = open_map(browser, aleppo_html, cdn_assets)
    yield view
    view.close()


@pytest.fixture(scope="module")
def hostile_html(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A map of the Aleppo scenario with script and markup in its names and sources."""
    tmp = tmp_path_factory.mktemp("hostile")
    data: dict[str, Any] = yaml.safe_load(SCENARIO_FILE.read_text(encoding="utf-8"))
    places = {p["id"]: p for p in data["places"]}
    places["kafriya"]["name"] = XSS_PLACE
    places["al-fuah"]["name"] = XSS_TEMPLATE
    places["al-fuah-kafriya"]["name"] = f"{XSS_PLACE} and {XSS_TEMPLATE}"  # corridor start
    first = data["corridors"][0]
    first["name"] = XSS_CORRIDOR
    first["figures"][0]["according_to"] = XSS_ACCORDING
    cnn = next(s for s in data["sources"] if s["id"] == "cnn-2016-12-15")
    cnn["title"] = cnn["publisher"] = XSS_SOURCE  # popups and credits cite the publisher
    path = tmp / "hostile.yaml"
    path.write_text(yaml.safe_dump(data, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return render_map(tmp / "map.html", "--scenario", str(path), "--network", "proxy")


@pytest.fixture(scope="module")
def hostile(browser: Browser, hostile_html: Path, cdn_assets: CdnResolver) -> Iterator[MapPage]:
    """The hostile map open in Chromium."""
    view = open_map(browser, hostile_html, cdn_assets)
    yield view
    view.close()


# --- the Aleppo map ----------------------------------------------------------------------


def test_page_loads_offline_without_errors(aleppo: MapPage, aleppo_html: Path) -> None:
    """Scripts, styles and tiles all come from the local stand-ins; nothing fails or is blocked."""
    assert not any(aleppo.problems().values()), aleppo.problems()
    assert set(map_asset_urls(aleppo_html.read_text(encoding="utf-8"))) <= set(aleppo.served)
    assert any("tile.openstreetmap.org" in url for url in aleppo.served)
    assert aleppo.page.evaluate("() => typeof L === 'object' && L.version") == "1.9.3"
    assert aleppo.page.locator(".leaflet-overlay-pane svg path.routes-corridor").count() > 0


def test_screenshot_shows_the_corridors(aleppo: MapPage) -> None:
    """A full-page screenshot, kept for people to look at, shows the first corridor's colour."""
    page = aleppo.page
    page.mouse.move(0, 0)
    SCREENSHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT), full_page=True)

    line = page.locator(".routes-corridor").first
    stroke = line.get_attribute("stroke") or ""
    assert stroke.lower() == render.CORRIDOR_PALETTE[0].lower()  # the first corridor's own
    opacity = float(line.get_attribute("stroke-opacity") or 1)
    length, weight = line.evaluate("p => [p.getTotalLength(), +p.getAttribute('stroke-width')]")
    colour = tuple(int(stroke[i : i + 2], 16) for i in (1, 3, 5))
    # The line is drawn translucent over the grey tiles: expect the blend.
    seen = tuple(
        round(opacity * c + (1 - opacity) * g) for c, g in zip(colour, TILE_GREY, strict=True)
    )

    with Image.open(SCREENSHOT) as shot:
        image = shot.convert("RGB")
    viewport = page.viewport_size or {"width": 0, "height": 0}
    assert image.size == (viewport["width"], viewport["height"])
    colours: list[Any] = image.getcolors(image.width * image.height) or []
    matching = sum(
        n for n, px in colours if all(abs(a - b) <= 10 for a, b in zip(px, seen, strict=True))
    )
    # The line's area less what lies under the lines sharing its route, markers and labels:
    # about 37% of it shows in the plain blend (2,400 of 6,500 px at 1280x900).
    assert matching >= 0.2 * length * weight, (matching, length, weight, seen)
    assert len(colours) > 100, "the screenshot is nearly one flat colour"
    assert max(n for n, _px in colours) < 0.9 * image.width * image.height, "mostly one colour"


def test_layer_control_lists_every_overlay(
    aleppo: MapPage, aleppo_html: Path, story: scenario_module.Scenario
) -> None:
    """The page's overlays are all in the control, and include one layer per kind of feature."""
    in_page = overlay_names(aleppo_html.read_text(encoding="utf-8"))
    expand_layers(aleppo.page)
    in_control = [
        t.strip()
        for t in aleppo.page.locator(".leaflet-control-layers-overlays label").all_inner_texts()
    ]
    collapse_layers(aleppo.page)
    assert in_control == in_page
    expected = [
        "Areas",
        "Corridors (proxy network: not the roads taken)",
        "Incidents",
        *(
            f"Places: {role}"
            for role in [
                "origin",
                "besieged town",
                "destination",
                "border crossing",
                "place passed on the way",
                "town or city",
                "neighbourhood",
            ]
        ),
    ]
    assert set(expected) <= set(in_page)
    assert set(expected_overlays(story)) == set(in_page)


def test_every_overlay_toggles(aleppo: MapPage, story: scenario_module.Scenario) -> None:
    """Unchecking an overlay takes exactly its features off the map; checking brings them back."""
    page = aleppo.page
    expected = expected_overlays(story)
    expand_layers(page)
    labels = page.locator(".leaflet-control-layers-overlays label")
    assert labels.count() == len(expected)
    for label in labels.all():
        name = label.inner_text().strip()
        checkbox = label.locator("input[type=checkbox]")
        assert checkbox.is_checked() == (name != HIDDEN), f"{name} shown or hidden at first"
        if name == HIDDEN:
            checkbox.check()
        before = drawn(aleppo)
        checkbox.uncheck()
        hidden = drawn(aleppo)
        for kind, count in expected[name].items():
            gone = before[kind] - hidden[kind]
            assert gone == count if count is not None else gone > 0, (name, kind, before, hidden)
        checkbox.check()
        assert drawn(aleppo) == before, name
        if name == HIDDEN:
            checkbox.uncheck()
    collapse_layers(page)
    assert page.locator("path.routes-corridor").count() == len(story.corridors)
    assert aleppo.problems()["console"] == []


def test_corridor_popups_give_figures_and_sources(
    aleppo: MapPage, story: scenario_module.Scenario
) -> None:
    """Clicking on each corridor line opens a popup with its figures, their sources, and 'proxy'."""
    aleppo.page.evaluate("() => window.routesMap.routesShowDay(5)")  # every corridor drawn
    page = aleppo.page
    lines = page.locator("path.routes-corridor")
    assert lines.count() == len(story.corridors)
    texts = {}
    for corridor in story.corridors:
        line = page.locator(f"path.routes-corridor-{corridor.id}")
        text = open_popup(page, path=line)
        texts[corridor.id] = text
        assert corridor.name in text
        assert "proxy" in text.lower()
        for figure in corridor.figures:
            assert figure.text() in text, (corridor.id, figure)
            assert figure.according_to in text, (corridor.id, figure)
            source = story.source(figure.source)  # every claim: publisher, date, URL or paragraph
            assert f"{source.publisher}, {source.date:%d %b %Y}" in text, (corridor.id, figure)
            assert (source.url or f"paragraph {figure.paragraph}") in text, (corridor.id, figure)
    first = texts["eastern-aleppo-to-idlib"]
    for needle in ["3,000", "Marianne Gasser", "CNN", "Proxy network", "15–22 December 2016"]:
        assert needle in first
    assert "through the stops" in first and "Time on the road" not in first
    aleppo.page.evaluate("() => window.routesMap.routesShowDay(0)")


def test_place_popup(aleppo: MapPage, story: scenario_module.Scenario) -> None:
    """Clicking a place marker opens a popup with its role, coordinate and source."""
    page = aleppo.page
    kafriya = story.place("kafriya")
    text = open_popup(page, place_marker(page, kafriya.name))
    assert kafriya.name in text
    assert "Besieged town" in text
    assert f"{kafriya.lat:.5f}, {kafriya.lon:.5f}" in text
    source = story.source(kafriya.source)
    assert (source.publisher or source.title) in text
    assert "Kefreia" in text  # an alias


def test_permanent_labels(aleppo: MapPage, story: scenario_module.Scenario) -> None:
    """Every place the story names, and the pocket, carry labels without hovering."""
    page = aleppo.page
    page.mouse.move(0, 0)
    labels = page.locator(".routes-label-place, .routes-label-area")
    texts = [
        t.strip()
        for t, shown in zip(
            labels.all_inner_texts(), [label.is_visible() for label in labels.all()], strict=True
        )
        if shown
    ]
    for name in LABELS:
        assert name in texts
    from shapely.geometry import MultiPoint, Point

    hulls = [
        MultiPoint([(story.place(p).lon, story.place(p).lat) for p in a.places]).convex_hull
        for a in story.areas
    ]
    parts = {part for group in place_groups(story).values() for part in group}
    for place in story_places(story):  # a place inside an outline is named by its label
        if place.id in parts:  # named with the others of its group at the first view
            continue
        if not any(h.buffer(1e-4).contains(Point(place.lon, place.lat)) for h in hulls):
            assert place.name in texts, place.name


def test_popup_fits_and_can_be_closed(aleppo: MapPage) -> None:
    """A corridor popup fits the window, its heading is not covered, its close button works."""
    page = aleppo.page
    close_popup(page)
    click_path(page, page.locator("path.routes-corridor").first)
    popup = page.locator(".leaflet-popup")
    popup.wait_for(state="visible")
    wait_map_idle(page)
    try:
        box = popup.bounding_box()
        viewport = page.viewport_size
        assert box and viewport
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"], box
        for selector in [".routes-popup h4", ".leaflet-popup-close-button"]:
            hit = page.locator(selector).evaluate("""e => {
                const r = e.getBoundingClientRect();
                return e.contains(document.elementFromPoint(r.x + r.width / 2,
                                                            r.y + r.height / 2));
            }""")
            assert hit, f"{selector} is covered"
    finally:
        close_popup(page)


# --- a scenario written to attack the page -----------------------------------------------


def test_hostile_scenario_runs_no_script(hostile: MapPage, hostile_html: Path) -> None:
    """Markup and script in names and sources never run: no dialog, error or injected element."""
    page = hostile.page
    assert not any(hostile.problems().values()), hostile.problems()
    assert page.locator("img[onerror], img[src='x']").count() == 0
    scripts = page.evaluate("() => [...document.scripts].map(s => s.textContent)")
    assert not [s for s in scripts if re.fullmatch(r"\s*alert\(\d\)\s*", s)], "injected script"
    # The page still works: every layer was drawn.
    assert page.locator("path.routes-corridor").count() == 3
    assert "</script><script>" not in hostile_html.read_text(encoding="utf-8")


def test_hostile_text_is_shown_literally(hostile: MapPage) -> None:
    """Each hostile string reaches the reader as plain text in the legend, labels and popups."""
    page = hostile.page
    assert XSS_CORRIDOR in page.locator(".routes-legend").inner_text()

    page.mouse.move(0, 0)
    labels = [t.strip() for t in page.locator(".routes-label").all_inner_texts()]
    assert XSS_PLACE in labels
    assert XSS_TEMPLATE in labels

    text = open_popup(page, place_marker(page, XSS_PLACE))
    assert XSS_PLACE in text
    text = open_popup(page, place_marker(page, XSS_TEMPLATE))
    assert XSS_TEMPLATE in text

    first = page.locator("path.routes-corridor-eastern-aleppo-to-idlib")
    text = open_popup(page, path=first)
    for needle in [XSS_CORRIDOR, XSS_ACCORDING, XSS_SOURCE, "3,000"]:
        assert needle in text
    text = open_popup(page, path=page.locator("path.routes-corridor-foua-kafriya-to-jibreen"))
    assert XSS_PLACE in text and XSS_TEMPLATE in text and XSS_SOURCE in text

    hover_path(page, first)
    tooltip = page.locator(".leaflet-tooltip:not(.routes-label)")
    tooltip.wait_for(state="visible")
    assert tooltip.count() == 1
    assert XSS_CORRIDOR in tooltip.inner_text()
    page.mouse.move(0, 0)
    assert hostile.problems()["dialogs"] == []
