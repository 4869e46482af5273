"""What a click shows: the rows of a place's, a corridor's or an incident's popup."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from routes.render.markup import escape
from routes.render.style import ROLE_STYLE, known

if TYPE_CHECKING:
    import folium

    from routes.scenario import Corridor, Figure, Place, Scenario

__all__ = [
    "corridor_rows",
    "figure_rows",
    "headline",
    "place_rows",
    "popup",
    "source_text",
]


def popup(title: str, rows: Iterable[tuple[str, object]]) -> folium.Popup:
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


def place_rows(place: Place, scenario: Scenario) -> list[tuple[str, object]]:
    return [
        ("Role", ROLE_STYLE[place.role][2]),
        ("Also written", ", ".join(place.aliases)),
        ("Coordinates", f"{place.lat:.5f}, {place.lon:.5f}"),
        ("Source", source_text(place.source, place.detail, scenario)),
        ("Story date", scenario.story.day()),
    ]


def corridor_rows(row: dict[str, Any], scenario: Scenario) -> list[tuple[str, object]]:
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
        *figure_rows(corridor.figures, scenario),
        ("Length", f"{row['length_km']:.1f} km" if known(row["length_km"]) is not None else ""),
        (
            "Travel time",
            f"{row['travel_time_h']:.1f} h" if known(row["travel_time_h"]) is not None else "",
        ),
        ("Routed on", network),
        ("Route", row["route_status"]),
        ("No route because", row["no_route_reason"]),
        ("Road mix", row["highway_share"]),
        ("Roads", row["roads"]),
        ("Passes", row["passes"]),
        ("Route documented by", row["route_sources"]),
        ("Note", row["note"]),
        ("Story date", scenario.story.day()),
    ]


def figure_rows(figures: Iterable[Figure], scenario: Scenario) -> list[tuple[str, object]]:
    """Every claim, side by side by quantity (see :func:`routes.claims.popup_claims`)."""
    from routes.claims import popup_claims

    return list(popup_claims(list(figures), scenario))


def source_text(source_id: str, detail: str | None, scenario: Scenario) -> str:
    source = scenario.source(source_id)
    return " — ".join(p for p in (source.title, detail, source.url) if p)


def headline(corridor: Corridor) -> str:
    """The corridor's lead figure: people moved if reported, else wounded, else buses."""
    for kind in ("people", "wounded", "buses"):
        figure = corridor.figure(kind)
        if figure is not None:
            return figure.text()
    return "figures not reported"
