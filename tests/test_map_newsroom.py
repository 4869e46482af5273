"""A map a newsroom would publish (issue 28), as a reader gets it with the network cut.

At a desktop (1280x800) and a phone (390x844) viewport, on the Aleppo map (on the
OpenStreetMap roads stored for it), a Helsinki map on OpenStreetMap roads and a corpus map,
each written as ``routes map`` and ``routes corpus`` write them by default: the page
carries its scripts and stylesheets and asks for nothing but map tiles, which are refused
here. On Aleppo: the roads are drawn under the corridors, the pocket's label is inside,
touching or led to it by a line, each corridor's label sits on its own line in the half
nearer its destination, no label covers a marker or another, the time bar steps one day a
click through all eight days, and on each day the key's figure for a corridor is its line's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import click_path, render_map, wait_map_idle
from osm_support import helsinki_osm, helsinki_scenario  # noqa: F401  (pytest fixtures)

from routes import scenario as scenarios
from routes.render import NETWORK_COLOUR
from routes.render.timeline import day_text, story_days

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

REPO = Path(__file__).resolve().parents[1]
ALEPPO = REPO / "geodata" / "scenarios" / "aleppo-2016-12.yaml"
STORIES = Path(__file__).parent / "fixtures" / "corpus" / "stories.jsonl"
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}


@pytest.fixture(scope="module")
def pages(
    tmp_path_factory: pytest.TempPathFactory,
    helsinki_osm: Path,  # noqa: F811
    helsinki_scenario: Path,  # noqa: F811
) -> dict[str, Path]:
    """The three maps as the commands write them by default."""
    from routes.corpus import run_corpus

    tmp = tmp_path_factory.mktemp("newsroom")
    aleppo = render_map(tmp / "aleppo.html", "--offline")
    osm = render_map(
        tmp / "osm.html", "--scenario", str(helsinki_scenario), "--osm", str(helsinki_osm)
    )
    run_corpus(STORIES, tmp / "corpus", workers=1)
    return {"aleppo": aleppo, "osm": osm, "corpus": tmp / "corpus" / "map.html"}


class Offline:
    """A map open with every request but the page's own file refused."""

    def __init__(self, browser: Browser, html: Path, size: tuple[int, int]) -> None:
        self.context = browser.new_context(viewport={"width": size[0], "height": size[1]})
        self.page: Page = self.context.new_page()
        self.refused: list[str] = []
        self.errors: list[str] = []
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.page.on("dialog", lambda d: (self.errors.append(d.message), d.dismiss()))
        self.page.route("**/*", self._answer)
        self.page.goto(html.resolve().as_uri())
        self.page.wait_for_function("() => typeof L === 'object' && !!window.routesMap")
        self.page.wait_for_timeout(400)  # the refused tiles switch the basemap off
        wait_map_idle(self.page)

    def _answer(self, route: Any) -> None:
        if route.request.url.startswith(("file:", "data:")):
            route.continue_()
        else:
            self.refused.append(route.request.url)
            route.abort()


@pytest.fixture(
    scope="module",
    params=[(w, v) for w in ("aleppo", "osm", "corpus") for v in VIEWPORTS],
    ids=lambda p: "-".join(p),
)
def view(request: pytest.FixtureRequest, pages: dict[str, Path], browser: Browser) -> Iterator[Any]:
    which, size = request.param
    opened = Offline(browser, pages[which], VIEWPORTS[size])
    yield which, size, opened
    opened.context.close()


def test_the_page_carries_everything_and_renders_offline(view: Any, pages: dict[str, Path]) -> None:
    which, _size, opened = view
    html = pages[which].read_text(encoding="utf-8")
    assert "<script src=" not in html and 'rel="stylesheet" href=' not in html
    assert pages[which].stat().st_size < 1_000_000
    assert opened.errors == []
    hosts = {url.split("/")[2] for url in opened.refused}
    assert hosts <= {"tile.openstreetmap.org", "server.arcgisonline.com", "a.tile.openstreetmap.fr",
                     "b.tile.openstreetmap.fr", "c.tile.openstreetmap.fr"}, hosts  # fmt: skip
    page = opened.page
    assert page.title().strip(), "no <title>"
    assert page.locator("path.routes-corridor, path.routes-flow-line").count() > 0
    credits = page.locator(".leaflet-control-attribution").inner_text()
    assert "basemap unavailable offline" in credits


