"""Context without a tile server: Natural Earth's land, water, boundaries and names near the story.

The layers come from ``geodata/context/`` (Natural Earth 1:50m, public domain; built by
``scripts/build_context.py``). Each page carries only what falls in a window around its
story's view (:func:`window`), simplified to about a pixel of the default view, as one
base layer, "Natural Earth (offline)": drawn in a pane under the corridors, muted, and
chosen by the page itself when the tiles cannot be had. Its names (countries, seas and
lakes, towns near the story that the story does not name) are faint labels the page
places among the story's own, never over them and never across a corridor.
"""

from __future__ import annotations

import json
import math
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from routes.datasets import DATA_DIR
from routes.distance import great_circle_km
from routes.render.labels import Label, country_label
from routes.render.markup import markup, script
from routes.render.style import rounded

if TYPE_CHECKING:
    import folium

__all__ = [
    "CONTEXT_CSS",
    "CONTEXT_LAYER",
    "CONTEXT_PANE",
    "DISPUTED",
    "LAYERS",
    "Context",
    "add_context",
    "window",
]

#: The base layer's name in the layer control.
CONTEXT_LAYER = "Natural Earth (offline)"
#: The map pane it is drawn in: over the tiles (z 200), under every line (z 400).
CONTEXT_PANE = "routes-context"
#: The files of ``geodata/context/`` this module reads.
LAYERS = ("land", "lakes", "rivers", "boundaries", "regions", "places", "seas", "countries")
#: Boundary kinds drawn apart, dashed, and named as disputed.
DISPUTED = ("disputed", "line of control", "indefinite", "claim", "breakaway")

#: The window: the view and this many times its span on every side, at least MIN_PAD_DEG.
PAD_SPANS, MIN_PAD_DEG = 2.0, 1.5
#: Geometry is simplified within the view's span over this (about a pixel at the default zoom).
PIXELS = 900
#: A Natural Earth town this close to a place the scenario names is that place, km.
SAME_PLACE_KM = 8.0
#: At most this many towns are offered as labels (the largest first).
MAX_TOWNS = 14


@dataclass(frozen=True)
class Context:
    """What :func:`add_context` drew: the base layer and the names the page may place."""

    layer: Any
    labels: list[Label]
    disputed: bool


def window(view: list[list[float]]) -> tuple[float, float, float, float, float]:
    """``(west, south, east, north, tolerance)`` around a view ``[[S, W], [N, E]]``: what a
    reader who zooms out two levels still sees, and the simplification that suits it."""
    (south, west), (north, east) = view
    middle = math.cos(math.radians((south + north) / 2))
    span = max(north - south, (east - west) * middle, 0.05)
    pad = max(PAD_SPANS * span, MIN_PAD_DEG)
    return (
        max(-180.0, west - pad / max(middle, 0.2)),
        max(-85.0, south - pad),
        min(180.0, east + pad / max(middle, 0.2)),
        min(85.0, north + pad),
        span / PIXELS,
    )


def add_context(
    m: folium.Map,
    view: list[list[float]],
    named: list[tuple[str, float, float]],
    *,
    show: bool = False,
) -> Context:
    """The Natural Earth base layer around ``view`` (``[[S, W], [N, E]]``) and its names as
    labels; ``named`` are the map's own places ``(name, lat, lon)``, which no town of the
    layer repeats; ``show``: the layer is on from the start."""
    import folium

    west, south, east, north, tolerance = window(view)
    features, disputed = _shapes((west, south, east, north), tolerance)
    group = folium.FeatureGroup(name=CONTEXT_LAYER, overlay=False, show=show).add_to(m)
    (view_south, view_west), (view_north, view_east) = view
    near = (view_west, view_south, view_east, view_north)
    towns = _towns(named, (west, south, east, north))
    data = {"type": "FeatureCollection", "features": features + [t[0] for t in towns]}
    root = m.get_root()
    root.header.add_child(markup()(f"<style>{CONTEXT_CSS}</style>"), name="routes_context_css")  # type: ignore[attr-defined]
    m.add_child(
        script(
            "{{ this.js }}\nroutesContext({{ this._parent.get_name() }}, "
            "{{ this.group.get_name() }}, {{ this.data }});",
            js=CONTEXT_JS,
            group=group,
            data=_json(data),
        )
    )
    labels = _country_labels(near) + _water_labels(near) + [t[1] for t in towns]
    return Context(group, labels, disputed)


