"""The review page's edits, applied to a draft through the scenario model.

An edit is a small JSON object (``{"op": "swap", "record": "to-nassau"}``). :func:`apply`
takes the scenario's data (:meth:`Scenario.model_dump`), changes the records the edit
names, and validates the result as a scenario file is validated
(:func:`routes.scenario.validate`): the YAML is only ever written by
:func:`routes.scenario.dump`. A record fixed by an edit takes its review items with it;
a movement whose ends are both placed becomes a corridor, as the draft's notes ask.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any, get_args

from routes import scenario as scenarios
from routes.errors import EditError, ScenarioError
from routes.scenario import Scenario, Status

__all__ = ["REVIEWER_SOURCE", "STATUSES", "EditError", "apply", "apply_all"]

Data = dict[str, Any]

#: A corridor's statuses, as the page offers them.
STATUSES: tuple[str, ...] = get_args(Status)

#: The source of a point placed by hand on the review page's map.
REVIEWER_SOURCE = {
    "id": "reviewer",
    "title": "Placed by hand on the map in routes review (the reviewer's own reading)",
}


def apply_all(scenario: Scenario, edits: list[Any], *, lookup: Callable[..., Any]) -> Scenario:
    """``scenario`` with every edit applied in order (see :func:`apply`)."""
    for edit in edits:
        scenario = apply(scenario, edit, lookup=lookup)
    return scenario


def apply(scenario: Scenario, edit: Any, *, lookup: Callable[..., Any]) -> Scenario:
    """``scenario`` with one edit applied, validated.

    ``lookup(name, ref)`` gives the gazetteer's candidate ``ref`` for ``name`` (as
    :func:`routes.places.candidates` lists it), or None: a chosen place takes its point
    and source from the gazetteer, never from the page.
    """
    if not isinstance(edit, dict) or edit.get("op") not in _OPS:
        raise EditError(f"unknown edit {str(edit)[:80]!r}; one of: {', '.join(sorted(_OPS))}")
    data = scenario.model_dump(mode="json", exclude_defaults=True)
    for section in ("corridors", "movements", "places", "review", "sources", "toponyms"):
        data.setdefault(section, [])
    _OPS[edit["op"]](data, edit, lookup)
    _promote(data)
    if data["corridors"]:
        data["review"] = [r for r in data["review"] if not r.startswith("corridors: none")]
    try:
        return scenarios.validate(data, name="the edited draft")
    except ScenarioError as exc:
        raise EditError("; ".join(exc.problems[:3])) from None


# --- the edits ---------------------------------------------------------------------------


def _choose_place(data: Data, edit: Data, lookup: Callable[..., Any]) -> None:
    """``{"op": "choose_place", "place": id, "name": query, "ref": candidate ref}``: the
    place (or an unresolved end) becomes the gazetteer's candidate."""
    found = lookup(_text(edit, "name"), _text(edit, "ref"))
    if found is None:
        raise EditError(f"no place {edit['ref']!r} is called {edit['name']!r}")
    source = found["source"]  # a source record: the gazetteer the candidate comes from
    _ensure_source(data, source)
    _set_point(
        data,
        _text(edit, "place"),
        found["name"],
        found["lat"],
        found["lon"],
        source["id"],
        found["detail"],
        found["ref"],
    )


def _place_point(data: Data, edit: Data, _lookup: Any) -> None:
    """``{"op": "place_point", "place": id, "lat": ..., "lon": ...}``: a point placed by
    hand; its source says so, and the review keeps an item to name a real one."""
    lat, lon = _number(edit, "lat", 90), _number(edit, "lon", 180)
    place_id = _text(edit, "place")
    _ensure_source(data, REVIEWER_SOURCE)
    name = _record(data, place_id, ("places", "unresolved"))["name"]
    _set_point(data, place_id, name, lat, lon, "reviewer", "placed by hand", None)
    data["review"].append(f"place {place_id}: placed by hand; name the source of its point")


def _swap(data: Data, edit: Data, _lookup: Any) -> None:
    """``{"op": "swap", "record": id}``: the movement runs the other way."""
    record = _record(data, _text(edit, "record"), ("corridors", "movements"))
    if "origin" in record:
        record["origin"], record["destination"] = record["destination"], record["origin"]
        record["waypoints"] = list(reversed(record.get("waypoints", [])))
    else:
        record["origins"], record["destinations"] = (
            record.get("destinations", []),
            record.get("origins", []),
        )


