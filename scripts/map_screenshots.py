"""Regenerate the README's and docs' screenshots of the Aleppo map: docs/map-desktop.png
(1280x800), docs/map-phone.png (390x844) and docs/map-aleppo-west.png (1280x800, zoomed on
the west side of Aleppo, where the corridors leave the city).

The map is written as ``routes map --offline`` writes it (on the OpenStreetMap roads stored
for the scenario) and opened in Debian's Chromium with every request but the page's own
refused, so the pictures show what a reader without a network sees (no basemap; the
credits say so). Run from the repository:

    python scripts/map_screenshots.py
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from routes import pipeline, settings
from routes._io import write_atomically

REPO = Path(__file__).resolve().parents[1]

#: Each picture: its viewport, and the view it shows (None: the map's own first view;
#: else latitude, longitude and zoom).
SHOTS: dict[str, tuple[tuple[int, int], tuple[float, float, float] | None]] = {
    "desktop": ((1280, 800), None),
    "phone": ((390, 844), None),
    "aleppo-west": ((1280, 800), (36.172, 37.09, 13.0)),  # Khan al-Asal to the pocket
}


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        page = pipeline.map_page("aleppo-2016-12", Path(tmp) / "aleppo.html", offline=True)
        assert page.path is not None
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=settings.chromium, args=settings.chromium_args
            )
            for name, ((width, height), view) in SHOTS.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                tab = context.new_page()
                tab.route(
                    "**/*",
                    lambda route: (
                        route.continue_()
                        if route.request.url.startswith(("file:", "data:"))
                        else route.abort()
                    ),
                )
                tab.goto(page.path.resolve().as_uri())
                tab.wait_for_function("() => !!window.routesMap")
                if view is not None:
                    tab.evaluate(
                        "([lat, lon, zoom]) => window.routesMap.setView([lat, lon], zoom, "
                        "{animate: false})",
                        list(view),
                    )
                tab.wait_for_timeout(800)  # the refused tiles switch the basemap off
                tab.mouse.move(0, 0)
                out = REPO / "docs" / f"map-{name}.png"
                write_atomically(out, tab.screenshot(type="png"))
                print(out)
                context.close()
            browser.close()


if __name__ == "__main__":
    main()
