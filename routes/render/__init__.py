"""The interactive map: the story's places, corridors, incidents and areas as Folium layers.

Everything a story or a user wrote reaches the page through :func:`escape`,
which makes it inert both as HTML and inside the JavaScript template literals
folium wraps popups and tooltips in. Element ids are sequential, so the same
inputs give the same bytes. :func:`page` writes the default (CDN) page or,
``self_contained``, one with every script and stylesheet inlined from the npm
packages in :mod:`routes.render.assets`.
"""

from __future__ import annotations

import datetime as dt
import html
import itertools
import json
import math
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import TYPE_CHECKING, Any

from routes._io import write_atomically
from routes.errors import UsageError
from routes.text import for_display

if TYPE_CHECKING:
    import folium
    import geopandas as gpd
    import networkx as nx

    from routes.scenario import Corridor, Figure, Place, Scenario

#: Okabe & Ito (2008), "Color Universal Design" (https://jfly.uni-koeln.de/color/):
#: distinguishable with the common forms of colour blindness.
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
#: The map pane place markers are drawn in.
PLACES_PANE = "routes-places"

#: Roles whose names stand on the map as labels, not only in popups.
LABELLED_ROLES = {"origin", "enclave", "destination", "border_crossing"}

#: Corridor colour by status; any other status is drawn black.
STATUS_COLOURS = {
    "under way": OKABE_ITO["blue"],
    "completed": OKABE_ITO["bluish_green"],
    "suspended": OKABE_ITO["vermillion"],
    "planned": OKABE_ITO["orange"],
    "reported": OKABE_ITO["reddish_purple"],
}
OTHER_STATUS_COLOUR = OKABE_ITO["black"]
ALTERNATIVE_COLOUR = "#555555"
NETWORK_COLOUR = "#8C8C8C"
BORDER_COLOUR = "#666666"

#: Line width (px) for corridors without a head count, and the range for those with one.
UNKNOWN_WIDTH, MIN_WIDTH, MAX_WIDTH = 3, 4, 14

#: Decimal places kept for coordinates in the page (5 ≈ 1 m).
COORD_PRECISION = 5

#: The road network layer shows edges within this distance of a corridor, metres.
NETWORK_NEAR_M = 2_000.0

#: folium's pinned Leaflet and jQuery (popups need jQuery). Bootstrap, Font Awesome
#: and awesome-markers are dropped: markers here are SVG and need no icon font.
ASSETS_JS = [
    ("leaflet", "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.js"),
    ("jquery", "https://code.jquery.com/jquery-3.7.1.min.js"),
]
ASSETS_CSS = [("leaflet_css", "https://cdn.jsdelivr.net/npm/leaflet@1.9.3/dist/leaflet.css")]

#: Basemaps from xyzservices, offered in the layer control (the first is shown).
BASEMAPS = {
    "OpenStreetMap": "OpenStreetMap.Mapnik",
    "Light (Esri World Gray Canvas)": "Esri.WorldGrayCanvas",
    "Humanitarian (OSM France HOT)": "OpenStreetMap.HOT",
}
NO_BASEMAP = "No basemap (borders and roads from the data)"

ATTRIBUTION = "Places: GeoNames (CC BY 4.0) and the sources in each popup"

#: Natural Earth 1:110m countries (public domain) as the pyogrio wheel ships them.
_NATURAL_EARTH = ("pyogrio", "tests/fixtures/naturalearth_lowres/naturalearth_lowres.shp")


def escape(text: object) -> str:
    """Make text inert in HTML and in a JavaScript template literal; drop bidi controls."""
    return (
        html.escape(for_display(str(text)), quote=True)
        .replace("`", "&#96;")
        .replace("$", "&#36;")
        .replace("\\", "&#92;")
    )


