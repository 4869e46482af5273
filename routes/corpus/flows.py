"""Stories' movements merged into flows, and the files a corpus run writes.

A flow is one origin–destination pair of places (their gazetteer references, so
"Aleppo" in two stories is one place and two towns called Springfield are two). It
gathers every story that reports a movement between them: the dates, the figures
side by side (qualifier, who said it, which story, where in its text), the stories,
publishers and evidence offsets. Conflicting figures stay separate claims.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from routes._io import atomic_path, inside, write_atomically
from routes.corpus.cache import contribution
from routes.text import safe_cell

__all__ = [
    "FLOW_CSV_COLUMNS",
    "FLOW_FIELDS",
    "merge_contributions",
    "merge_flows",
    "people_figures",
    "tally_text",
    "write_outputs",
]

#: ``flows.csv``: flowmap.blue's ``origin,dest,count,time`` (count = stories reporting the
#: flow on that day), then what stands behind the count.
FLOW_CSV_COLUMNS = ["origin", "dest", "count", "time", "people_max", "people_figures",
                    "n_publishers", "flow_id", "origin_name", "dest_name"]  # fmt: skip

#: A flow's fields, as :func:`merge_flows` returns them and ``flows.parquet`` stores them.
FLOW_FIELDS = ("flow_id", "origin", "dest", "origin_name", "dest_name", "origin_lat",
               "origin_lon", "dest_lat", "dest_lon", "date_start", "date_end", "dates",
               "n_stories", "n_publishers", "people_min", "people_max", "people_figures",
               "stories", "publishers", "claims", "evidence", "sources", "focus_country",
               "focus_region")  # fmt: skip


def merge_flows(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every origin–destination flow the stories report, sorted by origin and destination.

    ``records`` are ``stories.jsonl`` records; error records contribute nothing.
    """
    return merge_contributions(
        (record["id"], part) for record in records if (part := contribution(record))
    )


def merge_contributions(parts: Iterable[tuple[str, dict[str, Any]]]) -> list[dict[str, Any]]:
    """:func:`merge_flows` from ``(story id, contribution)`` pairs in any order (see
    :func:`routes.corpus.cache.contribution`): a place's name and point are those of the
    first story by id that names it; the reports are taken in story id order."""
    places: dict[str, tuple[str, dict[str, Any]]] = {}
    told: list[tuple[str, list[Any]]] = []
    for story, part in parts:
        for ref, name, lat, lon in part["places"]:
            if ref not in places or story < places[ref][0]:
                places[ref] = (story, {"id": ref, "name": name, "lat": lat, "lon": lon})
        if part["reports"]:
            told.append((story, part["reports"]))
    reports: dict[tuple[str, str], list[dict[str, Any]]] = defaultdict(list)
    for _, story_reports in sorted(told, key=lambda t: t[0]):
        for origin, dest, report in story_reports:
            if origin != dest:
                reports[origin, dest].append(report)
    return [_flow(places[o][1], places[d][1], reports[o, d]) for o, d in sorted(reports)]


def _flow(
    origin: dict[str, Any], dest: dict[str, Any], reports: list[dict[str, Any]]
) -> dict[str, Any]:
    reports = sorted(reports, key=lambda r: (r["story"], json.dumps(r["evidence"])))
    dates = sorted({r["date"] for r in reports if r["date"]})
    publishers = sorted({r["publisher"] for r in reports if r["publisher"]})
    claims = [c for r in reports for c in r["claims"]]
    people = [c["value"] for c in claims if c["kind"] == "people"]
    key = f"{origin['id']}\n{dest['id']}".encode()
    return {
        "flow_id": "flow-" + hashlib.sha256(key).hexdigest()[:12],
        "origin": origin["id"],
        "dest": dest["id"],
        "origin_name": origin["name"],
        "dest_name": dest["name"],
        "origin_lat": origin["lat"],
        "origin_lon": origin["lon"],
        "dest_lat": dest["lat"],
        "dest_lon": dest["lon"],
        "date_start": dates[0] if dates else None,
        "date_end": dates[-1] if dates else None,
        "dates": dates,
        "n_stories": len({r["story"] for r in reports}),
        "n_publishers": len(publishers),
        "people_min": min(people) if people else None,
        "people_max": max(people) if people else None,
        "people_figures": people_figures(claims),
        "stories": sorted({r["story"] for r in reports}),
        "publishers": publishers,
        "claims": claims,
        "evidence": [e for r in reports for e in r["evidence"]],
        "sources": [
            {k: r.get(k) for k in _SOURCE_FIELDS} | {"evidence": r["evidence"]} for r in reports
        ],
        **_focus(reports),
    }


#: What a flow's ``sources`` entry keeps of each story's report (and its evidence).
_SOURCE_FIELDS = ("story", "title", "publisher", "url", "date", "who", "focus_country",
                  "focus_region")  # fmt: skip


