"""``map.html`` of a corpus: its flows on one map, sized by stories or by people, with a time
control and each flow's sources in its popup.

Built from :mod:`routes.render`'s public pieces (basemaps, escaping, overlays, line
widths, reproducible ids, the page writer), since a corpus is not one scenario. Every
text a story gave (names, publishers, who said what) reaches the page only through
:func:`routes.render.escape`; the features carry that escaped HTML and numbers, nothing
raw.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any

from routes._io import inside

if TYPE_CHECKING:
    import folium

__all__ = ["flow_map", "write_map"]

#: The layers, by what sets a line's width.
STORIES_LAYER = "Flows: width by stories reporting them"
PEOPLE_LAYER = "Flows: width by people (largest claim; thin dashed: no figure)"
TIMELINE_LAYER = "Flows by date (use the time slider)"

#: Binds each feature's popup (HTML escaped when the data was written) and styles it.
_EACH = "function (feature, layer) { layer.bindPopup(feature.properties.popup, {maxWidth: 420}); }"
_STYLE = (
    "function (feature) { return {color: feature.properties.colour, weight: "
    "feature.properties.width, opacity: 0.8, dashArray: feature.properties.dash}; }"
)


def write_map(folder: Path, merged: list[dict[str, Any]]) -> Path:
    """Write ``map.html`` of the flows into ``folder`` (atomically); return its path."""
    from routes import render

    return render.save(flow_map(merged), inside(folder, "map.html"))


def flow_map(merged: list[dict[str, Any]]) -> folium.Map:
    """The corpus map: flows as lines, two width layers, a time slider, the sources in popups."""
    import folium
    from folium.utilities import JsCode

    from routes.render.layers import add_basemaps
    from routes.render.markup import add_overlays, script, sequential_ids
    from routes.render.page import ASSETS_CSS, ASSETS_JS
    from routes.render.style import OKABE_ITO

    with sequential_ids():
        m = folium.Map(tiles=None, control_scale=True, zoom_snap=0.25)
        m.default_js, m.default_css = ASSETS_JS, ASSETS_CSS  # the scenario map's own few
        add_basemaps(m)
        stories_peak = max((f["n_stories"] for f in merged), default=0)
        people_peak = max((f["people_max"] or 0 for f in merged), default=0)
        layers = (
            (STORIES_LAYER, "n_stories", stories_peak, OKABE_ITO["blue"], True),
            (PEOPLE_LAYER, "people_max", people_peak, OKABE_ITO["vermillion"], False),
        )
        for name, key, peak, colour, show in layers:
            data = _collection(merged, key, peak, colour)
            folium.GeoJson(
                data, name=name, show=show, style_function=_style, zoom_on_click=False,
                on_each_feature=JsCode(_EACH),
            ).add_to(m)  # fmt: skip
        timeline = _add_timeline(m, merged, stories_peak)
        folium.LayerControl(collapsed=False).add_to(m)
        if timeline is not None:  # off until the reader ticks it (the slider shows it first)
            m.add_child(
                script(
                    "{{ this._parent.get_name() }}.removeLayer({{ this.layer.get_name() }});",
                    layer=timeline,
                )
            )
        add_overlays(m, _legend(merged))
        if merged:
            lats = [f[f"{end}_lat"] for f in merged for end in ("origin", "dest")]
            lons = [f[f"{end}_lon"] for f in merged for end in ("origin", "dest")]
            m.fit_bounds([[min(lats), min(lons)], [max(lats), max(lons)]], padding=(40, 40))
    return m


def _style(feature: dict[str, Any]) -> dict[str, Any]:
    p = feature["properties"]
    return {"color": p["colour"], "weight": p["width"], "opacity": 0.8, "dashArray": p["dash"]}


def _collection(merged: list[dict[str, Any]], key: str, peak: int, colour: str) -> dict[str, Any]:
    from routes.render.style import line_width, rounded

    features = []
    for f in merged:
        value = f[key]
        features.append(
            {
                "type": "Feature",
                "properties": {
                    "popup": _popup(f),
                    "width": line_width(value, peak) if value else 1.5,
                    "colour": colour,
                    "dash": None if value else "4 6",
                    **_span(f),
                },
                "geometry": {
                    "type": "LineString",
                    "coordinates": [
                        [rounded(f["origin_lon"]), rounded(f["origin_lat"])],
                        [rounded(f["dest_lon"]), rounded(f["dest_lat"])],
                    ],
                },
            }
        )
    return {"type": "FeatureCollection", "features": features}


def _span(f: dict[str, Any]) -> dict[str, int]:
    """The flow's days as the time slider reads them (ms since 1970, UTC); none if undated."""
    if not f["date_start"]:
        return {}
    first, last = dt.date.fromisoformat(f["date_start"]), dt.date.fromisoformat(f["date_end"])
    return {"start": _epoch_ms(first), "end": _epoch_ms(last + dt.timedelta(days=1)) - 1}


