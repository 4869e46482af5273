"""Scenario files: a story's places, corridors, incidents and areas, each fact with its source.

A scenario is YAML (see ``geodata/scenarios/aleppo-2016-12.yaml``). :func:`load`
validates it completely and reports every problem with file, record and field.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator

from routes import datasets
from routes._io import MAX_SCENARIO_BYTES, decode, read_input
from routes.errors import ScenarioError, UsageError
from routes.text import brief

__all__ = [
    "EARLIEST_DAY",
    "LATEST_DAY",
    "MAX_FIGURE",
    "MAX_LATITUDE",
    "MAX_SCENARIO_BYTES",
    "SLUG",
    "Area",
    "Corridor",
    "Day",
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
    "from_bytes",
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
    "camp",  # a refugee or displacement camp, settlement or reception centre
    "area",  # a named region that is no administrative unit: a valley, an island, a corridor
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
#: The farthest latitude a web map can show (the largest scenario file read, in bytes, is
#: :data:`routes._io.MAX_SCENARIO_BYTES`).
MAX_LATITUDE = 85.05
#: The days a date may name: a story of displacement since 1800, or a plan to 2100.
#: Further out is a typo (``9999-12-31`` for "open-ended"), and a day range reaching
#: it would be millions of days to draw.
EARLIEST_DAY, LATEST_DAY = dt.date(1800, 1, 1), dt.date(2100, 12, 31)


def _sane_day(day: dt.date) -> dt.date:
    if not EARLIEST_DAY <= day <= LATEST_DAY:
        raise ValueError(f"{day} is outside {EARLIEST_DAY}..{LATEST_DAY}; "
                         "leave end out for an open end")  # fmt: skip
    return day


#: A date in :data:`EARLIEST_DAY` .. :data:`LATEST_DAY`.
Day = Annotated[dt.date, AfterValidator(_sane_day)]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Source(_Record):
    """A publication or dataset that facts are read from."""

    id: str
    title: str
    publisher: str | None = None
    date: Day | None = None
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
    #: Its country (ISO 3166-1 alpha-2), when a curated record says so
    #: (``geodata/sites.yaml``); without it, the nearest GeoNames town's is taken.
    country: str | None = Field(default=None, pattern=r"^[A-Z]{2}$")
    #: Its name today, when ``name`` is a former one the story uses ("Leningrad" in a
    #: story of 1985: "Saint Petersburg"); the map labels it with both.
    today: str | None = None


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
    date: Day | None = None  # the day it counts (or is as of, for cumulative)
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

    date: Day
    end: Day | None = None
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
    date: Day | None = None  # the first day it ran (or was planned for); drafts may lack it
    end: Day | None = None
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
    date: Day | None = None  # drafts of undated stories may lack it
    end: Day | None = None
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
    date: Day | None = None
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
    date: Day | None = None
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
    published: Day | None = None
    date: Day | None = None
    source: str
    #: The country the story is mainly about (ISO 3166-1 alpha-2) and its first-level
    #: region there, as ``routes extract`` works them out from the places it names.
    focus_country: Annotated[str, Field(pattern="^[A-Z]{2}$")] | None = None
    focus_region: Annotated[str, Field(min_length=1, max_length=200)] | None = None

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

    def blocking(self) -> list[str]:
        """What keeps a draft from being a final map, one line each: no date, the
        ``review`` items (empty for a final scenario)."""
        undated = ["story: no date; set the story's date"] if self.story.date is None else []
        return undated + [f"review: {item}" for item in self.review]

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
    """Curated places outside any one scenario (``geodata/gazetteer.yaml``, ``sites.yaml``)."""

    sources: list[Source]
    places: list[Place]


def load(source: str | Path) -> Scenario:
    """Read and validate a scenario: a YAML file, a bundled scenario id, or ``"-"`` for stdin."""
    name = "<stdin>" if str(source) == "-" else str(_resolve(source))
    return from_bytes(_read(name if name != "<stdin>" else "-", name), name=name)


def from_bytes(data: bytes, *, name: str = "<data>") -> Scenario:
    """A scenario from a file's bytes: decoded strictly as UTF-8, parsed, validated."""
    try:
        text = decode(data, name)
    except UsageError as exc:
        raise ScenarioError(name, [str(exc).removeprefix(f"{name}: ")]) from None
    return validate(_parse_yaml(text, name), name=name)


