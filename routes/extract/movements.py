"""Movements: the grammar's clauses joined into corridors, open movements and vehicles.

Each clause the grammar reads (:mod:`routes.extract.grammar`) with people moving gives
movements from its origins to its destinations; a range of destinations ("to provinces all
over Turkey, from Istanbul to Hakkari") is one movement whose end is a list of places,
drafted to its first placed one, the other legs kept (``MovementDraft.also``). A clause
that names a destination but no origin takes the story's main origin (the one stated most
often; a town before the country it is in) only when its verb goes on with the story's
movement (not "returned"), and the corridor says so. Vehicles that carry no one they name
are kept apart: empty ones going in (sent, headed toward a place, meant to fetch people,
or arriving where people are to leave from) and aid convoys are never corridors; people
move out of where empty vehicles went. A leg inside its own country ("from Antakya to
Turkey") or back to its start is no movement, one from a region to a town in it is ("from
Hatay province to Antakya": containment is not identity); a leg to a
country and one to a town in it from the same start are one movement, told at the town.
"""

from __future__ import annotations

import re
from collections import Counter

from routes.distance import great_circle_km
from routes.extract.findings import (
    Attribution,
    Candidate,
    Claim,
    DateMention,
    FigureMention,
    IncidentDraft,
    MovementDraft,
    Toponym,
    Unresolved,
    VehicleDraft,
)
from routes.extract.grammar import Grammar
from routes.extract.lexicon import PEOPLE_NOUNS
from routes.extract.movers import PASSENGER_VEHICLES
from routes.extract.text import by_sentence, unique
from routes.places import contains

__all__ = ["SAME_PLACE_KM", "Movements"]

#: Ends closer than this are one place: a leg between them is no movement, km.
SAME_PLACE_KM = 10.0
#: As close to a curated site (:data:`SITES`) as this, an end is the site itself, km.
SITE_KM = 1.0
#: Curated roles of sites beside towns (``geodata/sites.yaml``), not towns.
SITES = frozenset({"camp", "area", "border_crossing", "neighbourhood", "waypoint"})
#: A toponym less sure than this, outside the story's countries, is no movement's end: its
#: name is kept unresolved instead of sending the movement to a far namesake (so is one
#: only far namesakes have: ``Toponyms.far_only``).
WEAK_END = 0.35