def build_map(
    scenario: Scenario,
    corridors: gpd.GeoDataFrame,
    *,
    alternatives: gpd.GeoDataFrame | None = None,
    network: nx.MultiDiGraph | None = None,
    animate: bool = True,
) -> folium.Map:
    """The story's map: places by role, corridors as directed flows, incidents, areas,
    the roads used near the corridors, a time control, and the usual map controls."""
    import folium
    from folium import plugins

    from routes.render.geometry import simplified

    with _sequential_ids():
        m = folium.Map(tiles=None, control_scale=True, zoom_snap=0.25)
        m.default_js, m.default_css = ASSETS_JS, ASSETS_CSS
        _add_basemaps(m)
        _add_borders(m, scenario)
        if network is not None:
            _add_network(m, network, corridors)
        drawn = simplified(corridors)  # lean lines; legend and summary read `corridors`
        _add_areas(m, scenario)
        if alternatives is not None and len(alternatives):
            _add_alternatives(m, simplified(alternatives))
        _add_corridors(m, scenario, drawn, animate=animate)
        search_index = _add_places(m, scenario)
        _add_incidents(m, scenario)
        _add_timeline(m, scenario)
        folium.LayerControl(collapsed=False).add_to(m)
        plugins.Fullscreen(
            position="topleft", title="Full screen", title_cancel="Exit full screen"
        ).add_to(m)
        plugins.MeasureControl(
            position="topleft",
            primary_length_unit="kilometers",
            secondary_length_unit="meters",
            primary_area_unit="sqkilometers",
        ).add_to(m)
        plugins.Search(
            search_index,
            search_label="name",
            placeholder="Search places",
            collapsed=False,
            position="topleft",
        ).add_to(m)
        plugins.MiniMap(toggle_display=True, position="bottomright").add_to(m)
        _add_overlays(
            m,
            _title_html(scenario),
            _legend_html(scenario, corridors, network),
            _summary_html(scenario, corridors),
        )
        credit = f"Story: {scenario.story.publisher}, {scenario.story.published:%d %b %Y} · "
        m.add_child(
            _script(  # the text was escaped here: addAttribution writes HTML
                "{{ this._parent.get_name() }}.attributionControl"
                ".addAttribution({{ this.text|tojson }});",
                text=escape(credit + ATTRIBUTION),
            )
        )
        west, south, east, north = scenario.bounds()
        m.fit_bounds(
            [[south, west], [north, east]],
            padding_top_left=(320, 70),
            padding_bottom_right=(370, 110),
        )
    return m


def page(m: folium.Map, *, self_contained: bool = False) -> str:
    """The map as one HTML page; ``self_contained`` inlines every script and stylesheet."""
    from routes.render import assets

    with _verbatim_rewraps():
        text = m.get_root().render()
    text = re.sub(r",\s*maximum-scale=1\.0, user-scalable=no", "", text)  # let readers zoom
    text = text.replace("<html>", '<html lang="en">', 1)
    return assets.inline(text) if self_contained else text


def save(m: folium.Map, path: str | Path, *, self_contained: bool = False) -> Path:
    """Write the page atomically: a failed run leaves no half-written file."""
    return write_atomically(Path(path), page(m, self_contained=self_contained).encode("utf-8"))


def save_png(
    html_path: str | Path, png_path: str | Path, *, size: tuple[int, int] = (1600, 1000)
) -> Path:
    """Screenshot a saved map in headless Chromium (Playwright) for print and social media.

    Scripts and stylesheets come from the npm packages of :mod:`routes.render.assets`;
    basemap tiles load when there is a network, else the map shows no basemap.
    """
    from routes import settings
    from routes.render import assets

    try:
        from playwright.sync_api import Error as PlaywrightError
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise UsageError("PNG export needs Playwright: pip install 'routes[png]'") from None

    def answer(route: Any) -> None:
        url = route.request.url
        try:
            return route.fulfill(path=str(assets.local_file(url)))
        except assets.AssetError:
            return route.continue_()

    width, height = size
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=settings.chromium, args=settings.chromium_args
            )
            tab = browser.new_page(viewport={"width": width, "height": height})
            tab.route("**/*", answer)
            tab.goto(Path(html_path).resolve().as_uri())
            tab.add_style_tag(content=_PRINT_CSS)
            tab.evaluate(_REFIT_FOR_PRINT)
            with suppress(PlaywrightError):  # tiles still loading: take the map as it is
                tab.wait_for_load_state("networkidle", timeout=15_000)
            shot = tab.screenshot(type="png")
            browser.close()
    except PlaywrightError as exc:
        raise UsageError(
            f"PNG export failed in Chromium ({settings.chromium}): {str(exc).splitlines()[0]}"
        ) from None
    return write_atomically(Path(png_path), shot)