def validate(data: Any, *, name: str = "<data>") -> Scenario:
    """A scenario from plain data (e.g. a dict built in a notebook), checked like a file.

    Every problem is found in one pass: fields (types, allowed values, ranges), references
    between records, and dates; a scenario without any is then checked to be drawable.
    """
    if not isinstance(data, dict):
        raise ScenarioError(name, ["expected a mapping with story, sources, places, corridors"])
    scenario = None
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        problems = [_describe(err, data) for err in exc.errors()]
    else:
        problems = []
    problems += _reference_problems(data) + _record_date_problems(data)
    if not problems and scenario is not None:
        problems = _degenerate_problems(scenario)
    if problems or scenario is None:
        raise ScenarioError(name, problems)
    return scenario


def schema() -> dict[str, Any]:
    """The JSON Schema of a scenario file, generated from the model."""
    return Scenario.model_json_schema()


def dump(scenario: Scenario) -> str:
    """The scenario as YAML that :func:`load` reads back unchanged (empty sections left out)."""
    data = scenario.model_dump(mode="json", exclude_defaults=True)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=100)


def load_gazetteer(name: str = "gazetteer") -> Gazetteer:
    """A curated gazetteer bundled with `routes`: ``"gazetteer"`` or ``"sites"``."""
    path = datasets.get_path(name)
    try:
        return Gazetteer.model_validate(
            _parse_yaml(decode(path.read_bytes(), str(path)), path) or {}
        )
    except ValidationError as exc:  # a packaging bug, not user input
        raise ScenarioError(path, [str(exc)]) from None


def _resolve(source: str | Path) -> Path:
    path = Path(source)
    if path.suffix in {".yaml", ".yml"} or os.path.lexists(path):
        if not path.exists():
            raise ScenarioError(path, ["no such file; pass a scenario YAML file or a bundled id"])
        return path
    try:
        return datasets.get_path(str(source))
    except ValueError as exc:
        raise ScenarioError(source, [str(exc)]) from None


def _read(source: str, name: str) -> bytes:
    try:
        return read_input(source, limit=MAX_SCENARIO_BYTES, what="scenario")
    except UsageError as exc:
        raise ScenarioError(name, [str(exc).removeprefix(f"{name}: ")]) from None
    except OSError as exc:
        raise ScenarioError(name, [f"cannot read the file ({exc.strerror or exc})"]) from None


class _UniqueKeysLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """yaml's safe loader (on libyaml, 4-5x faster, where PyYAML has it) refusing a key
    given twice in one mapping, which would silently keep the last."""

    def construct_mapping(self, node: Any, deep: bool = False) -> Any:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else id(key_node)
            if key in seen:
                raise yaml.constructor.ConstructorError(
                    None, None, f"key {brief(key)} given twice in one mapping", key_node.start_mark
                )
            seen.add(key)
        return super().construct_mapping(node, deep=deep)


def _parse_yaml(text: str, name: str | Path) -> Any:
    try:
        return yaml.load(text, Loader=_UniqueKeysLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}: " if mark else ""
        problem = brief(str(getattr(exc, "problem", exc)), 200).strip("'\"")
        raise ScenarioError(name, [f"{where}not valid YAML ({problem})"]) from None
    except (ValueError, RecursionError) as exc:  # an integer of 5,000 digits, nesting too deep
        raise ScenarioError(name, [f"not a usable YAML value ({brief(str(exc), 120)})"]) from None


def _describe(error: Any, raw: dict[str, Any]) -> str:
    """``places[3] (id: kafriya) field lat: Input should be ...`` from a pydantic error."""
    loc = list(error["loc"])
    record, fields = _split_location(loc, raw)
    what = brief(error["msg"], 200).strip("'\"")
    if error["type"] == "missing":
        what = "missing (required)"
    elif error["type"] == "extra_forbidden":
        what = "unknown field (check the spelling)"
    field = ".".join(brief(part, 40).strip("'") for part in fields) or "(record)"
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
                record = f"{record} (id: {_shown(record_id)})"
        return record, loc[2:]
    return brief(loc[0], 40).strip("'") if loc else "(file)", loc[1:]


def _shown(value: Any) -> str:
    """An id as a message shows it: a short escaped prefix, quoted only where needed."""
    text = brief(value, 60)
    return (
        text[1:-1]
        if isinstance(value, str)
        and text == repr(value)
        and value.isprintable()
        and " " not in value
        else text
    )


