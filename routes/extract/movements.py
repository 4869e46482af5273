"""Movements: the story's frames, followed across sentences, joined into what a draft maps.

The sentences that can hold a movement (a word of movement) are parsed
(:mod:`routes.extract.parse`); each word of movement becomes a frame with its roles
(:mod:`routes.extract.frames`); frames' movers are followed across sentences and their
missing origins filled from their own track (:mod:`routes.extract.movers`). Then:

- a leg of people is a movement; legs with the same ends are one movement told again, and a
  leg with only its origin joins the one movement from there (unless its figure is a total);
  one that did not happen ("could not cross") is no movement;
- vehicles that say they carry people, or leave a place, moved people; vehicles sent toward
  a place went in empty (the people they fetch move out of it) and goods are aid: both are
  kept apart as vehicles, never corridors;
- a figure belongs to the frame whose mover it counts; casualties never count as moved;
- an end no gazetteer has stays named and open (``unresolved``), never a far namesake.
"""

from __future__ import annotations

import bisect
import dataclasses
import re

from routes.distance import great_circle_km
from routes.extract.findings import (
    BUILDING,
    Attribution,
    Candidate,
    DateMention,
    FigureMention,
    MovementDraft,
    Sentence,
    Toponym,
    Unresolved,
    VehicleDraft,
    named_places,
)
from routes.extract.frames import End, Frame, frames
from routes.extract.lexicon import BUILDINGS, ORG_HEADS, PRONOUNS
from routes.extract.movers import Leg, Tracker
from routes.extract.parse import Parsed, parse
from routes.extract.people import common_words, first_names
from routes.extract.phrases import PEOPLE_PRONOUNS
from routes.extract.senses import (
    MOVEMENT_NOUNS,
    NON_MOVERS,
    PASSENGER_VEHICLES,
    PEOPLE_NOUNS,
    PLACE_NOUNS,
    VEHICLE_NOUNS,
    VERBS,
    lemma,
)
from routes.extract.text import Document, unique
from routes.places import contains, normalize

__all__ = ["SAME_PLACE_KM", "Movements"]

#: Ends closer than this are one place: a leg between them is no movement, km.
SAME_PLACE_KM = 10.0
#: As close to a curated site as this, an end is the site itself, km.
SITE_KM = 1.0
#: Curated roles of sites beside towns (``geodata/sites.yaml``), not towns.
SITES = frozenset({"camp", "area", "border_crossing", "neighbourhood", "waypoint"})
#: A toponym less sure than this, outside the story's countries, is no movement's end: its
#: name is kept unresolved instead of sending the movement to a far namesake.
WEAK_END = 0.35
#: What a draft says of an origin its sentence left out, by where the reader took it from.
ORIGIN_NOTES = {
    "track": "where the same people were last said to be",
    "scene": "the place the story tells people leaving",
    "previous": "where the previous leg ended",
    "home": "where the story says the people are from",
    "refuge": "where the story last told people reaching, for a return",
    "cause": "where its sentence says what drove people out happened",
}
#: "neighbouring", which the parser reads as a verb, and an adjective of its length it reads
#: as one (:meth:`Movements._sentence_case`)
_NEIGHBOURING = re.compile(r"\b[Nn]eighbou?ring\b")
_ADJECTIVES = {11: "continental", 12: "northeastern"}


def _as_adjective(m: re.Match[str]) -> str:
    word = _ADJECTIVES[len(m[0])]
    return word.capitalize() if m[0][0].isupper() else word


