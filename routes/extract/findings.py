"""The data types of extraction: the text's sentences and tokens, and what it finds in them.

This module imports nothing of :mod:`routes.extract`, so every step can import it.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from routes.places.index import IndexCandidate as Candidate

__all__ = [
    "BUILDING",
    "Attribution",
    "Candidate",
    "Claim",
    "DateMention",
    "Extraction",
    "FigureMention",
    "IncidentDraft",
    "MovementDraft",
    "Rejection",
    "Sentence",
    "Token",
    "Toponym",
    "Unresolved",
    "VehicleDraft",
    "named_places",
]

#: The kind and feature of a building the story names in a town it told of, placed at the
#: town's point (``Movements._building``)
BUILDING = "building"

_CONTRACTION = re.compile(r"[A-Za-z]+['’](?:ll|re|ve|d|m|t|s)|[A-Za-z]+n['’]t")
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")


# --- The text -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sentence:
    """A sentence of the story: character offsets, end exclusive; ``index`` counts from 1."""

    index: int
    start: int
    end: int


@dataclass(frozen=True)
class Token:
    """A word of the story, with its offsets, its sentence and whether it stands in quotes."""

    text: str
    start: int
    end: int
    sentence: int  # position of the sentence in the list (0-based)
    quoted: bool

    @property
    def lower(self) -> str:
        return self.text.lower()

    @property
    def is_word(self) -> bool:
        return self.text[0].isalpha() or self.text[0] in "'’"

    @property
    def is_namey(self) -> bool:
        c = self.text[0]
        if "'" in self.text or "’" in self.text:
            if c in "dl" and self.text[1:2] in {"'", "’"} and self.text[2:3].isupper():
                return True  # "d'Ivoire", "l'Aquila": an elided article before a name
            if _CONTRACTION.fullmatch(self.text) and not self.text.endswith(("'s", "’s")):
                return False  # "I'll", "We're", "Don't": never "Ill." (Illinois)
        return c.isupper() or bool(_ARABIC.match(c))

    @property
    def is_arabic(self) -> bool:
        return bool(_ARABIC.match(self.text[0]))


# --- What extraction finds -----------------------------------------------------------------


@dataclass(frozen=True)
class Toponym:
    """A place mention: where it is in the text, what it resolved to, and how sure we are."""

    start: int
    end: int
    text: str
    place: Candidate
    confidence: float
    sentence: int  # 1-based
    why: str  # the evidence, for review
    #: "literal", "adjective" (a demonym), "embedded" (in a longer name) or "street"
    type: str = "literal"
    #: Another place of the name, far from it and ranked close behind (the review names it)
    runner_up: Candidate | None = None

    def as_dict(self, *, jsonl: bool = False) -> dict[str, Any]:
        """The toponym as a row: a draft's ``toponyms`` entry (text, what it resolved to),
        or with ``jsonl`` a line of ``routes extract --jsonl`` (surface and mention type)."""
        c = self.place
        where = {
            "lat": round(c.lat, 5),
            "lon": round(c.lon, 5),
            "geonames_id": c.geonames_id,
            "feature": c.feature,
            "country": c.country,
            "confidence": self.confidence,
        }
        if jsonl:
            return {
                "start": self.start,
                "end": self.end,
                "surface": self.text,
                "type": self.type,
                **where,
            }
        return {
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "resolved": c.ref,
            "name": c.name,
            **where,
        }


@dataclass(frozen=True)
class Rejection:
    """A name that looks like a place but is not one here, and why."""

    start: int
    end: int
    text: str
    reason: str


class Attribution(NamedTuple):
    """Whom the story credits a figure to, and where in the text it says so."""

    who: str
    start: int
    end: int


@dataclass(frozen=True)
class FigureMention:
    """A count in the text: kind, value, the words it came from and whom the story credits."""

    kind: str
    value: int
    qualifier: str | None
    start: int
    end: int
    sentence: int
    according_to: str | None


@dataclass(frozen=True)
class DateMention:
    """A date expression resolved against the story's date."""

    start: int
    end: int
    text: str
    date: dt.date
    sentence: int


