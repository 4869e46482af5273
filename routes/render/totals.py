"""Totals at each place: how many people had left it and how many had reached it, by the day
the time bar shows, as flow-map tools draw them (flowmap.gl and flowmap.blue's in and out
totals at each location).

The totals are the corridors' own series, as the exports count them
(:func:`routes.claims.flow_rows`: the source that sizes each line, its running total of
people): a place's "left" is the sum over the corridors that start there, "arrived" over
those that end there. Each is a circle whose area grows with it (an open ring for people
who left, a filled disc for people who arrived), re-sized by the page for each day, with a
popup listing the claims behind it. Corridors sized by something other than people (the
wounded taken to Turkey) add nothing.
"""

from __future__ import annotations

import bisect
import datetime as dt
import math
from collections import defaultdict
from typing import TYPE_CHECKING, Any

from routes.render.markup import script
from routes.render.popups import Live, popup
from routes.render.style import latlon

if TYPE_CHECKING:
    import folium

    from routes.scenario import Scenario

__all__ = ["TOTALS_JS", "TOTALS_PANE", "add_totals", "place_totals", "radius"]

#: The pane the circles are drawn in: over the lines (400), under the place markers (450).
TOTALS_PANE = "routes-totals"
#: Radius of the smallest and of the largest total, px (area grows with the count).
MIN_RADIUS, MAX_RADIUS = 9.0, 30.0
_ENDS = {"left": "origin", "arrived": "dest"}


def place_totals(scenario: Scenario, days: list[dt.date]) -> dict[str, dict[str, list[int]]]:
    """For each place a corridor of people starts or ends at: ``{"left": [...],
    "arrived": [...]}``, the people by each day of ``days`` (one value per day; without a
    time bar, one value: the final totals)."""
    from routes.claims import flow_rows

    steps = days or [dt.date.max]
    series: dict[str, list[tuple[int, int]]] = defaultdict(list)  # corridor -> (step, total)
    ends: dict[str, tuple[str, str]] = {}
    for row in flow_rows(scenario):
        total = row["cumulative"] if row["cumulative"] is not None else row["count"]
        if total is None or row["tally"] == "planned":
            continue
        day = dt.date.fromisoformat(row["time"]) if row["time"] else None
        step = 0 if day is None or not days else bisect.bisect_left(steps, day)
        if step < len(steps):
            series[row["corridor_id"]].append((step, int(total)))
            ends[row["corridor_id"]] = (row["origin"], row["dest"])
    totals: dict[str, dict[str, list[int]]] = {}
    for corridor_id, points in series.items():
        by_step = [0] * len(steps)
        for step, total in points:
            by_step[step:] = [total] * (len(steps) - step)
        for which, end in _ENDS.items():
            place = ends[corridor_id][0 if end == "origin" else 1]
            counts = totals.setdefault(place, {k: [0] * len(steps) for k in _ENDS})[which]
            counts[:] = [a + b for a, b in zip(counts, by_step, strict=True)]
    return totals


def radius(count: int, peak: int) -> float:
    """A circle's radius, px: 0 for no one, its area in proportion to ``count`` above that."""
    if count <= 0 or peak <= 0:
        return 0.0
    return round(MIN_RADIUS + (MAX_RADIUS - MIN_RADIUS) * math.sqrt(count / peak), 1)


