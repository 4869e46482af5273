"""Figures as claims: one table row per claim, and the claims a popup shows, escaped.

A claim is a :class:`~routes.scenario.Figure`: a count, on whose word, in which
report. Claims about the same quantity are listed side by side, never merged.
"""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from routes.scenario import Corridor, Figure, Incident, Scenario

__all__ = ["HXL_TAGS", "claim_rows", "flow_rows", "popup_claims"]

#: HXL hashtags for the columns of ``flows.csv`` (``--hxl``); other columns stay untagged.
HXL_TAGS = {
    "origin_name": "#loc+name",
    "origin_lat": "#geo+lat",
    "origin_lon": "#geo+lon",
    "time": "#date",
    "count": "#affected+idps+ind",
    "cumulative": "#affected+idps+ind+cumulative",
    "source": "#meta+source",
}


def claim_rows(scenario: Scenario) -> list[dict[str, Any]]:
    """Every claim in the scenario with its record, who said it and the report, one row each."""
    records: list[tuple[str, Corridor | Incident]] = [
        *(("corridor", c) for c in scenario.corridors),
        *(("incident", i) for i in scenario.incidents),
    ]
    rows = []
    for section, record in records:
        width = getattr(record, "line_width", None)
        for f in record.figures:
            rows.append(
                {
                    "record_type": section,
                    "record_id": record.id,
                    "claim_id": f.id or "",
                    **_claim(f, scenario),
                    "line_width": width is not None and f.id == width,
                }
            )
    return rows


def flow_rows(scenario: Scenario) -> list[dict[str, Any]]:
    """flowmap.blue flows by day: ``count`` is the people moved that day, so that summing it
    over any range of days, as flowmap.blue does, counts each person once.

    A corridor's series is the claims of the source its ``line_width`` claim is from: a
    cumulative series gives one row per day its total changes, ``count`` the change
    (``cumulative`` the total); daily tallies give one row per day, ``count`` the tally
    (``cumulative`` their running sum). Summed, ``count`` gives the series' last total:
    the line's final figure. A total lower than one before it is a conflict of claims, not
    people going back: its row has no ``count`` and a ``note`` that says so, and later rows
    count from the highest total. Any other corridor, or one whose series has no dated
    claim, has one row at its date (``count`` empty without a head count). Each row keeps
    the qualifier and source of the claim behind it.
    """
    rows = []
    for c in scenario.corridors:
        chosen = c.width_claim()
        series = _series(c, chosen) if chosen is not None and chosen.kind == "people" else []
        if chosen is None or not series or chosen.tally not in ("cumulative", "day"):
            count = chosen.value if chosen is not None and chosen.kind == "people" else None
            rows.append(_flow(scenario, c, (chosen and chosen.date) or c.date, chosen, count))
            continue
        total = 0
        for day, claim in series:
            if chosen.tally == "cumulative" and claim.value < total:
                note = (f"the total falls from {total:,} to {claim.value:,}: the claims "
                        "conflict (not counted)")  # fmt: skip
                rows.append(_flow(scenario, c, day, claim, None, claim.value, note=note))
                continue
            count = claim.value - total if chosen.tally == "cumulative" else claim.value
            total += count
            if count or not rows or rows[-1]["corridor_id"] != c.id:
                rows.append(_flow(scenario, c, day, claim, count, total))
    return rows


def _series(c: Corridor, chosen: Figure) -> list[tuple[dt.date, Figure]]:
    """The dated claims of ``chosen``'s kind, tally and source, one per day (on a day with
    several, ``chosen`` or else the last listed), in order of day."""
    same = [
        f
        for f in c.figures
        if f.kind == chosen.kind
        and f.tally == chosen.tally
        and (f.by or f.according_to) == (chosen.by or chosen.according_to)
        and f.date is not None
    ]
    by_day: dict[dt.date, Figure] = {}
    for f in same:
        assert f.date is not None
        if by_day.get(f.date) is not chosen:
            by_day[f.date] = f
    return sorted(by_day.items())


def popup_claims(figures: list[Figure], scenario: Scenario) -> list[tuple[str, str]]:
    """(label, text) popup rows: every claim, grouped by quantity, as plain text.

    Claims about one quantity (kind and tally) follow each other, the label on
    the first only: ``("People (total so far)", "about 3,000 people (15 Dec 2016),
    according to … — CNN, 15 Dec 2016, paragraph 4")``. Text, not HTML: the
    popup escapes it for its context.
    """
    groups: dict[tuple[str, str], list[Figure]] = {}
    for f in figures:
        groups.setdefault((f.kind, f.tally), []).append(f)
    rows = []
    for (kind, tally), claims in groups.items():
        label = kind.capitalize() + ("" if tally == "event" else f" ({_TALLY[tally]})")
        rows += [(label if i == 0 else "", _sentence(f, scenario)) for i, f in enumerate(claims)]
    return rows


_TALLY = {"event": "", "day": "that day", "cumulative": "total so far", "planned": "planned"}


def _sentence(f: Figure, scenario: Scenario) -> str:
    source = scenario.source(f.source)
    when = f" ({f.date:%d %b %Y})" if f.date else ""
    report = ", ".join(
        p
        for p in (
            source.publisher or source.title,
            f"{source.date:%d %b %Y}" if source.date else None,
            f"paragraph {f.paragraph}" if f.paragraph else None,
            source.url,
        )
        if p
    )
    detail = f" ({f.detail})" if f.detail else ""
    return f"{f.text()}{when}{detail}, according to {f.according_to} — {report}"


def _claim(f: Figure, scenario: Scenario) -> dict[str, Any]:
    source = scenario.source(f.source)
    return {
        "kind": f.kind,
        "value": f.value,
        "qualifier": f.qualifier or "",
        "tally": f.tally,
        "date": f.date.isoformat() if f.date else "",
        "according_to": f.according_to,
        "by": f.by or "",
        "source": source.title,
        "source_id": source.id,
        "publisher": source.publisher or "",
        "published": source.date.isoformat() if source.date else "",
        "url": source.url or "",
        "paragraph": f.paragraph,
        "detail": f.detail or "",
    }


def _flow(
    scenario: Scenario,
    c: Corridor,
    day: dt.date | None,
    claim: Figure | None,
    count: int | None,
    cumulative: int | None = None,
    *,
    note: str = "",
) -> dict[str, Any]:
    origin = scenario.place(c.origin)
    details = _claim(claim, scenario) if claim else {}
    return {
        "origin": c.origin,
        "dest": c.destination,
        "count": count,
        "time": day.isoformat() if day else "",
        "cumulative": cumulative,
        "qualifier": details.get("qualifier", ""),
        "tally": details.get("tally", ""),
        "according_to": details.get("according_to", ""),
        "source": details.get("source", ""),
        "url": details.get("url", ""),
        "status": c.status_on(day) if day else c.status,
        "corridor_id": c.id,
        "origin_name": origin.name,
        "origin_lat": origin.lat,
        "origin_lon": origin.lon,
        "note": note,
    }
