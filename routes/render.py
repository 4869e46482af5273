"""The interactive map: places by role, corridors, incidents and areas as Folium layers.

Everything a story or a user wrote reaches the page through :func:`escape`,
which makes it inert both as HTML and inside the JavaScript template literals
folium wraps popups and tooltips in. Element ids are sequential, so the same
inputs give the same bytes.
"""

from __future__ import annotations

import html
import itertools
import math
import os
import tempfile
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import folium
    import geopandas as gpd

    from routes.scenario import Corridor, Figure, Place, Scenario

#: Okabe & Ito (2008), "Color Universal Design": distinguishable with the common
#: forms of colour blindness.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
    "black": "#000000",
}

#: Marker colour, radius (px) and legend label by place role, most prominent first.
ROLE_STYLE: dict[str, tuple[str, int, str]] = {
    "origin": (OKABE_ITO["vermillion"], 9, "Origin"),
    "enclave": (OKABE_ITO["reddish_purple"], 9, "Besieged enclave"),
    "destination": (OKABE_ITO["bluish_green"], 9, "Destination"),
    "border_crossing": (OKABE_ITO["blue"], 8, "Border crossing"),
    "waypoint": (OKABE_ITO["sky_blue"], 6, "Documented waypoint"),
    "city": (OKABE_ITO["black"], 5, "Town or city"),
    "neighbourhood": (OKABE_ITO["orange"], 4, "Neighbourhood"),
}
LABELLED_ROLES = {"origin", "enclave", "destination", "border_crossing"}
CORRIDOR_COLOURS = [
    OKABE_ITO["blue"],
    OKABE_ITO["vermillion"],
    OKABE_ITO["reddish_purple"],
    OKABE_ITO["bluish_green"],
    OKABE_ITO["orange"],
    OKABE_ITO["sky_blue"],
]
INCIDENT_COLOUR = OKABE_ITO["black"]
#: A warning triangle drawn inline: no icon font or image to fetch.
_INCIDENT_ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="22" height="20" viewBox="0 0 22 20" '
    'role="img" aria-label="Incident"><path d="M11 1 L21 19 L1 19 Z" fill="#000000" '
    'stroke="#FFFFFF" stroke-width="1.5"/><path d="M11 7 V13 M11 15.5 V16.5" stroke="#FFFFFF" '
    'stroke-width="2"/></svg>'
)

#: Line width (px) for corridors without a head count, and the range for those with one.
UNKNOWN_WIDTH, MIN_WIDTH, MAX_WIDTH = 3, 4, 14

#: Decimal places kept for coordinates in the page (5 ≈ 1 m).
COORD_PRECISION = 5

#: folium's own pinned Leaflet and jQuery (popups need jQuery). Bootstrap, Font
#: Awesome and awesome-markers are dropped: nothing here uses them.
ASSETS_JS = [
    ("leaflet", "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js"),
    ("jquery", "https://code.jquery.com/jquery-3.7.1.min.js"),
]
ASSETS_CSS = [("leaflet_css", "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.css")]

ATTRIBUTION = "Places: GeoNames (CC BY 4.0) and the sources in each popup"


def escape(text: object) -> str:
    """Make text inert in HTML and in a JavaScript template literal."""
    return (
        html.escape(str(text), quote=True)
        .replace("`", "&#96;")
        .replace("$", "&#36;")
        .replace("\\", "&#92;")
    )


def build_map(
    scenario: Scenario, corridors: gpd.GeoDataFrame, *, alternatives: gpd.GeoDataFrame | None = None
) -> folium.Map:
    """The story's map: a toggleable layer per place role, corridors, incidents, areas."""
    import folium

    with _sequential_ids():
        m = folium.Map(tiles=None, control_scale=True, prefer_canvas=False)
        m.default_js, m.default_css = ASSETS_JS, ASSETS_CSS
        folium.TileLayer("OpenStreetMap", name="OpenStreetMap basemap", control=True).add_to(m)
        _add_areas(m, scenario)
        if alternatives is not None and len(alternatives):
            _add_alternatives(m, alternatives)
        _add_corridors(m, scenario, corridors)
        _add_places(m, scenario)
        _add_incidents(m, scenario)
        folium.LayerControl(collapsed=False).add_to(m)
        _add_overlays(m, _title_html(scenario), _legend_html(scenario, corridors))
        m.add_child(
            _attribution(
                escape(
                    f"Story: {scenario.story.publisher}, "
                    f"{scenario.story.published:%d %b %Y} · {ATTRIBUTION}"
                )
            )
        )
        west, south, east, north = scenario.bounds()
        m.fit_bounds([[south, west], [north, east]])
    return m