#: The word a country's capital is named by, where the map marks it ("the Thai capital")
_CAPITAL = re.compile(r"\b[Cc]apital\b")
#: A word of a name, for the head of a building's name (:meth:`Movements._building_in`).
_WORD = re.compile(r"[A-Za-z]+")
#: The ref of a name no gazetteer has: this and its normalised name.
UNRESOLVED = "unresolved:"
#: Words that make a figure a total of everyone, not one movement's count.
TOTAL = re.compile(r"\b(?:in all|in total|a total of|altogether|overall|so far|to date)\b", re.I)
_TOWN = "populated place"  # a GeoNames town's feature
#: What an anaphor of place may stand for, by its word: the features it accepts.
_ANAPHORS = {
    "city": {"city", _TOWN, "curated"}, "town": {"city", _TOWN, "curated"},
    "village": {"city", _TOWN, "curated"}, "country": {"country"},
    "region": {"admin1", "admin2", "area"}, "province": {"admin1"}, "state": {"admin1"},
    "district": {"admin2", "area"}, "camp": {"camp"}, "capital": {"city", _TOWN},
    "area": {"area", "admin2", "city", _TOWN}, "island": {"area", "admin1", "island"},
}  # fmt: skip
_WORDS = frozenset({*VERBS, *MOVEMENT_NOUNS})
#: Words that can be an end or a mover where no place is named: "there", "home", "the city",
#: "residents", "they".
_HOLDERS = frozenset(
    {*PEOPLE_NOUNS, *PLACE_NOUNS, *VEHICLE_NOUNS, *PEOPLE_PRONOUNS, "there", "here", "home"}
)
#: What lies between the places of a list: "A, B and C".
_LISTED = re.compile(r"\s*(?:,|,?\s*and|,?\s*or)\s*")
#: A dateline leading a sentence: a town in capitals, its country or date, the agency, a dash
_DATELINE_LEAD = re.compile(
    r"\s*(?:[A-Z][A-Z .'’-]{2,}(?:,[^()\n—–_]{1,40}?)?\s*)?(?:\([A-Za-z .]{1,25}\)\s*)?"
    r"(?:--|[—–_-])\s+"
    r"|\s*[A-Z][\w .'’]{1,30}[—–-]\([A-Za-z .]{1,25}\)[—–-]"  # "Somaliland-(Berberanews)-"
)
#: What follows a dateline's place: ", Country", "(Agency)", a dash.
_DATELINE = re.compile(r"(?:,\s*[A-Z][\w .'-]{1,30})?\s*(?:\([A-Za-z .]{1,25}\)\s*)?[—–-]")


