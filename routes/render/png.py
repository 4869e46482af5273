"""A still image of a saved map, taken in headless Chromium, for print and social media."""

from __future__ import annotations

from contextlib import suppress
from pathlib import Path
from typing import Any

from routes._io import write_atomically
from routes.errors import UsageError

__all__ = [
    "save_png",
]


def save_png(
    html_path: str | Path, png_path: str | Path, *, size: tuple[int, int] = (1600, 1000)
) -> Path:
    """Screenshot a saved map in headless Chromium (Playwright) for print and social media.

    A ``--cdn`` page's scripts and stylesheets are answered from the installed package of
    :mod:`routes.render.assets`; basemap tiles load when there is a network, else the map
    shows no basemap.
    """
    from routes import settings
    from routes.render import assets

    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise UsageError("PNG export needs Playwright: pip install 'routes[png]'") from None

    def answer(route: Any) -> None:
        url = route.request.url
        if url not in assets.ASSETS:
            return route.continue_()
        kind = "text/css" if url.endswith(".css") else "text/javascript"
        return route.fulfill(body=assets.text(url), content_type=kind)

    width, height = size
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=settings.chromium, args=settings.chromium_args
            )
            tab = browser.new_page(viewport={"width": width, "height": height})
            tab.route("**/*", answer)
            tab.goto(Path(html_path).resolve().as_uri())
            tab.add_style_tag(content=_PRINT_CSS)
            tab.evaluate(_REFIT_FOR_PRINT)
            with suppress(PlaywrightError):  # tiles still loading: take the map as it is
                tab.wait_for_load_state("networkidle", timeout=15_000)
            shot = tab.screenshot(type="png")
            browser.close()
    except PlaywrightError as exc:
        raise UsageError(
            f"PNG export failed in Chromium ({settings.chromium}): {str(exc).splitlines()[0]}"
        ) from None
    return write_atomically(Path(png_path), shot)


#: A still image has no use for the interactive controls: only title, legend and credits.
_PRINT_CSS = (
    ".leaflet-control-layers,.leaflet-control-search,.leaflet-control-zoom,"
    ".leaflet-control-measure,.routes-timebar{display:none!important}"
)

#: Fit the map to the story's places and every drawn route again, now that only the title,
#: the key and the credits cover it (the page's own fit measures what is left).
_REFIT_FOR_PRINT = """() => {
    const map = Object.values(window).find(v => v instanceof L.Map);
    if (map.routesFit) map.routesFit();
}"""
