"""Headless Chromium for the map tests, with the network shut off.

Pages open from file:// and every request they make is answered locally or
blocked: a ``--cdn`` page's Leaflet and plugins come from the installed package
that ships them (folium-offline, as the self-contained page's do), map tiles are a
generated grey square, anything else is aborted and recorded. The default page
asks for nothing but tiles.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

import pytest

from routes.render import assets

if TYPE_CHECKING:  # Playwright is imported only by the fixtures and helpers that drive it
    from playwright.sync_api import (
        Browser,
        BrowserContext,
        ConsoleMessage,
        Dialog,
        Locator,
        Page,
        Route,
        ViewportSize,
    )

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update"]
VIEWPORT: ViewportSize = {"width": 1280, "height": 900}
LOAD_TIMEOUT_MS = 15_000

#: The plain grey every map tile is drawn in (RGB).
TILE_GREY = (221, 221, 221)
TILE_HOSTS = {
    "tile.openstreetmap.org",
    "a.tile.openstreetmap.fr",
    "b.tile.openstreetmap.fr",
    "c.tile.openstreetmap.fr",
    "server.arcgisonline.com",
}

CdnResolver = Callable[[str], str]


def render_map(out: Path, *args: str) -> Path:
    """Write a map with the real CLI (``routes map --output out ARGS...``); its path."""
    from typer.testing import CliRunner

    from routes.cli import app

    result = CliRunner().invoke(app, ["map", "--output", str(out), *args])
    assert result.exit_code == 0, f"{result.output}\n{result.exception!r}"
    assert out.is_file()
    return out


def refuse_network(target: Page | BrowserContext, refused: list[str]) -> None:
    """Answer only the page's own files (``file:``, ``data:``); abort every other request
    of ``target`` (a page or a whole context, frames included) and note its URL."""

    def answer(route: Route) -> None:
        if route.request.url.startswith(("file:", "data:")):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    target.route("**/*", answer)


def map_asset_urls(page_html: str) -> list[str]:
    """Every script and stylesheet URL a rendered map page loads."""
    found = re.findall(r'<script src="([^"]+)"|<link rel="stylesheet" href="([^"]+)"', page_html)
    return [script or sheet for script, sheet in found]


@pytest.fixture(scope="session")
def cdn_assets() -> CdnResolver:
    """A function from a CDN URL a ``--cdn`` map uses to the same file, as the installed
    package ships it (:func:`routes.render.assets.text`); every file must be there."""
    for url in assets.ASSETS:
        try:
            assets.text(url)
        except assets.AssetError as exc:
            pytest.fail(str(exc))
    return assets.text


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    """Debian's Chromium through Playwright; Playwright never downloads a browser."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


def grey_tile_png(size: int = 256) -> bytes:
    """A plain grey PNG map tile."""
    from PIL import Image

    buffer = io.BytesIO()
    Image.new("RGB", (size, size), TILE_GREY).save(buffer, format="PNG")
    return buffer.getvalue()


@dataclass
class MapPage:
    """A page showing a local map, and everything that went wrong while it was open."""

    page: Page
    console: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    served: list[str] = field(default_factory=list)

    def problems(self) -> dict[str, list[str]]:
        """Console errors and warnings, page errors, dialogs and blocked requests."""
        return {
            "console": self.console,
            "page_errors": self.page_errors,
            "dialogs": self.dialogs,
            "aborted": self.aborted,
        }

    def close(self) -> None:
        """Close the page's browser context."""
        self.page.context.close()


