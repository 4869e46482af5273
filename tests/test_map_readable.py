"""A map readers can read (issue 12), measured in headless Chromium as a reader gets it.

At a desktop (1280x800) and a phone (390x844) viewport, on the Aleppo map (proxy
network) and on an OpenStreetMap map (the Helsinki extract): how much of the map the
controls cover, whether labels collide, fall off the screen or hide under controls,
whether each corridor has its own colour and label, whether popups open in full, and
whether the time control changes what is drawn. Screenshots of both viewports go to
``output/test-artifacts/``.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import (
    CdnResolver,
    MapPage,
    click_path,
    close_popup,
    collapse_layers,
    expand_layers,
    open_map,
    render_map,
    wait_map_idle,
)
from osm_support import helsinki_osm, helsinki_scenario  # noqa: F401  (pytest fixtures)

from routes import scenario as scenarios
from routes.render.context import CONTEXT_LAYER
from routes.render.credits import DISCLAIMER
from routes.render.labels import place_groups, story_places

if TYPE_CHECKING:
    from playwright.sync_api import Browser  # type hints only: imported where used

REPO = Path(__file__).resolve().parents[1]
ALEPPO = REPO / "geodata" / "scenarios" / "aleppo-2016-12.yaml"
ARTEFACTS = REPO / "output" / "test-artifacts"

DESKTOP = (1280, 800)
PHONE = (390, 844)
#: The most of the map the controls may cover, by viewport.
COVER_LIMIT = {DESKTOP: 0.15, PHONE: 0.25}

#: Boxes of everything that sits over the map: Leaflet's controls, our title and key.
_BOXES = """() => {
    const map = document.querySelector('.folium-map').getBoundingClientRect();
    const shown = e => {
        const s = getComputedStyle(e), r = e.getBoundingClientRect();
        return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 1 && r.height > 1;
    };
    const box = e => { const r = e.getBoundingClientRect();
        return {x: r.left, y: r.top, w: r.width, h: r.height}; };
    const main = document.querySelector('.folium-map > .leaflet-control-container');
    const controls = [...main.querySelectorAll('.leaflet-control')].filter(shown).map(box);
    const overlays = [...document.querySelectorAll('.routes-title, .routes-legend')]
        .filter(shown).map(box);
    const labels = [...document.querySelectorAll('.routes-label')].filter(shown)
        .map(e => ({...box(e), text: e.textContent, kind: e.dataset.kind,
                    colour: e.style.getPropertyValue('--routes-colour')}));
    return {map: {x: map.left, y: map.top, w: map.width, h: map.height},
            controls, overlays, labels};
}"""

#: The share of the map covered by the union of boxes (counted on a 2 px grid).
_COVERED = """([map, boxes]) => {
    const step = 2, cols = Math.ceil(map.w / step), rows = Math.ceil(map.h / step);
    const grid = new Uint8Array(cols * rows);
    for (const b of boxes) {
        const x0 = Math.max(0, Math.floor((b.x - map.x) / step));
        const x1 = Math.min(cols, Math.ceil((b.x + b.w - map.x) / step));
        const y0 = Math.max(0, Math.floor((b.y - map.y) / step));
        const y1 = Math.min(rows, Math.ceil((b.y + b.h - map.y) / step));
        for (let y = y0; y < y1; y++) {
            grid.fill(1, y * cols + x0, Math.max(y * cols + x0, y * cols + x1));
        }
    }
    return grid.reduce((a, v) => a + v, 0) / grid.length;
}"""


def _overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["x"] < b["x"] + b["w"]
        and b["x"] < a["x"] + a["w"]
        and (a["y"] < b["y"] + b["h"] and b["y"] < a["y"] + a["h"])
    )


def _inside(box: dict[str, float], frame: dict[str, float]) -> bool:
    return (
        box["x"] >= frame["x"] - 0.5
        and box["y"] >= frame["y"] - 0.5
        and box["x"] + box["w"] <= frame["x"] + frame["w"] + 0.5
        and box["y"] + box["h"] <= frame["y"] + frame["h"] + 0.5
    )


@pytest.fixture(scope="module")
def maps(
    tmp_path_factory: pytest.TempPathFactory,
    helsinki_osm: Path,  # noqa: F811
    helsinki_scenario: Path,  # noqa: F811
) -> dict[str, tuple[Path, scenarios.Scenario]]:
    """The two maps under test, as ``routes map`` writes them."""
    tmp = tmp_path_factory.mktemp("readable")
    aleppo = render_map(tmp / "aleppo.html", "--network", "proxy")
    osm = render_map(
        tmp / "osm.html", "--scenario", str(helsinki_scenario), "--osm", str(helsinki_osm)
    )
    return {
        "aleppo": (aleppo, scenarios.load(str(ALEPPO))),
        "osm": (osm, scenarios.load(str(helsinki_scenario))),
    }


@pytest.fixture(scope="module", params=["aleppo", "osm"])
def which(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="module", params=[DESKTOP, PHONE], ids=["desktop", "phone"])
def view(
    request: pytest.FixtureRequest,
    which: str,
    maps: dict[str, tuple[Path, scenarios.Scenario]],
    browser: Browser,
    cdn_assets: CdnResolver,
) -> Iterator[tuple[MapPage, scenarios.Scenario, tuple[int, int]]]:
    """One map open at one viewport size; a screenshot of its first screen is kept."""
    size: tuple[int, int] = request.param
    html, story = maps[which]
    page = open_map(browser, html, cdn_assets, {"width": size[0], "height": size[1]})
    page.page.mouse.move(0, 0)
    ARTEFACTS.mkdir(parents=True, exist_ok=True)
    name = "desktop" if size == DESKTOP else "phone"
    page.page.screenshot(path=str(ARTEFACTS / f"map-{which}-{name}.png"))
    yield page, story, size
    page.close()


def _boxes(page: MapPage) -> dict[str, Any]:
    return dict(page.page.evaluate(_BOXES))


def test_controls_leave_the_map_to_the_reader(view: Any) -> None:
    """Everything over the map (Leaflet's controls, the title and the key, as the reader
    first sees them) covers at most 15 % of the map on a desktop, 25 % on a phone."""
    page, _story, size = view
    boxes = _boxes(page)
    assert boxes["overlays"], "the title and the key are drawn"
    everything = page.page.evaluate(_COVERED, [boxes["map"], boxes["controls"] + boxes["overlays"]])
    assert everything <= COVER_LIMIT[size], (everything, boxes["controls"], boxes["overlays"])
    assert page.problems()["page_errors"] == []


def test_labels_do_not_collide_and_stay_on_screen(view: Any) -> None:
    """No two labels overlap, none lies under a control, the title or the key, all are on
    screen; every place the story names is labelled (or named by its area's label)."""
    page, story, _size = view
    boxes = _boxes(page)
    labels = boxes["labels"]
    assert labels, "no labels drawn"
    for i, a in enumerate(labels):
        assert _inside(a, boxes["map"]), a
        for b in labels[i + 1 :]:
            assert not _overlap(a, b), (a, b)
        for c in boxes["controls"] + boxes["overlays"]:
            assert not _overlap(a, c), (a, c)
    texts = {label["text"] for label in labels}
    area_text = " ".join(label["text"] for label in labels if label["kind"] == "area")
    groups = place_groups(story)
    for place in story_places(story):
        named = place.name in texts or place.name.lower() in area_text.lower()
        named = named or any(  # a part of a group ("Kafriya"), named by the group's label
            place.id in parts and story.place(g).name in texts for g, parts in groups.items()
        )
        assert named, (place.name, sorted(texts))


def test_each_corridor_has_its_own_colour_and_label(view: Any) -> None:
    """Each drawn corridor line has a colour no other has, and a label in that colour."""
    page, story, _size = view
    strokes = page.page.evaluate(
        "() => [...document.querySelectorAll('path.routes-corridor')]"
        ".map(p => p.getAttribute('stroke').toUpperCase())"
    )
    drawn = _drawn_on(story, _first_day(story))
    assert len(strokes) == drawn, strokes
    assert len(set(strokes)) == len(strokes), strokes
    corridor_labels = [b for b in _boxes(page)["labels"] if b["kind"] == "corridor"]
    assert sorted(b["colour"].strip().upper() for b in corridor_labels) == sorted(strokes)
    for label in corridor_labels:
        assert label["text"].startswith("to "), label


def test_popups_open_in_full(view: Any) -> None:
    """A corridor's popup opens fully on screen and clear of every control."""
    page, _story, _size = view
    p = page.page
    for line in p.locator("path.routes-corridor").all():
        close_popup(p)
        click_path(p, line)
        popup = p.locator(".leaflet-popup")
        popup.wait_for(state="visible")
        wait_map_idle(p)
        p.wait_for_timeout(300)  # the pan clear of the controls
        wait_map_idle(p)
        box = popup.bounding_box()
        boxes = _boxes(page)
        assert box and _inside(
            {"x": box["x"], "y": box["y"], "w": box["width"], "h": box["height"]}, boxes["map"]
        ), box
        bubble = p.locator(".leaflet-popup-content-wrapper").bounding_box()
        assert bubble
        frame = {"x": bubble["x"], "y": bubble["y"], "w": bubble["width"], "h": bubble["height"]}
        for c in boxes["controls"] + boxes["overlays"]:
            assert not _overlap(frame, c), (frame, c)
    close_popup(p)


def _first_day(story: scenarios.Scenario) -> dt.date:
    return min(story.dates())


def _drawn_on(story: scenarios.Scenario, day: dt.date) -> int:
    """How many corridors run on ``day``: from their date to their end, or on from their
    date when it has none (undated: always)."""
    return sum(c.date is None or c.date <= day <= (c.end or dt.date.max) for c in story.corridors)


def test_time_control_changes_what_is_drawn(view: Any, which: str) -> None:
    """Stepping the slider day by day draws the corridors that run that day, and only those."""
    page, story, size = view
    if size != DESKTOP:
        pytest.skip("one viewport is enough for the time control")
    p = page.page
    slider = p.locator(".routes-timebar input.routes-day-slider")
    first = _first_day(story)
    counts = {}
    for step in range((max(story.dates()) - first).days + 1):
        day = first + dt.timedelta(days=step)
        slider.fill(str(step))
        p.wait_for_timeout(100)
        counts[day] = p.locator("path.routes-corridor").count()
        assert counts[day] == _drawn_on(story, day), (day, counts)
        for corridor in story.corridors:  # each line in its status of the day
            line = p.locator(f"path.routes-corridor-{corridor.id}")
            if corridor.phases and line.count():
                dashed = line.get_attribute("stroke-dasharray") is not None
                status = corridor.status_on(day)
                assert dashed == (status in {"planned", "suspended"}), (corridor.id, day, status)
    if which == "aleppo":
        assert set(counts.values()) == {3}, counts  # all three run (Turkey's with no end)
    slider.fill("0")


def _attribution_without_basemap(page: MapPage) -> str:
    p = page.page
    expand_layers(p)
    p.locator(".leaflet-control-layers-base label", has_text=CONTEXT_LAYER).locator("input").check()
    collapse_layers(p)
    text = p.locator(".folium-map > .leaflet-control-container .leaflet-control-attribution")
    p.evaluate("() => document.querySelectorAll('.routes-sources').forEach(d => d.open = true)")
    found = text.inner_text()
    p.evaluate("() => document.querySelectorAll('.routes-sources').forEach(d => d.open = false)")
    expand_layers(p)
    p.locator(".leaflet-control-layers-base label").first.locator("input").check()
    collapse_layers(p)
    return found


def test_credits_name_what_the_map_uses(view: Any, which: str) -> None:
    """With the basemap off, an OSM map still credits OpenStreetMap (ODbL); the Aleppo map
    on the proxy network does not, and credits only sources it draws or quotes."""
    page, story, size = view
    if size != DESKTOP:
        pytest.skip("credits do not depend on the viewport")
    credits = _attribution_without_basemap(page)
    if which == "osm":
        assert "OpenStreetMap contributors (ODbL)" in credits, credits
        return
    assert "OpenStreetMap" not in credits, credits  # no OSM roads, no OSM tiles
    used = {story.source(story.story.source).publisher}
    used |= {story.source(p.source).publisher or story.source(p.source).title for p in story.places}
    used |= {
        story.source(f.source).publisher or story.source(f.source).title
        for record in [*story.corridors, *story.incidents]
        for f in record.figures
    }
    used |= {"GeoNames (CC BY 4.0)", "Natural Earth"}
    ours = credits.split("|", 1)[-1]  # after Leaflet's own credit
    assert ours.strip().endswith(DISCLAIMER), ours  # the boundary note closes it
    for part in re.split(r" · ", ours.strip().removesuffix(DISCLAIMER).rstrip(" ·")):
        label, _, names = part.partition(": ")
        names = re.sub(r"^\d+ sources\s*", "", names)  # "Figures: 18 sources", opened
        if label == "Story":
            assert names.startswith(f"{story.story.publisher},"), part
            continue
        assert label in {"Places", "Context", "Figures"}, part
        for name in names.split("; "):
            assert name in used, (name, part)
    unused = {s.publisher for s in story.sources} - used - {None}
    for name in unused:
        assert name not in credits, name


#: Points along each drawn corridor line, on screen (the SVG path as the browser draws it,
#: its offset included), every 4 px.
_LINE_POINTS = """() => [...document.querySelectorAll('path.routes-corridor')].flatMap(path => {
    const m = path.getScreenCTM(), n = path.getTotalLength(), pts = [];
    for (let at = 0; at <= n; at += 4) {
        const p = path.getPointAtLength(at);
        pts.push([m.a * p.x + m.c * p.y + m.e, m.b * p.x + m.d * p.y + m.f]);
    }
    return pts;
})"""


def test_area_and_country_names_keep_off_the_corridor_lines(view: Any) -> None:
    """An area's or a country's name (the pocket's, say) is not written across a corridor
    line where there is room beside it: no drawn point of a line lies inside its box."""
    page, _story, _size = view
    points = page.page.evaluate(_LINE_POINTS)
    assert points, "no corridor lines drawn"
    for label in _boxes(page)["labels"]:
        if label["kind"] not in ("area", "country"):
            continue
        inside = [
            (round(x), round(y))
            for x, y in points
            if label["x"] <= x <= label["x"] + label["w"]
            and label["y"] <= y <= label["y"] + label["h"]
        ]
        assert not inside, (label["text"], inside[:5])


def test_bottom_controls_stand_clear_of_the_credits(view: Any) -> None:
    """The scale and the time bar (bottom left) never touch the credits, which run along
    the bottom of the map and wrap to several lines on a phone."""
    page, _story, _size = view
    p = page.page
    main = ".folium-map > .leaflet-control-container"
    credits = p.locator(f"{main} .leaflet-control-attribution").bounding_box()
    assert credits is not None
    lower_left = p.locator(f"{main} .leaflet-bottom.leaflet-left .leaflet-control").all()
    assert len(lower_left) >= 2, "the scale and the time bar"
    for control in lower_left:
        box = control.bounding_box()
        assert box is not None
        apart = box["y"] + box["height"] <= credits["y"] or (
            box["x"] + box["width"] <= credits["x"]
        )
        assert apart, (control.get_attribute("class"), box, credits)


def test_default_page_is_small(maps: dict[str, tuple[Path, scenarios.Scenario]]) -> None:
    """The default Aleppo page, carrying its scripts and stylesheets, stays under 1 MB."""
    html, _story = maps["aleppo"]
    assert html.stat().st_size < 1_000_000