def _set_ends(data: Data, edit: Data, _lookup: Any) -> None:
    """``{"op": "set_ends", "record": id, "origin": place id, "destination": place id}``
    (either may be left out): a movement's ends from the story's places."""
    record = _record(data, _text(edit, "record"), ("corridors", "movements"))
    ends = {p["id"] for p in data["places"]} | {u["id"] for u in data.get("unresolved", [])}
    for end in ("origin", "destination"):
        if edit.get(end) is None:
            continue
        value = _text(edit, end)
        if value not in ends:
            raise EditError(f"no place {value!r} in the draft")
        if "origin" in record:
            record[end] = value
        else:
            record[f"{end}s"] = [value]


def _move_figure(data: Data, edit: Data, _lookup: Any) -> None:
    """``{"op": "move_figure", "record": id, "index": n, "to": id or null}``: a figure
    moves to another movement, or (``to`` null) is detached from the one it was read with."""
    record = _record(data, _text(edit, "record"), _WITH_FIGURES)
    figures = record.get("figures", [])
    index = edit.get("index")
    if not isinstance(index, int) or not 0 <= index < len(figures):
        raise EditError(f"{record['id']} has no figure {index!r}")
    figure = figures.pop(index)
    if figure.get("id") is not None and record.get("line_width") == figure["id"]:
        record.pop("line_width")
    if edit.get("to") is not None:
        _record(data, _text(edit, "to"), _WITH_FIGURES).setdefault("figures", []).append(figure)


def _set_record(data: Data, edit: Data, _lookup: Any) -> None:
    """``{"op": "set_record", "record": id, "date": "YYYY-MM-DD", "status": ...}``."""
    record = _record(data, _text(edit, "record"), ("corridors", "movements"))
    if "date" in edit:
        record["date"] = _day(edit["date"])
    if "status" in edit:
        if edit["status"] not in STATUSES or "origin" not in record:
            raise EditError(
                f"status {edit['status']!r}: a corridor's status is one of " + ", ".join(STATUSES)
            )
        record["status"] = edit["status"]


def _add_movement(data: Data, edit: Data, _lookup: Any) -> None:
    """``{"op": "add_movement", "origin": id, "destination": id}``: a new movement between
    two of the story's places (a corridor, as both are placed)."""
    taken = {r["id"] for s in ("corridors", "movements") for r in data[s]}
    origin, destination = _text(edit, "origin"), _text(edit, "destination")
    movement_id = _fresh(f"{origin}-to-{destination}", taken)
    data["movements"].append(
        {
            "id": movement_id,
            "name": "",
            "origins": [origin],
            "destinations": [destination],
            "date": data["story"].get("date"),
        }
    )


def _set_story(data: Data, edit: Data, _lookup: Any) -> None:
    """``{"op": "set_story", "title", "publisher", "date", "url"}`` (any of them)."""
    story = data["story"]
    source = next(s for s in data["sources"] if s["id"] == story["source"])
    for field in ("title", "publisher"):
        if field in edit:
            story[field] = source[field] = _text(edit, field)
    if "date" in edit:
        story["date"] = source["date"] = _day(edit["date"])
        story.setdefault("published", story["date"])
        _drop_items(data, "story date")
    if "url" in edit:
        source["url"] = _text(edit, "url") if edit["url"] else None
    if "publisher" in edit:
        _drop_items(data, "story publisher")


def _resolve(data: Data, edit: Data, _lookup: Any) -> None:
    """``{"op": "resolve", "item": text}``: a review item checked and done."""
    item = _text(edit, "item")
    if item not in data["review"]:
        raise EditError("that review item is not in the draft (saved from another tab?)")
    data["review"].remove(item)


def _reject(data: Data, edit: Data, _lookup: Any) -> None:
    """``{"op": "reject", "record": id}``: a movement, corridor, vehicles record or
    incident the story does not report is removed, with its review items."""
    record_id = _text(edit, "record")
    for section in ("corridors", "movements", "vehicles", "incidents"):
        kept = [r for r in data.get(section, []) if r["id"] != record_id]
        if len(kept) != len(data.get(section, [])):
            data[section] = kept
            _drop_items(data, f"{_SINGULAR[section]} {record_id}:")
            return
    raise EditError(f"no movement or incident {record_id!r} in the draft")


