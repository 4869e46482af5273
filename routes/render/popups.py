"""What a click shows: the rows of a place's, a corridor's or an incident's popup."""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from routes.columns import OSM_DATE, mapped_when
from routes.render.credits import cite
from routes.render.markup import escape
from routes.render.style import ROLE_STYLE, known

if TYPE_CHECKING:
    import folium

    from routes.scenario import Corridor, Figure, Place, Scenario

__all__ = [
    "PROXY_NOTE",
    "PROXY_SENTENCE",
    "Live",
    "corridor_rows",
    "days_text",
    "distance_text",
    "duration_text",
    "figure_rows",
    "headline",
    "lead",
    "off_road_text",
    "place_rows",
    "popup",
    "road_names",
    "road_note",
]

#: What the proxy network means, in one plain sentence for readers.
PROXY_SENTENCE = "Lines join the places in order; they are not the roads taken."
#: The same, naming the network (the layer control and README call it so).
PROXY_NOTE = "Proxy network: lines join the places in order; they are not the roads taken."


class Live(NamedTuple):
    """A popup value the page rewrites for the day the time bar shows (``key``: which)."""

    key: str
    text: str


def popup(
    title: str, rows: Iterable[tuple[str, object]], *, corridor: str | None = None
) -> folium.Popup:
    """The one popup builder: a heading and a table of rows, every text escaped.

    Rows whose value is empty are left out; a :class:`Live` value is a corridor's
    (``corridor``, its id) on the day shown. The page sizes and pans the popup for the
    reader's screen and fills in the live values (:mod:`routes.render.reader`).
    """
    import folium

    def cell(value: object) -> str:
        if isinstance(value, Live):
            return f'<td data-live="{escape(value.key)}">{escape(value.text)}</td>'
        return f"<td>{escape(value)}</td>"

    body = "".join(
        f"<tr><th>{escape(k)}</th>{cell(v)}</tr>" for k, v in rows if v not in (None, "")
    )
    record = f' data-corridor="{escape(corridor)}"' if corridor is not None else ""
    return folium.Popup(
        f'<div class="routes-popup"{record}><h4>{escape(title)}</h4><table>{body}</table></div>',
        max_width=420,
        max_height=360,
    )


def place_rows(place: Place, scenario: Scenario) -> list[tuple[str, object]]:
    """A place's popup: what it is, other spellings, where its coordinate comes from."""
    return [
        ("What", ROLE_STYLE[place.role][2]),
        ("Also written", ", ".join(place.aliases)),
        ("Coordinates", f"{place.lat:.5f}, {place.lon:.5f}"),
        ("Location from", cite(scenario.source(place.source), place.detail)),
    ]


def corridor_rows(row: dict[str, Any], scenario: Scenario) -> list[tuple[str, object]]:
    """A corridor's popup: who went where and when, the figures and on whose word,
    how far (rounded, an estimate on the proxy network) and how the line is drawn."""
    corridor = scenario.corridor(row["corridor_id"])
    proxy = row["network_source"] == "proxy"
    ok = row["route_status"] == "ok"
    return [
        ("From", row["origin"]),
        ("Via", row["via"]),
        ("To", row["destination"]),
        ("Date", days_text(corridor.date, corridor.end)),
        ("Who", row["who"]),
        ("Status", Live("status", row["status"])),
        ("On the day shown", Live("said", "") if corridor.date else ""),
        *figure_rows(corridor.figures, scenario),
        ("Distance", distance_text(row["length_km"], proxy=proxy) if ok else ""),
        ("Time on the road", duration_text(row["travel_time_h"], proxy=proxy) if ok else ""),
        ("Time estimated from", row.get("travel_time_model", "") if ok else ""),
        ("How it is drawn", PROXY_NOTE if proxy else road_note(row.get(OSM_DATE) or "")),
        ("No route because", "" if ok else row["no_route_reason"]),
        ("Roads", "" if proxy else road_names(row["roads"])),
        ("Stops off the road", off_road_text(row.get("stops_off_road") or "")),
        (
            "Route reported by",
            "; ".join(
                cite(scenario.source(r.source), r.detail, r.paragraph)
                for r in corridor.route_sources
            ),
        ),
        ("Note", row["note"]),
    ]