def add_totals(m: folium.Map, scenario: Scenario, days: list[dt.date]) -> Any:
    """The circles, in one layer ("People who left and arrived, by day"), or None when no
    corridor gives a count of people. The page re-sizes them as the time bar steps."""
    import folium

    totals = place_totals(scenario, days)
    peak = max((max(v) for t in totals.values() for v in t.values()), default=0)
    if peak <= 0:
        return None
    folium.map.CustomPane(TOTALS_PANE, z_index=430).add_to(m)
    group = folium.FeatureGroup(name="People who left and arrived, by day").add_to(m)
    circles: dict[str, Any] = {}
    for place_id, counts in sorted(totals.items()):
        place = scenario.place(place_id)
        for which, values in counts.items():
            if not any(values):
                continue
            circle = folium.CircleMarker(
                location=latlon(place.lat, place.lon),
                radius=radius(values[0], peak),
                popup=popup(f"{place.name}: people who {which}", _rows(scenario, place_id, which)),
                **_STYLE[which],
            )
            circle.options["pane"] = TOTALS_PANE
            circles[f"{which}:{place_id}"] = circle.add_to(group)
    data = {
        f"{which}:{place}": values
        for place, counts in totals.items()
        for which, values in counts.items()
        if f"{which}:{place}" in circles
    }
    m.add_child(
        script(
            "{{ this.js }}\nroutesTotals({{ this._parent.get_name() }}, {{ this.data|tojson }}, "
            "{{ this.peak }}, { {% for key, c in this.circles %}{{ key|tojson }}: "
            "{{ c.get_name() }},{% endfor %} });",
            js=TOTALS_JS,
            data=data,
            peak=peak,
            circles=sorted(circles.items()),
        )
    )
    return group


def _rows(scenario: Scenario, place_id: str, which: str) -> list[tuple[str, object]]:
    """The popup: the total on the day shown, then each corridor's claims behind it."""
    from routes.claims import flow_rows

    end = _ENDS[which]
    rows: list[tuple[str, object]] = [("By the day shown", Live(f"{which}:{place_id}", ""))]
    for row in flow_rows(scenario):
        if row[end] != place_id or row["tally"] == "planned":
            continue
        total = row["cumulative"] if row["cumulative"] is not None else row["count"]
        if total is None:
            continue
        corridor = scenario.corridor(row["corridor_id"])
        said = " ".join(filter(None, [row["qualifier"], f"{total:,} people"]))
        rows.append(
            (
                corridor.name,
                f"{row['time'] or 'undated'}: {said}, according to "
                f"{row['according_to']} ({row['source']})",
            )
        )
    return rows


_STYLE: dict[str, dict[str, Any]] = {
    "left": {
        "color": "#3D3D3D",
        "weight": 2,
        "fill": True,
        "fill_opacity": 0.0,
        "class_name": "routes-total routes-total-left",
    },
    "arrived": {
        "color": "#3D3D3D",
        "weight": 1,
        "fill": True,
        "fill_color": "#3D3D3D",
        "fill_opacity": 0.22,
        "class_name": "routes-total routes-total-arrived",
    },
}

#: Re-sizes the circles for the day shown and fills in their popups' totals (constant).
TOTALS_JS = """
function routesTotals(map, data, peak, circles) {
  let step = 0;
  const fill = {};
  for (const [key, circle] of Object.entries(circles)) fill[key] = circle.options.fillOpacity;
  const radius = n => n > 0 ? 9 + 21 * Math.sqrt(n / peak) : 0;
  const said = (key, n) => n.toLocaleString('en') + ' people ' + key.split(':')[0];
  function show() {
    for (const [key, circle] of Object.entries(circles)) {
      const n = (data[key] || [])[Math.min(step, (data[key] || [0]).length - 1)] || 0;
      circle.setRadius(radius(n));
      circle.setStyle({opacity: n > 0 ? 1 : 0, fillOpacity: n > 0 ? fill[key] : 0});
    }
    liven(document.querySelector('.leaflet-popup'));
  }
  function liven(root) {
    for (const cell of (root ? root.querySelectorAll('[data-live]') : [])) {
      const values = data[cell.dataset.live];
      if (!values) continue;
      const days = document.querySelector('.routes-day-text');
      const n = values[Math.min(step, values.length - 1)];
      cell.textContent = said(cell.dataset.live, n) + (days ? ' by ' + days.textContent : '');
    }
  }
  map.on('routes:day', e => { step = e.step; show(); });
  map.on('popupopen', e => liven(e.popup.getElement()));
  show();
}
"""