def _focus(reports: list[dict[str, Any]]) -> dict[str, str | None]:
    """The focus country most of a flow's stories are about (the first story's on a tie),
    and the region most of those stories give in it."""
    by_story = {r["story"]: (r.get("focus_country"), r.get("focus_region")) for r in reports}
    countries = Counter(country for country, _region in by_story.values() if country)
    if not countries:
        return {"focus_country": None, "focus_region": None}
    country = countries.most_common(1)[0][0]
    regions = Counter(region for c, region in by_story.values() if c == country and region)
    region = regions.most_common(1)[0][0] if regions else None
    return {"focus_country": country, "focus_region": region}


def people_figures(claims: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tally of a flow's people claims: each figure, how many stories report it (and
    which, with what qualifiers), the most reported first, then the larger."""
    by_value: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for claim in claims:
        if claim["kind"] == "people":
            by_value[claim["value"]].append(claim)
    tally = [
        {
            "value": value,
            "n_stories": len({c["story"] for c in said}),
            "stories": sorted({c["story"] for c in said}),
            "qualifiers": sorted({c["qualifier"] for c in said if c["qualifier"]}),
        }
        for value, said in by_value.items()
    ]
    return sorted(tally, key=lambda t: (-t["n_stories"], -t["value"]))


def tally_text(tally: list[dict[str, Any]], *, thousands: bool = False) -> str:
    """A tally as one line: ``"8000 (2 stories); 3000 (1 story)"`` (``8,000`` with
    ``thousands``)."""
    parts = []
    for t in tally:
        value = f"{t['value']:,}" if thousands else str(t["value"])
        parts.append(f"{value} ({t['n_stories']} {'story' if t['n_stories'] == 1 else 'stories'})")
    return "; ".join(parts)


def write_outputs(folder: Path, merged: list[dict[str, Any]]) -> list[Path]:
    """Write ``flows.parquet``, ``flows.csv`` and ``locations.csv`` of the flows (the map
    page is :func:`routes.corpus.page.write_map`'s, which reads this module).

    Each file is written atomically: a killed run leaves it old or new, never half-written.
    """
    paths = [_write_parquet(inside(folder, "flows.parquet"), merged)]
    locations, rows = _flowmap_tables(merged)
    for name, frame in (("flows.csv", rows), ("locations.csv", locations)):
        data = frame.map(safe_cell).to_csv(index=False).encode("utf-8")
        paths.append(write_atomically(inside(folder, name), data))
    return paths


#: Columns kept as JSON text in ``flows.parquet`` (lists of records).
_JSON_COLUMNS = (
    "dates",
    "stories",
    "publishers",
    "claims",
    "evidence",
    "sources",
    "people_figures",
)


def _write_parquet(path: Path, merged: list[dict[str, Any]]) -> Path:
    import geopandas as gpd
    import pandas as pd
    from shapely.geometry import LineString

    frame = pd.DataFrame(merged, columns=list(FLOW_FIELDS))
    for column in _JSON_COLUMNS:
        frame[column] = frame[column].map(lambda v: json.dumps(v, ensure_ascii=False))
    for column in ("people_min", "people_max"):
        frame[column] = frame[column].astype("Int64")
    geometry = [
        LineString([(f["origin_lon"], f["origin_lat"]), (f["dest_lon"], f["dest_lat"])])
        for f in merged
    ]
    gdf = gpd.GeoDataFrame(frame, geometry=geometry, crs="EPSG:4326")
    with atomic_path(path) as tmp:
        gdf.to_parquet(tmp, index=False)
    return path


def _flowmap_tables(merged: list[dict[str, Any]]) -> tuple[Any, Any]:
    """flowmap.blue's ``locations`` and ``flows`` tables: one flow row per flow and day."""
    import pandas as pd

    locations: dict[str, dict[str, Any]] = {}
    rows = []
    for f in merged:
        for end in ("origin", "dest"):
            locations.setdefault(
                f[end],
                {"id": f[end], "name": f[f"{end}_name"], "lat": f[f"{end}_lat"],
                 "lon": f[f"{end}_lon"]},
            )  # fmt: skip
        tally = tally_text(f["people_figures"])
        per_day: dict[str, set[str]] = defaultdict(set)
        for s in f["sources"]:
            per_day[s["date"] or ""].add(s["story"])
        for day in sorted(per_day):
            rows.append(
                {"origin": f["origin"], "dest": f["dest"], "count": len(per_day[day]),
                 "time": day, "people_max": f["people_max"], "people_figures": tally,
                 "n_publishers": f["n_publishers"],
                 "flow_id": f["flow_id"], "origin_name": f["origin_name"],
                 "dest_name": f["dest_name"]}
            )  # fmt: skip
    table = pd.DataFrame(rows, columns=FLOW_CSV_COLUMNS).astype({"people_max": "Int64"})
    places = pd.DataFrame(
        sorted(locations.values(), key=lambda p: p["id"]), columns=["id", "name", "lat", "lon"]
    )
    return places, table
