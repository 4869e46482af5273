"""Settings shared by every stage: where data and caches live, and who we say we are.

Like ``osmnx.settings``: plain module attributes a caller may change before a run.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
from pathlib import Path

import platformdirs

from routes import __version__, datasets

__all__ = [
    "RETRY_AFTER",
    "cache_dir",
    "chromium",
    "chromium_args",
    "configure_osmnx",
    "default_scenario",
    "failed_recently",
    "forget_failure",
    "http_user_agent",
    "osm_dir",
    "output_dir",
    "remember_failure",
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


#: How long a server that could not be reached is left alone: runs within it do not ask it
#: again (``routes network fetch`` and ``--network osm`` always do).
RETRY_AFTER = dt.timedelta(days=1)


def remember_failure(what: str, reason: str) -> None:
    """Note that ``what`` (a server and what was asked of it) could not be reached, now."""
    from routes._io import private_dir, write_atomically

    record = {"what": what, "at": dt.datetime.now(dt.UTC).isoformat(), "reason": reason[:300]}
    write_atomically(private_dir(cache_dir / "unreachable") / _failure_name(what),
                     json.dumps(record).encode("utf-8"))  # fmt: skip


def failed_recently(what: str) -> tuple[dt.datetime, str] | None:
    """When ``what`` last could not be reached and why, if that is under
    :data:`RETRY_AFTER` ago; None otherwise (or when the note is unreadable)."""
    try:
        record = json.loads((cache_dir / "unreachable" / _failure_name(what)).read_bytes())
        at = dt.datetime.fromisoformat(record["at"])
        reason = str(record["reason"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    age = dt.datetime.now(dt.UTC) - at
    return (at, reason) if dt.timedelta(0) <= age < RETRY_AFTER else None


def forget_failure(what: str) -> None:
    """``what`` was reached: later runs ask it again."""
    (cache_dir / "unreachable" / _failure_name(what)).unlink(missing_ok=True)


def _failure_name(what: str) -> str:
    return hashlib.sha256(what.encode("utf-8")).hexdigest()[:24] + ".json"
