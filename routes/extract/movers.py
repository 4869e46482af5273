"""Who moves in a clause: people, vehicles that carry no one they name, or aid.

The movement grammar (:mod:`routes.extract.grammar`) asks :meth:`Movers._mover` for each
clause: people (civilians, families, a demonym group, "thousands", a pronoun), vehicles
(empty buses, going in when they were sent, headed toward a place, or meant to fetch
people) or aid; a clause with none moves no one.
"""

from __future__ import annotations

import itertools

from routes.extract.findings import FigureMention
from routes.extract.lexicon import (
    AID_NOUNS,
    CARRY_WORDS,
    DEMONYMS,
    EVACUATION_NOUNS,
    FETCH_VERBS,
    MOTION_WORDS,
    MOVE_OBJECT_VERBS,
    MOVE_PREFIXES,
    MOVE_WORDS,
    MOVEMENT_NOUNS,
    MOVER_NOUNS,
    MOVER_PRONOUNS,
    SEND_VERBS,
    SPEECH_VERBS,
    VEHICLE_NOUNS,
)
from routes.extract.text import Document

__all__ = ["OBJECT_PRONOUNS", "PASSENGER_VEHICLES", "VEHICLE_BUSINESS", "Movers"]

#: Nouns after a vehicle's that make it a business, not a vehicle ("a bus company").
VEHICLE_BUSINESS = frozenset(
    [
        "company",
        "companies",
        "driver",
        "drivers",
        "station",
        "stations",
        "terminal",
        "terminals",
        "operator",
        "operators",
        "stop",
        "stops",
        "depot",
        "depots",
        "service",
        "services",
    ]
)
#: Object pronouns: people when a vehicle carries them ("buses taking them to Istanbul").
OBJECT_PRONOUNS = frozenset(["them", "us", "him", "her"])
#: Every word of movement (the prefixes aside).
_MOTION = MOTION_WORDS | MOVE_WORDS
#: Words that open a relative clause about a place or its people.
RELATIVE_WORDS = frozenset(["where", "which", "whose"])
#: Vehicles that carry people: others (trucks, a bare convoy) that name none carry goods.
PASSENGER_VEHICLES = frozenset(
    ["bus", "buses", "busses", "coach", "coaches", "minibus", "minibuses", "ambulance",
     "ambulances"]
)  # fmt: skip
#: How many sentences after an aid convoy's the same vehicles are still that convoy.
AID_REACH = 2


