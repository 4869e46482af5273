"""A corpus's ``map.html`` in headless Chromium: loads offline, every flow clickable with its
sources, a time slider, and hostile story text shown as text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_support import CdnResolver, MapPage, open_map, point_on_path

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
    labels = view.page.locator(".leaflet-control-layers-overlays label").all_inner_texts()
    assert any("width by stories" in t for t in labels)
    assert any("width by people" in t for t in labels)
    assert any("time slider" in t for t in labels)
    assert view.page.locator(".leaflet-timeline-control").count() == 1


def test_each_flow_lists_its_sources(view: MapPage) -> None:
    page = view.page
    lines = page.locator('.leaflet-overlay-pane svg path[stroke="#0072B2"]')
    assert lines.count() == 4  # the flows, width by stories
    mosul = lines.nth(3)  # the one far from the others: a real click on it
    page.mouse.click(*point_on_path(mosul))
    popup = page.locator(".leaflet-popup-content")
    assert "Mosul → Erbil" in popup.inner_text()
    page.keyboard.press("Escape")
    texts = page.evaluate(
        """() => {
        const map = Object.values(window).find(v => v instanceof L.Map);
        const found = [];
        map.eachLayer(l => { if (l.feature && l.getPopup()) {
            const shown = document.createElement('div');
            shown.innerHTML = l.getPopup().getContent();  // as the popup would show it
            document.body.appendChild(shown);
            found.push(shown.innerText);
            shown.remove(); } });
        return found;
    }"""
    )
    assert len(texts) == 4
    aleppo = next((t for t in texts if "Eastern Aleppo → Idlib" in t), str(texts))
    assert "story desk-001 (Example Wire, 2016-12-15, https://news.example/desk-001)" in aleppo
    assert "more than 8,000 people, according to the United Nations (story desk-002)" in aleppo
    assert HOSTILE in aleppo  # a publisher's markup, shown as the characters it is
    assert not view.problems()["dialogs"]
    assert page.locator('img[src="x"]').count() == 0


def test_the_time_slider_shows_the_flows_of_the_day(view: MapPage) -> None:
    page = view.page
    page.locator(".leaflet-control-layers-overlays label", has_text="time slider").click()
    dated = page.locator('.leaflet-overlay-pane svg path[stroke="#009E73"]')
    dated.first.wait_for()
    assert dated.count() == 1  # the first day, 15 December 2016: eastern Aleppo to Idlib
    slider = page.locator(".leaflet-timeline-control input[type=range]")
    first = dated.first.get_attribute("d")
    slider.evaluate("s => { s.value = +s.max - 43200000; s.dispatchEvent(new Event('input')); }")
    page.wait_for_function(
        "d => document.querySelector('path[stroke=\"#009E73\"]')?.getAttribute('d') !== d",
        arg=first,
    )
    assert dated.count() == 1  # 2 March 2017: Mosul to Erbil, reported then and in December
    page.locator(".leaflet-control-layers-overlays label", has_text="time slider").click()
