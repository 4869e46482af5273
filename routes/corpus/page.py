"""``map.html`` of a corpus: its flows on one map, as arcs with arrowheads sized by stories
or by people, the largest places named, a time bar, and each report in the popups.

Built from :mod:`routes.render`'s public pieces (basemaps, flow lines, arrowheads, popups,
the reader's labels, fit and time bar, reproducible ids, the page writer), since a corpus
is not one scenario. Every text a story gave (names, titles, publishers, evidence, who
said what) reaches the page only through :func:`routes.render.escape` or as label data
the page writes with ``textContent``; nothing raw.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any

from routes._io import inside

if TYPE_CHECKING:
    import folium

__all__ = ["LABELLED_PLACES", "flow_map", "write_map"]

#: The layers, by what sets a line's width.
STORIES_LAYER = "Flows: width by stories reporting them"
PEOPLE_LAYER = "Flows: width by people (largest claim; thin dashed: no figure)"
PLACES_LAYER = "Places"
#: How many places are named on the map: those most flows start or end at.
LABELLED_PLACES = 8
#: The longest evidence quoted in a popup, characters.
EVIDENCE_CHARS = 300

Sentences = dict[tuple[str, int, int], str]


def write_map(folder: Path, merged: list[dict[str, Any]], sentences: Sentences) -> Path:
    """Write ``map.html`` of the flows into ``folder`` (atomically); return its path."""
    from routes import render

    return render.save(flow_map(merged, sentences), inside(folder, "map.html"))


def flow_map(merged: list[dict[str, Any]], sentences: Sentences | None = None) -> folium.Map:
    """The corpus map: flows as arcs with arrowheads in two width layers, the places with
    the largest of them named, a time bar (from the last day: every flow reported by then),
    and each flow's reports and claims in its popup."""
    import folium

    from routes.render.context import add_context
    from routes.render.layers import add_basemaps
    from routes.render.markup import add_head, add_overlays, sequential_ids
    from routes.render.page import ASSETS_CSS, ASSETS_JS
    from routes.render.reader import add_reader
    from routes.render.style import OKABE_ITO
    from routes.render.timeline import day_text

    with sequential_ids():
        m = folium.Map(tiles=None, control_scale=True, zoom_snap=0.25)
        m.default_js, m.default_css = ASSETS_JS, ASSETS_CSS  # the scenario map's own few
        stories = len({s for f in merged for s in f["stories"]})
        add_head(
            m,
            f"Flows reported by {stories} stories (routes corpus)",
            f"Map of {len(merged)} flows between places that {stories} stories name, each "
            "with its reports, their publishers and the sentences it was read in.",
        )
        days = _days(merged)
        lines = {f["flow_id"]: _arc(f) for f in merged}
        # a move within one town (both ends at its point) has no arc: in the tables only
        drawn = [f for f in merged if lines[f["flow_id"]].geom_type == "LineString"]
        fit = _fit(lines[f["flow_id"]] for f in drawn)
        named = [(f[f"{end}_name"], f[f"{end}_lat"], f[f"{end}_lon"]) for f in merged
                 for end in ("origin", "dest")]  # fmt: skip
        context = add_context(m, fit or [[-60.0, -170.0], [75.0, 170.0]], named)
        add_basemaps(m, context.layer)
        groups: dict[str, Any] = {}
        states: dict[str, list[list[Any]]] = {}
        for name, key, colour, show in (
            (STORIES_LAYER, "n_stories", OKABE_ITO["blue"], True),
            (PEOPLE_LAYER, "people_max", OKABE_ITO["vermillion"], False),
        ):
            layer = folium.FeatureGroup(name=name, show=show).add_to(m)
            peak = max((f[key] or 0 for f in drawn), default=0)
            for f in drawn:
                flow_id = f"{key}:{f['flow_id']}"
                group, line = _flow(layer, f, lines[f["flow_id"]], f[key], peak, colour, sentences)
                groups |= {flow_id: group, f"line:{flow_id}": line, f"parent:{flow_id}": layer}
                states[flow_id] = _states(f, days)
        places, labels = _places(m, merged)
        labels += context.labels
        folium.LayerControl(collapsed=True).add_to(m)
        add_overlays(m, _legend(merged))
        add_reader(
            m,
            {
                "labels": labels,
                "fit": fit,
                "corridors": states,
                "incidents": {},
                "days": [day_text(day) for day in days],
                "start": max(len(days) - 1, 0),
            },
            {k: v for k, v in (groups | {"places": places, "context": context.layer}).items()},
        )
    return m


def _arc(f: dict[str, Any]) -> Any:
    from routes.render.geometry import flow_line

    return flow_line([(f["origin_lon"], f["origin_lat"]), (f["dest_lon"], f["dest_lat"])])