def _shapes(
    bounds: tuple[float, float, float, float], tolerance: float
) -> tuple[list[dict[str, Any]], bool]:
    """The drawn features in ``bounds`` as GeoJSON with their kind ``k``: land, coast,
    lakes, rivers, boundaries by kind, first-level boundaries."""
    import shapely

    digits = min(5, max(2, math.ceil(-math.log10(tolerance)) + 1))
    inner = shapely.box(*bounds).buffer(-(10**-digits))

    def clipped(name: str) -> list[tuple[dict[str, Any], Any]]:
        out = []
        for props, shape in _within(name, bounds):
            geom = shapely.clip_by_rect(shape, *bounds)
            geom = shapely.set_precision(shapely.simplify(geom, tolerance), 10**-digits)
            if not geom.is_empty:
                out.append((props, geom))
        return out

    land = clipped("land")
    coast = shapely.intersection(shapely.union_all([g for _p, g in land]).boundary, inner)
    parts: list[tuple[str, Any]] = [("land", g) for _p, g in land]
    parts += [("coast", coast)] if not coast.is_empty else []
    parts += [("lake", g) for _p, g in clipped("lakes")]
    parts += [("river", g) for p, g in clipped("rivers") if p["rank"] <= _river_rank(bounds)]
    parts += [("region", g) for _p, g in clipped("regions")]
    borders = clipped("boundaries")
    parts += [(p["kind"], g) for p, g in borders]
    features = [
        {"type": "Feature", "properties": {"k": kind}, "geometry": shapely.geometry.mapping(g)}
        for kind, g in parts
        if g.geom_type != "GeometryCollection"
    ]
    return features, any(p["kind"] in DISPUTED for p, _g in borders)


def _river_rank(bounds: tuple[float, float, float, float]) -> int:
    """The least river drawn: all of them in a region, the great ones across a continent."""
    west, south, east, north = bounds
    return 10 if max(east - west, north - south) < 20 else 6


def _country_labels(near: tuple[float, float, float, float]) -> list[Label]:
    import shapely

    around = (near[0] - 0.2, near[1] - 0.2, near[2] + 0.2, near[3] + 0.2)
    labels = []
    for props, shape in _within("countries", around):
        if not shape.intersects(shapely.box(*around)):
            continue
        label = country_label(props["name"], shape, near)
        if label["at"]:
            labels.append(label | {"layers": ["context"], "clear": True})
    return labels


def _water_labels(near: tuple[float, float, float, float]) -> list[Label]:
    """Names of the seas, gulfs and lakes in view, inside the part of each that is."""
    import shapely

    west, south, east, north = near
    labels = []
    bounds = (west - 0.3, south - 0.3, east + 0.3, north + 0.3)
    around = shapely.box(*bounds)
    for layer, least in (("seas", 0.0), ("lakes", 0.01)):
        for props, shape in _within(layer, bounds):
            if not props.get("name") or shape.intersection(around).area <= least:
                continue
            label = country_label(props["name"], shape, near)
            if label["at"]:
                labels.append(
                    label
                    | {
                        "text": props["name"],
                        "kind": "sea",
                        "rank": 3.4,
                        "layers": ["context"],
                        "clear": True,
                    }
                )
    return labels


def _towns(
    named: list[tuple[str, float, float]], bounds: tuple[float, float, float, float]
) -> list[tuple[dict[str, Any], Label]]:
    """Natural Earth's towns in the window that the map does not name, largest first: a
    faint dot each (drawn with the layer) and a faint label."""
    names = {_key(name) for name, _lat, _lon in named}
    out = []
    for i, (town, at) in enumerate(_within("places", bounds)):
        if _key(town["name"]) in names or any(
            great_circle_km(at.y, at.x, lat, lon) < SAME_PLACE_KM for _n, lat, lon in named
        ):
            continue
        out.append((town["rank"], -town["population"], i, town, at))
    towns = []
    for rank, _pop, _i, town, at in sorted(out, key=lambda t: t[:3])[:MAX_TOWNS]:
        dot = {
            "type": "Feature",
            "properties": {"k": "town"},
            "geometry": {"type": "Point", "coordinates": [rounded(at.x), rounded(at.y)]},
        }
        label: Label = {
            "text": town["name"],
            "kind": "town",
            "rank": 4.5 + rank / 100,
            "at": [[rounded(at.y), rounded(at.x)]],
            "r": 2,
            "layers": ["context"],
            "clear": True,
        }
        towns.append((dot, label))
    return towns