def save(m: folium.Map, path: str | Path) -> Path:
    """Write the page atomically: a failed run leaves no half-written file."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    page = m.get_root().render()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(page)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


# --- layers ------------------------------------------------------------------------------


def _add_places(m: folium.Map, scenario: Scenario) -> None:
    import folium

    for role, (colour, radius, label) in ROLE_STYLE.items():
        places = [p for p in scenario.places if p.role == role]
        if not places:
            continue
        group = folium.FeatureGroup(name=f"Places: {label.lower()}", show=True).add_to(m)
        for place in places:
            folium.CircleMarker(
                location=_latlon(place.lat, place.lon),
                radius=radius,
                color="#FFFFFF",
                weight=2,
                fill=True,
                fill_color=colour,
                fill_opacity=0.95,
                popup=_popup(place.name, _place_rows(place, scenario)),
                tooltip=folium.Tooltip(
                    escape(place.name),
                    permanent=role in LABELLED_ROLES,
                    direction="right",
                    offset=[radius, 0],
                    class_name=f"routes-label routes-{role}",
                ),
            ).add_to(group)


def _add_corridors(m: folium.Map, scenario: Scenario, corridors: gpd.GeoDataFrame) -> None:
    import folium

    source = _network_source(corridors)
    suffix = " (proxy network, not real roads)" if source == "proxy" else ""
    group = folium.FeatureGroup(name=f"Corridors{suffix}").add_to(m)
    peak = _peak_people(corridors)
    for i, row in enumerate(corridors.itertuples(index=False)):
        if row.geometry is None or row.geometry.geom_type != "LineString":
            continue
        people = _value(row.people)
        folium.PolyLine(
            locations=[_latlon(y, x) for x, y in row.geometry.coords],
            color=CORRIDOR_COLOURS[i % len(CORRIDOR_COLOURS)],
            weight=_width(people, peak),
            opacity=0.85,
            dash_array=None if people is not None else "8 6",
            popup=_popup(row.name, _corridor_rows(row._asdict(), scenario)),
            tooltip=escape(f"{row.name}: {_headline(_corridor(scenario, row.corridor_id))}"),
            class_name=f"routes-corridor routes-corridor-{escape(row.corridor_id)}",
        ).add_to(group)


def _add_alternatives(m: folium.Map, alternatives: gpd.GeoDataFrame) -> None:
    import folium

    group = folium.FeatureGroup(name="Alternative routes").add_to(m)
    for row in alternatives.itertuples(index=False):
        rows = [
            ("Corridor", row.name),
            ("Alternative", f"#{row.rank}"),
            ("Length", f"{row.length_km:.1f} km"),
            ("Travel time", f"{row.travel_time_h:.1f} h"),
            ("Cost over the best route", f"+{row.extra_cost_pct:.0f}%"),
            ("Length off other routes", f"{row.differs_share:.0%}"),
            ("Road mix", row.highway_share),
            ("Roads", row.roads),
        ]
        folium.PolyLine(
            locations=[_latlon(y, x) for x, y in row.geometry.coords],
            color="#555555",
            weight=3,
            opacity=0.8,
            dash_array="2 6",
            popup=_popup(f"{row.name}: alternative {row.rank}", rows),
            tooltip=escape(f"Alternative {row.rank}: {row.name}"),
            class_name="routes-alternative",
        ).add_to(group)


def _add_incidents(m: folium.Map, scenario: Scenario) -> None:
    import folium

    if not scenario.incidents:
        return
    group = folium.FeatureGroup(name="Incidents").add_to(m)
    for incident in scenario.incidents:
        place = scenario.place(incident.place)
        figures = ", ".join(f.text() for f in incident.figures)
        rows = [
            ("What", incident.description),
            ("Date", incident.date.isoformat()),
            ("Where", place.name),
            ("Location", incident.location_note or "as reported"),
            *_figure_rows(incident.figures, scenario),
        ]
        folium.Marker(
            location=_latlon(place.lat, place.lon),
            icon=folium.DivIcon(
                html=_INCIDENT_ICON,
                icon_size=(22, 20),
                icon_anchor=(11, 10),
                class_name="routes-incident",
            ),
            popup=_popup(incident.name, rows),
            tooltip=escape(f"{incident.name}: {figures}" if figures else incident.name),
        ).add_to(group)


def _add_areas(m: folium.Map, scenario: Scenario) -> None:
    import folium
    from shapely.geometry import MultiPoint

    if not scenario.areas:
        return
    group = folium.FeatureGroup(name="Areas").add_to(m)
    for area in scenario.areas:
        points = [(scenario.place(p).lon, scenario.place(p).lat) for p in area.places]
        hull = MultiPoint(points).convex_hull
        if hull.geom_type != "Polygon":
            continue
        rows = [
            ("Outline", area.method),
            ("Drawn from", ", ".join(scenario.place(p).name for p in area.places)),
            ("Source", _source_text(area.source, None, scenario)),
        ]
        folium.Polygon(
            locations=[_latlon(y, x) for x, y in hull.exterior.coords],
            color=ROLE_STYLE["origin"][0],
            weight=2,
            fill=True,
            fill_opacity=0.2,
            dash_array="4 4",
            popup=_popup(area.name, rows),
            tooltip=escape(area.name),
        ).add_to(group)


# --- popups, legend and title ------------------------------------------------------------


def _popup(title: str, rows: Iterable[tuple[str, object]]) -> folium.Popup:
    import folium

    body = "".join(
        f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows if v not in (None, "")
    )
    return folium.Popup(
        f'<div class="routes-popup"><h4>{escape(title)}</h4><table>{body}</table></div>',
        max_width=420,
    )


def _place_rows(place: Place, scenario: Scenario) -> list[tuple[str, object]]:
    return [
        ("Role", ROLE_STYLE[place.role][2]),
        ("Also written", ", ".join(place.aliases)),
        ("Coordinates", f"{place.lat:.5f}, {place.lon:.5f}"),
        ("Source", _source_text(place.source, place.detail, scenario)),
        ("Story date", scenario.story.date.isoformat()),
    ]


def _corridor_rows(row: dict[str, Any], scenario: Scenario) -> list[tuple[str, object]]:
    corridor = _corridor(scenario, row["corridor_id"])
    network = (
        "proxy network: straight links between real places, assumed speed; not real roads"
        if row["network_source"] == "proxy"
        else "OpenStreetMap roads"
    )
    return [
        ("From", row["origin"]),
        ("Via", row["via"]),
        ("To", row["destination"]),
        ("Date", row["date"]),
        ("Who", row["who"]),
        ("Status", row["status"]),
        *_figure_rows(corridor.figures, scenario),
        ("Length", f"{row['length_km']:.1f} km" if _value(row["length_km"]) is not None else ""),
        (
            "Travel time",
            f"{row['travel_time_h']:.1f} h" if _value(row["travel_time_h"]) is not None else "",
        ),
        ("Routed on", network),
        ("Route", row["route_status"]),
        ("Passes", row["passes"]),
        ("Route documented by", row["route_sources"]),
        ("Note", row["note"]),
        ("Story date", scenario.story.date.isoformat()),
    ]


def _figure_rows(figures: Iterable[Figure], scenario: Scenario) -> list[tuple[str, object]]:
    return [
        (
            f.kind.capitalize(),
            f"{f.text()}, according to {f.according_to}. "
            f"Source: {_source_text(f.source, f.detail, scenario)}",
        )
        for f in figures
    ]


def _source_text(source_id: str, detail: str | None, scenario: Scenario) -> str:
    source = scenario.source(source_id)
    parts = [source.title, detail, source.url]
    return " — ".join(p for p in parts if p)


def _headline(corridor: Corridor) -> str:
    """The corridor's lead figure: people moved if reported, else wounded, else buses."""
    for kind in ("people", "wounded", "buses"):
        figure = corridor.figure(kind)
        if figure is not None:
            return figure.text()
    return "figures not reported"