def _flow(
    layer: Any,
    f: dict[str, Any],
    line: Any,
    value: int | None,
    peak: int,
    colour: str,
    sentences: Sentences | None,
) -> tuple[Any, Any]:
    """One flow in ``layer``: its arc, sized by ``value`` of ``peak``, and its arrowhead."""
    import folium

    from routes.render.flows import add_arrow
    from routes.render.markup import escape
    from routes.render.popups import popup
    from routes.render.style import latlon, line_width

    group = folium.FeatureGroup(name=f["flow_id"], control=False)
    group.add_to(layer)
    title = f"{f['origin_name']} → {f['dest_name']}"
    drawn = folium.PolyLine(
        [latlon(y, x) for x, y in line.coords],
        color=colour,
        weight=line_width(value, peak) if value else 1.5,
        opacity=0.85,
        dash_array=None if value else "4 6",
        popup=popup(title, _rows(f, sentences or {})),
        tooltip=escape(title),
        class_name="routes-flow-line",
    ).add_to(group)
    add_arrow(group, line, colour, 0.0)
    return group, drawn


def _rows(f: dict[str, Any], sentences: Sentences) -> list[tuple[str, object]]:
    """The flow's popup: counts, dates, every claim, and every report with its title,
    publisher, date and the sentence it was read in."""
    from routes.corpus.flows import tally_text

    dates = f["date_start"] and (
        f["date_start"] if f["date_start"] == f["date_end"] else
        f"{f['date_start']} to {f['date_end']}"
    )  # fmt: skip
    rows: list[tuple[str, object]] = [
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
        title = s.get("title") or f"story {s['story']}"
        where = ", ".join(filter(None, [s["publisher"], s["date"]]))
        rows.append(("Report", f"{title} ({where})" if where else title))
        for e in s.get("evidence") or []:
            said = sentences.get((s["story"], e["start"], e["end"]))
            if said:
                short = said if len(said) <= EVIDENCE_CHARS else said[:EVIDENCE_CHARS] + "…"
                rows.append(("", f"“{' '.join(short.split())}”"))
        if s["url"]:
            rows.append(("", s["url"]))
    return rows


def _states(f: dict[str, Any], days: list[dt.date]) -> list[list[Any]]:
    """A flow on the time bar: drawn from the first day a story reports it (undated: always)."""
    import bisect

    if not f["date_start"] or not days:
        return []
    step = bisect.bisect_left(days, dt.date.fromisoformat(f["date_start"]))
    drawn = [step, None, 0.85, "", ""]
    return [drawn] if step == 0 else [[0], drawn]


def _days(merged: list[dict[str, Any]]) -> list[dt.date]:
    """Every day from the first a flow is reported on to the last (past a year, the
    reported days only)."""
    from routes.render.timeline import MAX_STEPS

    dated = sorted({dt.date.fromisoformat(d) for f in merged for d in f["dates"]})
    if not dated:
        return []
    span = (dated[-1] - dated[0]).days + 1
    if span > MAX_STEPS:
        return dated
    return [dated[0] + dt.timedelta(days=i) for i in range(span)]


def _places(m: folium.Map, merged: list[dict[str, Any]]) -> tuple[Any, list[dict[str, Any]]]:
    """A marker at each flow's ends, and labels for the places most reports name."""
    import folium

    from routes.render.labels import RANK
    from routes.render.markup import escape
    from routes.render.style import PLACES_PANE, latlon, rounded

    weight: dict[str, int] = {}
    where: dict[str, tuple[str, float, float]] = {}
    for f in merged:
        for end in ("origin", "dest"):
            weight[f[end]] = weight.get(f[end], 0) + f["n_stories"]
            where.setdefault(f[end], (f[f"{end}_name"], f[f"{end}_lat"], f[f"{end}_lon"]))
    folium.map.CustomPane(PLACES_PANE, z_index=450).add_to(m)
    layer = folium.FeatureGroup(name=PLACES_LAYER).add_to(m)
    for _ref, (name, lat, lon) in sorted(where.items()):
        marker = folium.CircleMarker(
            location=latlon(lat, lon), radius=4, color="#FFFFFF", weight=1.5, fill=True,
            fill_color="#222222", fill_opacity=0.95, tooltip=escape(name),
        )  # fmt: skip
        marker.options["pane"] = PLACES_PANE
        marker.add_to(layer)
    largest = sorted(weight, key=lambda ref: (-weight[ref], where[ref][0]))[:LABELLED_PLACES]
    labels = [
        {
            "text": where[ref][0],
            "kind": "place",
            "rank": RANK["story"] + i / 100,
            "at": [[rounded(where[ref][1]), rounded(where[ref][2])]],
            "r": 4,
            "layers": ["places"],
        }
        for i, ref in enumerate(largest)
    ]
    return layer, labels


def _fit(lines: Any) -> list[list[float]] | None:
    """The view that holds every flow, arcs included, as [[S, W], [N, E]]."""
    from routes.render.style import rounded

    bounds = [line.bounds for line in lines if not line.is_empty]
    if not bounds:
        return None
    west, south = min(b[0] for b in bounds), min(b[1] for b in bounds)
    east, north = max(b[2] for b in bounds), max(b[3] for b in bounds)
    return [[rounded(south), rounded(west)], [rounded(north), rounded(east)]]


def _legend(merged: list[dict[str, Any]]) -> str:
    from routes.render import escape

    stories = len({s for f in merged for s in f["stories"]})
    text = (
        f"{len(merged)} flows reported by {stories} stories. Each arc joins an origin and a "
        "destination that stories name, its arrow at the destination; click one for its "
        "reports and claims. Arcs are not routes."
    )
    return (
        '<details class="routes-legend" open aria-label="Key"><summary>Corpus flows</summary>'
        f"<p>{escape(text)}</p></details>"
    )