#: A still image has no use for the interactive controls: only title, legend and credits.
_PRINT_CSS = (
    ".leaflet-control-layers,.leaflet-control-search,.leaflet-control-zoom,"
    ".leaflet-control-minimap,.leaflet-control-measure{display:none!important}"
)

#: Fit the map to its places again, now that only the legend covers it.
_REFIT_FOR_PRINT = """() => {
    const map = Object.values(window).find(v => v instanceof L.Map);
    const bounds = L.latLngBounds([]);
    map.eachLayer(l => { if (l instanceof L.CircleMarker && l.options.pane === 'routes-places')
        bounds.extend(l.getLatLng()); });
    if (bounds.isValid()) map.fitBounds(bounds, {paddingTopLeft: [330, 70],
        paddingBottomRight: [230, 40], animate: false});
}"""


# --- layers ------------------------------------------------------------------------------


def _add_basemaps(m: folium.Map) -> None:
    import folium
    import xyzservices.providers as xyz

    tiles = [
        folium.TileLayer(xyz.query_name(provider), name=name, show=i == 0).add_to(m)
        for i, (name, provider) in enumerate(BASEMAPS.items())
    ]
    blank = folium.FeatureGroup(name=NO_BASEMAP, overlay=False, show=False).add_to(m)
    # Offline, the first tile that fails switches the map to the no-basemap view.
    m.add_child(
        _script(
            "{% set map = this._parent.get_name() %}"
            "[{% for t in this.tiles %}{{ t.get_name() }},{% endfor %}].forEach(function (layer) {"
            " layer.once('tileerror', function () { if ({{ map }}.hasLayer(layer)) {"
            " {{ map }}.removeLayer(layer); {{ map }}.addLayer({{ this.blank.get_name() }}); }"
            " }); });",
            tiles=tiles,
            blank=blank,
        )
    )


def _add_borders(m: folium.Map, scenario: Scenario) -> None:
    """Country borders for context, from Natural Earth 1:110m where the data is installed."""
    import folium
    import geopandas as gpd
    from shapely.geometry import box

    package, resource = _NATURAL_EARTH
    try:
        path = Path(str(files(package).joinpath(resource)))
    except ModuleNotFoundError:
        return
    if not path.is_file():
        return
    west, south, east, north = scenario.bounds()
    area = box(west - 5, south - 5, east + 5, north + 5)
    countries = gpd.read_file(path, bbox=area.bounds)
    borders = countries.boundary.intersection(area).set_precision(10**-COORD_PRECISION)
    data = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"name": escape(name)},
                "geometry": geom.__geo_interface__,
            }
            for name, geom in zip(countries["name"], borders, strict=True)
            if not geom.is_empty
        ],
    }
    folium.GeoJson(
        data,
        name="Country borders (Natural Earth 1:110m)",
        interactive=False,
        style_function=lambda _f: {
            "color": BORDER_COLOUR,
            "weight": 1,
            "dashArray": "6 4",
            "fill": False,
        },
    ).add_to(m)


