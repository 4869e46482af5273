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
FigureKind = Literal["people", "wounded", "buses", "ambulances", "killed", "injured"]

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
    """A count the reporting gives, and on whose word."""

    kind: FigureKind
    value: int = Field(ge=0, le=MAX_FIGURE)
    qualifier: Literal["about", "more than", "at least", "at most", "up to"] | None = None
    according_to: str
    source: str
    detail: str | None = None
    evidence: Span | None = None  # the words it was read from (drafts)

    def text(self) -> str:
        """The figure as a reader would say it: ``"about 3,000 people"``."""
        return " ".join(filter(None, [self.qualifier, f"{self.value:,}", self.kind]))


class SourceRef(_Record):
    source: str
    detail: str | None = None


class Corridor(_Record):
    """People moved from an origin, through documented waypoints in order, to a destination."""

    id: str
    name: str
    origin: str
    waypoints: list[str] = []
    destination: str
    date: dt.date
    who: str | None = None
    status: str = "reported"
    note: str | None = None
    route_sources: list[SourceRef] = Field(min_length=1)
    figures: list[Figure] = []
    evidence: list[Span] = []  # the sentences that propose it (drafts)

    @property
    def stops(self) -> list[str]:
        """Place ids in travel order."""
        return [self.origin, *self.waypoints, self.destination]

    def figure(self, kind: str) -> Figure | None:
        """The figure of this kind, if the reporting gives one."""
        return next((f for f in self.figures if f.kind == kind), None)


class Incident(_Record):
    id: str
    name: str
    date: dt.date
    place: str
    location_note: str | None = None
    corridor: str | None = None
    description: str
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
    """A movement the story reports without stating where it starts or ends: not routed (drafts)."""

    id: str
    name: str
    origins: list[str] = []
    destinations: list[str] = []
    date: dt.date | None = None
    who: str | None = None
    note: str | None = None
    evidence: list[Span] = []
    figures: list[Figure] = []


class Area(_Record):
    """A zone outlined from the places that define it."""

    id: str
    name: str
    places: list[str] = Field(min_length=3)
    method: str
    source: str


class Story(_Record):
    id: str
    title: str
    publisher: str
    published: dt.date
    date: dt.date
    source: str

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
    review: list[str] = []  # drafts: what a person should check

    def place(self, place_id: str) -> Place:
        return self._places_by_id()[place_id]

    def corridor(self, corridor_id: str) -> Corridor:
        return next(c for c in self.corridors if c.id == corridor_id)

    def source(self, source_id: str) -> Source:
        return {s.id: s for s in self.sources}[source_id]

    def _places_by_id(self) -> dict[str, Place]:
        return {p.id: p for p in self.places}

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


def _parse_yaml(text: str, name: str | Path) -> Any:
    try:
        return yaml.safe_load(text)
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
    for section in ("sources", "places", "corridors", "incidents", "areas", "movements"):
        counts = Counter(record.id for record in getattr(scenario, section))
        problems += [f"{section} id {i!r}: used {n} times" for i, n in counts.items() if n > 1]

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
        for j, f in enumerate(c.figures):
            check(record, f"figures.{j}.source", f.source, sources, "source")
    for i, inc in enumerate(scenario.incidents):
        record = f"incidents[{i}] (id: {inc.id})"
        check(record, "place", inc.place, places, "place")
        check(record, "corridor", inc.corridor, corridors, "corridor")
        for j, f in enumerate(inc.figures):
            check(record, f"figures.{j}.source", f.source, sources, "source")
    for i, t in enumerate(scenario.toponyms):
        check(f"toponyms[{i}] ({t.text})", "place", t.place, places, "place")
    for i, mv in enumerate(scenario.movements):
        record = f"movements[{i}] (id: {mv.id})"
        for j, place_id in enumerate([*mv.origins, *mv.destinations]):
            check(record, f"origins/destinations.{j}", place_id, places, "place")
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
    if not scenario.corridors:
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