def road_note(osm_date: str) -> str:
    """How a route on OpenStreetMap roads is drawn, with the roads' date.

    >>> print(road_note("2021-08"))  # doctest: +NORMALIZE_WHITESPACE
    The quickest route through the documented stops on the roads as mapped in
    OpenStreetMap in August 2021, not a tracked path.
    """
    when = mapped_when(osm_date)
    mapped = f"the roads as mapped in OpenStreetMap {when}" if when else "OpenStreetMap roads"
    return f"The quickest route through the documented stops on {mapped}, not a tracked path."


def road_names(roads: str) -> str:
    """The roads a route takes as the popup names them: a bare number is a road's number.

    >>> road_names("M5; 60; شارع الجلاء")
    'M5; road 60; شارع الجلاء'
    """
    labels = [label for label in roads.split("; ") if label]
    return "; ".join(f"road {label}" if label.isdigit() else label for label in labels)


def off_road_text(stops: str) -> str:
    """The stops that join the roads further off, and how far (empty when none do)."""
    return f"{stops}, from where the route joins the roads" if stops else ""


def figure_rows(figures: Iterable[Figure], scenario: Scenario) -> list[tuple[str, object]]:
    """Every claim, side by side by quantity (see :func:`routes.claims.popup_claims`)."""
    from routes.claims import popup_claims

    return list(popup_claims(list(figures), scenario))


def distance_text(km: Any, *, proxy: bool) -> str:
    """A distance rounded as far as it can be trusted; on the proxy network, an estimate
    through the corridor's documented stops.

    >>> distance_text(74.2, proxy=True)
    'about 75 km through the stops'
    >>> distance_text(7.46, proxy=False)
    '7.5 km'
    """
    if known(km) is None:
        return ""
    if not proxy:
        return f"{km:.1f} km" if km < 10 else f"{km:.0f} km"
    if km < 1:
        return "under 1 km through the stops"
    step = 1 if km < 10 else 5 if km < 100 else 10
    return f"about {round(km / step) * step:.0f} km through the stops"


def duration_text(hours: Any, *, proxy: bool) -> str:
    """A travel time in words, rounded; none on the proxy network, whose speed is assumed.

    >>> duration_text(0.02, proxy=False)
    'under 10 minutes (estimate)'
    >>> duration_text(1.9, proxy=False)
    'about 2 hours (estimate)'
    """
    if known(hours) is None or proxy:
        return ""
    minutes = hours * 60
    if minutes < 10:
        return "under 10 minutes (estimate)"
    if minutes < 60:
        return f"about {round(minutes / 5) * 5:.0f} minutes (estimate)"
    half_hours = round(hours * 2) / 2
    unit = "hour" if half_hours == 1 else "hours"
    return f"about {half_hours:g} {unit} (estimate)"


def days_text(first: dt.date | None, last: dt.date | None = None) -> str:
    """A day or a span of days as a reader writes it.

    >>> days_text(dt.date(2016, 12, 15), dt.date(2016, 12, 22))
    '15–22 December 2016'
    >>> days_text(None)
    'not given'
    """
    if first is None:
        return "not given"
    if last is None or last == first:
        return f"{first.day} {first:%B %Y}"
    if (first.year, first.month) == (last.year, last.month):
        return f"{first.day}–{last.day} {last:%B %Y}"
    return f"{first.day} {first:%B %Y} – {last.day} {last:%B %Y}"


def lead(corridor: Corridor) -> str:
    """The figure the line is sized by (``line_width``), else :func:`headline`."""
    chosen = corridor.width_claim()
    return chosen.text() if chosen is not None else headline(corridor)


def headline(corridor: Corridor) -> str:
    """The corridor's lead figure: people moved if reported, else wounded, else buses."""
    for kind in ("people", "wounded", "buses"):
        figure = corridor.figure(kind)
        if figure is not None:
            return figure.text()
    return "figures not reported"