def _records(data: dict[str, Any], section: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """The records of a section of raw data that are mappings, with their index."""
    items = data.get(section)
    if isinstance(items, list):
        yield from ((i, r) for i, r in enumerate(items) if isinstance(r, dict))


def _reference_problems(data: dict[str, Any]) -> list[str]:
    """Duplicate ids and references to places, sources, corridors or figures that do not
    exist, read from the raw data so they are found with the fields' own problems."""
    problems: list[str] = []
    known: dict[str, set[str]] = {}
    sections = ("sources", "places", "corridors", "incidents", "areas", "movements", "vehicles")
    for section in (*sections, "unresolved"):
        ids = [r["id"] for _, r in _records(data, section) if isinstance(r.get("id"), str)]
        known[section] = set(ids)
        problems += [f"{section} id {brief(i, 60)}: used {n} times"
                     for i, n in Counter(ids).items() if n > 1]  # fmt: skip
    figure_ids = [f["id"] for _, f in _raw_figures(data) if isinstance(f.get("id"), str)]
    problems += [f"figures id {brief(i, 60)}: used {n} times"
                 for i, n in Counter(figure_ids).items() if n > 1]  # fmt: skip
    kinds = {"place": known["places"], "source": known["sources"], "corridor": known["corridors"],
             "end": known["places"] | known["unresolved"]}  # fmt: skip

    def check(
        record: str, field: str, value: Any, kind: str, among: set[Any] | None = None
    ) -> None:
        if isinstance(value, str) and value not in (kinds[kind] if among is None else among):
            problems.append(f"{record} field {field}: unknown {kind} id {brief(value, 60)}")

    def each(record: str, raw: dict[str, Any], field: str, key: str | None, kind: str) -> None:
        for j, item in enumerate(_listed(raw, field)):
            value = item.get(key) if key is not None and isinstance(item, dict) else item
            check(record, f"{field}.{j}" + (f".{key}" if key else ""), value, kind)

    story = data.get("story")
    if isinstance(story, dict):
        check("story", "source", story.get("source"), "source")
    for section, fields, lists in _REFERENCES:
        for i, raw in _records(data, section):
            record = f"{section}[{i}] (id: {_shown(raw.get('id', raw.get('text')))})"
            for field, kind in fields:
                check(record, field, raw.get(field), kind)
            for field, key, kind in lists:
                each(record, raw, field, key, kind)
            if section == "corridors":
                figures = [f.get("id") for f in _listed(raw, "figures") if isinstance(f, dict)]
                claims = {c for c in figures if isinstance(c, str)}
                check(record, "line_width", raw.get("line_width"), "figure", claims)
    return problems


#: The references of each section: (field, kind) for single values, (field, key, kind)
#: for lists (key None: the list holds the ids).
_REFERENCES: list[tuple[str, list[tuple[str, str]], list[tuple[str, str | None, str]]]] = [
    ("places", [("source", "source")], []),
    ("corridors", [("origin", "place"), ("destination", "place")],
     [("waypoints", None, "place"), ("route_sources", "source", "source"),
      ("phases", "source", "source"), ("figures", "source", "source")]),
    ("incidents", [("place", "place"), ("corridor", "corridor")],
     [("sources", "source", "source"), ("figures", "source", "source")]),
    ("toponyms", [("place", "place")], []),
    ("movements", [], [("origins", None, "end"), ("waypoints", None, "end"),
                       ("destinations", None, "end"), ("figures", "source", "source")]),
    ("vehicles", [], [("origins", None, "end"), ("destinations", None, "end"),
                      ("figures", "source", "source")]),
    ("areas", [("source", "source")], [("places", None, "place")]),
]  # fmt: skip


def _raw_figures(data: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    for section in ("corridors", "incidents", "movements", "vehicles"):
        for _, raw in _records(data, section):
            yield from ((section, f) for f in _listed(raw, "figures") if isinstance(f, dict))


def _listed(raw: dict[str, Any], field: str) -> list[Any]:
    """A list field of a raw record, or nothing when it is missing or not a list."""
    items = raw.get(field)
    return items if isinstance(items, list) else []


def _record_date_problems(data: dict[str, Any]) -> list[str]:
    """:func:`_date_problems` of each corridor and incident whose own fields are valid."""
    problems: list[str] = []
    for section, model in (("corridors", Corridor), ("incidents", Incident)):
        for i, raw in _records(data, section):
            try:
                record: Corridor | Incident = model.model_validate(raw)
            except ValidationError:
                continue  # its field problems are listed already
            dated: list[Phase | Figure] = []
            if isinstance(record, Corridor):
                dated = [*record.phases, *record.figures]
            where = f"{section}[{i}] (id: {_shown(record.id)})"
            problems += _date_problems(where, record.date, record.end, dated)
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
        places = [scenario.place(s) for s in c.stops]  # points within 0.1 m are one point
        if len({(round(p.lat, 6), round(p.lon, 6)) for p in places}) < 2:
            problems.append(f"corridors[{i}] (id: {c.id}): every stop lies at one point; "
                            "a route needs two places apart")  # fmt: skip
    return problems


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