def _title_html(scenario: Scenario) -> str:
    story = scenario.story
    return (
        f'<div class="routes-title" role="heading" aria-level="1">{escape(story.title)}'
        f"<span>{story.date:%d %B %Y} · {escape(story.publisher)}</span></div>"
    )


def _legend_html(scenario: Scenario, corridors: gpd.GeoDataFrame) -> str:
    roles = {p.role for p in scenario.places}
    items = [
        f'<li><i class="dot" style="background:{colour}"></i>{escape(label)}</li>'
        for role, (colour, _r, label) in ROLE_STYLE.items()
        if role in roles
    ]
    peak = _peak_people(corridors)
    lines = []
    for i, row in enumerate(corridors.itertuples(index=False)):
        colour = CORRIDOR_COLOURS[i % len(CORRIDOR_COLOURS)]
        style = "dashed" if _value(row.people) is None else "solid"
        width = _width(_value(row.people), peak)
        lines.append(
            f'<li><i class="line" style="border-top:{width}px {style} {colour}"></i>'
            f"{escape(row.name)} ({escape(_headline(_corridor(scenario, row.corridor_id)))})</li>"
        )
    if scenario.incidents:
        items.append(
            f'<li><i class="tri" style="border-bottom-color:{INCIDENT_COLOUR}"></i>Incident</li>'
        )
    network = (
        f"Routes drawn on a proxy network ({escape(_proxy_note(corridors))}); "
        "pass an OpenStreetMap extract with --osm for real roads."
        if _network_source(corridors) == "proxy"
        else "Routes drawn on OpenStreetMap roads."
    )
    return (
        f'<div class="routes-legend" role="region" aria-label="Legend"><h4>Legend</h4>'
        f"<ul>{''.join(lines)}</ul><p>Line width: people moved; dashed: not reported.</p>"
        f"<ul>{''.join(items)}</ul><p>{network}</p></div>"
    )


