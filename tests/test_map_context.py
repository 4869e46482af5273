"""A map that stands on its own (issue 38), as a reader without a network gets it.

At 1280x800 and 390x844, with every request but the page's own refused, on the Aleppo
map and on a map with a lake in view (Goma, on Lake Kivu, 2021; a scenario of this test
suite): the Natural Earth context is drawn (``routes-context``) and land and water differ
in a screenshot; the boundary disclaimer is on the page; the totals at places change with
the time bar; no label is crossed by a corridor at the default view.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from browser_support import refuse_network, render_map, wait_map_idle

from routes.render.context import CONTEXT_LAYER
from routes.render.credits import DISCLAIMER

if TYPE_CHECKING:
    from playwright.sync_api import Browser

GOMA = Path(__file__).parent / "fixtures" / "scenarios" / "goma-2021-05.yaml"
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}
#: The context's land and water as drawn (render.context's CONTEXT_JS and CONTEXT_CSS).
LAND, WATER = (0xF2, 0xEF, 0xE9), (0xD5, 0xE5, 0xF1)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    tmp = tmp_path_factory.mktemp("context")
    return {
        "aleppo": render_map(tmp / "aleppo.html", "--network", "proxy"),
        "goma": render_map(tmp / "goma.html", "--scenario", str(GOMA), "--network", "proxy"),
    }


@pytest.fixture(
    scope="module",
    params=[(w, v) for w in ("aleppo", "goma") for v in VIEWPORTS],
    ids=lambda p: "-".join(p),
)
def view(request: pytest.FixtureRequest, pages: dict[str, Path], browser: Browser) -> Iterator[Any]:
    which, size = request.param
    width, height = VIEWPORTS[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    refused: list[str] = []
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    refuse_network(page, refused)
    page.goto(pages[which].resolve().as_uri())
    page.wait_for_function("() => !!window.routesMap")
    page.wait_for_function("() => document.querySelector('.routes-context')")
    wait_map_idle(page)
    page.evaluate("() => window.routesMap.routesShowDay(0)")
    page.wait_for_timeout(200)
    yield which, size, page, errors
    context.close()


def test_the_context_is_drawn_offline_under_the_corridors(view: Any) -> None:
    which, _size, page, errors = view
    assert errors == []
    kinds = page.evaluate("""() => [...document.querySelectorAll('path.routes-context')]
        .map(p => [...p.classList].find(c => c.startsWith('routes-context-')))""")
    assert {"routes-context-land", "routes-context-country"} <= set(kinds), set(kinds)
    if which == "goma":
        assert "routes-context-lake" in kinds
    # its own pane, between the tiles and the corridors
    z = page.evaluate("""() => ['.leaflet-routes-context-pane', '.leaflet-overlay-pane']
        .map(pane => getComputedStyle(document.querySelector(pane)).zIndex)""")
    assert int(z[0]) < int(z[1]), z
    assert page.evaluate("() => window.routesMap.getContainer().classList.contains('routes-water')")
    base = page.locator(".leaflet-control-layers-base label", has_text=CONTEXT_LAYER)
    assert base.count() == 1 and base.locator("input").is_checked()
    names = page.evaluate("""() => [...document.querySelectorAll(
        '.routes-label-country, .routes-label-sea')].filter(e => e.style.display !== 'none')
        .map(e => e.textContent)""")
    assert names, "no country or water named"


def test_land_and_water_differ_in_a_screenshot(view: Any, tmp_path: Path) -> None:
    import io

    from PIL import Image

    which, size, page, _errors = view
    shot = Image.open(io.BytesIO(page.screenshot())).convert("RGB")
    pixels = list(shot.tobytes())
    pixels = [tuple(pixels[i : i + 3]) for i in range(0, len(pixels), 3)]

    def share(colour: tuple[int, int, int]) -> float:
        near = sum(
            1 for p in pixels if max(abs(a - b) for a, b in zip(p, colour, strict=True)) <= 3
        )
        return near / len(pixels)

    assert share(LAND) > 0.2, (which, size, share(LAND))
    if which == "goma":  # Lake Kivu fills part of the view
        assert share(WATER) > 0.05, (which, size, share(WATER))
    assert LAND != WATER


def test_the_boundary_disclaimer_is_on_every_page(view: Any) -> None:
    _which, _size, page, _errors = view
    note = page.locator(".leaflet-control-attribution .routes-disclaimer")
    assert note.count() == 1 and note.is_visible()
    assert note.inner_text().strip() == DISCLAIMER


_TOTALS = """() => [...document.querySelectorAll('path.routes-total')]
    .filter(p => +getComputedStyle(p).strokeOpacity > 0)
    .map(p => Math.round(p.getBBox().width))"""


def test_totals_at_places_follow_the_time_bar(view: Any) -> None:
    which, _size, page, _errors = view
    page.evaluate("() => window.routesMap.routesShowDay(0)")
    first = sorted(page.evaluate(_TOTALS))
    page.locator(".routes-timebar .routes-next").click()
    if which == "aleppo":  # on to 20 Dec: more had left eastern Aleppo and reached Idlib
        for _ in range(4):
            page.locator(".routes-timebar .routes-next").click()
    later = sorted(page.evaluate(_TOTALS))
    assert later and later != first, (first, later)
    circle = page.locator("path.routes-total-arrived").first
    text = page.evaluate("""() => { let out = null; window.routesMap.eachLayer(l => {
        if (!out && /routes-total-arrived/.test(l.options.className || '') && l.getPopup()) {
            l.openPopup(); out = document.querySelector('.leaflet-popup-content').innerText; }
        }); window.routesMap.closePopup(); return out; }""")
    assert circle.count() == 1 or circle.count() > 1
    assert text and "people arrived by" in text and "according to" in text, text
    page.evaluate("() => window.routesMap.routesShowDay(0)")


_CROSSED = """() => {
    const c = document.querySelector('.folium-map').getBoundingClientRect();
    const lines = [...document.querySelectorAll('path.routes-corridor')].map(p => {
        const id = [...p.classList].find(k => k.startsWith('routes-corridor-')).slice(16);
        const m = p.getScreenCTM(), n = p.getTotalLength(), pts = [];
        for (let i = 0; i <= 400; i++) {
            const q = p.getPointAtLength(n * i / 400);
            pts.push([m.a * q.x + m.c * q.y + m.e - c.left, m.b * q.x + m.d * q.y + m.f - c.top]);
        }
        return {id, pts, w: +p.getAttribute('stroke-width') || 3};
    });
    const out = [];
    for (const l of document.querySelectorAll('.routes-label')) {
        if (getComputedStyle(l).display === 'none') continue;
        const r = l.getBoundingClientRect();
        const b = {x: r.left - c.left + 1, y: r.top - c.top + 1, w: r.width - 2, h: r.height - 2};
        // a corridor's label sits on its own line, and on any line that shares its course
        const own = lines.find(line => line.id === l.dataset.id);
        const along = ([x, y], d) => own && own.pts.some(([u, v]) => Math.hypot(x - u, y - v) < d);
        for (const line of lines) {
            if (line === own) continue;
            const d = own ? (own.w + line.w) / 2 + 10 : 0;  // within 10 px: a shared course
            if (line.pts.some(([x, y]) => x > b.x && x < b.x + b.w && y > b.y && y < b.y + b.h
                                          && !along([x, y], d)))
                out.push([l.textContent, line.id]);
        }
    }
    return out;
}"""


def test_no_label_is_crossed_by_a_corridor_at_the_default_view(view: Any) -> None:
    _which, _size, page, _errors = view
    page.evaluate("() => window.routesMap.routesFit()")
    wait_map_idle(page)
    assert page.evaluate(_CROSSED) == []