class Movements(Document):
    """Step 3: movements read from each sentence's structure and followed across the story."""

    def movements(
        self,
        toponyms: list[Toponym],
        figures: list[FigureMention],
        dates: list[DateMention],
        attributions: dict[int, Attribution | None],
        focus: str | None = None,
        typed: list[Toponym] | None = None,
    ) -> tuple[list[MovementDraft], str | None, list[VehicleDraft], dict[str, Unresolved]]:
        """Movements, the origin most told of, vehicles that moved no one, unresolved ends."""
        typed = typed or []
        self.buildings: list[Toponym] = []  # placed at the town told of (:meth:`_building`)
        self.capitals: list[Toponym] = []  # "the Thai capital" (:meth:`_capital`)
        self._toponyms = {t.start: t for t in toponyms}
        self._ends = {
            t.start for t in toponyms if self._sure_end(t, focus) and t.start not in self.far_only
        }
        self._unresolved: dict[str, Unresolved] = {}
        placed = [self._toponyms[a] for a in self._ends if a in self._toponyms]
        self._end_refs = {t.place.ref for t in placed}
        #: A place the story names, by its words as written and its name ("Iligan City")
        self._named = {normalize(w): t.place.ref for t in placed for w in (t.text, t.place.name)}
        self._order = sorted(toponyms, key=lambda t: t.start)
        self._starts = [t.start for t in self._order]
        self._token_at = {t.start: k for k, t in enumerate(self.toks)}
        self._dateline = self._dateline_place()
        self._focus_ref = next(
            (
                t.place.ref
                for t in toponyms
                if t.place.feature == "country" and t.place.country == focus
            ),
            None,
        )
        self._credit = attributions
        #: Places inside longer names ("the Cebu City Sports Center"), by start
        self._embedded = sorted(
            (t.start, t.place.ref)
            for t in typed
            if t.type == "embedded" and self._sure_end(t, focus)
        )
        # a people's name ("Syrians") makes a sentence worth parsing, never an origin: the
        # nationality of those who moved, not where they left (issue 34)
        self._peoples = {
            t.start: t.place.ref
            for t in typed
            if t.type == "adjective" and t.place.feature == "country"
        }
        #: Places and peoples' names, as written: a headline keeps their capitals
        self._names = [(t.start, t.end) for t in [*toponyms, *typed]]
        spans = sorted({t.start: t.end for t in toponyms}.items())
        read = [f for p in self._parsed() for f in frames(p, _within(spans, p))]
        places = {t.place.ref: t.place for t in [*toponyms, *typed]}
        self._places = places  # and the buildings placed while the legs are read

        def nested(a: str, b: str) -> bool:
            if a not in places or b not in places or BUILDING in {places[a].kind, places[b].kind}:
                return False  # a building is a place of its own in its town
            return _holds(places[a], places[b])

        legs = Tracker(self._refs, nested, self._towns).legs(read)
        people, vehicles = self._sort(legs, figures)
        movements = _join(people, places)
        for m in movements:
            self._finish(m, dates, attributions)
        origins = [m.origins[0] for m in movements if m.origins and m.destinations]
        main = max(unique(origins), key=origins.count) if origins else None
        used = set(named_places(movements, vehicles))
        kept = {r: u for r, u in self._unresolved.items() if r in used}
        self.review += [
            f"unresolved {u.name!r} (chars {u.start}-{u.end}): {self.far_only[u.start]}: no "
            "movement is drawn there"
            for u in kept.values()
            if u.start in self.far_only
        ]
        return movements, main, vehicles, kept

    def _towns(self, sentence: int) -> list[str]:
        """The towns a sentence (0-based) names that can be ends."""
        return unique(
            t.place.ref
            for t in self._order
            if t.sentence - 1 == sentence
            and t.place.feature in {"city", _TOWN}
            and t.place.ref in self._end_refs
        )

    # -- parsing the sentences that can hold a movement

    def _parsed(self) -> list[Parsed]:
        """The sentences that can hold a movement, parsed: a word of movement, and a place
        (a toponym, a people's name, a word of place) or a group of people."""
        starts = [s.start for s in self.sents]
        placed = {bisect.bisect_right(starts, t) - 1 for t in [*self._starts, *self._peoples]}

        def can_move(si: int, r: range) -> bool:
            words = [self.toks[k].text for k in r if self.toks[k].is_word]
            return any(lemma(w) in _WORDS for w in words) and (
                si in placed
                or any(lemma(w) in _HOLDERS or w[:1].isdigit() for w in words)  # "2,000 fled"
            )

        which = [si for si, r in enumerate(self.sentence_tokens) if can_move(si, r)]
        return parse(self.text, self._past_datelines(), which, self._sentence_case(which))

    def _past_datelines(self) -> list[Sentence]:
        """The sentences, each from past its dateline ("KHARKIV, Ukraine (AP) —", "(CNN) --"):
        the parser learnt from sentences without one, and reads the rest wrongly after it."""
        out = []
        for s in self.sents:
            m = _DATELINE_LEAD.match(self.text, s.start, s.end)
            out.append(dataclasses.replace(s, start=m.end()) if m else s)
        return out

    def _sentence_case(self, which: list[int]) -> str:
        """The story as the parser reads it best: its headlines' words in lower case but for
        places and a line's first word ("Thousands flee Kirkuk as forces advance"), since the
        parser learnt from sentences, not from title case; and "neighbouring", which it
        reads as a clause's verb ("fled to neighbouring Chad" with Chad its object), as an
        adjective of the same length. Each word keeps its length, so offsets hold."""
        text = list(_NEIGHBOURING.sub(_as_adjective, self.text))
        for si in (si for si in which if self.headlines[si]):
            for k in self.sentence_tokens[si][1:]:
                tok = self.toks[k]
                low = tok.text.lower()
                inside = any(a <= tok.start < b for a, b in self._names)
                if tok.is_word and not inside and len(low) == len(tok.text):
                    text[tok.start : tok.end] = low
        return "".join(text)

    # -- ends

    def _sure_end(self, t: Toponym, focus: str | None) -> bool:
        """Sure enough to end a movement: a likely reading, or a place in the story's focus
        or in a country another of its names names (San-Pédro names Côte d'Ivoire only for
        itself: "the San Pedro camp" in a story of Mozambique is not there)."""
        if t.confidence >= WEAK_END or t.place.country == focus:
            return True
        return bool(self.countries.get(t.place.country or "", set()) - {normalize(t.text)})

    def _refs(self, end: End, frame: Frame) -> list[str]:
        """The refs an end stands for: its toponym's place, a name kept unresolved, or the
        place an anaphor ("there", "the city") refers back to."""
        if end.kind == "toponym":
            t = self._toponyms[end.start]
            if t.place.feature == "continent":
                return []  # "to make their way to Europe": no point to draw a line to
            if end.start in self._ends or t.place.ref in self._end_refs:
                return [t.place.ref]  # (a weak mention of a place the story names as one)
            return [self._unresolved_ref(t.text, t.start, t.end, t.sentence - 1)]
        if end.word == "here" and self._dateline is not None:
            return [self._dateline]
        if end.word == "inward":  # "pouring in from X": to where the dateline says it is
            return [self._dateline] if self._dateline is not None else []
        if end.kind == "capital":
            return self._capital(end, frame)
        if end.kind == "name":
            if end.start in self._peoples:
                return []  # "the shattered Kyrgyz city": a people's, no place's name
            if normalize(end.word) in self._named:  # the headline's "Iligan", named again
                return [self._named[normalize(end.word)]]
            if (town := self._building_in(end)) is not None:
                return [town]
            if (building := self._building(end, frame)) is not None:
                return [building]
            if not self._a_place_name(end):
                return []
            return [self._unresolved_ref(end.word, end.start, end.end, frame.sentence)]
        return self._antecedent(end, frame)

    def _capital(self, end: End, frame: Frame) -> list[str]:
        """A country's capital its words name ("Thailand's capital", "the Chadian capital"):
        that country's capital town, named as the story names it; with no country among its
        words, the place they name ("North Darfur capital": North Darfur)."""
        inside = [
            t for t in self._order if end.start <= t.start < end.end and t.start in self._ends
        ]
        peoples = [r for a, r in self._peoples.items() if end.start <= a < end.end]
        countries = [t.place.country for t in inside if t.place.feature == "country"]
        countries += [self._places[r].country for r in peoples if r in self._places]
        town = self.x.capital(countries[0]) if countries and countries[0] else None
        if town is None:
            return [t.place.ref for t in inside if t.place.feature != "country"][:1]
        self._places.setdefault(town.ref, town)
        word = _CAPITAL.search(self.text, end.start, end.end)
        at = (word.start(), word.end()) if word else (end.start, end.end)
        if all(t.start != at[0] for t in self.capitals):
            why = f"the capital of the country named with it ({end.word}): {town.name}"
            self.capitals.append(Toponym(*at, self.text[at[0] : at[1]], town, 0.8,
                                         frame.sentence + 1, why))  # fmt: skip
        return [town.ref]

    def _building_in(self, end: End) -> str | None:
        """The town a building's name holds ("the Cebu City Sports Center", "Kiryandongo
        Reception Centre", "Airport Islamabad"): where people taken there went."""
        words = _WORD.findall(self.text, end.start, end.end)
        after = _WORD.match(self.text, end.end + 1)  # the name's head: "… Sports Center"
        heads = [*words[:1], *words[-1:], *([after[0]] if after else [])]
        if not any(w.lower() in BUILDINGS for w in heads):
            return None
        return next(
            (r for a, r in self._embedded if end.start <= a < end.end),
            None,
        )

    def _building(self, end: End, frame: Frame) -> str | None:
        """A building named with no town in its name ("the Central Mosque", "the U.N. base")
        is in the town told of just before it: a place of its own, named as the story names
        it, at that town's point (a move to it from the town is a move within the town)."""
        words = _WORD.findall(self.text, end.start, end.end)
        after = _WORD.match(self.text, end.end + 1)
        inside = BUILDINGS - {"airport"}  # an airport the index lacks may be far from any town
        if after is not None and after[0].lower() in inside:
            stop = after.end()  # "the U.N. base": the name and its head
        elif words and words[-1].lower() in inside:
            stop = end.end  # "the Central Mosque"
        else:
            return None
        town = self._town_before(end.start, frame)
        if town is None:
            return None
        name = self.text[end.start : stop]
        ref = f"{BUILDING}:{normalize(name)}"
        if ref not in self._places:
            place = dataclasses.replace(
                town.place, ref=ref, name=name, feature=BUILDING, kind=BUILDING, primary=False,
                population=0, geonames_id=None, source=town.place.ref, capital="", former=None,
            )  # fmt: skip
            why = f"a building the story names in {town.place.name}: placed at the town's point"
            self.buildings.append(Toponym(end.start, stop, name, place, 0.5, frame.sentence + 1,
                                          why, BUILDING))  # fmt: skip
            self._places[ref] = place
        return ref

    def _town_before(self, start: int, frame: Frame) -> Toponym | None:
        """The last town named before ``start`` in its sentence and the three before, but
        the one the frame says people left ("from X to the Y hospital": Y is elsewhere)."""
        first = self.sents[max(0, frame.sentence - 3)].start
        left = {r for e in frame.origins if e.kind != "name" for r in self._refs(e, frame)}
        for k in range(bisect.bisect_left(self._starts, start) - 1, -1, -1):
            t = self._order[k]
            if t.start < first:
                return None
            if t.start in self._ends and t.place.feature in {"city", _TOWN}:
                return None if t.place.ref in left else t
        return None

    def _dateline_place(self) -> str | None:
        """The place of the story's dateline ("KHARKIV, Ukraine (AP) —"): where "here" is."""
        for t in self._order[:3]:
            line_start = self.text.rfind("\n", 0, t.start) + 1
            after = self.text[t.end : t.end + 40]
            if not self.text[line_start : t.start].strip() and _DATELINE.match(after):
                return t.place.ref if t.start in self._ends else None
        return None

    def _a_place_name(self, end: End) -> bool:
        """A name no gazetteer has is an end unless it names a person or an organisation."""
        name = end.word
        words = name.split()
        if not words or words[-1].lower() in ORG_HEADS or name.lower() in PRONOUNS:
            return False
        if end.marked:  # "the Tal Maltha camp": a place, whatever its words are otherwise
            return True
        if end.bare:
            return False  # "fled the Taliban": a group fled, no place no gazetteer has
        if len(words) == 1 and (
            name.lower() in PEOPLE_NOUNS | VEHICLE_NOUNS or name.lower() in common_words()
        ):
            return False  # "People", "Community": capitalised, not named as places
        if normalize(words[-1]) in self.persons or normalize(words[0]) in self.persons:
            return False
        if words[0].lower() in first_names():  # "Katrina evacuees", "Charles Clark": no place
            return False
        return not any(r.start <= end.start < r.end for r in self.rejected)

    def _unresolved_ref(self, name: str, start: int, end: int, sentence: int) -> str:
        ref = f"{UNRESOLVED}{normalize(name)}"
        self._unresolved.setdefault(ref, Unresolved(ref, name, start, end, sentence + 1))
        return ref

    def _antecedent(self, end: End, frame: Frame) -> list[str]:
        """The place an anaphor refers back to: the last place named before it in the
        sentences just before (of the kind its word names), else the only place of that kind
        the story named before it ("the island", seven sentences after Ambae)."""
        if end.word in {"own country", "home"}:  # "Syrians who fled their country": Syria
            m = frame.mover
            spans = [m.span] if m is not None else []
            # "Mozambicans went home": to Mozambique
            return [r for a, r in self._peoples.items() for x, y in spans if x <= a < y][:1]
        if end.word == "side":  # "crossed to the Senegalese side": the name right before it
            return [
                r
                for a, r in self._peoples.items()
                if a < end.start and _WORD.fullmatch(self.text[a : end.start].strip())
            ]
        accepted = _ANAPHORS.get(end.word)
        back = 0 if end.word == "where" else 3  # "to X, from where": X, in the same sentence
        first = self.sents[max(0, frame.sentence - back)].start
        found: list[str] = []
        last = end.start
        for k in range(bisect.bisect_left(self._starts, end.start) - 1, -1, -1):
            t = self._order[k]
            if t.start < first:
                break
            if t.start not in self._ends or any(t.start == e.start for e in frame.origins):
                continue  # not the place they left: "families from X fled to the city"
            curated = t.place.kind == "curated" and t.place.feature != "country"
            feature = "curated" if curated else t.place.feature  # not "Turkey" for "the town"
            if (accepted is None and t.place.feature != "country") or (
                accepted is not None and (feature in accepted or t.place.feature in accepted)
            ):
                if found and not _LISTED.fullmatch(self.text[t.end : last]):
                    found = []  # "those two cities": two named in one list
                if t.place.ref not in found:
                    found.append(t.place.ref)
                    last = t.start
                if len(found) == end.many:
                    return found[::-1]
        if end.word == "country" and self._focus_ref is not None:
            return [self._focus_ref]
        if accepted is not None and end.word != "country":  # "left the island": the only
            before = self._order[: bisect.bisect_left(self._starts, end.start)]  # one named
            earlier = {t.place.ref for t in before
                       if t.start in self._ends and t.place.feature in accepted}  # fmt: skip
            return sorted(earlier) if len(earlier) == 1 else []
        return []

    # -- people and vehicles

    def _sort(
        self, legs: list[Leg], figures: list[FigureMention]
    ) -> tuple[list[MovementDraft], list[VehicleDraft]]:
        """Legs of people as movements (one per leg, figures attached); vehicles apart."""
        people: list[MovementDraft] = []
        vehicles: list[VehicleDraft] = []
        self._counted: set[tuple[int, int]] = set()  # a figure belongs to one movement
        self._group_counts: dict[int, list[FigureMention]] = {}  # a group's first count
        left = {r for leg in legs for r in leg.origins}  # places people (or vehicles) leave
        for leg in legs:
            f, m = leg.frame, leg.frame.mover
            if f.status == "not made":
                continue
            kind = m.kind if m is not None else ("people" if f.kind == "noun" else "")
            if (
                not kind
                and leg.origins
                and leg.destinations
                and f.kind != "stay"
                and (m is None or m.lemma not in NON_MOVERS)  # "the dentist", not "the talks"
            ):
                kind = "people"  # stated from X to Y, by someone the parse did not make out
            if kind == "military" and f.lemma not in {"flee", "escape"} and not f.passive:
                continue
            if kind == "vehicles":
                kind = self._vehicles(leg, left, vehicles, figures)
            if kind == "aid":
                vehicles.append(VehicleDraft("aid", leg.origins, leg.destinations,
                                             [f.sentence + 1], []))  # fmt: skip
                continue
            if kind not in {"people", "military"}:
                continue
            if len(leg.origins) > 1 and leg.destinations:  # "from Foua and Kefraya to X":
                for origin in leg.origins:  # a corridor from each town named
                    people.append(self._draft(dataclasses.replace(leg, origins=[origin]), figures))
            else:
                people.append(self._draft(leg, figures))
        return people, vehicles

    def _vehicles(
        self, leg: Leg, left: set[str], out: list[VehicleDraft], figures: list[FigureMention]
    ) -> str:
        """What a vehicles leg moved: people ("people"), nothing (kept, ""), or goods ("aid").

        Vehicles carried people when the phrase says so, or when they leave a place (cars,
        buses, boats leaving X); goods when it says aid; vehicles sent in to fetch people,
        or going to where people are leaving, went in empty. Arriving with nothing said,
        buses brought people and trucks goods."""
        f, m = leg.frame, leg.frame.mover
        assert m is not None
        if m.aid:
            out.append(VehicleDraft("aid", leg.origins, leg.destinations, [f.sentence + 1],
                                    self._counts(f, figures, False)))  # fmt: skip
            return ""
        passenger = m.lemma in PASSENGER_VEHICLES or m.group in PASSENGER_VEHICLES
        if m.carried or (leg.origins and not f.fetches):
            return "people"
        inbound = (
            bool(f.fetches)
            or f.lemma in {"send", "dispatch", "enter"}
            or bool(set(leg.destinations) & left)
        )
        if not inbound and passenger and f.lemma in {"arrive", "reach", "land", "dock"}:
            return "people"
        what = "empty" if inbound or passenger else "aid"
        out.append(VehicleDraft(what, leg.origins, leg.destinations, [f.sentence + 1],
                                self._counts(f, figures, False)))  # fmt: skip
        return ""

    def _draft(self, leg: Leg, figures: list[FigureMention]) -> MovementDraft:
        f = leg.frame
        # a list of places for an end is one movement, drafted to its first placed leg
        origins, destinations = _placed_first(leg.origins), _placed_first(leg.destinations)
        move = MovementDraft(origins[:1], destinations[:1], [f.sentence + 1], leg.via)
        pairs = [(o, d) for o in origins for d in destinations]
        move.also = pairs[1:]
        if not leg.destinations:
            move.origins = leg.origins
        elif not leg.origins:
            move.destinations = leg.destinations
        move.figures = self._counts(f, figures, True)
        if f.means is not None:  # "with a convoy of 20 buses and 13 ambulances"
            a, b = f.means
            carried = [x for x in figures if a <= x.start and x.end <= b
                       and x.kind not in {"people", "killed", "injured", "wounded", "households"}
                       and (x.start, x.end) not in self._counted]  # fmt: skip
            self._counted |= {(x.start, x.end) for x in carried}
            move.figures += carried
        move.origin_from = leg.origin_from
        move.again = (f.kind == "noun" and f.definite) or (  # "the flight from Kabul landed"
            f.mover is not None and f.mover.definite and f.mover.lemma in MOVEMENT_NOUNS
        )
        party = leg.party
        if party is not None and f.kind != "return":  # a group's count goes on with its journey
            if move.figures:
                self._group_counts.setdefault(party.id, move.figures)
            elif leg.origin_from == "track":
                move.figures = list(self._group_counts.get(party.id, []))
        if f.mover is not None and not f.mover.pronoun:
            move.who = [" ".join(f.mover.text.split())]
        move.status = "planned" if f.status == "planned" else "reported"
        if leg.origin_from:
            said = ORIGIN_NOTES[leg.origin_from]
            move.notes.append(f"origin: {said} (sentence {leg.origin_sentence + 1})")
        if f.kind == "return":
            move.notes.append("a return")
        move.year = f.year
        sentence = self.sents[f.sentence]
        move.total = bool(TOTAL.search(self.text, sentence.start, sentence.end))
        return move

    def _counts(self, f: Frame, figures: list[FigureMention], people: bool) -> list[FigureMention]:
        """The figures of the frame's mover not yet given to another movement."""
        found = [
            x for x in self._stated(f, figures, people) if (x.start, x.end) not in self._counted
        ]
        self._counted |= {(x.start, x.end) for x in found}
        return found

    def _stated(self, f: Frame, figures: list[FigureMention], people: bool) -> list[FigureMention]:
        """The figures the frame's mover phrase states: its people (the count on the phrase,
        whatever its noun: "1,100 foreign students", "300 nurses"), or the others (buses)."""
        m = f.mover
        if m is None:
            return []
        a, b = m.span
        inside = [x for x in figures if a <= x.start and x.end <= b]
        if not people:
            return [x for x in inside if x.kind not in {"people", "killed", "injured"}]
        if m.kind == "vehicles" and m.carried:  # "Twenty buses carrying 1,500 people"
            return [x for x in inside if x.kind == "people"]
        if m.count is None or m.kind != "people":
            return []
        stated = [
            x for x in inside
            if any(x.start <= c < x.end or c <= x.start < d for c, d in [m.count, *m.others])
        ]  # fmt: skip
        if stated or any(x.kind in {"killed", "injured"} for x in inside):
            return [x for x in stated if x.kind in {"people", "households", "wounded"}]
        k = self._token_at.get(m.count[0])
        number = self._number(k) if k is not None else None  # type: ignore[attr-defined]
        if number is None:
            return []
        value, last = number
        who = self._credit.get(f.sentence)
        return [FigureMention("people", value, None, m.count[0], self.toks[last].end,
                              f.sentence + 1, who.who if who else None)]  # fmt: skip

    # -- a movement's date, who and source

    def _finish(
        self,
        move: MovementDraft,
        dates: list[DateMention],
        attributions: dict[int, Attribution | None],
    ) -> None:
        move.sentences = sorted(set(move.sentences))
        stated = [d for d in dates if d.sentence in move.sentences]
        if stated:
            move.date = stated[0].date
            move.date_note = f"{stated[0].text!r}, sentence {stated[0].sentence}"
        else:
            move.date = self.story_date
            move.date_note = "not stated: the story's date"
        move.notes = unique(move.notes)
        for si in move.sentences:
            a = attributions.get(si - 1)
            if a is not None and a.who not in move.according_to:
                move.according_to.append(a.who)