_LAYOUT = """() => {
    const c = document.querySelector('.folium-map').getBoundingClientRect();
    const box = e => { const r = e.getBoundingClientRect();
        return {x: r.left - c.left, y: r.top - c.top, w: r.width, h: r.height}; };
    const shown = e => getComputedStyle(e).display !== 'none'
        && e.getBoundingClientRect().width > 0;
    const labels = [...document.querySelectorAll('.routes-label')].filter(shown)
        .map(e => ({...box(e), text: e.textContent, kind: e.dataset.kind, id: e.dataset.id || ''}));
    const markers = [...document.querySelectorAll('.leaflet-routes-places-pane path, '
        + '.routes-incident svg, .routes-arrow path')].filter(shown).map(box);
    const leaders = [...document.querySelectorAll('line.routes-leader')].map(box);
    return {labels, markers, leaders};
}"""

#: Screen points along a drawn corridor line, with their fraction of its length.
_ALONG = """(id) => {
    const path = document.querySelector('path.routes-corridor-' + CSS.escape(id));
    if (!path) return null;
    const c = document.querySelector('.folium-map').getBoundingClientRect();
    const m = path.getScreenCTM(), n = path.getTotalLength(), pts = [];
    for (let i = 0; i <= 200; i++) {
        const p = path.getPointAtLength(n * i / 200);
        const x = m.a * p.x + m.c * p.y + m.e - c.left, y = m.b * p.x + m.d * p.y + m.f - c.top;
        pts.push([x, y, i / 200]);
    }
    return pts;
}"""


def _overlap(a: dict[str, float], b: dict[str, float], margin: float = 0.0) -> bool:
    across = a["x"] < b["x"] + b["w"] + margin and b["x"] < a["x"] + a["w"] + margin
    return across and a["y"] < b["y"] + b["h"] + margin and b["y"] < a["y"] + a["h"] + margin


def test_no_label_covers_a_marker_or_another_label(view: Any) -> None:
    _which, _size, opened = view
    layout = opened.page.evaluate(_LAYOUT)
    assert layout["labels"], "no labels"
    for i, a in enumerate(layout["labels"]):
        for b in layout["labels"][i + 1 :]:
            assert not _overlap(a, b), (a, b)
        for marker in layout["markers"]:
            assert not _overlap(a, marker, -0.5), (a["text"], marker)


def _only(which: str) -> pytest.MarkDecorator:
    """The ``view`` fixture on one map only, at both viewports (the same module-scoped pages)."""
    return pytest.mark.parametrize(
        "view", [(which, v) for v in VIEWPORTS], indirect=True, ids=lambda p: "-".join(p)
    )


def _aleppo(view: Any) -> Any:
    return view[2]


@_only("aleppo")
def test_the_roads_are_drawn_under_the_corridors(view: Any) -> None:
    """The roads the corridors were routed on, named by their date, shown from the start."""
    opened = _aleppo(view)
    page = opened.page
    assert page.locator(f"path[stroke='{NETWORK_COLOUR}']").count() > 0
    label = page.locator(
        ".leaflet-control-layers-overlays label", has_text="Roads (OpenStreetMap, August 2021)"
    )
    assert label.count() == 1 and label.locator("input").is_checked()