_OPS: dict[str, Callable[[Data, Data, Any], None]] = {
    "choose_place": _choose_place,
    "place_point": _place_point,
    "swap": _swap,
    "set_ends": _set_ends,
    "move_figure": _move_figure,
    "set_record": _set_record,
    "add_movement": _add_movement,
    "set_story": _set_story,
    "resolve": _resolve,
    "reject": _reject,
}
_WITH_FIGURES = ("corridors", "movements", "incidents", "vehicles")
_SINGULAR = {
    "corridors": "corridor",
    "movements": "movement",
    "vehicles": "vehicles",
    "incidents": "incident",
}


# --- helpers -----------------------------------------------------------------------------


def _set_point(
    data: Data,
    place_id: str,
    name: str,
    lat: float,
    lon: float,
    source: str,
    detail: str,
    ref: str | None,
) -> None:
    """Place ``place_id`` (a place, or an unresolved end that becomes one) at a point, and
    the story's mentions of it with it; its review items are done."""
    record = _record(data, place_id, ("places", "unresolved"))
    if record in data.get("unresolved", []):
        data["unresolved"].remove(record)
        _drop_items(data, f"unresolved place {record['name']!r}")
        record = {"id": place_id, "name": record["name"], "role": "city"}
        data["places"].append(record)
    record.update(lat=round(lat, 5), lon=round(lon, 5), source=source, detail=detail)
    if name != record["name"]:
        record["aliases"] = sorted({*record.get("aliases", []), record["name"]} - {name})
        record["name"] = name
    for t in data["toponyms"]:
        if t.get("place") == place_id:
            t.update(
                lat=round(lat, 5),
                lon=round(lon, 5),
                name=name,
                confidence=1.0,
                resolved=ref or "reviewer:placed by hand",
            )
            _drop_items(data, f"check {t['text']!r} (chars {t['start']}-{t['end']})")


def _promote(data: Data) -> None:
    """Movements whose ends are both placed become corridors (routed and drawn)."""
    placed = {p["id"]: p for p in data["places"]}
    taken = {r["id"] for r in data["corridors"]}
    story = data["story"]
    for movement in list(data["movements"]):
        origins = [o for o in movement.get("origins", []) if o in placed]
        targets = [d for d in movement.get("destinations", []) if d in placed]
        if not origins or not targets or origins[0] == targets[0]:
            continue
        a, b = placed[origins[0]], placed[targets[0]]
        corridor_id = _fresh(f"{a['id']}-to-{b['id']}", taken)
        data["movements"].remove(movement)
        _drop_items(data, f"movement {movement['id']}:")
        data["corridors"].append(
            {
                "id": corridor_id,
                "name": f"{a['name']} to {b['name']}",
                "origin": a["id"],
                "waypoints": [w for w in movement.get("waypoints", []) if w in placed],
                "destination": b["id"],
                "date": movement.get("date") or story.get("date"),
                "who": movement.get("who"),
                "route_sources": [
                    {"source": story["source"], "detail": "ends set in routes review"}
                ],
                "figures": movement.get("figures", []),
                "evidence": movement.get("evidence", []),
            }
        )


def _record(data: Data, record_id: str, sections: tuple[str, ...]) -> Data:
    for section in sections:
        for record in data.get(section, []):
            if record.get("id") == record_id:
                return record
    raise EditError(f"no record {record_id!r} in the draft's {' or '.join(sections)}")


def _drop_items(data: Data, prefix: str) -> None:
    data["review"] = [r for r in data["review"] if not r.startswith(prefix)]


def _ensure_source(data: Data, source: Data) -> None:
    if not any(s["id"] == source["id"] for s in data["sources"]):
        data["sources"].append(dict(source))


def _text(edit: Data, key: str) -> str:
    value = edit.get(key)
    if not isinstance(value, str) or not value.strip() or len(value) > 1000:
        raise EditError(f"{key}: expected a text of 1 to 1,000 characters")
    return value.strip()


def _number(edit: Data, key: str, bound: float) -> float:
    value = edit.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float) or abs(value) > bound:
        raise EditError(f"{key}: expected a number from -{bound} to {bound}")
    return float(value)


def _day(value: Any) -> str | None:
    if value in (None, ""):
        return None
    try:
        return dt.date.fromisoformat(str(value)).isoformat()
    except ValueError:
        raise EditError(f"date: expected YYYY-MM-DD, not {str(value)[:40]!r}") from None


def _id(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40] or "source"


def _fresh(base: str, taken: set[str]) -> str:
    name, n = base, 2
    while name in taken:
        name, n = f"{base}-{n}", n + 1
    taken.add(name)
    return name
