"""Which names stand on the map, in what order of importance, and where they may go.

The page (:mod:`routes.render.reader`) places them without collisions for the
reader's screen; here each label gets its text, its kind (``place``, ``area``,
``country``, ``corridor``), candidate anchor points and, for minor places, how many
zoom levels in from the story's view it appears.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from routes.render.style import ROLE_STYLE, rounded

if TYPE_CHECKING:
    from routes.scenario import Place, Scenario

__all__ = [
    "GROUP_ZOOM",
    "STORY_AREA_RANK",
    "Label",
    "area_label",
    "corridor_label",
    "country_label",
    "place_groups",
    "place_labels",
    "story_places",
]

Label = dict[str, Any]

#: Order of drawing when labels compete for room: the first kinds win.
RANK = {"story": 0, "corridor": 1, "area": 2, "country": 3, "minor": 4}
#: An area whose outline holds one of the story's places names it: placed right after them.
STORY_AREA_RANK = 0.5

#: Zoom levels in from the fitted view at which the parts of a group ("Al-Fu'ah" and
#: "Kafriya" of "Al-Fu'ah and Kafriya") are named instead of the group.
GROUP_ZOOM = 1

#: Zoom levels in from the fitted view at which a minor place's name appears, by role.
MINOR_ZOOM = {
    "waypoint": 1,
    "border_crossing": 1,
    "camp": 1,
    "city": 2,
    "area": 2,
    "neighbourhood": 3,
}


def story_places(scenario: Scenario) -> list[Place]:
    """The places the story's movements and incidents name: where corridors start and end,
    the besieged towns, where incidents happened, and any place the title or a corridor's
    name calls by one of its names ("Aleppo", "Bab al-Hawa"). The map is fitted to them."""
    ids: dict[str, None] = {}
    for corridor in scenario.corridors:
        ids.update(dict.fromkeys([corridor.origin, corridor.destination]))
    for incident in scenario.incidents:
        ids[incident.place] = None
    ids.update(dict.fromkeys(p.id for p in scenario.places if p.role in {"origin", "enclave"}))
    ids.update(dict.fromkeys(_figure_places(scenario)))
    headings = " | ".join([scenario.story.title, *(c.name for c in scenario.corridors)])
    for place in scenario.places:
        names = [place.name, *place.aliases]
        if any(re.search(rf"(?<!\w){re.escape(n)}(?!\w)", headings, re.I) for n in names):
            ids[place.id] = None
    return [scenario.place(i) for i in ids if scenario.place(i).role in ROLE_STYLE]


def _figure_places(scenario: Scenario) -> list[str]:
    """The ends of the drafts' open movements and vehicles that carry a figure: a place
    a figure is told of is named on the map."""
    placed = {p.id for p in scenario.places}
    ends = [e for r in scenario.movements if r.figures for e in [*r.origins, *r.destinations]]
    ends += [e for r in scenario.vehicles if r.figures for e in [*r.origins, *r.destinations]]
    return [e for e in ends if e in placed]


def place_labels(scenario: Scenario, named_by_area: set[str]) -> list[Label]:
    """A label for each drawn place: the story's places first, the others as minor ones.

    Places inside an outlined area (``named_by_area``) are named by the area's label.
    """
    story = {p.id for p in story_places(scenario)}
    on_routes = {s for c in scenario.corridors for s in c.stops}
    parts = {part for group in place_groups(scenario).values() for part in group}
    groups = set(place_groups(scenario))
    labels = []
    for place in scenario.places:
        if place.role not in ROLE_STYLE or place.id in named_by_area:
            continue
        major = place.id in story
        zoom = 0 if major else MINOR_ZOOM.get(place.role, 2) + (0 if place.id in on_routes else 1)
        if place.id in parts:  # named by its group's label until the reader zooms in
            zoom = max(zoom, GROUP_ZOOM)
        labels.append(
            {
                "text": f"{place.name} (today {place.today})" if place.today else place.name,
                "kind": "place",
                "rank": RANK["story" if major else "minor"] + zoom / 10,
                "at": [[rounded(place.lat), rounded(place.lon)]],
                "r": ROLE_STYLE[place.role][1],
                "zoom": zoom,
                "layers": [f"role:{place.role}"],
                "minor": not major,
                **({"until": GROUP_ZOOM} if place.id in groups else {}),
            }
        )
    return labels


def place_groups(scenario: Scenario) -> dict[str, list[str]]:
    """Places that stand for others together, by id, with the ids of their parts: a place
    named by joining other places' names ("Al-Fu'ah and Kafriya")."""
    by_name = {n.casefold(): p.id for p in scenario.places for n in [p.name, *p.aliases]}
    found = {}
    for place in scenario.places:
        for name in [place.name, *place.aliases]:
            pieces = [n for n in re.split(r"\s*(?:,|&|\band\b)\s*", name) if n]
            ids = [by_name.get(n.casefold()) for n in pieces]
            if len(ids) >= 2 and all(ids) and place.id not in ids:
                found[place.id] = [i for i in ids if i]
                break
    return found


def corridor_label(corridor_id: str, text: str, colour: str) -> Label:
    """A corridor's label (``"to Idlib · …"``): the page sets it on the corridor's own drawn
    line, in the half nearer its destination, and changes what follows ``prefix`` by day."""
    prefix, _, _said = text.partition(" · ")
    return {
        "text": text,
        "prefix": prefix + " · ",
        "id": corridor_id,
        "kind": "corridor",
        "rank": RANK["corridor"],
        "at": [],
        "colour": colour,
        "layers": ["corridors", corridor_id],
    }


def area_label(name: str, hull: Any) -> Label:
    """An outlined area's name: the page sets it inside the area's box when it fits, else
    touching it, else joined to it by a leader line (``box``: [[S, W], [N, E]])."""
    west, south, east, north = hull.bounds
    return {
        "text": name,
        "kind": "area",
        "rank": RANK["area"],
        "at": [],
        "box": [[rounded(south), rounded(west)], [rounded(north), rounded(east)]],
        "layers": ["areas"],
    }


def country_label(name: str, shape: Any, bounds: tuple[float, float, float, float]) -> Label:
    """A country's name inside the part of it near the story (nothing if it is not near)."""
    from shapely.geometry import box

    west, south, east, north = bounds
    points = []
    for margin in (0.0, 0.3, 1.0, 2.5):
        part = shape.intersection(box(west - margin, south - margin, east + margin, north + margin))
        if not part.is_empty and part.area > 0:
            p = part.representative_point()
            points.append([rounded(p.y), rounded(p.x)])
    return {
        "text": name.upper(),
        "kind": "country",
        "rank": RANK["country"],
        "at": points,
        "layers": ["borders"],
    }