def _proxy_note(corridors: gpd.GeoDataFrame) -> str:
    from routes.network import CIRCUITY, PROXY_SPEED_KPH

    return f"great-circle links × {CIRCUITY}, {PROXY_SPEED_KPH:g} km/h assumed"


# --- helpers -----------------------------------------------------------------------------


def _corridor(scenario: Scenario, corridor_id: str) -> Corridor:
    return next(c for c in scenario.corridors if c.id == corridor_id)


def _network_source(corridors: gpd.GeoDataFrame) -> str:
    sources = set(corridors["network_source"]) if len(corridors) else {"proxy"}
    return "proxy" if "proxy" in sources else "osm"


def _value(value: Any) -> Any:
    """None for a missing value (None, NaN, pandas NA), else the value."""
    import pandas as pd

    return None if value is None or pd.isna(value) else value


def _peak_people(corridors: gpd.GeoDataFrame) -> int:
    values = [v for v in (_value(p) for p in corridors["people"]) if v is not None]
    return max(values, default=0)


def _width(people: int | None, peak: int) -> float:
    """Line width by people moved, on a square-root scale so areas compare fairly."""
    if people is None or peak <= 0:
        return UNKNOWN_WIDTH
    return round(MIN_WIDTH + (MAX_WIDTH - MIN_WIDTH) * math.sqrt(people / peak), 1)


def _latlon(lat: float, lon: float) -> tuple[float, float]:
    return round(lat, COORD_PRECISION), round(lon, COORD_PRECISION)


@contextmanager
def _sequential_ids() -> Iterator[None]:
    """Number branca elements 0, 1, 2… instead of random hex, for reproducible pages."""
    from branca.element import Element

    counter = itertools.count()
    original = Element.__dict__["_generate_id"]
    Element._generate_id = classmethod(lambda cls: f"{next(counter):06d}")  # type: ignore[method-assign,assignment]
    try:
        yield
    finally:
        Element._generate_id = original  # type: ignore[method-assign]


_CSS = """
.routes-title{position:absolute;top:10px;left:50%;transform:translateX(-50%);z-index:1000;
  background:#fff;padding:6px 14px;border-radius:4px;box-shadow:0 1px 4px rgba(0,0,0,.4);
  font:600 16px/1.3 system-ui,sans-serif;text-align:center}
.routes-title span{display:block;font-weight:400;font-size:13px;color:#333}
.routes-legend{position:absolute;bottom:30px;left:10px;z-index:1000;max-width:340px;
  max-height:50vh;overflow:auto;
  background:#fff;padding:8px 10px;border-radius:4px;box-shadow:0 1px 4px rgba(0,0,0,.4);
  font:12px/1.4 system-ui,sans-serif}
.routes-legend h4{margin:0 0 4px;font-size:13px}
.routes-legend ul{list-style:none;margin:0 0 4px;padding:0}
.routes-legend p{margin:2px 0}
.routes-legend i{display:inline-block;margin-right:6px;vertical-align:middle}
.routes-legend .dot{width:12px;height:12px;border-radius:50%;box-shadow:0 0 0 1px #666}
.routes-legend .line{width:28px;height:0}
.routes-legend .tri{width:0;height:0;border:7px solid transparent;border-bottom-width:12px;
  border-top-width:0}
.routes-popup h4{margin:0 0 6px;font-size:14px}
.routes-popup th{text-align:left;vertical-align:top;padding-right:8px;white-space:nowrap}
.routes-popup td{vertical-align:top}
.routes-label{font-weight:600}
"""


def _add_overlays(m: folium.Map, *escaped_html: str) -> None:
    """Fixed HTML blocks over the map (title, legend), already escaped, and their CSS."""
    from branca.element import Element

    root = m.get_root()
    root.header.add_child(Element(f"<style>{_CSS}</style>"), name="routes_css")  # type: ignore[attr-defined]
    for i, block in enumerate(escaped_html):
        root.html.add_child(Element(block), name=f"routes_overlay_{i}")  # type: ignore[attr-defined]


def _attribution(escaped_text: str) -> Any:
    """A script that credits the story and data sources in Leaflet's attribution control."""
    from branca.element import MacroElement
    from jinja2 import Template

    class Attribution(MacroElement):
        _template = Template(
            "{% macro script(this, kwargs) %}{{ this._parent.get_name() }}.attributionControl"
            ".addAttribution({{ this.text|tojson }});{% endmacro %}"
        )

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    return Attribution(escaped_text)