def _epoch_ms(day: dt.date) -> int:
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp() * 1000)


def _add_timeline(m: folium.Map, merged: list[dict[str, Any]], peak: int) -> Any:
    """The dated flows again, in a layer the time slider steps through day by day."""
    from folium import plugins
    from folium.utilities import JsCode

    from routes.render.style import OKABE_ITO

    dated = [f for f in merged if f["date_start"]]
    if not dated:
        return None
    data = _collection(dated, "n_stories", peak, OKABE_ITO["bluish_green"])
    timeline = plugins.Timeline(
        data, style=JsCode(_STYLE), onEachFeature=JsCode(_EACH)
    )  # fmt: skip
    timeline.layer_name = TIMELINE_LAYER
    timeline.add_to(m)
    first = min(dt.date.fromisoformat(f["date_start"]) for f in dated)
    last = max(dt.date.fromisoformat(f["date_end"]) for f in dated)
    plugins.TimelineSlider(
        auto_play=False,
        show_ticks=True,
        enable_keyboard_controls=True,
        date_options="YYYY-MM-DD",
        steps=(last - first).days + 1,
        start=_epoch_ms(first),
        end=_epoch_ms(last + dt.timedelta(days=1)),
        position="bottomleft",
    ).add_timelines(timeline).add_to(m)
    return timeline


def _popup(f: dict[str, Any]) -> str:
    """The flow's popup: counts, dates, every claim with its source, every story."""
    from routes.corpus.flows import tally_text
    from routes.render import escape

    dates = f["date_start"] and (
        f["date_start"] if f["date_start"] == f["date_end"] else
        f"{f['date_start']} to {f['date_end']}"
    )  # fmt: skip
    rows = [
        ("Stories", f["n_stories"]),
        ("Publishers", ", ".join(f["publishers"]) or "not given"),
        ("Dates", dates or "not stated"),
    ]
    if f["people_figures"]:
        rows.append(("People, by stories", tally_text(f["people_figures"], thousands=True)))
    for c in f["claims"]:
        value = " ".join(filter(None, [c["qualifier"], f"{c['value']:,}", c["kind"]]))
        rows.append(("Claim", f"{value}, according to {c['according_to']} (story {c['story']})"))
    for s in f["sources"]:
        where = ", ".join(filter(None, [s["publisher"], s["date"], s["url"]]))
        rows.append(("Source", f"story {s['story']}" + (f" ({where})" if where else "")))
    body = "".join(f"<tr><th>{escape(k)}</th><td>{escape(v)}</td></tr>" for k, v in rows)
    title = escape(f"{f['origin_name']} → {f['dest_name']}")
    return f'<div class="routes-popup"><h4>{title}</h4><table>{body}</table></div>'


def _legend(merged: list[dict[str, Any]]) -> str:
    from routes.render import escape

    stories = len({s for f in merged for s in f["stories"]})
    text = (
        f"{len(merged)} flows reported by {stories} stories. Each line joins an origin and a "
        "destination that stories name; click a line for its claims and sources. Lines are "
        "straight, not routes."
    )
    return f'<div class="routes-legend"><h3>Corpus flows</h3><p>{escape(text)}</p></div>'