@dataclass
class MovementDraft:
    """People moved from origins to destinations, with the sentences that say so."""

    origins: list[str]  # candidate refs, or "unresolved:<key>" for a name no gazetteer has
    destinations: list[str]
    sentences: list[int] = field(default_factory=list)  # 1-based
    via: list[str] = field(default_factory=list)  # stops on the way, in order
    figures: list[FigureMention] = field(default_factory=list)
    date: dt.date | None = None
    date_note: str | None = None
    who: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    according_to: list[str] = field(default_factory=list)
    #: Its other legs, (origin, destination), when a sentence lists places for its ends ("the
    #: towns of A and B"): one movement whose end is a list (the movements set's
    #: guidelines), drafted as its first leg
    also: list[tuple[str, str]] = field(default_factory=list)
    #: "reported" (it happened or is happening) or "planned" ("will be taken", "plan to")
    status: str = "reported"
    #: The year its sentence puts it in, when that is said ("fled to Syria in 2006")
    year: int | None = None
    #: Its sentence counts everyone ("in all", "a total of"): its figure is no leg's
    total: bool = False
    #: Where its origin came from when its sentence does not say: "home", "track", "scene"
    origin_from: str = ""
    #: Told by a definite noun of movement ("the flight from Kabul"): one told before
    again: bool = False

    @property
    def complete(self) -> bool:
        return bool(self.origins and self.destinations)

    @property
    def listed(self) -> list[str]:
        """The places of its other legs (:attr:`also`) that its own ends are not."""
        ends = {*self.origins, *self.destinations}
        return list(dict.fromkeys(r for pair in self.also for r in pair if r not in ends))

    @property
    def places(self) -> list[str]:
        """Every place it names: its ends, the ways it passes and its other legs' places."""
        return [*self.origins, *self.via, *self.destinations, *self.listed]


@dataclass
class VehicleDraft:
    """Vehicles that moved no one: empty buses going in to fetch people, or an aid convoy."""

    what: str  # "empty" (going in to fetch people) or "aid"
    origins: list[str]
    destinations: list[str]
    sentences: list[int]  # 1-based
    figures: list[FigureMention] = field(default_factory=list)

    @property
    def places(self) -> list[str]:
        """Every place it names: where it left and where it went."""
        return [*self.origins, *self.destinations]


def named_places(movements: list[MovementDraft], vehicles: list[VehicleDraft]) -> list[str]:
    """Every place the movements and the vehicles name, in order."""
    return [r for m in movements for r in m.places] + [r for v in vehicles for r in v.places]


@dataclass(frozen=True)
class Unresolved:
    """A place the story names as a movement's end that no gazetteer has (a camp, a hamlet)."""

    ref: str  # "unresolved:<normalized name>"
    name: str
    start: int
    end: int
    sentence: int  # 1-based


@dataclass
class Claim:
    """One clause's movement, as the grammar reads it: ends by role, who moves, what may fill in.

    ``mover`` is "people", "vehicles" (that say nothing of carrying anyone), "aid" or "" (no
    one named). ``inbound``: vehicles sent toward the people they are to fetch. ``continues``:
    the clause's missing origin may be the story's main origin (not for returns, not without
    people). ``chained``: its origin is where the clause before it ended ("and then into Iraq").
    ``stated``: its origins are its own words' ("from X"), not a stand-in ("Venezuelans").
    """

    sentence: int  # 0-based
    origins: list[str]
    destinations: list[str]
    via: list[str] = field(default_factory=list)
    mover: str = ""
    inbound: bool = False
    continues: bool = True
    chained: bool = False
    stated: bool = True  # its origins come from its own words, not a stand-in
    parts: list[str] = field(default_factory=list)  # origins named as a part ("southern Mexico")
    group: bool = False  # its origin is the country of its people ("Venezuelans crossed")


@dataclass
class IncidentDraft:
    sentence: int
    trigger: str
    figures: list[FigureMention]
    place: str | None  # candidate ref; None: not stated
    date: dt.date | None
    sentences: list[int]
    on_movement: bool


@dataclass
class Extraction:
    """Everything :func:`extract` finds in one text."""

    text: str
    story_date: dt.date | None
    publisher: str | None
    sentences: list[Sentence]
    toponyms: list[Toponym]
    rejected: list[Rejection]
    figures: list[FigureMention]
    dates: list[DateMention]
    movements: list[MovementDraft]
    incidents: list[IncidentDraft]
    focus_country: str | None
    review: list[str]
    main_origin: str | None = None
    focus_centre: tuple[float, float] | None = None
    #: Adjectives ("Russian") and places inside longer names ("Ohio Supreme Court"): for
    #: review and scoring, never for movements.
    typed: list[Toponym] = field(default_factory=list)
    #: The full date in the text ``story_date`` was taken from, when none was given.
    dated_by: DateMention | None = None
    #: Vehicles that moved no one (empty ones going in, aid convoys): never corridors.
    vehicles: list[VehicleDraft] = field(default_factory=list)
    #: Movement ends no gazetteer has, by ref: kept named, never placed.
    unresolved: dict[str, Unresolved] = field(default_factory=dict)

    def all_toponyms(self) -> list[Toponym]:
        """Literal and typed toponyms together, in text order, each mention once (a people's
        name that gave a movement its origin is in both)."""
        once = {(t.start, t.end): t for t in [*self.typed, *self.toponyms]}
        return sorted(once.values(), key=lambda t: t.start)

    def places(self) -> dict[str, Candidate]:
        """Resolved places by ref, in order of first mention."""
        out: dict[str, Candidate] = {}
        for t in self.toponyms:
            out.setdefault(t.place.ref, t.place)
        return out

    def mentions(self, ref: str) -> list[Toponym]:
        return [t for t in self.toponyms if t.place.ref == ref]
