"""What a newsroom map needs, checked in headless Chromium: the time control, the search box,
the basemap switcher and its offline fall-back, keyboard access, the self-contained page with
every request refused, and the PNG export."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import (
    CHROMIUM_ARGS,
    TILE_HOSTS,
    CdnResolver,
    MapPage,
    collapse_layers,
    expand_layers,
    open_map,
    place_marker,
)
from PIL import Image
from typer.testing import CliRunner

from routes import render
from routes.cli import app
from routes.render.context import CONTEXT_LAYER

if TYPE_CHECKING:
    from playwright.sync_api import Browser  # type hints only: imported where used

ARTEFACTS = Path(__file__).resolve().parents[1] / "output" / "test-artifacts"


def _map(tmp: Path, *extra: str, name: str = "map.html") -> Path:
    out = tmp / name
    result = CliRunner().invoke(app, ["map", "--network", "proxy", "--output", str(out), *extra])
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def page(
    browser: Browser,
    tmp_path_factory: pytest.TempPathFactory,
    cdn_assets: CdnResolver,
) -> Iterator[MapPage]:
    view = open_map(browser, _map(tmp_path_factory.mktemp("features")), cdn_assets)
    yield view
    view.close()


def _colours(image: Image.Image) -> tuple[int, int]:
    """How many colours an image has, and how many pixels are near the corridors' colour."""
    rgb = image.convert("RGB")
    colours = rgb.getcolors(rgb.width * rgb.height) or []
    hex_colour = render.CORRIDOR_PALETTE[0]  # the first corridor's own colour
    blue = tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    near = sum(
        n for n, px in colours if all(abs(a - b) < 40 for a, b in zip(px, blue, strict=True))
    )
    return len(colours), near


def test_time_bar_steps_through_every_day(page: MapPage) -> None:
    """One step a day, 15 to 22 December; the buttons move one day and stop at the ends."""
    p = page.page
    slider = p.locator(".routes-timebar input.routes-day-slider")
    assert (slider.get_attribute("min"), slider.get_attribute("max")) == ("0", "7")
    text = p.locator(".routes-timebar .routes-day-text")
    assert text.inner_text() == "Thu 15 Dec 2016"
    assert p.locator(".routes-timebar .routes-prev").is_disabled()
    p.locator(".routes-timebar .routes-next").click()
    assert text.inner_text() == "Fri 16 Dec 2016"
    p.locator(".routes-timebar .routes-prev").click()
    assert text.inner_text() == "Thu 15 Dec 2016"
    assert p.locator("path.routes-corridor").count() == 3


def test_controls_are_there_and_reachable_by_keyboard(page: MapPage) -> None:
    p = page.page
    for selector in [
        ".leaflet-control-zoom-fullscreen",
        ".leaflet-control-measure",
        ".leaflet-control-search input",
        ".routes-timebar .routes-next",
        ".leaflet-control-scale",
        ".leaflet-control-layers-base input",
        ".leaflet-control-layers-overlays input",
    ]:
        assert p.locator(selector).count() > 0, selector
    active = (
        "() => { const e = document.activeElement; return "
        "(e.className || '') + ' ' + (e.tagName || '') + ' ' + (e.getAttribute('type') || ''); }"
    )

    def tab(times: int) -> str:
        reached = [p.evaluate(active)]  # where the focus is, then where Tab takes it
        for _ in range(times):
            p.keyboard.press("Tab")
            reached.append(p.evaluate(active))
        return "\n".join(reached)

    p.locator("body").focus()
    joined = tab(60)
    # the search box and the layer control start folded: their buttons take the focus
    for wanted in [
        "leaflet-control-zoom-in",
        "fullscreen",
        "search-button",
        "layers-toggle",
        "routes-next",
    ]:
        assert wanted in joined, f"{wanted} not reachable with Tab:\n{joined}"
    p.locator(".leaflet-control-search .search-button").focus()
    p.keyboard.press("Enter")  # unfolds the search box, and puts the focus in it
    assert p.locator(".leaflet-control-search input").is_visible(), "search does not open"
    assert "search-input" in p.evaluate(active), "the search box takes no focus"
    p.locator(".leaflet-control-layers-toggle").focus()
    p.keyboard.press("Enter")  # unfolds the layer list
    joined = tab(25)
    for wanted in ["checkbox", "radio"]:
        assert wanted in joined, f"{wanted} not reachable with Tab once the layers open:\n{joined}"
    collapse_layers(p)


