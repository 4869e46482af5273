"""The map's JavaScript and CSS: which CDN file each is, and the npm package that ships it.

The default map links folium's pinned CDN URLs. ``routes map --self-contained``
inlines the same files, taken at build time from the npm registry packages
below (``npm pack``, cached), so the page needs no network; images a stylesheet
points at become data URIs. Nothing third-party is kept in this repository.
The browser tests answer the CDN URLs from the same packages.
"""

from __future__ import annotations

import base64
import mimetypes
import posixpath
import re
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from routes import settings
from routes.errors import AssetError


@dataclass(frozen=True)
class Asset:
    """One CDN file and where the same bytes live in an npm package."""

    url: str
    package: str  # npm name@version
    path: str  # inside the package


#: Every asset a map may load, by URL. jsDelivr serves ``X.min.js`` minified on the
#: fly; where the package only has ``X.js`` the same code, unminified, is used.
ASSETS: dict[str, Asset] = {
    a.url: a
    for a in (
        Asset("https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js",
              "leaflet@1.9.3", "dist/leaflet.js"),
        Asset("https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.css",
              "leaflet@1.9.3", "dist/leaflet.css"),
        Asset("https://code.jquery.com/jquery-3.7.1.min.js", "jquery@3.7.1", "dist/jquery.min.js"),
        Asset("https://cdn.jsdelivr.net/npm/leaflet-ant-path@1.1.2/dist/leaflet-ant-path.min.js",
              "leaflet-ant-path@1.1.2", "dist/leaflet-ant-path.js"),
        Asset("https://cdn.jsdelivr.net/npm/leaflet-polylineoffset@1.1.1/leaflet.polylineoffset.min.js",
              "leaflet-polylineoffset@1.1.1", "leaflet.polylineoffset.js"),
        Asset("https://cdn.jsdelivr.net/npm/leaflet.fullscreen@3.0.0/Control.FullScreen.min.js",
              "leaflet.fullscreen@3.0.0", "Control.FullScreen.js"),
        Asset("https://cdn.jsdelivr.net/npm/leaflet.fullscreen@3.0.0/Control.FullScreen.css",
              "leaflet.fullscreen@3.0.0", "Control.FullScreen.css"),
        Asset("https://cdnjs.cloudflare.com/ajax/libs/leaflet-minimap/3.6.1/Control.MiniMap.js",
              "leaflet-minimap@3.6.1", "dist/Control.MiniMap.min.js"),
        Asset("https://cdnjs.cloudflare.com/ajax/libs/leaflet-minimap/3.6.1/Control.MiniMap.css",
              "leaflet-minimap@3.6.1", "dist/Control.MiniMap.min.css"),
        Asset("https://cdn.jsdelivr.net/gh/ljagis/leaflet-measure@2.1.7/dist/leaflet-measure.min.js",
              "leaflet-measure@2.1.7", "dist/leaflet-measure.js"),
        Asset("https://cdn.jsdelivr.net/gh/ljagis/leaflet-measure@2.1.7/dist/leaflet-measure.min.css",
              "leaflet-measure@2.1.7", "dist/leaflet-measure.css"),
        Asset("https://cdn.jsdelivr.net/npm/leaflet-search@2.9.7/dist/leaflet-search.min.js",
              "leaflet-search@2.9.7", "dist/leaflet-search.min.js"),
        Asset("https://cdn.jsdelivr.net/npm/leaflet-search@2.9.7/dist/leaflet-search.min.css",
              "leaflet-search@2.9.7", "dist/leaflet-search.min.css"),
        Asset("https://cdn.jsdelivr.net/npm/leaflet.timeline@1.6.0/dist/leaflet.timeline.min.js",
              "leaflet.timeline@1.6.0", "dist/leaflet.timeline.js"),
        Asset("https://cdnjs.cloudflare.com/ajax/libs/moment.js/2.18.1/moment.min.js",
              "moment@2.18.1", "min/moment.min.js"),
    )
}  # fmt: skip

_TAG = re.compile(
    r'<script src="(?P<js>[^"]+)"></script>|<link rel="stylesheet" href="(?P<css>[^"]+)"/>'
)
_CSS_URL = re.compile(r"url\((['\"]?)(?!data:|#|https?:)([^'\")]+)\1\)")


def local_file(url: str) -> Path:
    """The installed npm file for a CDN URL, or for a file a stylesheet fetches beside one."""
    asset = ASSETS.get(url)
    if asset is not None:
        return package_dir(asset.package) / asset.path
    # e.g. leaflet's images/layers.png, or leaflet-search's ../images/search-icon.png
    nearest = max(ASSETS.values(), key=lambda a: len(posixpath.commonprefix([a.url, url])))
    shared = posixpath.commonprefix([nearest.url, url])
    if nearest.package.rsplit("@", 1)[-1] not in shared:  # not even the same package version
        raise AssetError(f"no npm package is known to ship {url}")
    relative = posixpath.relpath(url.split("?")[0], posixpath.dirname(nearest.url))
    return package_dir(nearest.package) / posixpath.normpath(
        posixpath.join(posixpath.dirname(nearest.path), relative)
    )


def package_dir(spec: str) -> Path:
    """An npm package unpacked in the cache, fetched with ``npm pack`` the first time."""
    folder = settings.cache_dir / "npm" / spec
    if (folder / "package.json").is_file():
        return folder
    with tempfile.TemporaryDirectory() as tmp:
        try:
            done = subprocess.run(
                ["npm", "pack", spec, "--silent"],
                cwd=tmp,
                check=True,
                capture_output=True,
                text=True,
                timeout=300,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            raise AssetError(
                f"cannot fetch {spec} with npm ({exc}); a self-contained map "
                "needs npm and the npm registry once"
            ) from None
        tarball = Path(tmp) / done.stdout.strip().splitlines()[-1]
        with tarfile.open(tarball) as tar:
            tar.extractall(tmp, filter="data")
        folder.parent.mkdir(parents=True, exist_ok=True)
        Path(tmp, "package").replace(folder)
    return folder


def inline(page: str) -> str:
    """The page with every linked script and stylesheet written into it."""

    def replace(match: re.Match[str]) -> str:
        url = match["js"] or match["css"]
        path = local_file(url)
        if not path.is_file():
            raise AssetError(f"{path} is missing from its npm package")
        text = path.read_text(encoding="utf-8")
        if match["js"]:
            return "<script>" + text.replace("</script", "<\\/script") + "</script>"
        return f"<style>{_embed_css_urls(text, path.parent)}</style>"

    return _TAG.sub(replace, page)


def _embed_css_urls(css: str, folder: Path) -> str:
    def data_uri(match: re.Match[str]) -> str:
        target = (folder / match[2].split("?")[0].split("#")[0]).resolve()
        if not target.is_file():
            return match[0]
        kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        encoded = base64.b64encode(target.read_bytes()).decode("ascii")
        return f"url(data:{kind};base64,{encoded})"

    return _CSS_URL.sub(data_uri, css)