def _add_network(m: folium.Map, G: nx.MultiDiGraph, corridors: gpd.GeoDataFrame) -> None:
    """The edges within NETWORK_NEAR_M of a corridor, simplified, as one layer."""
    import folium

    from routes.render.geometry import near_routes

    edges = near_routes(G, corridors, distance_m=NETWORK_NEAR_M)[["highway", "geometry"]]
    if edges.empty:
        return
    edges["highway"] = edges["highway"].map(escape)
    proxy = G.graph.get("network_source") == "proxy"
    name = "Proxy network links near the corridors" if proxy else "Roads used near the corridors"
    folium.GeoJson(
        json.loads(edges.reset_index(drop=True).to_json(drop_id=True)),
        name=name,
        interactive=False,
        style_function=lambda _f: {
            "color": NETWORK_COLOUR,
            "weight": 1.5,
            "opacity": 0.6,
            "dashArray": "2 4" if proxy else None,
        },
    ).add_to(m)


def _add_places(m: folium.Map, scenario: Scenario) -> folium.GeoJson:
    """One layer per role; returns the (hidden) index the search box looks names up in."""
    import folium

    labels = _label_directions(scenario)
    # Above the lines (overlay pane, z 400), below marker icons (z 600): a corridor that
    # starts at a place must not cover its marker.
    folium.map.CustomPane(PLACES_PANE, z_index=450).add_to(m)
    for role, (colour, radius, label) in ROLE_STYLE.items():
        places = [p for p in scenario.places if p.role == role]
        if not places:
            continue
        group = folium.FeatureGroup(name=f"Places: {label.lower()}", show=True).add_to(m)
        for place in places:
            marker = folium.CircleMarker(
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
                    permanent=place.id in labels,
                    direction=labels.get(place.id, "right"),
                    offset=[-radius if labels.get(place.id) == "left" else radius, 0],
                    class_name=f"routes-label routes-{role}",
                ),
            )
            marker.options["pane"] = PLACES_PANE  # folium's path_options drops `pane`
            marker.add_to(group)
    index = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {"name": html.escape(for_display(p.name), quote=False)},
                "geometry": {"type": "Point", "coordinates": [p.lon, p.lat]},
            }
            for p in scenario.places
            if p.role in ROLE_STYLE
        ],
    }
    search_index = folium.GeoJson(  # leaflet-search adds it to the map: keep it invisible
        index,
        name="Search index",
        control=False,
        marker=folium.CircleMarker(radius=1, opacity=0, fill_opacity=0, class_name="routes-search"),
    )
    search_index.add_to(m)
    return search_index


def _label_directions(scenario: Scenario) -> dict[str, str]:
    """Places labelled on the map, and on which side: left when another label sits just east.

    A place inside an outlined area (the pocket) is named by the area's label instead.
    """
    from shapely.geometry import MultiPoint, Point

    hulls = [
        MultiPoint([(scenario.place(p).lon, scenario.place(p).lat) for p in a.places]).convex_hull
        for a in scenario.areas
    ]
    labelled = [
        p
        for p in scenario.places
        if p.role in LABELLED_ROLES
        and not any(h.buffer(1e-4).contains(Point(p.lon, p.lat)) for h in hulls)
    ]
    return {
        p.id: "left"
        if any(0 < q.lon - p.lon < 0.15 and abs(q.lat - p.lat) < 0.08 for q in labelled)
        else "right"
        for p in labelled
    }