def test_search_box_finds_a_place(page: MapPage) -> None:
    p = page.page
    before = p.evaluate("() => Object.values(window).find(v => v instanceof L.Map).getCenter()")
    if not p.locator(".leaflet-control-search input").is_visible():  # the box starts folded
        p.locator(".leaflet-control-search .search-button").click()
    p.locator(".leaflet-control-search input").press_sequentially("Kafr", delay=50)
    tip = p.locator(".search-tip", has_text=re.compile(r"^Kafriya$"))
    tip.wait_for(state="visible")
    tip.click()
    p.wait_for_timeout(800)
    after = p.evaluate("() => Object.values(window).find(v => v instanceof L.Map).getCenter()")
    assert after["lat"] == pytest.approx(35.98972, abs=0.005), (before, after)
    assert after["lng"] == pytest.approx(36.67750, abs=0.005), (before, after)
    p.evaluate(
        "() => { const m = Object.values(window).find(v => v instanceof L.Map);"
        " m.setView(...m.__testInitialView); }"
    )


def test_no_basemap_keeps_borders_and_roads(page: MapPage) -> None:
    p = page.page
    expand_layers(p)
    p.locator(".leaflet-control-layers-base label", has_text=CONTEXT_LAYER).locator("input").check()
    p.wait_for_timeout(300)
    main_tiles = ".folium-map > .leaflet-map-pane > .leaflet-tile-pane img.leaflet-tile"
    assert p.locator(main_tiles).count() == 0
    mesh = p.locator(".leaflet-control-layers-overlays label", has_text="Proxy network links")
    assert not mesh.locator("input").is_checked(), "the proxy mesh starts hidden"
    mesh.locator("input").check()
    label = p.locator(".leaflet-control-layers-overlays label", has_text="Proxy network links")
    assert label.locator("input").is_checked()
    borders = f"path.routes-context-country[stroke='{render.BORDER_COLOUR}']"  # Natural Earth's
    assert p.locator(borders).count() > 0
    assert (
        p.locator(f"svg.leaflet-zoom-animated path[stroke='{render.NETWORK_COLOUR}']").count() > 0
    )
    mesh.locator("input").uncheck()
    p.locator(".leaflet-control-layers-base label", has_text="OpenStreetMap").first.locator(
        "input"
    ).check()
    collapse_layers(p)