@_only("aleppo")
def test_the_pockets_label_is_at_the_pocket(view: Any) -> None:
    """Inside the pocket's outline, touching it, or joined to it by a leader line."""
    opened = _aleppo(view)
    layout = opened.page.evaluate(_LAYOUT)
    pocket = opened.page.evaluate("""() => {
        const c = document.querySelector('.folium-map').getBoundingClientRect();
        const r = document.querySelector('path.routes-area').getBoundingClientRect();
        return {x: r.left - c.left, y: r.top - c.top, w: r.width, h: r.height}; }""")
    label = next(b for b in layout["labels"] if b["text"].startswith("Rebel-held pocket"))
    touching = _overlap(label, pocket, 2.0)
    led = any(
        _overlap(line, label, 1.0) and _overlap(line, pocket, 1.0) for line in layout["leaders"]
    )
    assert touching or led, (label, pocket, layout["leaders"])


@_only("aleppo")
def test_each_corridor_label_is_on_its_line_nearer_its_destination(view: Any) -> None:
    opened = _aleppo(view)
    story = scenarios.load(str(ALEPPO))
    layout = opened.page.evaluate(_LAYOUT)
    corridor_labels = [b for b in layout["labels"] if b["kind"] == "corridor"]
    assert {b["id"] for b in corridor_labels} == {c.id for c in story.corridors}
    for label in corridor_labels:
        points = opened.page.evaluate(_ALONG, label["id"])
        inside = [f for x, y, f in points if label["x"] <= x <= label["x"] + label["w"]
                  and label["y"] <= y <= label["y"] + label["h"]]  # fmt: skip
        assert inside, f"{label['text']} does not touch its own line"
        # along the line, not as the crow flies: a route on roads bends back on itself
        middle = sum(inside) / len(inside)
        assert middle > 0.5, f"{label['text']} is in the half nearer its origin ({middle:.2f})"


@_only("aleppo")
def test_the_group_is_named_once_and_its_parts_when_zoomed_in(view: Any) -> None:
    opened = _aleppo(view)
    page = opened.page
    texts = [b["text"] for b in page.evaluate(_LAYOUT)["labels"]]
    assert "Al-Fu'ah and Kafriya" in texts
    assert "Al-Fu'ah" not in texts and "Kafriya" not in texts
    page.evaluate("""() => { const m = window.routesMap;
        m.setView([35.9857, 36.68959], m.getZoom() + 2, {animate: false}); }""")
    wait_map_idle(page)
    texts = [b["text"] for b in page.evaluate(_LAYOUT)["labels"]]
    page.evaluate("() => window.routesMap.routesFit()")
    wait_map_idle(page)
    assert "Al-Fu'ah" in texts and "Kafriya" in texts and "Al-Fu'ah and Kafriya" not in texts


_DAY = """() => {
    const out = {day: document.querySelector('.routes-day-text').textContent, lines: {}, key: {}};
    for (const l of document.querySelectorAll('.routes-label-corridor')) {
        if (getComputedStyle(l).display !== 'none') out.lines[l.dataset.id] = l.textContent;
    }
    for (const li of document.querySelectorAll('.routes-legend li[data-corridor]')) {
        if (!li.classList.contains('routes-off'))
            out.key[li.dataset.corridor] = li.querySelector('.routes-day').textContent;
    }
    out.drawn = [...document.querySelectorAll('path.routes-corridor')].length;
    return out;
}"""


@_only("aleppo")
def test_the_time_bar_steps_one_day_a_click_and_the_key_follows(view: Any) -> None:
    opened = _aleppo(view)
    page = opened.page
    story = scenarios.load(str(ALEPPO))
    days = [day_text(d) for d in story_days(story)]
    assert len(days) == 8 and days[0] == "Thu 15 Dec 2016" and days[-1] == "Thu 22 Dec 2016"
    page.evaluate("() => window.routesMap.routesShowDay(0)")
    seen = []
    for i, expected in enumerate(days):
        state = page.evaluate(_DAY)
        assert state["day"] == expected, (i, state)
        seen.append(state["day"])
        for corridor_id, text in state["lines"].items():  # one figure per line per day
            said = text.split(" · ", 1)[1]
            assert state["key"].get(corridor_id) == said, (expected, corridor_id, state)
        assert set(state["key"]) >= set(state["lines"])
        if i < len(days) - 1:
            page.locator(".routes-timebar .routes-next").click()
    assert seen == days
    assert page.locator(".routes-timebar .routes-next").is_disabled()
    on_last = page.evaluate(_DAY)
    assert on_last["key"]["eastern-aleppo-to-idlib"] == "35,000 people"
    assert "final: 35,000, ICRC" in (page.locator(".routes-legend").text_content() or "")
    page.evaluate("() => window.routesMap.routesShowDay(0)")


