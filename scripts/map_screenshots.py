"""Regenerate the README's screenshots of the Aleppo map: docs/map-desktop.png (1280x800)
and docs/map-phone.png (390x844).

The map is written as ``routes map --network proxy`` writes it and opened in Debian's
Chromium with every request but the page's own refused, so the pictures show what a
reader without a network sees (no basemap; the credits say so). Run from the repository:

    python scripts/map_screenshots.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from routes import pipeline, settings
from routes._io import write_atomically

REPO = Path(__file__).resolve().parents[1]
VIEWPORTS = {"desktop": (1280, 800), "phone": (390, 844)}


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        page = pipeline.map_page("aleppo-2016-12", Path(tmp) / "aleppo.html", network="proxy")
        assert page.path is not None
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=settings.chromium, args=settings.chromium_args
            )
            for name, (width, height) in VIEWPORTS.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                tab = context.new_page()
                tab.route(
                    "**/*",
                    lambda route: route.continue_()
                    if route.request.url.startswith(("file:", "data:"))
                    else route.abort(),
                )
                tab.goto(page.path.resolve().as_uri())
                tab.wait_for_function("() => !!window.routesMap")
                tab.wait_for_timeout(800)  # the refused tiles switch the basemap off
                tab.mouse.move(0, 0)
                out = REPO / "docs" / f"map-{name}.png"
                write_atomically(out, tab.screenshot(type="png"))
                print(out)
                context.close()
            browser.close()


if __name__ == "__main__":
    main()