def _join(moves: list[MovementDraft], places: dict[str, Candidate]) -> list[MovementDraft]:
    """Movements told again joined: same ends; an origin-only one into the one movement from
    its origin (not a total); a country's leg into a town's of the same flight."""
    complete: dict[tuple[str, str, int | None], MovementDraft] = {}
    open_moves: list[MovementDraft] = []
    for m in moves:
        m.origins = [o for o in m.origins if o]
        m.destinations = [d for d in m.destinations if d]
        if m.origins and m.destinations:
            if not _a_movement(m.origins[0], m.destinations[0], places):
                m.destinations = []
            else:
                key = (m.origins[0], m.destinations[0], m.year)
                if key in complete:
                    _absorb(complete[key], m)
                else:
                    complete[key] = m
                continue
        open_moves.append(m)
    legs = _one_scale(list(complete.values()), places)
    remaining: list[MovementDraft] = []
    for m in open_moves:
        if m.origins:  # the movement from its origin, or from a part of that town
            same = [c for c in legs if _same_or_part(c.origins[0], m.origins[0], places)]
        else:
            same = [c for c in legs if c.destinations == m.destinations]
        if len(same) > 1:  # the mapped one: "most to Idlib, others may go to Turkey"
            same = [c for c in same if not _country(c.destinations[0], places)] or same
        if len(same) == 1 and not (m.total and m.figures):
            _absorb(same[0], m)
            continue
        twin = next((r for r in remaining if r.origins == m.origins
                     and r.destinations == m.destinations), None)  # fmt: skip
        if twin is not None:
            _absorb(twin, m)
        else:
            remaining.append(m)
    return [*legs, *remaining]