def test_self_contained_page_needs_no_request(
    browser: Browser,
    tmp_path: Path,
) -> None:
    html = _map(tmp_path)  # the default page carries its scripts and stylesheets
    text = html.read_text(encoding="utf-8")
    assert "<script src=" not in text and 'rel="stylesheet" href=' not in text
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    refused: list[str] = []
    errors: list[str] = []
    console: list[str] = []
    tab.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: errors.append(str(e)))
    tab.on("dialog", lambda d: (errors.append(f"dialog {d.message}"), d.dismiss()))

    def refuse(route: Any) -> None:
        url = route.request.url
        if url.startswith(("file:", "data:")):
            route.continue_()
        else:
            refused.append(url)
            route.abort()

    tab.route("**/*", refuse)
    tab.goto(html.as_uri())
    tab.wait_for_function(
        "() => typeof L === 'object' && document.querySelector('.routes-corridor')"
    )
    tab.wait_for_timeout(1000)
    assert errors == []
    expand_layers(tab)
    assert refused, "the basemap should at least have been asked for"
    assert {url.split("/")[2] for url in refused} <= TILE_HOSTS, refused
    # Chromium reports each refused tile; nothing else may complain
    assert all(text.startswith("Failed to load resource") for text in console), console
    assert len(console) <= len(refused)
    base = tab.locator(".leaflet-control-layers-base label", has_text=CONTEXT_LAYER)
    assert base.locator("input").is_checked(), "a failed tile should switch to its own base"
    place_marker(tab, "Kafriya").click()
    popup = tab.locator(".leaflet-popup-content")
    popup.wait_for(state="visible")
    assert "Besieged town" in popup.inner_text()
    tab.evaluate("() => Object.values(window).find(v => v instanceof L.Map).closePopup()")
    assert tab.locator("path.routes-corridor").count() == 3
    expand_layers(tab)

    # every layer toggles, and the time control works, here too
    count = (
        "() => document.querySelectorAll('.leaflet-pane svg.leaflet-zoom-animated path, "
        ".leaflet-marker-pane .leaflet-marker-icon').length"
    )
    for label in tab.locator(".leaflet-control-layers-overlays label").all():
        box = label.locator("input")
        hidden = not box.is_checked()  # the proxy mesh starts hidden
        if hidden:
            box.check()
        before = tab.evaluate(count)
        box.uncheck()
        assert tab.evaluate(count) < before, label.inner_text()
        box.check()
        assert tab.evaluate(count) == before, label.inner_text()
        if hidden:
            box.uncheck()
    for _ in range(7):  # to the last day: the two corridors that ran to the end
        tab.locator(".routes-timebar .routes-next").click()
    assert tab.locator(".routes-day-text").inner_text() == "Thu 22 Dec 2016"
    assert tab.locator("path.routes-corridor").count() == 3  # Turkey's has no end: open
    tab.locator(".routes-day-slider").fill("0")
    assert tab.locator(".routes-day-text").inner_text() == "Thu 15 Dec 2016"

    # and the screenshot shows the corridors on the no-basemap background
    shot = ARTEFACTS / "aleppo-self-contained.png"
    shot.parent.mkdir(parents=True, exist_ok=True)
    tab.screenshot(path=str(shot))
    with Image.open(shot) as image:
        colours, corridor_pixels = _colours(image)
    assert corridor_pixels > 200 and colours > 50
    context.close()


def _frame_margins(image: Image.Image, hex_colour: str) -> tuple[int, int]:
    """How many pixels are near one corridor's colour, and how close the nearest of them
    comes to the image's edge (-1 when there are none)."""
    import numpy as np

    rgb = np.asarray(image.convert("RGB"), dtype=int)
    target = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)])
    ys, xs = np.nonzero((np.abs(rgb - target) < 40).all(axis=2))
    if not len(xs):
        return 0, -1
    height, width = rgb.shape[:2]
    edge = min(xs.min(), ys.min(), width - 1 - xs.max(), height - 1 - ys.max())
    return len(xs), int(edge)


@pytest.mark.parametrize("size", ["900x600", "600x900"])
def test_png_export_frames_every_route(tmp_path: Path, size: str) -> None:
    """``routes map --png`` as a user runs it (in a process of its own: this one already
    drives a browser), landscape and portrait: every corridor's line is in the picture,
    and none runs off its edge."""
    png = ARTEFACTS / f"aleppo-export-{size}.png"
    html = str(tmp_path / "m.html")
    command = [sys.executable, "-m", "routes", "map", "--network", "proxy", "-o", html]
    done = subprocess.run(
        [*command, "--png", str(png), "--png-size", size],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    with Image.open(png) as image:
        assert image.size == tuple(int(n) for n in size.split("x"))
        colours, _blue = _colours(image)
        drawn = {c: _frame_margins(image, c) for c in render.CORRIDOR_PALETTE[:3]}
    assert colours > 50
    for colour, (pixels, edge) in drawn.items():
        # a key swatch is 20x4 px: a line in the picture is far more
        assert pixels > 300, f"corridor colour {colour} is missing from the PNG ({pixels} px)"
        assert edge >= 8, f"corridor colour {colour} runs to the PNG's edge ({edge} px)"


def test_png_size_is_checked(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        [
            "map",
            "--network",
            "proxy",
            "-o",
            str(tmp_path / "m.html"),
            "--png",
            str(tmp_path / "m.png"),
            "--png-size",
            "big",
        ],
    )
    assert result.exit_code == 2 and "--png-size" in result.stderr
    assert not (tmp_path / "m.html").exists()


def test_page_chromium_args_match_the_project_rules() -> None:
    from routes import settings

    assert settings.chromium_args == CHROMIUM_ARGS
