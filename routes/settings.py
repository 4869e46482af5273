"""Settings shared by every stage: where data and caches live, and who we say we are.

Like ``osmnx.settings``: plain module attributes a caller may change before a run.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import logging
import os
from pathlib import Path

import platformdirs

from routes import __version__, datasets

__all__ = [
    "REASON_CHARS",
    "RETRY_AFTER",
    "cache_dir",
    "cache_folder",
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

log = logging.getLogger("routes")


def cache_folder(*parts: str) -> Path:
    """The folder ``parts`` of the cache, made if missing (:func:`routes._io.cache_folder`:
    readable by its owner only, never a link below :data:`cache_dir`)."""
    from routes._io import cache_folder as made

    return made(cache_dir, *parts)


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

    DNS-over-HTTPS is off: when the network is down a request should fail at once. osmnx
    writes its responses through any link it finds in their place, so the folder is rid of
    whatever is not a regular file first (a link there goes; what it leads to stays).
    """
    import osmnx as ox

    ox.settings.cache_folder = _without_links(cache_folder("osmnx"))
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


#: The longest reason a note of a failure keeps, characters; the largest note read, bytes.
REASON_CHARS, _NOTE_BYTES = 300, 4096


def remember_failure(what: str, reason: str) -> None:
    """Note that ``what`` (a server and what was asked of it) could not be reached, now.

    A note that cannot be written is said in a ``-v`` line and the run goes on (a later run
    only asks the server again)."""
    from routes._io import write_atomically
    from routes.errors import RoutesError

    record = {"what": what, "at": dt.datetime.now(dt.UTC).isoformat(),
              "reason": reason[:REASON_CHARS]}  # fmt: skip
    try:
        write_atomically(cache_folder("unreachable") / _failure_name(what),
                         json.dumps(record).encode("utf-8"), entry=True)  # fmt: skip
    except (OSError, RoutesError) as exc:
        log.info("cannot note that %s could not be reached (%s)", what, exc)


def failed_recently(what: str) -> tuple[dt.datetime, str] | None:
    """When ``what`` last could not be reached and why, if that is under
    :data:`RETRY_AFTER` ago; None otherwise. A note that is not what :func:`remember_failure`
    writes (another server's, a time without its UTC offset, a reason that is not short text,
    not a regular file) is ignored, said in a ``-v`` line."""
    from routes._io import read_entry

    path = cache_dir / "unreachable" / _failure_name(what)
    try:
        data = read_entry(path, limit=_NOTE_BYTES)
        if data is None:
            return None
        record = json.loads(data)
        at, reason = dt.datetime.fromisoformat(record["at"]), record["reason"]
        if record["what"] != what or at.tzinfo is None or not isinstance(reason, str):
            raise ValueError("not a note of this server's failure, in UTC")
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.info("the note %s is unusable (%s); ignored", path, exc)
        return None
    age = dt.datetime.now(dt.UTC) - at
    return (at, reason[:REASON_CHARS]) if dt.timedelta(0) <= age < RETRY_AFTER else None


def forget_failure(what: str) -> None:
    """``what`` was reached: later runs ask it again."""
    try:
        (cache_dir / "unreachable" / _failure_name(what)).unlink(missing_ok=True)
    except OSError as exc:  # a folder planted in its place: the note is ignored anyway
        log.info("cannot forget that %s could not be reached (%s)", what, exc)


def _failure_name(what: str) -> str:
    return hashlib.sha256(what.encode("utf-8")).hexdigest()[:24] + ".json"


def _without_links(folder: Path) -> Path:
    """``folder`` rid of every entry that is not a regular file or a folder (a link goes,
    never what it leads to)."""
    import stat

    for entry in os.scandir(folder):
        if not stat.S_ISREG(mode := entry.stat(follow_symlinks=False).st_mode) and not (
            stat.S_ISDIR(mode)
        ):
            log.info("removed %s from the cache: not a regular file", entry.path)
            os.unlink(entry.path)
    return folder