def _add_corridors(
    m: folium.Map, scenario: Scenario, corridors: gpd.GeoDataFrame, *, animate: bool
) -> None:
    import folium
    from folium import plugins

    suffix = " (proxy network, not real roads)" if _network_source(corridors) == "proxy" else ""
    group = folium.FeatureGroup(name=f"Corridors{suffix}")
    group.add_to(m)
    peak = _peak_people(corridors)
    for row in corridors.itertuples(index=False):
        if row.geometry is None or row.geometry.geom_type != "LineString":
            continue
        corridor = scenario.corridor(row.corridor_id)
        people = _value(row.people)
        locations = [_latlon(y, x) for x, y in row.geometry.coords]
        colour = STATUS_COLOURS.get(row.status, OTHER_STATUS_COLOUR)
        weight = _width(people, peak)
        folium.PolyLine(
            locations,
            color=colour,
            weight=weight,
            opacity=0.9,
            dash_array=None if people is not None or animate else "8 6",
            popup=_popup(row.name, _corridor_rows(row._asdict(), scenario)),
            tooltip=escape(f"{row.name}: {_headline(corridor)}"),
            class_name=f"routes-corridor routes-corridor-{escape(row.corridor_id)}",
        ).add_to(group)
        if animate:  # dashes running the way people moved, over the line; clicks go to the line
            ants = plugins.AntPath(
                locations,
                color=colour,
                weight=max(2, weight / 2),
                opacity=0.9,
                delay=1600,
                dash_array=[10, 30],
                pulse_color="#FFFFFF",
            )
            ants.options["interactive"] = False  # folium's path_options drops `interactive`
            ants.add_to(group)
        _add_arrow(group, row.geometry, colour)


def _add_arrow(group: folium.FeatureGroup, line: Any, colour: str) -> None:
    """An arrowhead two-thirds along the line, pointing the way people moved."""
    import folium

    ahead = line.interpolate(0.67, normalized=True)
    behind = line.interpolate(0.66, normalized=True)
    dx = (ahead.x - behind.x) * math.cos(math.radians(ahead.y))
    bearing = math.degrees(math.atan2(dx, ahead.y - behind.y))
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="22" height="22" viewBox="0 0 22 22" '
        f'style="transform:rotate({bearing:.0f}deg)" aria-hidden="true"><path d="M11 2 L19 19 '
        f'L11 14 L3 19 Z" fill="{colour}" stroke="#FFFFFF" stroke-width="1.5"/></svg>'
    )
    folium.Marker(
        _latlon(ahead.y, ahead.x),
        interactive=False,
        keyboard=False,
        icon=folium.DivIcon(
            html=svg, icon_size=(22, 22), icon_anchor=(11, 11), class_name="routes-arrow"
        ),
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
            color=ALTERNATIVE_COLOUR,
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
            ("Story date", scenario.story.date.isoformat()),
        ]
        folium.Marker(
            location=_latlon(place.lat, place.lon),
            icon=folium.DivIcon(
                html=_INCIDENT_ICON,
                icon_size=(22, 20),
                icon_anchor=(11, 28),
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
        places = [scenario.place(p) for p in area.places]
        hull = MultiPoint([(p.lon, p.lat) for p in places]).convex_hull
        if hull.geom_type != "Polygon":
            continue
        rows = [
            ("Outline", area.method),
            ("Drawn from", ", ".join(p.name for p in places)),
            ("Source", _source_text(area.source, None, scenario)),
            ("Story date", scenario.story.date.isoformat()),
        ]
        folium.Polygon(
            locations=[_latlon(y, x) for x, y in hull.exterior.coords],
            color=ROLE_STYLE["origin"][0],
            weight=2,
            fill=True,
            fill_opacity=0.2,
            dash_array="4 4",
            popup=_popup(area.name, rows),
            tooltip=folium.Tooltip(
                escape(area.name),
                permanent=True,
                direction="right",
                class_name="routes-label routes-area",
            ),
        ).add_to(group)


def _add_timeline(m: folium.Map, scenario: Scenario) -> None:
    """Dated events (departures, incidents) that a time slider steps through, day by day."""
    from folium import plugins
    from folium.utilities import JsCode

    events = [
        (c.date, scenario.place(c.origin), f"Departures: {c.name} ({_headline(c)})")
        for c in scenario.corridors
    ]
    events += [
        (i.date, scenario.place(i.place), f"{i.name}: " + ", ".join(f.text() for f in i.figures))
        for i in scenario.incidents
    ]
    if not events:
        return

    def epoch_ms(day: dt.date) -> int:
        return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp() * 1000)

    data = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {
                    "start": epoch_ms(day),
                    "end": epoch_ms(day + dt.timedelta(days=1)) - 1,
                    "label": escape(f"{day:%d %b %Y}: {label}"),
                },
                "geometry": {
                    "type": "Point",
                    "coordinates": [_round(place.lon), _round(place.lat)],
                },
            }
            for day, place, label in sorted(events, key=lambda e: (e[0], e[2]))
        ],
    }
    timeline = plugins.Timeline(
        data,
        pointToLayer=JsCode(
            "function (feature, latlng) { return L.circleMarker(latlng, {radius: 13, weight: 4, "
            f"color: '{OKABE_ITO['yellow']}', fill: false}}); }}"
        ),
        onEachFeature=JsCode(  # labels were escaped when the data was written
            "function (feature, layer) { layer.bindTooltip(feature.properties.label); }"
        ),
    )
    timeline.layer_name = "Events by date (use the time slider)"
    timeline.add_to(m)
    plugins.TimelineSlider(
        auto_play=False,
        show_ticks=True,
        enable_keyboard_controls=True,
        date_options="YYYY-MM-DD",
        start=epoch_ms(min(e[0] for e in events)),
        end=epoch_ms(max(e[0] for e in events) + dt.timedelta(days=1)),
        position="bottomleft",
    ).add_timelines(timeline).add_to(m)