class Movements(Grammar):
    """Step 3: the grammar's clauses joined into corridors, open movements and vehicles."""

    def movements(
        self,
        toponyms: list[Toponym],
        figures: list[FigureMention],
        dates: list[DateMention],
        attributions: dict[int, Attribution | None],
        incidents: list[IncidentDraft],
        focus: str | None = None,
        typed: list[Toponym] | None = None,
    ) -> tuple[list[MovementDraft], str | None, list[VehicleDraft], dict[str, Unresolved]]:
        """Movements, the story's main origin, vehicles that moved no one, unresolved ends."""
        incident_spans = {(f.start, f.end) for inc in incidents for f in inc.figures}
        figures = [f for f in figures if (f.start, f.end) not in incident_spans]
        far = self.far_only
        ends = [
            t
            for t in toponyms
            if (t.confidence >= WEAK_END or t.place.country in {focus, *self.countries})
            and t.start not in far
        ]
        places = {t.place.ref: t.place for t in ends}
        unresolved: dict[str, Unresolved] = {}
        claims = self.claims(ends, figures, unresolved, attributions, typed or [])
        main_origin = _main_origin(ends, claims, places)
        vehicles = self._vehicles(claims, main_origin, figures)
        carried = {n for v in vehicles for n in v.sentences}  # their figures count vehicles
        figures = [f for f in figures if f.sentence not in carried or f.kind == "people"]
        people = [c for c in claims if c.mover == "people"]
        corridors, open_moves, generic, origin_sentence = self._legs(
            people, main_origin, figures, places
        )
        complete = _one_scale(list(corridors.values()), places)
        remaining = self._join_open(open_moves, complete, places)
        primary = next((c for c in complete if c.origins == [main_origin]), None) or next(
            iter([*complete, *remaining]), None
        )
        self._attach_generic(generic, figures, primary, claims)
        movements = [*complete, *remaining]
        for move in movements:
            move.sentences = sorted(set(move.sentences))
            self._finish(move, dates, origin_sentence, attributions)
        used = {r for m in movements for r in [*m.origins, *m.destinations, *m.via, *m.listed]}
        used |= {r for v in vehicles for r in [*v.origins, *v.destinations]}
        kept = {r: u for r, u in unresolved.items() if r in used}
        self.review += [
            f"unresolved {u.name!r} (chars {u.start}-{u.end}): {far[u.start]}: no movement is "
            "drawn there"
            for u in kept.values()
            if u.start in far
        ]
        return movements, main_origin, vehicles, kept

    def _vehicles(
        self, claims: list[Claim], main_origin: str | None, figures: list[FigureMention]
    ) -> list[VehicleDraft]:
        """Legs of vehicles that moved no one; a convoy arriving elsewhere carried people."""
        origins = {r for c in claims if c.mover == "people" and c.stated for r in c.origins}
        origins |= {main_origin} if main_origin else set()
        out: list[VehicleDraft] = []
        at = by_sentence(figures)
        for c in claims:
            # vehicles that left a place they name, or arrive where people are not leaving,
            # carried people
            started = main_origin is not None or (
                bool(c.origins and c.destinations) and self._passengers(c.sentence)
            )
            arriving = started and not set(c.destinations) & origins
            if c.mover == "vehicles" and not c.inbound and arriving:
                c.mover = "people"  # "the first convoy of 22 buses arrived in Poltava"
                continue
            if c.mover not in {"vehicles", "aid"}:
                continue
            # trucks or a bare convoy sent for no one, naming no one: a delivery
            goods = not c.inbound and not self._passengers(c.sentence)
            what = "aid" if c.mover == "aid" or goods else "empty"
            # a figure belongs to one record: the sentence's first vehicles take its figures
            figs = [f for f in at.pop(c.sentence + 1, []) if f.kind != "people"]
            out.append(VehicleDraft(what, c.origins, c.destinations, [c.sentence + 1], figs))
            if what == "empty":  # people move out of where empty vehicles went
                claims.append(Claim(c.sentence, c.destinations, c.origins, [], "people"))
        return out

    def _passengers(self, si: int) -> bool:
        """The sentence names vehicles that carry people (buses, not trucks)."""
        return any(self.toks[k].lower in PASSENGER_VEHICLES for k in self.sentence_tokens[si])

    def _legs(
        self,
        claims: list[Claim],
        main_origin: str | None,
        figures: list[FigureMention],
        places: dict[str, Candidate],
    ) -> tuple[
        dict[tuple[str, str], MovementDraft], list[MovementDraft], list[int], dict[str, int]
    ]:
        """Corridors by (origin, destination), open movements, placeless sentences, origins."""
        corridors: dict[tuple[str, str], MovementDraft] = {}
        open_moves: list[MovementDraft] = []
        origin_sentence: dict[str, int] = {}
        claimed = {c.sentence for c in claims}
        at = by_sentence(figures)
        for c in sorted(claims, key=lambda c: c.sentence):
            si, origins, dests = c.sentence, list(c.origins), list(c.destinations)
            for o in origins:
                origin_sentence.setdefault(o, si + 1)
            inherited = bool(dests and not origins and main_origin and c.continues)
            if inherited and main_origin is not None:
                origins = [main_origin]
            refined = [o for o in c.parts if _refines(o, main_origin, places)]
            origins = unique(o if o not in refined else str(main_origin) for o in origins)
            pairs = [(a, b) for b in dests for a in origins if _a_movement(a, b, places)]
            legs = [  # from each origin, one movement to its end's list of places
                min((p for p in pairs if p[0] == a), key=lambda p: _mappable_first(p, places))
                for a in unique(a for a, _b in pairs)
            ]
            if not legs:
                if origins or dests:  # with its legs inside their ends, only its origins stay
                    move = MovementDraft(origins, [] if origins else dests)
                    self._add_sentence(move, si, at.pop(si + 1, []))
                    open_moves.append(move)
                continue
            for n, (start, end) in enumerate(legs):
                corridor = corridors.get((start, end))
                if corridor is None:
                    corridor = corridors[(start, end)] = MovementDraft([start], [end])
                if inherited:
                    corridor.notes.append(
                        f"origin not stated in sentence {si + 1}: taken to be the story's "
                        f"main origin (sentence {origin_sentence.get(start, si + 1)}), as the "
                        "sentence goes on with its movement"
                    )
                if refined and start == main_origin:
                    corridor.notes.append(
                        f"sentence {si + 1} names a part of {places[refined[0]].name} as the "
                        "origin: taken to be the story's main origin, which lies in it"
                    )
                if c.chained:
                    corridor.notes.append(
                        f"origin: where the previous leg ended (sentence {si + 1} names none)"
                    )
                corridor.via = unique([*corridor.via, *(v for v in c.via if v not in (start, end))])
                corridor.also += [
                    p
                    for p in pairs
                    if p[0] == start and p != (start, end) and p not in corridor.also
                ]
                # a figure belongs to one movement: the sentence's first leg takes its figures
                self._add_sentence(corridor, si, at.pop(si + 1, []) if n == 0 else [])
        generic = sorted(self._moving - claimed)
        return corridors, open_moves, generic, origin_sentence

    def _join_open(
        self,
        open_moves: list[MovementDraft],
        complete: list[MovementDraft],
        places: dict[str, Candidate],
    ) -> list[MovementDraft]:
        """Open movements joined to a corridor (or an earlier one) from the same origins."""
        remaining: list[MovementDraft] = []
        for move in open_moves:
            target = next((c for c in complete if c.origins == move.origins), None)
            if target is None and move.origins:
                target = next((r for r in remaining if r.origins == move.origins), None)
            if target is None and move.destinations:
                target = next(
                    (r for r in remaining if not r.origins and r.destinations == move.destinations),
                    None,
                )
            if target is None and not move.figures and self._near_origin(move, complete, places):
                continue  # "the evacuation of Aleppo" while a corridor leaves eastern Aleppo
            if target is None:
                remaining.append(move)
            else:
                target.sentences += move.sentences
                target.figures += move.figures
        return remaining

    def _attach_generic(
        self,
        generic: list[int],
        figures: list[FigureMention],
        primary: MovementDraft | None,
        claims: list[Claim],
    ) -> None:
        """Figures of sentences that name no place go to the story's main movement (not those
        of aid convoys or of vehicles sent in)."""
        at = by_sentence(figures)
        for si in generic:
            figs = at.get(si + 1, [])
            mover, inbound = self._mover(self._words_of(si), si, figures)
            if not figs or mover in {"", "aid"} or inbound:
                continue  # the evacuations' convoy of 20 buses, not aid nor buses sent in
            if primary is None:
                self.review += [
                    f"figure '{f.value} {f.kind}' (sentence {f.sentence}) belongs to no movement"
                    for f in figs
                ]
                continue
            primary.sentences.append(si + 1)
            primary.figures += figs
            primary.notes.append(
                f"sentence {si + 1} names no place; its figures are taken to belong to the "
                "story's main movement"
            )

    @staticmethod
    def _near_origin(
        move: MovementDraft, corridors: list[MovementDraft], places: dict[str, Candidate]
    ) -> bool:
        """All of the movement's origins lie within 10 km of some corridor's origin."""
        starts = [places[c.origins[0]] for c in corridors if c.origins[0] in places]
        return bool(move.origins and starts) and all(
            o in places
            and any(
                great_circle_km(places[o].lat, places[o].lon, p.lat, p.lon) <= 10 for p in starts
            )
            for o in move.origins
        )

    def _add_sentence(self, move: MovementDraft, si: int, figures: list[FigureMention]) -> None:
        """Sentence ``si`` (0-based) and its ``figures`` (those of the sentence) join ``move``."""
        move.sentences.append(si + 1)
        move.figures += figures

    def _finish(
        self,
        move: MovementDraft,
        dates: list[DateMention],
        origin_sentence: dict[str, int],
        attributions: dict[int, Attribution | None],
    ) -> None:
        """Date, who moved, and whom the sentences credit."""
        stated = [d for d in dates if d.sentence in move.sentences]
        origin = move.origins[0] if move.origins else None
        at_origin = [d for d in dates if origin and d.sentence == origin_sentence.get(origin)]
        if stated:
            move.date = stated[0].date
            move.date_note = f"{stated[0].text!r}, sentence {stated[0].sentence}"
        elif at_origin:
            move.date = at_origin[0].date
            move.date_note = (
                f"not stated for this movement; {at_origin[0].text!r} where its origin is "
                f"(sentence {at_origin[0].sentence})"
            )
        else:
            move.date = self.story_date
            move.date_note = "not stated: the story's date"
        move.notes = unique(move.notes)
        for si in move.sentences:
            s = self.sents[si - 1]
            chunk = self.text[s.start : s.end].lower()
            for noun in PEOPLE_NOUNS:
                if re.search(rf"\b{noun}\b", chunk) and noun not in move.who:
                    move.who.append(noun)
            a = attributions.get(si - 1)
            if a is not None and a.who not in move.according_to:
                move.according_to.append(a.who)


