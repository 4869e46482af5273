"""Scenario files: a story's places, corridors, incidents and areas, each fact with its source.

A scenario is YAML (see ``geodata/scenarios/aleppo-2016-12.yaml``). :func:`load`
validates it completely and reports every problem with file, record and field.
"""

from __future__ import annotations

import datetime as dt
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from routes import datasets
from routes.errors import ScenarioError

__all__ = [
    "MAX_FIGURE",
    "MAX_LATITUDE",
    "MAX_SCENARIO_BYTES",
    "SLUG",
    "Area",
    "Corridor",
    "Figure",
    "FigureKind",
    "Gazetteer",
    "Incident",
    "Movement",
    "Phase",
    "Place",
    "Qualifier",
    "Role",
    "RouteBasis",
    "Scenario",
    "Source",
    "SourceRef",
    "Span",
    "Status",
    "Story",
    "Tally",
    "Toponym",
    "Unresolved",
    "Vehicles",
    "dump",
    "load",
    "load_gazetteer",
    "schema",
    "validate",
]

Role = Literal[
    "origin",
    "destination",
    "enclave",
    "waypoint",
    "border_crossing",
    "city",
    "neighbourhood",
    "country",
]
#: What a figure counts (its unit).
FigureKind = Literal[
    "people",
    "wounded",
    "injured",
    "killed",
    "fighters",
    "patients",
    "buses",
    "ambulances",
    "vehicles",
    "convoys",
]
#: How a figure is hedged in the reporting.
Qualifier = Literal["about", "nearly", "more than", "at least", "at most", "up to"]
#: What a figure totals: one happening, one day, everything so far (as of its date), or a plan.
Tally = Literal["event", "day", "cumulative", "planned"]
#: Where a corridor stands on a day.
Status = Literal["reported", "planned", "under way", "suspended", "resumed", "completed"]
#: What a corridor's route rests on: a seen track, reports of where it went, or what was announced.
RouteBasis = Literal["observed", "reported", "reported plan"]

#: Ids that become file names (``story.id``): letters, digits, ``-``, ``_``, ``.``; no ``/``.
SLUG = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
#: Largest count a figure may give: more people than live on Earth is a typo.
MAX_FIGURE = 10**10
#: Largest scenario file read, in bytes, and the farthest latitude a web map can show.
MAX_SCENARIO_BYTES = 32 * 2**20
MAX_LATITUDE = 85.05


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(_Record):
    """A publication or dataset that facts are read from."""

    id: str
    title: str
    publisher: str | None = None
    date: dt.date | None = None
    url: str | None = None


class Place(_Record):
    """A named location with a sourced coordinate (WGS84)."""

    id: str
    name: str
    aliases: list[str] = []
    role: Role
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    source: str
    detail: str | None = None


class Span(_Record):
    """Where a drafted record was read in the story: character offsets, end exclusive."""

    start: int = Field(ge=0, le=MAX_FIGURE)
    end: int = Field(ge=0, le=MAX_FIGURE)


class Figure(_Record):
    """A claim: a count, on whose word, in which report.

    Claims about the same quantity (same ``kind`` and ``tally``) from different
    sources stand side by side; nothing merges or averages them.
    """

    id: str | None = None
    kind: FigureKind
    value: int = Field(ge=0, le=MAX_FIGURE)
    qualifier: Qualifier | None = None
    tally: Tally = "event"
    date: dt.date | None = None  # the day it counts (or is as of, for cumulative)
    according_to: str  # who said it, as the report names them
    by: str | None = None  # the organisation behind the claim (ICRC, SOHR…), for series
    source: str
    paragraph: int | None = Field(default=None, ge=1)  # the story's line, when read there
    detail: str | None = None
    evidence: Span | None = None  # the words it was read from (drafts)

    def text(self) -> str:
        """The figure as a reader would say it: ``"about 3,000 people"``."""
        return " ".join(filter(None, [self.qualifier, f"{self.value:,}", self.kind]))


class SourceRef(_Record):
    """Where a record was read: a source id, and the story line or detail."""

    source: str
    paragraph: int | None = Field(default=None, ge=1)
    detail: str | None = None


class Phase(_Record):
    """A corridor's status from a date (to ``end``, if given), on a source's word."""

    date: dt.date
    end: dt.date | None = None
    status: Status
    source: str
    paragraph: int | None = Field(default=None, ge=1)
    detail: str | None = None