@_only("aleppo")
def test_a_corridor_popup_says_the_day_shown(view: Any) -> None:
    opened = _aleppo(view)
    page = opened.page
    page.evaluate("() => window.routesMap.routesShowDay(0)")
    page.evaluate("""() => { const m = window.routesMap; let line = null;
        m.eachLayer(l => { if (l.options && /routes-corridor-eastern-aleppo-to-idlib/
            .test(l.options.className || '')) line = l; });
        line.openPopup(line.getCenter()); }""")
    popup = page.locator(".leaflet-popup-content")
    popup.wait_for(state="visible")
    text = popup.inner_text()
    assert "under way (Thu 15 Dec 2016)" in text and "about 3,000 people so far" in text
    assert "Status\tcompleted" not in text
    page.evaluate("() => window.routesMap.closePopup()")
    click_path(page, page.locator("path.routes-corridor").first)  # as a reader clicks it
    focus = page.evaluate("""() => { const e = document.activeElement;
        return e.tagName === 'path' ? getComputedStyle(e).outlineStyle : 'not a line'; }""")
    assert focus in ("none", "not a line"), "a focus rectangle around the clicked line"
    page.evaluate("() => window.routesMap.closePopup()")


@_only("corpus")
def test_the_corpus_map_names_places_and_tells_each_report(view: Any) -> None:
    _which, _size, opened = view
    page = opened.page
    texts = {b["text"] for b in page.evaluate(_LAYOUT)["labels"]}
    assert {"Mosul", "Erbil"} <= texts and len(texts) >= 4
    assert page.locator(".leaflet-control-layers-expanded").count() == 0  # folded
    assert page.locator(".routes-arrow").count() >= 4
    inside = page.evaluate("""() => { const m = window.routesMap, b = m.getBounds(); let all = true;
        m.eachLayer(l => { if (l.getBounds && (l.options.className || '') === 'routes-flow-line')
            all = all && b.contains(l.getBounds()); }); return all; }""")
    assert inside, "a flow runs off the first view"
    popups = page.evaluate("""() => { const out = []; window.routesMap.eachLayer(l => {
        if ((l.options.className || '') === 'routes-flow-line' && l.getPopup()) {
            const d = document.createElement('div'), c = l.getPopup().getContent();
            d.innerHTML = typeof c === 'string' ? c : c.outerHTML;
            out.push(d.textContent); } }); return out; }""")
    aleppo = next(p for p in popups if "Eastern Aleppo → Idlib" in p)
    assert "Example Wire, 2016-12-15" in aleppo
    assert "“About 3,000 civilians were evacuated from eastern Aleppo to Idlib" in aleppo