def _main_origin(
    toponyms: list[Toponym], claims: list[Claim], places: dict[str, Candidate]
) -> str | None:
    """The origin people leave most often (then mentioned most, then first); a town before
    the country or province it lies in, unless only its people's name ("Venezuelans") made
    the country an origin."""
    counts = Counter(t.place.ref for t in toponyms)
    every = [r for c in claims if c.mover == "people" for r in c.origins if r in places]
    stated = [r for c in claims if c.stated for r in c.origins if r in every] or every
    ranked = sorted(unique(stated), key=lambda r: (-stated.count(r), -counts[r], stated.index(r)))
    named = {r for c in claims if not c.group for r in c.origins}  # not only "Venezuelans"
    for ref in ranked:
        inside = [r for r in unique(every) if r != ref and _contains(places[ref], places[r])]
        return inside[0] if inside and ref in named else ref
    return None


def _refines(part: str, main_origin: str | None, places: dict[str, Candidate]) -> bool:
    """The story's main origin lies in the country a clause names a part of."""
    if main_origin is None or part not in places or main_origin not in places:
        return False
    return _contains(places[part], places[main_origin])


def _contains(area: Candidate, place: Candidate) -> bool:
    """``place`` lies in the country or first-level region ``area``."""
    return area.feature in {"country", "admin1"} and contains(area, place)