class Corridor(_Record):
    """People moved from an origin, through documented waypoints in order, to a destination."""

    id: str
    name: str
    origin: str
    waypoints: list[str] = []
    destination: str
    date: dt.date | None = None  # the first day it ran (or was planned for); drafts may lack it
    end: dt.date | None = None
    who: str | None = None
    status: Status = "reported"
    route_basis: RouteBasis = "reported"
    note: str | None = None
    route_sources: list[SourceRef] = Field(min_length=1)
    phases: list[Phase] = []
    figures: list[Figure] = []
    line_width: str | None = None  # the id of the figure the map sizes the line by
    evidence: list[Span] = []  # the sentences that propose it (drafts)

    @property
    def stops(self) -> list[str]:
        """Place ids in travel order."""
        return [self.origin, *self.waypoints, self.destination]

    def figure(self, kind: str) -> Figure | None:
        """The figure of this kind, if the reporting gives one."""
        return next((f for f in self.figures if f.kind == kind), None)

    def status_on(self, day: dt.date) -> Status:
        """The status of the latest phase begun by ``day`` (``status`` without phases)."""
        begun = [p for p in self.phases if p.date <= day]
        return max(begun, key=lambda p: p.date).status if begun else self.status

    def width_claim(self) -> Figure | None:
        """The claim named by ``line_width``."""
        return next((f for f in self.figures if f.id == self.line_width), None)

    def width_on(self, day: dt.date) -> Figure | None:
        """The line-width claim's series on ``day``: the same source's latest cumulative claim.

        A corridor's line grows with the chosen source's totals; before that
        source's first total the line has no width claim.
        """
        chosen = self.width_claim()
        if chosen is None or chosen.tally != "cumulative":
            return chosen
        series = [
            f
            for f in reversed(self.figures)
            if f.tally == "cumulative"
            and f.kind == chosen.kind
            and (f.by or f.according_to) == (chosen.by or chosen.according_to)
            and f.date is not None
            and f.date <= day
        ]
        # the latest day wins; on one day, the named claim, else the last listed
        return max(series, key=lambda f: (f.date or day, f is chosen), default=None)


class Incident(_Record):
    """Something that happened on a day (an attack, a suspension), at a place, on record."""

    id: str
    name: str
    date: dt.date | None = None  # drafts of undated stories may lack it
    end: dt.date | None = None
    place: str
    location_note: str | None = None
    corridor: str | None = None
    description: str
    sources: list[SourceRef] = []
    figures: list[Figure] = []
    evidence: list[Span] = []  # the sentences that report it (drafts)


class Toponym(_Record):
    """A place mention in the story's text and what it resolved to (drafts)."""

    start: int = Field(ge=0)
    end: int = Field(ge=0)
    text: str
    resolved: str  # "curated:<place id>" or "geonames:<GeoNames id>"
    name: str
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    feature: str
    country: str | None = None
    geonames_id: int | None = None
    confidence: float = Field(ge=0, le=1)
    place: str | None = None  # the id in places, when the map shows it


class Movement(_Record):
    """A movement the story reports without stating where it starts or ends: not routed (drafts).

    Its ends are place ids, or ids in ``unresolved`` for names no gazetteer has.
    """

    id: str
    name: str
    origins: list[str] = []
    waypoints: list[str] = []
    destinations: list[str] = []
    date: dt.date | None = None
    who: str | None = None
    note: str | None = None
    evidence: list[Span] = []
    figures: list[Figure] = []


class Vehicles(_Record):
    """Vehicles that moved no one (drafts): empty ones going in to fetch people, or aid.

    Kept for the review and the map's key, never routed as a corridor: "buses were sent to
    Sumy" is the buses' way in; the people's way out of Sumy runs the other way.
    """

    id: str
    name: str
    what: Literal["empty", "aid"]
    origins: list[str] = []
    destinations: list[str] = []
    date: dt.date | None = None
    note: str | None = None
    evidence: list[Span] = []
    figures: list[Figure] = []


class Unresolved(_Record):
    """A place the story names that no gazetteer has (a camp, a crossing, a hamlet): drafts.

    It stays named, never placed at a namesake: a person adds it to ``places`` from a source.
    """

    id: str
    name: str
    evidence: list[Span] = []
    note: str | None = None