def test_the_page_needs_no_npm_and_no_network(tmp_path: Path) -> None:
    """``routes map --offline`` with no npm on the PATH, a fresh cache and no network
    namespace to reach out from writes the page at once (issue 29: it used to wait out
    npm's retries for minutes)."""
    import shutil
    import subprocess
    import sys

    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("unshare is not installed: no network namespace to cut the network with")
    probe = subprocess.run([unshare, "-n", "true"], capture_output=True, check=False)
    if probe.returncode != 0:
        pytest.skip(f"no network namespace here: {probe.stderr.decode().strip()}")
    bin_dir = tmp_path / "bin"  # the PATH: nothing on it, npm least of all
    bin_dir.mkdir()
    out = tmp_path / "map.html"
    done = subprocess.run(
        [unshare, "-n", sys.executable, "-m", "routes", "map", "--offline", "-o", str(out)],
        env={"PATH": str(bin_dir), "ROUTES_CACHE_DIR": str(tmp_path / "cache"),
             "HOME": str(tmp_path)},
        capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert shutil.which("npm", path=str(bin_dir)) is None
    html = out.read_text(encoding="utf-8")
    assert "<script src=" not in html and "Leaflet 1.9.3" in html
    assert not (tmp_path / "cache" / "npm").exists()


def test_no_code_runs_a_package_manager() -> None:
    """Nothing in the package starts npm (or any other installer) when a map is written."""
    for path in (REPO / "routes").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""["']npm["']""", text), path


def test_flows_csv_counts_each_person_once(tmp_path: Path) -> None:
    """``count`` is the people moved that day: summed over every day, as flowmap.blue sums
    a time window, it is each flow's final figure; the HXL file says the same."""
    import csv

    from typer.testing import CliRunner

    from routes.cli import app

    story = scenarios.load(str(ALEPPO))
    for hxl in ([], ["--hxl"]):
        folder = tmp_path / ("hxl" if hxl else "plain")
        result = CliRunner().invoke(
            app, ["export", "-f", "csv", "--network", "proxy", "-o", str(folder), *hxl]
        )
        assert result.exit_code == 0, result.output
        rows = list(csv.DictReader((folder / "aleppo-2016-12-flows.csv").open(encoding="utf-8")))
        if hxl:
            assert rows[0]["count"] == "#affected+idps+ind" and rows[0]["cumulative"].startswith(
                "#"
            )
            rows = rows[1:]
        for corridor in story.corridors:
            final = corridor.width_claim()
            mine = [r for r in rows if r["corridor_id"] == corridor.id]
            if final is None or final.kind != "people":
                continue
            total = sum(int(r["count"]) for r in mine if r["count"])
            assert total == final.value, (corridor.id, total, [r["count"] for r in mine])
            assert mine[-1]["cumulative"] == str(final.value)
    idlib = [int(r["count"]) for r in rows if r["corridor_id"] == "eastern-aleppo-to-idlib"]
    assert sum(idlib) == 35_000 and len(idlib) >= 3


def test_corridors_on_the_proxy_give_no_travel_time() -> None:
    from typer.testing import CliRunner

    from routes.cli import app

    result = CliRunner().invoke(app, ["corridors", "--offline", "--network", "proxy", "--json"])
    assert result.exit_code == 0, result.output
    records = json.loads(result.stdout)
    story = scenarios.load(str(ALEPPO))
    for record in records:
        assert record["travel_time_h"] is None, record
        assert "assumed speed" in record["no_travel_time_reason"]
        stops = [story.place(p).name for p in story.corridor(record["corridor_id"]).stops]
        assert record["passes"] == " → ".join(stops)


def test_the_time_bar_is_bounded_whatever_the_dates() -> None:
    """Issue 29: an end on 9999-12-31, or an incident dated then, gives a bar of the dated
    days (not one step per day), a few states per corridor, an open end, no OverflowError."""
    import datetime as dt

    from routes.render.timeline import MAX_STEPS, corridor_states

    story = scenarios.load(str(ALEPPO))
    far = dt.date(9999, 12, 31)
    corridors = [c.model_copy(update={"end": far}) for c in story.corridors]
    incidents = [story.incidents[0].model_copy(update={"date": far, "end": far})]
    bent = story.model_copy(update={"corridors": corridors, "incidents": incidents})
    days = story_days(bent)
    assert len(days) <= MAX_STEPS and days[-1] == far and dt.date(2016, 12, 17) not in days
    for corridor in corridors:
        states = corridor_states(corridor, days)
        assert 0 < len(states) <= len(days)
        assert len(states[-1]) > 1, "an end past the bar is drawn as open, to the bar's end"
    normal = story_days(story)
    assert len(normal) == 8  # 15 to 22 December, the 17th (nothing dated) included