def _mappable_first(pair: tuple[str, str], places: dict[str, Candidate]) -> tuple[bool, ...]:
    """The order in which the legs of a movement whose end is a list of places are its
    drafted leg: ends placed before unresolved ones, a town before a whole country."""
    origin, destination = pair
    return (
        destination not in places,
        origin not in places,
        places[destination].feature == "country" if destination in places else False,
    )


def _a_movement(a: str, b: str, places: dict[str, Candidate]) -> bool:
    """A leg between two places apart (any distance across a border), neither a country
    holding the other: a region holding the other end is a movement all the same
    (containment is not identity: "from the Swat valley to Mingora")."""
    if a == b:
        return False
    pa, pb = places.get(a), places.get(b)
    if pa is None or pb is None:
        return True
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
    """A curated site (a camp, a named area, a crossing): a move to it from the town beside
    it is a movement ("from Khan Younis to al-Mawasi", 5 km)."""
    return place.kind == "curated" and place.feature in SITES


def _one_scale(corridors: list[MovementDraft], places: dict[str, Candidate]) -> list[MovementDraft]:
    """A leg to (or from) a country joins the leg between the same end and a town in it."""
    kept: list[MovementDraft] = []
    for c in corridors:
        finer = next((f for f in corridors if f is not c and _finer(f, c, places)), None)
        if finer is None:
            kept.append(c)
        else:
            finer.sentences += c.sentences
            finer.figures += [f for f in c.figures if f not in finer.figures]
            finer.also += [pair for pair in c.also if pair not in finer.also]
    return kept


def _finer(fine: MovementDraft, coarse: MovementDraft, places: dict[str, Candidate]) -> bool:
    def within(x: str, y: str) -> bool:
        return x == y or (x in places and y in places and _contains(places[y], places[x]))

    origin, end = fine.origins[0], fine.destinations[0]
    # from a region of the country left, or to one town, the same flight told finer; a
    # town's people bound for a whole country ("a resident of Kandahar") go their own way
    region = origin in places and places[origin].feature in {"admin1", "admin2", "area"}
    town = end == coarse.destinations[0] and end in places and places[end].feature != "country"
    return (
        (origin == coarse.origins[0] or ((region or town) and within(origin, coarse.origins[0])))
        and within(fine.destinations[0], coarse.destinations[0])
        and (fine.origins[0], fine.destinations[0]) != (coarse.origins[0], coarse.destinations[0])
    )