def _placed_first(refs: list[str]) -> list[str]:
    """Places with a point before names no gazetteer has ("for Makli and Karachi")."""
    return sorted(refs, key=lambda r: r.startswith(UNRESOLVED))


def _within(spans: list[tuple[int, int]], parsed: Parsed) -> dict[int, int]:
    """The spans (sorted by start) that start inside a parsed sentence."""
    first, last = parsed.start(0), parsed.end(len(parsed.doc) - 1)
    lo = bisect.bisect_left(spans, (first, -1))
    hi = bisect.bisect_left(spans, (last, -1))
    return dict(spans[lo:hi])


def _same_or_part(part: str, whole: str, places: dict[str, Candidate]) -> bool:
    """``part`` is ``whole`` or lies in it as a part of a town ("eastern Aleppo" of the
    "evacuation of Aleppo" told again)."""
    if part == whole:
        return True
    return (
        part in places
        and whole in places
        and places[whole].feature in {"city", "town"}
        and (_holds(places[whole], places[part]))
    )


def _country(ref: str, places: dict[str, Candidate]) -> bool:
    return ref in places and places[ref].feature == "country"


def _absorb(into: MovementDraft, other: MovementDraft) -> None:
    into.sentences += other.sentences
    into.figures += [f for f in other.figures if f not in into.figures]
    into.via = unique([*into.via, *other.via])
    into.notes += other.notes
    into.also += [p for p in other.also if p not in into.also]
    if other.status == "reported":
        into.status = "reported"