class Area(_Record):
    """A zone outlined from the places that define it."""

    id: str
    name: str
    places: list[str] = Field(min_length=3)
    method: str
    source: str


class Story(_Record):
    """The story a scenario maps; an undated draft has no ``date`` (never today's)."""

    id: str
    title: str
    publisher: str
    published: dt.date | None = None
    date: dt.date | None = None
    source: str

    def day(self) -> str:
        """The story's date as text, or says it is not given."""
        return self.date.isoformat() if self.date else "not given"

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        """The id names output files: no path separators, no ``..``, no absolute paths."""
        if not SLUG.fullmatch(value):
            raise ValueError(
                f"{value[:60]!r} is not a slug: use 1 to 100 letters, digits, '-', '_' or '.', "
                "starting with a letter or digit (it names the output files)"
            )
        return value


class Scenario(_Record):
    """Everything one story says about who moved, where, when and on whose word."""

    story: Story
    sources: list[Source] = Field(min_length=1)
    places: list[Place] = Field(min_length=1)
    corridors: list[Corridor] = []
    incidents: list[Incident] = []
    areas: list[Area] = []
    toponyms: list[Toponym] = []  # drafts: every place mention in the story
    movements: list[Movement] = []  # drafts: movements with an end not stated
    vehicles: list[Vehicles] = []  # drafts: empty vehicles going in, aid convoys
    unresolved: list[Unresolved] = []  # drafts: named ends no gazetteer has
    review: list[str] = []  # drafts: what a person should check

    @property
    def is_draft(self) -> bool:
        """Undated, or with review items left: ``routes map`` needs ``--draft`` for it."""
        return self.story.date is None or bool(self.review)

    def place(self, place_id: str) -> Place:
        return self._places_by_id()[place_id]

    def corridor(self, corridor_id: str) -> Corridor:
        return next(c for c in self.corridors if c.id == corridor_id)

    def source(self, source_id: str) -> Source:
        return {s.id: s for s in self.sources}[source_id]

    def _places_by_id(self) -> dict[str, Place]:
        return {p.id: p for p in self.places}

    def dates(self) -> list[dt.date]:
        """Every day a corridor, phase, claim or incident is dated on, sorted."""
        days: set[dt.date] = set()
        for c in self.corridors:
            days |= {*([c.date] if c.date else []), *(p.date for p in c.phases)}
            days |= {f.date for f in c.figures if f.date is not None}
        for i in self.incidents:
            days |= {*([i.date] if i.date else []), *(f.date for f in i.figures if f.date)}
        return sorted(days)

    def bounds(self) -> tuple[float, float, float, float]:
        """``(west, south, east, north)`` of the places, countries left out."""
        points = [(p.lon, p.lat) for p in self.places if p.role != "country"]
        lons, lats = zip(*points, strict=True)
        return min(lons), min(lats), max(lons), max(lats)


class Gazetteer(_Record):
    """Curated places outside any one scenario (``geodata/gazetteer.yaml``)."""

    sources: list[Source]
    places: list[Place]


def load(source: str | Path) -> Scenario:
    """Read and validate a scenario: a YAML file, a bundled scenario id, or ``"-"`` for stdin."""
    if str(source) == "-":
        text = sys.stdin.read(MAX_SCENARIO_BYTES + 1)
        if len(text) > MAX_SCENARIO_BYTES:
            raise ScenarioError("<stdin>", [f"larger than {MAX_SCENARIO_BYTES // 2**20} MB"])
        return validate(_parse_yaml(text, "<stdin>"), name="<stdin>")
    path = _resolve(source)
    return validate(_read_yaml(path), name=str(path))


def validate(data: Any, *, name: str = "<data>") -> Scenario:
    """A scenario from plain data (e.g. a dict built in a notebook), checked like a file."""
    if not isinstance(data, dict):
        raise ScenarioError(name, ["expected a mapping with story, sources, places, corridors"])
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        raise ScenarioError(name, [_describe(err, data) for err in exc.errors()]) from None
    problems = _reference_problems(scenario) or _degenerate_problems(scenario)
    if problems:
        raise ScenarioError(name, problems)
    return scenario


def schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file, generated from the model."""
    return Scenario.model_json_schema()


def dump(scenario: Scenario) -> str:
    """The scenario as YAML that :func:`load` reads back unchanged (empty sections left out)."""
    data = scenario.model_dump(mode="json", exclude_defaults=True)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def load_gazetteer() -> Gazetteer:
    """The curated gazetteer bundled with `routes`."""
    path = datasets.get_path("gazetteer")
    try:
        return Gazetteer.model_validate(_read_yaml(path) or {})
    except ValidationError as exc:  # a packaging bug, not user input
        raise ScenarioError(path, [str(exc)]) from None


def _resolve(source: str | Path) -> Path:
    path = Path(source)
    if path.suffix in {".yaml", ".yml"} or path.exists():
        if not path.is_file():
            raise ScenarioError(path, ["no such file; pass a scenario YAML file or a bundled id"])
        return path
    try:
        return datasets.get_path(str(source))
    except ValueError as exc:
        raise ScenarioError(source, [str(exc)]) from None


def _read_yaml(path: Path) -> Any:
    try:
        if path.stat().st_size > MAX_SCENARIO_BYTES:
            raise ScenarioError(path, [f"larger than {MAX_SCENARIO_BYTES // 2**20} MB; "
                                       "a scenario is a few kilobytes of YAML"])  # fmt: skip
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(path, [f"cannot read the file ({exc})"]) from None
    return _parse_yaml(text, path)


#: yaml's safe loader, on libyaml (C) where PyYAML was built with it: 4-5x faster.
_SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _parse_yaml(text: str, name: str | Path) -> Any:
    try:
        return yaml.load(text, Loader=_SAFE_LOADER)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark else ""
        problem = getattr(exc, "problem", exc)
        raise ScenarioError(name, [f"{where}not valid YAML ({problem})"]) from None


def _describe(error: Any, raw: dict[str, Any]) -> str:
    """``places[3] (id: kafriya) field lat: Input should be ...`` from a pydantic error."""
    loc = list(error["loc"])
    record, fields = _split_location(loc, raw)
    what = error["msg"]
    if error["type"] == "missing":
        what = "missing (required)"
    elif error["type"] == "extra_forbidden":
        what = "unknown field (check the spelling)"
    field = ".".join(str(part) for part in fields) or "(record)"
    return f"{record} field {field}: {what}"


def _split_location(loc: list[Any], raw: dict[str, Any]) -> tuple[str, list[Any]]:
    """Split a pydantic location into the record (``corridors[1] (id: x)``) and its field."""
    if len(loc) >= 2 and isinstance(loc[1], int):
        section, index = loc[0], loc[1]
        record = f"{section}[{index}]"
        items = raw.get(section)
        if isinstance(items, list) and index < len(items) and isinstance(items[index], dict):
            record_id = items[index].get("id")
            if record_id is not None:
                record = f"{record} (id: {record_id})"
        return record, loc[2:]
    return str(loc[0]) if loc else "(file)", loc[1:]


def _reference_problems(scenario: Scenario) -> list[str]:
    """Duplicate ids and references to places, sources or corridors that do not exist."""
    problems: list[str] = []
    places = {p.id for p in scenario.places}
    sources = {s.id for s in scenario.sources}
    corridors = {c.id for c in scenario.corridors}
    ends = places | {u.id for u in scenario.unresolved}
    sections = ("sources", "places", "corridors", "incidents", "areas", "movements", "vehicles")
    for section in (*sections, "unresolved"):
        counts = Counter(record.id for record in getattr(scenario, section))
        problems += [f"{section} id {i!r}: used {n} times" for i, n in counts.items() if n > 1]
    counts = Counter(f.id for f in _all_figures(scenario) if f.id is not None)
    problems += [f"figures id {i!r}: used {n} times" for i, n in counts.items() if n > 1]

    def check(record: str, field: str, value: str | None, known: set[str], kind: str) -> None:
        if value is not None and value not in known:
            problems.append(f"{record} field {field}: unknown {kind} id {value!r}")

    check("story", "source", scenario.story.source, sources, "source")
    for i, p in enumerate(scenario.places):
        check(f"places[{i}] (id: {p.id})", "source", p.source, sources, "source")
    for i, c in enumerate(scenario.corridors):
        record = f"corridors[{i}] (id: {c.id})"
        check(record, "origin", c.origin, places, "place")
        check(record, "destination", c.destination, places, "place")
        for j, w in enumerate(c.waypoints):
            check(record, f"waypoints.{j}", w, places, "place")
        for j, r in enumerate(c.route_sources):
            check(record, f"route_sources.{j}.source", r.source, sources, "source")
        for j, ph in enumerate(c.phases):
            check(record, f"phases.{j}.source", ph.source, sources, "source")
        for j, f in enumerate(c.figures):
            check(record, f"figures.{j}.source", f.source, sources, "source")
        claims = {f.id for f in c.figures if f.id is not None}
        check(record, "line_width", c.line_width, claims, "figure")
        problems += _date_problems(record, c.date, c.end, [*c.phases, *c.figures])
    for i, inc in enumerate(scenario.incidents):
        record = f"incidents[{i}] (id: {inc.id})"
        check(record, "place", inc.place, places, "place")
        check(record, "corridor", inc.corridor, corridors, "corridor")
        for j, r in enumerate(inc.sources):
            check(record, f"sources.{j}.source", r.source, sources, "source")
        for j, f in enumerate(inc.figures):
            check(record, f"figures.{j}.source", f.source, sources, "source")
        problems += _date_problems(record, inc.date, inc.end, [])
    for i, t in enumerate(scenario.toponyms):
        check(f"toponyms[{i}] ({t.text})", "place", t.place, places, "place")
    moves: list[Movement | Vehicles] = [*scenario.movements, *scenario.vehicles]
    for mv in moves:
        record = f"{'vehicles' if isinstance(mv, Vehicles) else 'movements'} (id: {mv.id})"
        stops = [*mv.origins, *getattr(mv, "waypoints", []), *mv.destinations]
        for j, place_id in enumerate(stops):
            check(record, f"origins/waypoints/destinations.{j}", place_id, ends, "place")
        for j, f in enumerate(mv.figures):
            check(record, f"figures.{j}.source", f.source, sources, "source")
    for i, a in enumerate(scenario.areas):
        record = f"areas[{i}] (id: {a.id})"
        check(record, "source", a.source, sources, "source")
        for j, place_id in enumerate(a.places):
            check(record, f"places.{j}", place_id, places, "place")
    return problems


def _degenerate_problems(scenario: Scenario) -> list[str]:
    """Scenarios that validate but cannot be routed or drawn: nothing to route, no map extent."""
    problems: list[str] = []
    if not scenario.corridors and not scenario.is_draft:
        problems.append("corridors: none; add at least one corridor (origin, destination, "
                        "date, route_sources) to route and map")  # fmt: skip
    if all(p.role == "country" for p in scenario.places):
        problems.append("places: every place is a country; add the towns the story names")
    for i, p in enumerate(scenario.places):
        if abs(p.lat) > MAX_LATITUDE:
            problems.append(f"places[{i}] (id: {p.id}) field lat: {p.lat} is beyond "
                            f"±{MAX_LATITUDE}°, which a web map cannot show")  # fmt: skip
    for i, c in enumerate(scenario.corridors):
        points = {(scenario.place(s).lat, scenario.place(s).lon) for s in c.stops}
        if len(points) < 2:
            problems.append(f"corridors[{i}] (id: {c.id}): every stop lies at one point; "
                            "a route needs two places apart")  # fmt: skip
    return problems


def _all_figures(scenario: Scenario) -> list[Figure]:
    records: list[Corridor | Incident | Movement | Vehicles] = [
        *scenario.corridors,
        *scenario.incidents,
        *scenario.movements,
        *scenario.vehicles,
    ]
    return [f for r in records for f in r.figures]


def _date_problems(
    record: str, start: dt.date | None, end: dt.date | None, dated: list[Phase | Figure]
) -> list[str]:
    """An end before the start, or a phase or claim dated outside the record's days."""
    if start is None:
        return []
    if end is not None and end < start:
        return [f"{record} field end: {end} is before date {start}"]
    problems = []
    for item in dated:
        kind = "phases" if isinstance(item, Phase) else "figures"
        day = item.date
        if day is not None and (day < start or (end is not None and day > end)):
            span = f"{start}..{end}" if end else f"on or after {start}"
            problems.append(f"{record} field {kind}: {day} is outside the record's dates ({span})")
    return problems
