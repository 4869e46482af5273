"""Settings shared by every stage: where data and caches live, and who we say we are.

Like ``osmnx.settings``: plain module attributes a caller may change before a run.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

from routes import __version__

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