@cache
def _features(name: str) -> list[dict[str, Any]]:
    """A context layer's features as GeoJSON data, each with its ``bbox`` (read once)."""
    import orjson

    return list(orjson.loads((DATA_DIR / "context" / f"{name}.geojson").read_bytes())["features"])


def _within(
    name: str, bounds: tuple[float, float, float, float]
) -> list[tuple[dict[str, Any], Any]]:
    """The properties and shapes of the layer's features whose box meets ``bounds``: only
    those are made shapes, so a page pays for what is near its story."""
    from shapely.geometry import shape

    west, south, east, north = bounds
    return [
        (f["properties"], shape(f["geometry"]))
        for f in _features(name)
        if f["bbox"][0] <= east
        and f["bbox"][2] >= west
        and f["bbox"][1] <= north
        and f["bbox"][3] >= south
    ]


def _key(name: str) -> str:
    """A name without case or accents: "Reyhanlı" and "Reyhanli" are one."""
    bare = unicodedata.normalize("NFKD", name.replace("ı", "i"))
    return "".join(c for c in bare if not unicodedata.combining(c)).casefold()


def _json(data: Any) -> str:
    """Compact JSON that is inert in a ``<script>`` element (its text is Natural Earth's)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


#: Water as the map's background while the layer is on; its names faint, under the story's.
CONTEXT_CSS = """
.leaflet-container.routes-water{background:#D5E5F1}
.routes-label.routes-label-town{font-weight:400;font-size:11px;color:#707070}
.routes-label.routes-label-sea{font-style:italic;font-weight:400;font-size:11.5px;color:#4F7A99;
  letter-spacing:.06em}
.routes-sources{display:inline}
.routes-sources summary{display:inline;cursor:pointer;text-decoration:underline dotted}
.routes-sources[open] summary{margin-right:.4em}
.routes-disclaimer{color:#555}
"""

#: Draws the layer (constant: the data comes as an argument). Water is the map's own
#: background while the layer is on; land is drawn on it, lakes on the land.
CONTEXT_JS = """
function routesContext(map, group, data) {
  const pane = map.createPane('routes-context');
  pane.style.zIndex = 250;
  pane.style.pointerEvents = 'none';
  const line = (color, weight, dash) => ({color, weight, dashArray: dash, fill: false});
  const STYLE = {
    land: {stroke: false, fillColor: '#F2EFE9', fillOpacity: 1},
    lake: {color: '#9FBBD0', weight: 0.8, fillColor: '#D5E5F1', fillOpacity: 1},
    coast: line('#8FAEC5', 1), river: line('#A9C7DD', 1.1), region: line('#C8C3CE', 0.9, '2 3'),
    country: line('#9E9AA8', 1.3), disputed: line('#9E9AA8', 1.3, '5 4'),
    'line of control': line('#9E9AA8', 1.3, '5 4'), indefinite: line('#9E9AA8', 1.3, '5 4'),
    claim: line('#9E9AA8', 1.1, '2 4'), breakaway: line('#9E9AA8', 1.1, '2 4'),
  };
  L.geoJSON(data, {
    pane: 'routes-context', interactive: false,
    style: f => Object.assign({className: 'routes-context routes-context-' +
      f.properties.k.replace(/ /g, '-')}, STYLE[f.properties.k] || {}),
    pointToLayer: (f, at) => L.circleMarker(at, {pane: 'routes-context', radius: 2,
      stroke: false, fillColor: '#8C8C8C', fillOpacity: 1, interactive: false,
      className: 'routes-context routes-context-town'}),
  }).addTo(group);
  const water = on => map.getContainer().classList.toggle('routes-water', on);
  group.on('add', () => water(true));
  group.on('remove', () => water(false));
  if (map.hasLayer(group)) water(true);
}
"""