def _contains(area: Candidate, place: Candidate) -> bool:
    """``place`` lies in the country or first-level region ``area``."""
    return area.feature in {"country", "admin1"} and contains(area, place)


def _holds(area: Candidate, place: Candidate) -> bool:
    """``place`` lies in ``area``: a country's or region's, or a part of a town ("eastern
    Aleppo" of Aleppo: another kind of place within the town's reach)."""
    if _contains(area, place) or (area.feature == "admin2" and contains(area, place)):
        return True
    return (
        area.feature in {"city", "town"}
        and place.feature not in {area.feature, "country", "admin1"}
        and great_circle_km(area.lat, area.lon, place.lat, place.lon) <= SAME_PLACE_KM
    )


def _a_movement(a: str, b: str, places: dict[str, Candidate]) -> bool:
    """A leg between two places apart (any distance across a border), neither a country
    holding the other ("from Antakya to Turkey" is no movement): a region holding the
    other end is a movement all the same (containment is not identity: "from the Swat
    valley to Mingora")."""
    if a == b:
        return False
    pa, pb = places.get(a), places.get(b)
    if pa is None or pb is None or BUILDING in {pa.kind, pb.kind}:
        return True  # a building and its town, or two buildings: a move within the town
    if any(
        outer.feature == "country" and contains(outer, inner)
        for outer, inner in ((pa, pb), (pb, pa))
    ):
        return False
    if contains(pa, pb) or contains(pb, pa):
        return True
    apart = SITE_KM if _site(pa) or _site(pb) else SAME_PLACE_KM
    if pa.country and pb.country and pa.country != pb.country:
        apart = 0.0  # twin towns across a border: "from Piedras Negras into Eagle Pass"
    return great_circle_km(pa.lat, pa.lon, pb.lat, pb.lon) > apart


