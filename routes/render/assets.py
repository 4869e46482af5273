"""The map's JavaScript and CSS: folium's pinned CDN files, and the installed Python package
that ships the same files for the self-contained page.

``routes map`` writes a page that carries every script and stylesheet in itself
(:func:`inline`), so it opens with no network: the files come from the PyPI package
folium-offline (import name ``offlinefolium``), which holds folium's CDN files, Leaflet
and its plugins, as Python string constants keyed by their CDN URL. They are read as data
(the module's source parsed, its string constants taken; nothing of it is imported or run),
once per process. ``routes map --cdn`` links the same URLs instead. Nothing third-party is
kept in this repository, and no package manager runs when a map is written.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from functools import cache
from pathlib import Path

from routes.errors import AssetError

__all__ = ["ASSETS", "PACKAGE", "AssetError", "inline", "text"]

#: The PyPI package that ships the files, and the module of it that holds them.
PACKAGE = "folium-offline"
_MODULE, _FILE, _TABLE = "offlinefolium", "elements.py", "_res"

#: Every file ``routes map``'s page may link, by its CDN URL (folium 0.20's pins).
ASSETS = (
    "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js",
    "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.css",
    "https://code.jquery.com/jquery-3.7.1.min.js",
    "https://cdn.jsdelivr.net/npm/leaflet-polylineoffset@1.1.1/leaflet.polylineoffset.min.js",
    "https://cdn.jsdelivr.net/npm/leaflet.fullscreen@3.0.0/Control.FullScreen.min.js",
    "https://cdn.jsdelivr.net/npm/leaflet.fullscreen@3.0.0/Control.FullScreen.css",
    "https://cdn.jsdelivr.net/gh/ljagis/leaflet-measure@2.1.7/dist/leaflet-measure.min.js",
    "https://cdn.jsdelivr.net/gh/ljagis/leaflet-measure@2.1.7/dist/leaflet-measure.min.css",
    "https://cdn.jsdelivr.net/npm/leaflet-search@2.9.7/dist/leaflet-search.min.js",
    "https://cdn.jsdelivr.net/npm/leaflet-search@2.9.7/dist/leaflet-search.min.css",
)

_TAG = re.compile(
    r'<script src="(?P<js>[^"]+)"></script>|<link rel="stylesheet" href="(?P<css>[^"]+)"/>'
)


def text(url: str) -> str:
    """The file a CDN URL stands for, as the installed package ships it.

    Raises :class:`AssetError` (one line) when the package is not installed or does not
    ship that URL.
    """
    files = _package_files()
    if url not in files:
        raise AssetError(f"{PACKAGE} does not ship {url}; write the page with --cdn instead")
    return files[url]


def inline(page: str) -> str:
    """The page with every linked script and stylesheet written into it."""

    def replace(match: re.Match[str]) -> str:
        body = text(match["js"] or match["css"])
        if match["js"]:
            return "<script>" + body.replace("</script", "<\\/script") + "</script>"
        return "<style>" + body.replace("</style", "<\\/style") + "</style>"

    return _TAG.sub(replace, page)


@cache
def _package_files() -> dict[str, str]:
    """``{CDN URL: file text}`` of every file the package ships (:data:`ASSETS` and the
    files of folium's other elements, such as ``GeoDataFrame.explore``'s)."""
    spec = importlib.util.find_spec(_MODULE)  # finds a top-level package without importing it
    folders = list(spec.submodule_search_locations or []) if spec else []
    source = next((Path(f, _FILE) for f in folders if Path(f, _FILE).is_file()), None)
    if source is None:
        raise AssetError(
            f"a self-contained map needs the Python package {PACKAGE} "
            f"(pip install {PACKAGE}); or write the small page with --cdn"
        )
    found = {}
    for node in ast.parse(source.read_text(encoding="utf-8")).body:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Constant):
            continue
        target, body = node.targets[0], node.value.value
        if (
            isinstance(target, ast.Subscript)
            and isinstance(target.value, ast.Name)
            and target.value.id == _TABLE
            and isinstance(target.slice, ast.Constant)
            and isinstance(target.slice.value, str)
            and isinstance(body, str)
        ):
            found[target.slice.value] = body
    return found