# --- popups, legend, title and summary ---------------------------------------------------


def _popup(title: str, rows: Iterable[tuple[str, object]]) -> folium.Popup:
    import folium

    body = "".join(
        f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows if v not in (None, "")
    )
    return folium.Popup(
        f'<div class="routes-popup"><h4>{escape(title)}</h4><table>{body}</table></div>',
        max_width=420,
        max_height=360,
        autoPanPaddingTopLeft=[50, 80],
        autoPanPaddingBottomRight=[380, 40],
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
    corridor = scenario.corridor(row["corridor_id"])
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
        ("No route because", row["no_route_reason"]),
        ("Road mix", row["highway_share"]),
        ("Roads", row["roads"]),
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
    return " — ".join(p for p in (source.title, detail, source.url) if p)


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


def _legend_html(
    scenario: Scenario, corridors: gpd.GeoDataFrame, network: nx.MultiDiGraph | None
) -> str:
    peak = _peak_people(corridors)
    statuses = dict.fromkeys(corridors["status"])
    status_items = [
        f'<li><i class="line" style="border-top:5px solid '
        f'{STATUS_COLOURS.get(s, OTHER_STATUS_COLOUR)}"></i>{escape(s)}</li>'
        for s in statuses
    ]
    width_items = [
        f'<li><i class="line" style="border-top:{_width(v, peak)}px solid #555"></i>'
        f"{v:,} people</li>"
        for v in _width_samples(peak)
    ]
    width_items.append(
        f'<li><i class="line" style="border-top:{UNKNOWN_WIDTH}px solid #555"></i>'
        "head count not reported</li>"
    )
    corridor_items = [
        f"<li>{escape(row.name)}: {escape(_headline(scenario.corridor(row.corridor_id)))}</li>"
        for row in corridors.itertuples(index=False)
    ]
    roles = {p.role for p in scenario.places}
    place_items = [
        f'<li><i class="dot" style="background:{colour}"></i>{escape(label)}</li>'
        for role, (colour, _r, label) in ROLE_STYLE.items()
        if role in roles
    ]
    if scenario.incidents:
        place_items.append('<li><i class="tri"></i>Incident</li>')
    network = (
        f"Routes drawn on a proxy network ({escape(_proxy_note(network))}); pass an OpenStreetMap "
        "extract with --osm for real roads."
        if _network_source(corridors) == "proxy"
        else "Routes drawn on OpenStreetMap roads."
    )
    return (
        '<details class="routes-legend" open aria-label="Legend"><summary>Legend</summary>'
        f"<h3>Corridors, by status</h3><ul>{''.join(status_items)}</ul>"
        f"<h3>Line width: people moved</h3><ul>{''.join(width_items)}</ul>"
        f'<ul class="plain">{"".join(corridor_items)}</ul>'
        f"<h3>Places</h3><ul>{''.join(place_items)}</ul><p>{network}</p>"
        "<p>Colours: Okabe &amp; Ito palette, readable with colour blindness.</p></details>"
    )


def _summary_html(scenario: Scenario, corridors: gpd.GeoDataFrame) -> str:
    """The corridors as text, for screen readers (visually hidden)."""
    items = []
    for row in corridors.itertuples(index=False):
        corridor = scenario.corridor(row.corridor_id)
        figures = "; ".join(f"{f.text()} according to {f.according_to}" for f in corridor.figures)
        route = (
            f"{row.length_km:.0f} km, about {row.travel_time_h:.1f} hours on the "
            f"{row.network_source} network"
            if row.route_status == "ok"
            else "no route found"
        )
        items.append(
            f"<li>{escape(row.name)}, {escape(row.date)}: from {escape(row.origin)} "
            f"{'via ' + escape(row.via) + ' ' if row.via else ''}to {escape(row.destination)}; "
            f"{escape(route)}. {escape(figures or 'No figures reported')}.</li>"
        )
    return (
        f'<section class="routes-summary" aria-label="Summary of the corridors"><h2>'
        f"{escape(scenario.story.title)}: corridors</h2><ul>{''.join(items)}</ul></section>"
    )


def _proxy_note(network: nx.MultiDiGraph | None) -> str:
    """The proxy network's assumptions, as the graph states them."""
    facts = network.graph if network is not None else {}
    if "circuity" not in facts:
        return "great-circle links, assumed speed"
    return f"great-circle links × {facts['circuity']}, {facts['speed_kph']:g} km/h assumed"


# --- helpers -----------------------------------------------------------------------------


def _network_source(corridors: gpd.GeoDataFrame) -> str:
    sources = set(corridors["network_source"]) if len(corridors) else {"proxy"}
    return "proxy" if "proxy" in sources else "osm"


def _value(value: Any) -> Any:
    """None for a missing value (None, NaN, pandas NA), else the value."""
    import pandas as pd

    return None if value is None or pd.isna(value) else value


def _peak_people(corridors: gpd.GeoDataFrame) -> int:
    values = [v for v in (_value(p) for p in corridors["people"]) if v is not None]
    return int(max(values, default=0))


def _width(people: int | None, peak: int) -> float:
    """Line width by people moved, on a square-root scale so areas compare fairly."""
    if people is None or peak <= 0:
        return UNKNOWN_WIDTH
    return round(MIN_WIDTH + (MAX_WIDTH - MIN_WIDTH) * math.sqrt(people / peak), 1)


def _width_samples(peak: int) -> list[int]:
    """Round head counts for the legend's width scale, up to the largest corridor."""
    if peak <= 0:
        return []
    top = int(float(f"{peak:.1g}"))
    return sorted({max(1, int(float(f"{top / 4:.1g}"))), top})


def _round(value: float) -> float:
    return round(value, COORD_PRECISION)


def _latlon(lat: float, lon: float) -> tuple[float, float]:
    return _round(lat), _round(lon)


@contextmanager
def _verbatim_rewraps() -> Iterator[None]:
    """While a page renders, text is never template source.

    branca renders each element and wraps the output, story text included, in a new
    ``Element(output)``, whose first argument it compiles as a Jinja template: so a
    name like ``{{ 7*7 }}`` would be evaluated and ``{% raw %}`` would break the page.
    Here those wraps print their text as it is.
    """
    import branca.element

    class Verbatim:
        def __init__(self, source: str) -> None:
            self.source = source

        def render(self, *args: object, **kwargs: object) -> str:
            return self.source

    original = branca.element.Template
    branca.element.Template = Verbatim  # type: ignore[misc,assignment]
    try:
        yield
    finally:
        branca.element.Template = original  # type: ignore[misc]


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


#: A warning triangle drawn inline: no icon font or image to fetch.
_INCIDENT_ICON = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="22" height="20" viewBox="0 0 22 20" '
    'role="img" aria-label="Incident"><path d="M11 1 L21 19 L1 19 Z" fill="#000000" '
    'stroke="#FFFFFF" stroke-width="1.5"/><path d="M11 7 V13 M11 15.5 V16.5" stroke="#FFFFFF" '
    'stroke-width="2"/></svg>'
)

