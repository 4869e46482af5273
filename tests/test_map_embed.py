"""``routes map --embed`` (issue 38): the page in an article, as a newsroom publishes it.

A host page of this test's own holds the snippet the command writes, between paragraphs of
an article, at a desktop and a phone width, with every request but the two local files
refused: the map fills its frame, a wheel over it scrolls the article and does not zoom
until the map is clicked, the height the page asks for reaches the host and sizes the
frame, and nothing is asked of the network.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import refuse_network
from typer.testing import CliRunner

from routes.cli import app
from routes.pipeline import snippet_path

if TYPE_CHECKING:
    from playwright.sync_api import Browser

VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}
ARTICLE = "<p>" + "Text of the article around the map. " * 120 + "</p>"


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An article with the snippet ``routes map --embed`` printed and wrote."""
    tmp = tmp_path_factory.mktemp("embed")
    page = tmp / "aleppo.html"
    done = CliRunner().invoke(app, ["map", "--embed", "--network", "proxy", "-o", str(page)])
    assert done.exit_code == 0, done.output
    snippet = snippet_path(page)
    text = snippet.read_text(encoding="utf-8")
    assert '<iframe src="aleppo.html"' in text and "routes-height" in text
    assert text.strip() in done.stdout.replace("\r", "")  # printed, line for line
    assert done.stdout.strip().splitlines()[-1] == str(snippet)
    article = tmp / "article.html"
    article.write_text(
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        'content="width=device-width,initial-scale=1"><title>An article</title></head>'
        f'<body style="margin:0 auto;max-width:720px">{ARTICLE}{text}{ARTICLE}</body></html>',
        encoding="utf-8",
    )
    return article


@pytest.fixture(scope="module", params=list(VIEWPORTS), ids=list(VIEWPORTS))
def opened(request: pytest.FixtureRequest, host: Path, browser: Browser) -> Iterator[Any]:
    width, height = VIEWPORTS[request.param]
    phone = width < 600
    context = browser.new_context(
        viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone
    )
    asked: list[str] = []
    refuse_network(context, asked)
    page = context.new_page()
    page.goto(host.resolve().as_uri())
    page.locator("iframe").scroll_into_view_if_needed()
    frame = page.frame_locator("iframe")
    frame.locator(".folium-map").wait_for()
    page.wait_for_function("() => document.querySelector('iframe').style.height !== '520px'")
    inner = next(f for f in page.frames if f != page.main_frame)
    inner.wait_for_function("() => !!window.routesMap")
    page.wait_for_timeout(300)
    yield request.param, page, inner, asked
    context.close()


def test_the_map_fills_its_frame_at_the_height_it_asked_for(opened: Any) -> None:
    size, page, inner, asked = opened
    box = page.locator("iframe").bounding_box()
    assert box is not None
    map_size = inner.evaluate("() => [routesMap.getSize().x, routesMap.getSize().y]")
    assert map_size == [round(box["width"]), round(box["height"])], (map_size, box)
    wanted = inner.evaluate("""() => { const w = document.documentElement.clientWidth;
        return Math.round(Math.max(360, Math.min(760, w < 600 ? w * 1.45 : w * 0.62))); }""")
    assert round(box["height"]) == wanted
    if size == "phone":
        assert box["height"] > box["width"]  # taller than wide on a phone
    assert asked == [], asked


def test_no_scroll_trap_the_wheel_zooms_only_after_a_click(opened: Any) -> None:
    size, page, inner, asked = opened
    if size == "phone":
        pytest.skip("no wheel on a phone: one finger scrolls the article (see the next test)")
    box = page.locator("iframe").bounding_box()
    assert box is not None
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    zoom, scrolled = inner.evaluate("() => routesMap.getZoom()"), page.evaluate("scrollY")
    page.mouse.move(x, y)
    page.mouse.wheel(0, 400)
    page.wait_for_timeout(500)
    assert inner.evaluate("() => routesMap.getZoom()") == zoom, "the wheel zoomed the map"
    assert page.evaluate("scrollY") > scrolled, "the article did not scroll"
    box = page.locator("iframe").bounding_box()
    assert box is not None
    inner.evaluate("() => routesMap.fire('click')")  # a click on the map wakes the wheel
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.wheel(0, -400)
    page.wait_for_timeout(800)
    assert inner.evaluate("() => routesMap.getZoom()") != zoom, "a click did not wake the wheel"
    assert asked == [], asked


def test_one_finger_scrolls_the_article_on_a_phone(opened: Any) -> None:
    size, _page, inner, _asked = opened
    if size != "phone":
        pytest.skip("a desktop's mouse drags the map without scrolling the article")
    dragging = inner.evaluate("() => routesMap.dragging.enabled()")
    assert dragging is False, "one finger drags the map, not the article"
    assert inner.evaluate("() => routesMap.scrollWheelZoom.enabled()") is False


def test_the_embed_is_compact(opened: Any) -> None:
    _size, _page, inner, asked = opened
    assert inner.locator(".leaflet-control-zoom-fullscreen, .fullscreen-icon").count() == 0
    assert inner.evaluate("() => document.querySelector('.routes-legend').open") is False
    assert inner.locator("path.routes-context").count() > 0  # its own base layer, no tiles
    assert inner.locator("img.leaflet-tile").count() == 0
    assert asked == [], asked
