"""Settings shared by every stage: where data and caches live, and who we say we are.

Like ``osmnx.settings``: plain module attributes a caller may change before a run.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import platformdirs

from routes import __version__, datasets

__all__ = [
    "cache_dir",
    "chromium",
    "chromium_args",
    "configure_osmnx",
    "default_scenario",
    "http_user_agent",
    "osm_dir",
    "output_dir",
    "requests_timeout",
]

#: Scenario used when the CLI is given none.
default_scenario: str = "aleppo-2016-12"

#: Where generated maps and exports go by default (relative to the working folder).
output_dir: Path = Path("output")

#: Caches: the GeoNames name index, parsed road graphs, osmnx's HTTP responses.
cache_dir: Path = Path(os.environ.get("ROUTES_CACHE_DIR") or platformdirs.user_cache_dir("routes"))

#: Sent to Nominatim and Overpass, as their usage policies ask. Set ROUTES_USER_AGENT
#: to add a contact address for heavy use.
http_user_agent: str = os.environ.get(
    "ROUTES_USER_AGENT", f"routes/{__version__} (forced-displacement maps; python-osmnx)"
)

#: Where ``routes network fetch`` stores OpenStreetMap extracts, one per scenario.
osm_dir: Path = datasets.DATA_DIR / "osm"

#: Seconds osmnx waits for Nominatim or Overpass before giving up.
requests_timeout: int = 60


def configure_osmnx(*, date: dt.date | None = None) -> None:
    """Point osmnx at our cache and User-Agent; pin Overpass queries to ``date`` if given.

    DNS-over-HTTPS is off: when the network is down a request should fail at once.
    """
    import osmnx as ox

    ox.settings.cache_folder = cache_dir / "osmnx"
    ox.settings.use_cache = True
    ox.settings.http_user_agent = http_user_agent
    ox.settings.requests_timeout = requests_timeout
    ox.settings.doh_url_template = None
    pin = f'[date:"{date:%Y-%m-%d}T00:00:00Z"]' if date else ""
    ox.settings.overpass_settings = "[out:json][timeout:{timeout}]{maxsize}" + pin


#: Headless Chromium for PNG export (Debian's `chromium`); Playwright never downloads one.
chromium: str = os.environ.get("ROUTES_CHROMIUM", "/usr/bin/chromium")
chromium_args: list[str] = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
]