_CSS = """
.routes-title{position:absolute;top:10px;left:50%;transform:translateX(-50%);z-index:1000;
  background:#fff;padding:6px 14px;border-radius:4px;box-shadow:0 1px 4px rgba(0,0,0,.4);
  font:600 16px/1.3 system-ui,sans-serif;text-align:center}
.routes-title span{display:block;font-weight:400;font-size:13px;color:#333}
.routes-legend{position:absolute;top:215px;left:10px;z-index:1000;max-width:300px;
  max-height:calc(100vh - 330px);overflow:auto;background:#fff;padding:8px 10px;border-radius:4px;
  box-shadow:0 1px 4px rgba(0,0,0,.4);font:12px/1.4 system-ui,sans-serif}
.routes-legend summary{font-weight:600;font-size:13px;cursor:pointer}
.routes-legend h3{margin:6px 0 2px;font-size:12px}
.routes-legend ul{list-style:none;margin:0 0 4px;padding:0}
.routes-legend ul.plain li{margin-left:2px;color:#333}
.routes-legend p{margin:2px 0}
.routes-legend i{display:inline-block;margin-right:6px;vertical-align:middle}
.routes-legend .dot{width:12px;height:12px;border-radius:50%;box-shadow:0 0 0 1px #666}
.routes-legend .line{width:28px;height:0}
.routes-legend .tri{width:0;height:0;border:7px solid transparent;border-bottom:12px solid #000;
  border-top-width:0}
.routes-popup h4{margin:0 0 6px;font-size:14px}
.routes-popup th{text-align:left;vertical-align:top;padding-right:8px;white-space:nowrap}
.routes-popup td{vertical-align:top}
.routes-label{font-weight:600}
.routes-arrow,.routes-incident{background:none;border:none}
.routes-search{pointer-events:none}
.routes-summary{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);
  white-space:nowrap}
.leaflet-control a:focus,.leaflet-control input:focus{outline:3px solid #E69F00}
"""