class Movers(Document):
    """Who moves in a clause (see the module's docstring)."""

    #: A vehicle noun ("convoy") → the last sentence whose clause made it an aid convoy.
    _aid: dict[str, int]

    def _aid_again(self, clause: list[int], si: int) -> bool:
        """Vehicles an aid convoy's clause named just before ("an inter-agency convoy is
        delivering assistance to A. ... a convoy is also under way to B"): the same convoy."""
        nouns = {_stem(self.toks[k].lower) for k in clause if self.toks[k].lower in VEHICLE_NOUNS}
        return any(0 <= si - self._aid.get(n, -99) <= AID_REACH for n in nouns)

    def _saw_aid(self, clause: list[int], si: int) -> None:
        """Remember the vehicle nouns of an aid convoy's clause."""
        for k in clause:
            if self.toks[k].lower in VEHICLE_NOUNS:
                self._aid[_stem(self.toks[k].lower)] = si

    def _main_part(self, rest: list[int]) -> list[int]:
        """The words after the verb up to a relative clause: "to Aleppo, where people are
        starving" names the people there, not who moves."""
        for n, k in enumerate(rest):
            if n and self.toks[k].lower in RELATIVE_WORDS:
                return rest[:n]
        return rest

    def _subject(self, clause: list[int], verb: int) -> list[int]:
        """The words before the clause's verb, past a speaker's ("he said a convoy has yet
        to cross ...": the convoy, not "he"); a bare "that" ("people that fled") cuts nothing."""
        before = clause[:verb]
        cut = max(
            (n + 1 for n, k in enumerate(before)
             if self.toks[k].lower in SPEECH_VERBS or self.toks[k].lower == "that"),
            default=0,
        )  # fmt: skip
        return before[cut:] if cut < len(before) else before

    def _motion(self, k: int) -> bool:
        if k < 0 or k >= len(self.toks):
            return False
        low = self.toks[k].lower
        return low in _MOTION or low.startswith(MOVE_PREFIXES)

    def _mover(self, clause: list[int], si: int, figures: list[FigureMention]) -> tuple[str, bool]:
        """``(mover, inbound)``: people, vehicles or aid, and whether vehicles go in to fetch."""
        toks = self.toks
        verb = next(
            (n for n, k in enumerate(clause) if self._motion(k) and not _noun(toks[k].lower)),
            len(clause),
        )
        subject, rest = self._subject(clause, verb), self._main_part(clause[verb:])
        words = [toks[k].lower for k in clause]
        sending = any(w in SEND_VERBS for w in words) or self._fetching(clause)
        convoy = any(toks[k].lower in VEHICLE_NOUNS for k in clause)
        for n, k in enumerate(subject):
            kind = self._kind(k)
            if kind == "people":
                return "people", False
            if kind == "aid" and convoy:
                return "aid", False
            if kind == "vehicles":
                carried = [self._kind(x) for x in subject[n + 1 :] if self._carried(x)]
                if "people" not in carried and any(self._kind(x) == "aid" for x in clause):
                    return "aid", False
                if "people" in carried or self._moves_people(rest):
                    return "people", False
                return "vehicles", sending
        if self._moves_people(rest):
            return "people", False
        kinds = {self._kind(k) for k in rest}
        if "vehicles" in kinds and "people" not in kinds:
            return ("aid", False) if "aid" in kinds else ("vehicles", sending)
        if "people" in kinds:
            return "people", False
        if any(f.sentence == si + 1 and f.kind == "people" for f in figures):
            return "people", False
        if any(w in MOVEMENT_NOUNS or w in EVACUATION_NOUNS for w in words):
            return "people", False
        return "", False

    def _kind(self, k: int) -> str:
        t = self.toks[k]
        low = t.lower
        if low in VEHICLE_NOUNS:
            nxt = self._next(k)
            return "" if nxt is not None and nxt.lower in VEHICLE_BUSINESS else "vehicles"
        if low in AID_NOUNS:
            return "aid"
        if low == "humanitarian" and (nxt := self._next(k)) is not None:
            return "aid" if nxt.lower in VEHICLE_NOUNS else ""  # not "a humanitarian corridor"
        carried = low in OBJECT_PRONOUNS and self._carried(k)  # "buses taking them"
        if low in MOVER_NOUNS or carried or (low in MOVER_PRONOUNS and not t.quoted):
            return "" if self._fetched(k) else "people"
        if low == "group":  # "the group, which was trudging", not "the Islamic State group"
            prev = self._prev_word(k)
            return "people" if prev is not None and not prev.is_namey else ""
        if t.text[:1].isupper() and low.endswith("s") and low[:-1] in DEMONYMS:
            return "people"  # Venezuelans, Ukrainians
        return ""

    def _carried(self, k: int) -> bool:
        """A noun after "carrying", "with", "packed with": what a vehicle carries (not the
        people after "for": "carrying food for 13,000 people" carries food)."""
        for s in range(4):
            t = self._prev_word(k, s)
            if t is None or t.lower == "for":
                return False
            if t.lower in CARRY_WORDS:
                return True
        return False

    def _fetched(self, k: int) -> bool:
        """People a purpose names ("sent to evacuate civilians"): not the clause's mover."""
        for s in range(4):
            t = self._prev_word(k, s)
            if t is not None and t.lower in FETCH_VERBS:
                return self._purpose(k - 1 - s)
        return False

    def _purpose(self, k: int) -> bool:
        """ "to evacuate civilians", "to fetch them": what vehicles go in for; but "to transport
        rebels to Idlib" says where the vehicles carry them."""
        prev = self._prev_word(k)
        if self.toks[k].lower not in FETCH_VERBS or prev is None or prev.lower not in {"to", "for"}:
            return False
        ahead = [self._next(k, s) for s in range(6)]
        return not any(
            t is not None and t.lower in {"to", "into", "toward", "towards"} for t in ahead
        )

    def _fetching(self, clause: list[int]) -> bool:
        words = [self.toks[k].lower for k in clause]
        pairs = set(itertools.pairwise(words))
        return any(("to", v) in pairs for v in FETCH_VERBS) or ("the", "evacuation") in pairs

    def _moves_people(self, rest: list[int]) -> bool:
        """People right after a verb that moves its object ("transport rebels", "bused them")."""
        toks = self.toks
        for n, k in enumerate(rest):
            if toks[k].lower in MOVE_OBJECT_VERBS and not self._purpose(k):
                ahead = rest[n + 1 : n + 5]
                if any(
                    toks[x].lower in OBJECT_PRONOUNS or self._kind(x) == "people" for x in ahead
                ):
                    return True
        return False


def _stem(word: str) -> str:
    """A vehicle noun without its plural ending ("convoys" → "convoy")."""
    return word.removesuffix("es") if word.endswith("ses") else word.removesuffix("s")


def _noun(word: str) -> bool:
    """A noun of movement or a vehicle, or a word of carrying: not the clause's verb."""
    return word in MOVEMENT_NOUNS | EVACUATION_NOUNS | VEHICLE_NOUNS | CARRY_WORDS