def open_map(
    browser: Browser, html: Path, cdn: CdnResolver, viewport: ViewportSize | None = None
) -> MapPage:
    """Open a local HTML map in a fresh context with the network blocked; wait for its tiles."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    context = browser.new_context(viewport=viewport or VIEWPORT)
    page = context.new_page()
    seen = MapPage(page)
    tile = grey_tile_png()

    def on_console(msg: ConsoleMessage) -> None:
        if msg.type in ("error", "warning"):
            seen.console.append(f"{msg.type}: {msg.text} ({msg.location.get('url', '')})")

    def on_dialog(dialog: Dialog) -> None:
        seen.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    def on_request(route: Route) -> None:
        url = route.request.url
        host = urlsplit(url).netloc
        if url.startswith("file://"):
            route.continue_()
            return
        if host in TILE_HOSTS:
            seen.served.append(url)
            route.fulfill(status=200, content_type="image/png", body=tile)
            return
        try:
            body = cdn(url)
        except assets.AssetError:
            seen.aborted.append(url)
            route.abort("blockedbyclient")
            return
        seen.served.append(url)
        kind = "text/css" if url.endswith(".css") else "text/javascript"
        route.fulfill(body=body, content_type=kind)

    page.on("console", on_console)
    page.on("pageerror", lambda exc: seen.page_errors.append(str(exc)))
    page.on("dialog", on_dialog)
    page.route("**/*", on_request)
    page.goto(html.resolve().as_uri(), wait_until="load")
    try:
        page.wait_for_function(_TILES_LOADED, timeout=LOAD_TIMEOUT_MS)
        wait_map_idle(page)
    except PlaywrightTimeoutError:
        context.close()
        raise AssertionError(f"the map did not load its tiles; {seen.problems()}") from None
    page.evaluate("""() => {
        const map = Object.values(window).find(v => v instanceof L.Map);
        map.__testInitialView = [map.getCenter(), map.getZoom()];
    }""")
    return seen


_TILES_LOADED = """() => {
    const tiles = [...document.querySelectorAll('img.leaflet-tile')];
    return tiles.length > 0 && tiles.every(t => t.classList.contains('leaflet-tile-loaded'));
}"""


def wait_map_idle(page: Page) -> None:
    """Wait until no Leaflet pan or zoom animation is running."""
    page.wait_for_function(
        """() => {
            if (typeof L === "undefined") return false;
            const map = Object.values(window).find(v => v instanceof L.Map);
            return map && !map._animatingZoom && !(map._panAnim && map._panAnim._inProgress);
        }"""
    )


_POINT_ON_PATH = """
(path, fractions) => {
    // On the line itself, or beside its centre within its stroke: a wide line shows at
    // its edges where a thinner one drawn over it shares its route.
    const total = path.getTotalLength();
    const ctm = path.getScreenCTM();
    const half = Math.max(0, (+path.getAttribute('stroke-width') || 0) / 2 - 1.5);
    for (const side of [0, half, -half]) {
        for (const f of fractions) {
            const p = path.getPointAtLength(total * f);
            const n = path.getPointAtLength(Math.min(total, total * f + 1));
            const len = Math.hypot(n.x - p.x, n.y - p.y) || 1;
            const x = p.x - side * (n.y - p.y) / len, y = p.y + side * (n.x - p.x) / len;
            const q = new DOMPoint(x, y).matrixTransform(ctm);
            if (document.elementFromPoint(q.x, q.y) === path) return {x: q.x, y: q.y, fraction: f};
        }
    }
    return null;
}
"""


def point_on_path(path: Locator) -> tuple[float, float]:
    """Screen coordinates of a point on an SVG path where the path itself receives clicks.

    Tries the middle of the line first, then points further along either way: the
    middle may lie under another line or a marker.
    """
    fractions = [0.5]
    for step in range(1, 250):  # fine steps: dashed lines only take clicks on their dashes
        fractions += [0.5 + step * 0.002, 0.5 - step * 0.002]
    point = path.evaluate(_POINT_ON_PATH, fractions)
    if point is None:
        raise AssertionError(f"no clickable point on {path}: covered or off-screen")
    return point["x"], point["y"]


def click_path(page: Page, path: Locator) -> None:
    """Click an SVG line (a Leaflet polyline) at a point on the line, not its box centre."""
    wait_map_idle(page)
    x, y = point_on_path(path)
    page.mouse.click(x, y)


def hover_path(page: Page, path: Locator) -> None:
    """Move the mouse onto an SVG line."""
    wait_map_idle(page)
    x, y = point_on_path(path)
    page.mouse.move(x, y)


_FIND_PLACE = """
(name) => {
    const map = Object.values(window).find(v => v instanceof L.Map);
    const text = html => new DOMParser().parseFromString(html, "text/html").body.textContent;
    const found = [];
    map.eachLayer(layer => {
        const tip = layer instanceof L.CircleMarker && layer.getTooltip();
        if (tip && text(String(tip.getContent())).trim() === name) found.push(layer);
    });
    if (found.length !== 1) return found.length;
    found[0].getElement().setAttribute("data-test-place", "target");
    return 1;
}
"""


def place_marker(page: Page, name: str) -> Locator:
    """The circle marker of the place with this name (its label text), as a locator."""
    page.evaluate(
        "() => document.querySelectorAll('[data-test-place]')"
        ".forEach(e => e.removeAttribute('data-test-place'))"
    )
    count = page.evaluate(_FIND_PLACE, name)
    if count != 1:
        raise AssertionError(f"{count} circle markers labelled {name!r}, expected 1")
    return page.locator('[data-test-place="target"]')


def open_popup(page: Page, target: Locator | None = None, *, path: Locator | None = None) -> str:
    """Click a marker (``target``) or a line (``path``); the text of the popup that opens."""
    close_popup(page)
    if path is not None:
        click_path(page, path)
    elif target is not None:
        wait_map_idle(page)
        target.click()
    else:
        raise TypeError("give a target element or a path")
    popup = page.locator(".leaflet-popup-content")
    popup.wait_for(state="visible")
    text = popup.inner_text()
    close_popup(page)
    return text


def expand_layers(page: Page) -> None:
    """Open the (collapsed) layer control as a reader does, by pointing at it."""
    if page.locator(_LAYERS_OPEN).count():
        return
    box = page.locator(".leaflet-control-layers-toggle").bounding_box()
    assert box, "no layer control"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.locator(_LAYERS_OPEN).wait_for(state="visible")


def collapse_layers(page: Page) -> None:
    """Move the pointer onto the layer control and off it, which folds it up again."""
    if not page.locator(_LAYERS_OPEN).count():
        return
    box = page.locator(_LAYERS_OPEN).bounding_box()
    assert box, "no layer control"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + 5)
    page.mouse.move(0, 0)
    page.locator(_LAYERS_OPEN).wait_for(state="detached")


#: The layer control, unfolded (the time bar borrows its classes, and is always unfolded).
_LAYERS_OPEN = ".leaflet-control-layers-expanded:not(.leaflet-timeline-control)"


def close_popup(page: Page) -> None:
    """Close the open popup, if any, and put the map back where it started.

    Closed through Leaflet rather than the close button: the layer control can cover
    that button (see ``test_popup_fits_and_can_be_closed``). The mouse moves off the
    map's lines first, or moving the map under it opens a hover tooltip; hover tooltips
    still fading out are waited for.
    """
    page.evaluate("() => Object.values(window).find(v => v instanceof L.Map).closePopup()")
    page.locator(".leaflet-popup").wait_for(state="detached")
    page.mouse.move(0, 0)
    page.evaluate("""() => {
        const map = Object.values(window).find(v => v instanceof L.Map);
        const [center, zoom] = map.__testInitialView;
        map.setView(center, zoom, {animate: false});
    }""")
    wait_map_idle(page)
    page.wait_for_function("() => !document.querySelector('.leaflet-tooltip:not(.routes-label)')")