def _add_overlays(m: folium.Map, *escaped_html: str) -> None:
    """Fixed HTML blocks over the map (title, legend, summary), already escaped, and their CSS.

    Each block is a value the page's template prints, never template source: a story's
    ``{{ … }}`` or ``{% … %}`` reaches the reader as the characters it is.
    """
    root = m.get_root()
    root.header.add_child(_markup()(f"<style>{_CSS}</style>"), name="routes_css")  # type: ignore[attr-defined]
    for i, block in enumerate(escaped_html):
        root.html.add_child(_markup()(block), name=f"routes_overlay_{i}")  # type: ignore[attr-defined]


@cache
def _markup() -> type:
    """A branca element that prints its ``markup`` as data (made on first use: branca is heavy)."""
    from branca.element import Element
    from jinja2 import Template

    class Markup(Element):
        _template = Template("{{ this.markup }}")

        def __init__(self, markup: str) -> None:
            super().__init__()
            self.markup = markup

    return Markup


def _script(template: str, **values: Any) -> Any:
    """A script of our own in the page; ``values`` are what its Jinja template reads."""
    from branca.element import MacroElement
    from jinja2 import Template

    element = MacroElement()
    element._template = Template("{% macro script(this, kwargs) %}" + template + "{% endmacro %}")
    for name, value in values.items():
        setattr(element, name, value)
    return element
