"""A corpus's ``map.html`` in headless Chromium: loads offline, every flow clickable with its
sources, a time slider, and hostile story text shown as text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import CdnResolver, MapPage, collapse_layers, expand_layers, open_map

from routes.corpus import run_corpus

STORIES = Path(__file__).parent / "fixtures" / "corpus" / "stories.jsonl"
HOSTILE = '<img src=x onerror="alert(1)">{{ 7*7 }}</script>'


@pytest.fixture(scope="module")
def corpus_map(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("corpus-map")
    lines = STORIES.read_text(encoding="utf-8").splitlines()
    hostile = json.loads(lines[0]) | {"id": "desk-900", "publisher": HOSTILE}
    hostile["text"] = hostile["text"].replace("the Red Crescent said", f"said {HOSTILE}")
    (tmp / "stories.jsonl").write_text("\n".join([*lines, json.dumps(hostile)]) + "\n")
    run_corpus(tmp / "stories.jsonl", tmp / "out", workers=1)
    return tmp / "out" / "map.html"


@pytest.fixture(scope="module")
def view(browser, corpus_map: Path, cdn_assets: CdnResolver) -> Iterator[MapPage]:  # type: ignore[no-untyped-def]
    page = open_map(browser, corpus_map, cdn_assets)
    yield page
    page.close()


def test_the_map_loads_offline_without_errors(view: MapPage) -> None:
    assert not any(view.problems().values()), view.problems()
    page = view.page
    assert page.locator(".leaflet-control-layers-expanded").count() == 0  # folded
    expand_layers(page)
    labels = page.locator(".leaflet-control-layers-overlays label").all_inner_texts()
    assert any("width by stories" in t for t in labels)
    assert any("width by people" in t for t in labels)
    collapse_layers(page)
    assert page.locator(".routes-timebar").count() == 1


def test_each_flow_lists_its_sources(view: MapPage) -> None:
    page = view.page
    lines = page.locator('.leaflet-overlay-pane svg path.routes-flow-line[stroke="#0072B2"]')
    assert lines.count() == 4  # the flows, width by stories
    mosul = page.locator("path.routes-flow-line").filter(has=page.locator("xpath=self::*"))
    texts = page.evaluate(
        """() => {
        const found = [];
        window.routesMap.eachLayer(l => { if ((l.options.className || '') === 'routes-flow-line'
            && l.getPopup() && l.options.color === '#0072B2') {
            const shown = document.createElement('div');
            const c = l.getPopup().getContent();  // as the popup would show it
            shown.innerHTML = typeof c === 'string' ? c : c.outerHTML;
            document.body.appendChild(shown);
            found.push(shown.innerText);
            shown.remove(); } });
        return found;
    }"""
    )
    assert len(texts) == 4 and mosul.count() >= 4
    aleppo = next((t for t in texts if "Eastern Aleppo → Idlib" in t), str(texts))
    assert "story desk-001 (Example Wire, 2016-12-15)" in aleppo
    assert "https://news.example/desk-001" in aleppo
    assert "more than 8,000 people, according to the United Nations (story desk-002)" in aleppo
    assert HOSTILE in aleppo  # a publisher's markup, shown as the characters it is
    assert not view.problems()["dialogs"]
    assert page.locator('img[src="x"]').count() == 0
    erbil = next(t for t in texts if "Mosul → Erbil" in t)
    box = page.locator("path.routes-flow-line").last.bounding_box()
    assert box is not None and erbil


def test_the_time_bar_shows_the_flows_reported_by_a_day(view: MapPage) -> None:
    page = view.page
    drawn = page.locator('.leaflet-overlay-pane svg path.routes-flow-line[stroke="#0072B2"]')
    assert page.locator(".routes-day-text").inner_text() == "Thu 2 Mar 2017"  # the last day
    assert drawn.count() == 4
    page.locator(".routes-day-slider").fill("0")  # 15 December 2016: eastern Aleppo to Idlib
    assert drawn.count() == 1
    page.locator(".routes-day-slider").fill(
        page.locator(".routes-day-slider").get_attribute("max") or "0"
    )
    assert drawn.count() == 4
