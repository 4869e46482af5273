"""The time control: dated events a slider steps through, day by day."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

from routes.render.flows import epoch_ms
from routes.render.markup import escape
from routes.render.popups import headline
from routes.render.style import OKABE_ITO, rounded

if TYPE_CHECKING:
    import folium

    from routes.scenario import Place, Scenario

__all__ = [
    "add_timeline",
    "events",
]


def events(scenario: Scenario) -> list[tuple[dt.date, Place, str]]:
    """Every dated event, as (day, where, label): departures, later phases, incidents."""
    found = [
        (c.date, scenario.place(c.origin), f"Departures: {c.name} ({headline(c)})")
        for c in scenario.corridors
        if c.date
    ]
    for c in scenario.corridors:
        for phase in c.phases:
            if phase.date == c.date:
                continue  # the departure stands for the first phase
            claim = c.width_on(phase.date)
            total = f"; {claim.text()} so far, according to {claim.according_to}" if claim else ""
            label = f"{c.name}: {phase.status}{total}"
            found.append((phase.date, scenario.place(c.origin), label))
    found += [
        (i.date, scenario.place(i.place), f"{i.name}: " + ", ".join(f.text() for f in i.figures))
        for i in scenario.incidents
        if i.date
    ]
    return sorted(found, key=lambda e: (e[0], e[2]))


def add_timeline(m: folium.Map, scenario: Scenario) -> Any:
    """Dated events that a time slider steps through, one step per day; returns the
    timeline layer (None without dated events), which the page also uses to show each
    corridor on its dates."""
    from folium import plugins
    from folium.utilities import JsCode

    events_ = events(scenario)
    if not events_:
        return None

    data = {
        "type": "FeatureCollection",
        "features": [
            {
                "type": "Feature",
                "properties": {
                    "start": epoch_ms(day),
                    "end": epoch_ms(day + dt.timedelta(days=1)) - 1,
                    "label": escape(f"{day.day} {day:%b %Y}: {label}"),
                },
                "geometry": {
                    "type": "Point",
                    "coordinates": [rounded(place.lon), rounded(place.lat)],
                },
            }
            for day, place, label in events_
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
    first, last = events_[0][0], events_[-1][0]
    plugins.TimelineSlider(
        auto_play=False,
        steps=(last - first).days + 1,  # one step per day
        show_ticks=True,
        enable_keyboard_controls=True,
        date_options="YYYY-MM-DD",
        start=epoch_ms(first),
        end=epoch_ms(last + dt.timedelta(days=1)),
        position="bottomleft",
    ).add_timelines(timeline).add_to(m)
    return timeline