def _site(place: Candidate) -> bool:
    return place.kind == "curated" and place.feature in SITES


def _one_scale(corridors: list[MovementDraft], places: dict[str, Candidate]) -> list[MovementDraft]:
    """A leg to (or from) a country joins the leg between the same end and a town in it."""
    kept: list[MovementDraft] = []
    for c in corridors:
        finer = next(
            (f for f in corridors if f is not c and _finer(f, c, places) and _retold(f, c, places)),
            None,
        )
        if finer is None:
            kept.append(c)
        else:
            _absorb(finer, c)
    return kept


def _retold(fine: MovementDraft, coarse: MovementDraft, places: dict[str, Candidate]) -> bool:
    """The coarse movement is the fine one told again: in the same sentence, from where
    its people are from ("Ethiopians"), by no one (a headline: "Caravan heads from X to
    Y"), or between places of the same names (a region and its town); not a part of a flow
    told apart ("many came from X province")."""
    names = [
        {places[r].name for r in (m.origins[0], m.destinations[0]) if r in places}
        for m in (fine, coarse)
    ]
    return (
        bool(set(fine.sentences) & set(coarse.sentences))
        or fine.again
        or coarse.origin_from == "home"
        or not coarse.who
        or names[0] == names[1]
    )


def _finer(fine: MovementDraft, coarse: MovementDraft, places: dict[str, Candidate]) -> bool:
    def within(x: str, y: str) -> bool:
        return x == y or (x in places and y in places and _contains(places[y], places[x]))

    origin, end = fine.origins[0], fine.destinations[0]
    region = origin in places and places[origin].feature in {"admin1", "admin2", "area"}
    town = end == coarse.destinations[0] and end in places and places[end].feature != "country"
    headline = not coarse.who  # "Caravan heads from Mexico to US", told by no one
    country = coarse.origins[0] in places and places[coarse.origins[0]].feature == "country"
    inside = (region or town or headline or country) and within(origin, coarse.origins[0])
    return (
        (origin == coarse.origins[0] or inside)
        and within(end, coarse.destinations[0])
        and (origin, end) != (coarse.origins[0], coarse.destinations[0])
    )
