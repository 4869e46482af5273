"""The movement grammar: in each clause, who moves, from where, to where and by way of where.

A clause is a sentence, or the part of one after ";" or "(and) then". Each place the clause
names takes a role from the words before it (:meth:`Grammar._role`):

- **origin**: "from X", "out of X", "fled X", "left X", "escaping X", "evacuation of X",
  "residents of X", "X residents", "people in X" (when nothing else gives an origin);
- **destination**: "to X", "into X", "toward X", "arrived in/at X", "reached X", "entered X",
  "sought refuge in X", "housed in X", "left X for Y", "headed for X"; "continue to Y" after
  "stay in X" is X → Y; "from A to B" after "all over" or "across" is a range: two ends;
- **via**: "via X", "the border crossing at X".

The words of a noun phrase pass a role on ("fled their homes in and around X", "to the
southern port city of X", "into a shelter in X"); other prepositions, clause words and verbs
of being stop it ("after the capture of X", "30 miles from X", "the road leading into X").
A country or province after a town and a comma locates the town ("Cúcuta, Colombia"); a
place before "'s" locates the next one ("Yemen's capital Sanaa").

A sentence that opens on where its people are ("On a beach in Beira, relatives wait for
boats to take them to Buzi") gives that place as the origin when the clause names none.
A name no gazetteer has is kept as an end when a place word marks it ("the Khazer camp") or
it follows a destination's preposition ("toward Mawasi").

Each clause has a mover (:mod:`routes.extract.movers`): people (civilians, families, a demonym
group, "thousands", a pronoun), vehicles that carry no one they name (empty buses, going in
when they were sent, headed toward a place, or meant to fetch people), or aid. A clause
with no mover moves no one.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import cached_property

from routes.extract.findings import (
    Attribution,
    Claim,
    FigureMention,
    Token,
    Toponym,
    Unresolved,
)
from routes.extract.legs import clause_legs, fetched_from
from routes.extract.lexicon import (
    ARTICLES,
    ATTACK_WORDS,
    CROSSING_WORDS,
    DEMONYMS,
    DEST_VERBS,
    DIRECTIONS,
    DISTANCE_WORDS,
    END_STOPS,
    EVACUATION_NOUNS,
    FOR_VERBS,
    GROUP_NOUNS,
    IN_PHRASE_NOUNS,
    LOCATION_NOUNS,
    MOVE_OBJECT_VERBS,
    MOVER_NOUNS,
    NOT_DESTINATION_TO,
    ONWARD_WORDS,
    ORG_HEADS,
    ORIGIN_VERBS,
    PLACE_HEADS,
    RANGE_WORDS,
    REFUGE_WORDS,
    RESIDENT_NOUNS,
    RETURN_PREFIXES,
    SMALL_NUMBERS,
    SPEECH_VERBS,
    STAY_WORDS,
    STOPWORDS,
    TITLES,
    TO_PHRASE_WORDS,
    UNRESOLVED_HEADS,
)
from routes.extract.movers import Movers
from routes.extract.text import unique
from routes.places import normalize

__all__ = ["Grammar", "Name"]

#: How far back from a place the words that give its role are looked for, in words.
REACH = 14
#: Punctuation that ends a phrase: a role never crosses it.
_BREAK = re.compile(r"[;:()\"“”]|--|—|–")
#: First words that make a capitalised run a place's name ("Mount Sinjar", "Camp Bastion").
PLACE_FIRST_WORDS = frozenset(
    ["mount", "mt", "camp", "lake", "port", "fort", "wadi", "jabal", "jebel"]
)
#: Subjects that are one person: their next leg starts where people last got to.
PERSONS = frozenset(["he", "she"])
#: How many sentences back a person's last stop is looked for.
PERSON_REACH = 2
#: Words before a group that make it some among the people who move, not the people.
PART_WORDS = frozenset(["including", "among", "like", "plus", "besides", "with", "and"])
#: Words of a frontier: a country next to one names where the border is, not an end.
BORDER_WORDS = frozenset(["border", "borders", "frontier", "frontiers", "boundary"])
#: What comes "from" a place without anyone moving: "exposed to the hostilities from Gaza".
HOSTILE_WORDS = ATTACK_WORDS | frozenset(
    ["hostilities", "rockets", "rocket", "missiles", "missile", "threat", "threats", "drones"]
)
#: Verbs of flight whose object's place ("fled the shelling in X") is where people left.
FLIGHT_VERBS = frozenset(["fled", "flee", "flees", "fleeing", "escape", "escaped", "escaping"])
#: How many words back a verb governs a phrase's "in", "at" or "for" (:meth:`_governed`).
GOVERN_REACH = 9
#: Prepositions of an end: a phrase after them is no longer the verb's object.
_GOING = frozenset(["to", "into", "toward", "towards", "from", "via", "for"])
#: Ends that are no stop on a person's way (a whole country or province).
_AREAS = frozenset(["country", "admin1"])
#: Compass words: "south of Mosul" locates, "to the south of Syria" goes.
COMPASS = frozenset(["north", "south", "east", "west"])
#: The words between a region and its capital that name the town after them.
_CAPITAL_OF = re.compile(r"\s+(?:state\s+|provincial\s+|regional\s+)?capital,?\s+")
#: The words that list places: "A, B and C", "A or B".
_LIST = re.compile(
    r"\s*(,|and|or|,\s*and|,\s*or|and\s+to|or\s+to)\s*"
    r"((north|south|east|west|central)(ern|east|west|eastern|western)?\s+)?"  # "and southern X"
)


@dataclass(frozen=True)
class Name:
    """A place the text names (or a group an anaphor stands for): its tokens and refs."""

    first: int
    last: int
    refs: tuple[str, ...]
    feature: str = ""  # "country", "admin1", ... ; "" for unresolved names and anaphors
    country: str | None = None
    admin1: str | None = None


class Grammar(Movers):
    """Reads each clause of a text as a movement (see the module's docstring)."""

    #: Token → the country of a plural demonym there, set by :meth:`claims`.
    _groups: dict[int, list[str]]

    # -- the names a text gives

    def _names(self, toponyms: list[Toponym], unresolved: dict[str, Unresolved]) -> dict[int, Name]:
        """Token index → the place name that covers it: toponyms, then unresolved names."""
        tok_of = {t.start: k for k, t in enumerate(self.toks)}
        names: dict[int, Name] = {}
        for top in toponyms:
            first = tok_of.get(top.start)
            if first is None:
                continue
            last = first
            while last + 1 < len(self.toks) and self.toks[last + 1].start < top.end:
                last += 1
            c = top.place
            name = Name(first, last, (c.ref,), c.feature, c.country, c.admin1)
            for k in range(first, last + 1):
                names[k] = name
        for first, last in self._unnamed_runs(names):
            while first < last and self.toks[first].lower in ARTICLES:  # "Az" alone is a name
                first += 1
            text = self.text[self.toks[first].start : self.toks[last].end]
            ref = f"unresolved:{normalize(text)}"
            name = Name(first, last, (ref,))
            for k in range(first, last + 1):
                names[k] = name
            t = self.toks[first]
            unresolved.setdefault(
                ref, Unresolved(ref, text, t.start, self.toks[last].end, t.sentence + 1)
            )
        return names

    def _unnamed_runs(self, names: dict[int, Name]) -> list[tuple[int, int]]:
        """Capitalised runs no toponym covers that a place word or an end's words mark, or
        that name places only far from the story's (``far_only``); never in a headline's
        Title Case, where every word is capitalised."""
        runs = []
        for si in sorted(self._moving):
            if self._title_case(si):
                continue
            k, end = self.sentence_tokens[si].start, self.sentence_tokens[si].stop
            while k < end:
                if k in names or not self._could_name(k):
                    k += 1
                    continue
                last = k
                while (nxt := self._run_goes_on(last, names)) is not None:
                    last = nxt
                runs.append((k, last))
                k = last + 1
        out: list[tuple[int, int]] = []
        for first, last in reversed(runs):
            far = self.toks[first].start in self.far_only  # a place, but only far away
            marked = far or self._marked_as_place(first, last)
            listed = bool(out) and self._listed_before(last, out[-1][0])
            if marked or listed:
                out.append((first, last))
        return out[::-1]

    def _title_case(self, si: int) -> bool:
        """A sentence in Title Case: three in four of its words of four letters or more (and
        five such words at least) capitalised."""
        words = [self.toks[k].text for k in self.sentence_tokens[si]]
        long = [w for w in words if len(w) >= 4 and w[0].isalpha()]
        return len(long) >= 5 and sum(w[0].isupper() for w in long) > 0.75 * len(long)

    def _run_goes_on(self, last: int, names: dict[int, Name]) -> int | None:
        """The next token of a capitalised run ("Deir al-Balah", "Ein Issa"), or None."""
        toks = self.toks
        article = last + 2 < len(toks) and toks[last + 1].lower in ARTICLES
        hyphened = article and self._gap(toks[last + 1], toks[last + 2]) == "-"
        nxt = last + (2 if hyphened else 1)  # "Hammam al-Alil"
        if nxt >= len(toks) or toks[nxt].sentence != toks[last].sentence or nxt in names:
            return None
        if self._gap(toks[last], toks[last + 1]) not in {" ", "-"} or not self._could_name(nxt):
            return None
        return nxt

    def _listed_before(self, last: int, marked_first: int) -> bool:
        """ "Khazer and Hasan Sham camps": a run listed before a marked one."""
        between = self.text[self.toks[last].end : self.toks[marked_first].start]
        return bool(_LIST.fullmatch(between))

    def _could_name(self, k: int) -> bool:
        t = self.toks[k]
        low = t.lower
        return (
            t.is_namey
            and not t.quoted
            and low not in STOPWORDS
            and low not in DEMONYMS
            and low.rstrip("s") not in DEMONYMS
            and normalize(t.text) not in self.x.demonyms
            and low not in ORG_HEADS
            and low not in TITLES
            and low not in UNRESOLVED_HEADS
            and not (len(t.text) > 1 and t.text.isupper())  # ISIS, SDF, UN: organisations
        )

    def _marked_as_place(self, first: int, last: int) -> str:
        """What marks a name no gazetteer has as a place: "head" ("Khazer camp", "the town
        of X"), "end" ("toward X", "refugees from X"), or "" (nothing: not kept)."""
        nxt, prev = self._next(last), self._prev_word(first)
        if prev is not None and prev.lower in ARTICLES and self._gap(prev, self.toks[first]) == "-":
            prev = self._prev_word(first, 1)  # "al-Mawasi"
            first -= 1
        if nxt is not None and nxt.lower in UNRESOLVED_HEADS:
            return "head"
        if self.toks[first].lower in PLACE_FIRST_WORDS and last > first:
            return "head"
        if prev is None:
            return ""
        before = self._prev_word(first, 1)
        b = before.lower if before is not None else ""
        if prev.lower in {"of", "at"} and b in UNRESOLVED_HEADS:
            return "head"  # "the town of X", "the UN base at X"
        if nxt is not None and self._gap(self.toks[last], nxt) == "-":
            return ""  # "IS-held", "Iran-aligned"
        if prev.lower in {"toward", "towards", "into", "via"}:
            return "end"
        if prev.lower in {"to", "from"} and self._motion(first - 2):
            return "end"  # "bused from Potocari to Kladanj"
        if prev.lower == "from" and b in MOVER_NOUNS:
            return "end"  # "refugees from Nagorno-Karabakh"
        onward = nxt is not None and nxt.lower in {"to", "toward", "towards", "for"}
        if prev.lower in ORIGIN_VERBS and onward:
            return "end"  # "leave Karabakh towards Armenia"
        return ""

    # -- clauses

    @cached_property
    def _moving(self) -> set[int]:
        """The sentences with a word of movement (unquoted): the only ones the grammar reads."""
        return {
            si
            for si, ks in enumerate(self.sentence_tokens)
            if any(self._motion(k) and not self.toks[k].quoted for k in ks)
        }

    def _words_of(self, si: int) -> list[int]:
        """The sentence's unquoted tokens."""
        return [k for k in self.sentence_tokens[si] if not self.toks[k].quoted]

    def _clauses(self, si: int) -> list[list[int]]:
        """The sentence's unquoted tokens, cut at ";" and before "then"."""
        clauses: list[list[int]] = [[]]
        for k in self._words_of(si):
            t = self.toks[k]
            prev = clauses[-1]
            if prev and (
                ";" in self._gap(self.toks[prev[-1]], t)
                or (t.lower == "then" and self.toks[prev[-1]].lower in {"and", ","})
                or (t.lower == "then" and "," in self._gap(self.toks[prev[-1]], t))
            ):
                clauses.append([])
            clauses[-1].append(k)
        return [c for c in clauses if c]

    def claims(
        self,
        toponyms: list[Toponym],
        figures: list[FigureMention],
        unresolved: dict[str, Unresolved],
        attributions: dict[int, Attribution | None],
        typed: list[Toponym] = (),  # type: ignore[assignment]
    ) -> list[Claim]:
        """Every clause's movement, in text order (clauses that name no end left out)."""
        names = self._names(toponyms, unresolved)
        self._groups = _demonym_groups(self.toks, toponyms, typed)
        self._aid = {}
        out: list[Claim] = []
        groups: list[list[str]] = []  # coordinated places, for "those two towns"
        last: list[str] = []  # the last destination, for "there"
        kinds = {name.refs[0]: name.feature for name in names.values() if name.refs}
        cities = {t.place.ref for t in toponyms if _a_city(t)}
        reached: tuple[int, list[str]] = (-9, [])  # where people last got to: sentence, places
        for si in sorted(self._moving):
            clauses = self._clauses(si)
            here = {k: names[k] for k in self.sentence_tokens[si] if k in names}
            for k in (k for c in clauses for k in c):
                group = self._anaphor(k, groups, last) or self._the_city(k, names, cities)
                if group is not None:
                    here.setdefault(k, Name(k, k, tuple(group)))
            frame = self._frame(si, here)
            previous: Claim | None = None
            for clause in clauses:
                went = reached[1] if si - reached[0] <= PERSON_REACH else []
                claims = self._clause(si, clause, here, frame, figures, previous, went)
                out += claims
                previous = claims[-1] if claims else previous
                for c in claims:
                    groups += [g for g in (c.origins, c.destinations) if len(g) > 1]
                    last = c.destinations or last
                    stops = [r for r in [*c.destinations, *c.via] if kinds.get(r) not in _AREAS]
                    reached = (si, stops) if c.mover == "people" and stops else reached
        return out

    def _clause(
        self,
        si: int,
        clause: list[int],
        names: dict[int, Name],
        frame: list[str],
        figures: list[FigureMention],
        previous: Claim | None,
        went: list[str] = (),  # type: ignore[assignment]
    ) -> list[Claim]:
        """The clause's movements; ``went``: where people last got to, for a person's next
        leg ("He would go to the nearby city of X" after arriving at a crossing)."""
        roles, joined = self._roles(clause, names)
        verb = next((k for k in clause if self._motion(k)), clause[-1])
        group = [r for k in clause if k < verb and self._heads(k) for r in self._groups.get(k, [])]
        if not roles:  # "Nearly 130,000 Venezuelans crossed the border"
            return [Claim(si, group[:1], [], mover="people", group=True)] if group else []
        mover, inbound = self._mover(clause, si, figures)
        if not mover and previous is not None:
            mover, inbound = previous.mover, previous.inbound
        if mover == "vehicles" and self._aid_again(clause, si):
            mover, inbound = "aid", False
        if mover == "aid":
            self._saw_aid(clause, si)
        returning = any(self._returning(k) for k in clause)
        chained = self.toks[clause[0]].lower == "then" and previous is not None
        person = (
            not chained
            and bool(went)
            and any(self.toks[k].lower in PERSONS for k in clause if k < verb)
        )
        if person:  # a person goes on from where the story's people last got to
            previous, chained = Claim(si, [], list(went)), True
        if mover == "people" and any(self._kind(k) == "vehicles" for k in clause if k < verb):
            carry = next((k for k in clause if self.toks[k].lower in MOVE_OBJECT_VERBS), None)
            roles = fetched_from(roles, carry)
        legs = clause_legs(roles, [*frame, *group[:1]], previous if chained else None, joined)
        parts = [
            r for role, refs, k in roles if role == "origin" and self._part(k, names) for r in refs
        ]
        return [
            Claim(si, origins, dests, via, mover, inbound, not returning, chained, stated, parts)
            for origins, dests, via, stated in legs
        ]

    def _heads(self, k: int) -> bool:
        """A demonym that is the clause's people ("Venezuelans crossed"), not some among
        them ("passengers including Americans arrived") nor an ethnic group ("ethnic
        Albanians" of Kosovo)."""
        prev = self._prev_word(k)
        return prev is None or (prev.lower not in PART_WORDS and prev.lower != "ethnic")

    def _part(self, k: int, names: dict[int, Name]) -> bool:
        """ "southern Mexico", "northwest Syria": a part of a country, not the whole."""
        prev = self._prev_word(k)
        return names[k].feature == "country" and prev is not None and prev.lower in DIRECTIONS

    def _returning(self, k: int) -> bool:
        t, nxt = self.toks[k], self._next(k)
        pair = f"{t.lower} {nxt.lower if nxt is not None else ''}"
        return pair.startswith(RETURN_PREFIXES)

    def _frame(self, si: int, names: dict[int, Name]) -> list[str]:
        """The places of an opening "In X," / "On a beach in X," that says where people are."""
        toks = list(self.sentence_tokens[si])
        if not toks or self.toks[toks[0]].lower not in {"in", "at", "on", "inside"}:
            return []
        out: list[str] = []
        for a, b in itertools.pairwise(toks):
            if a in names:
                out += names[a].refs
            if "," in self._gap(self.toks[a], self.toks[b]):
                break
        else:
            return []
        sentence = {self.toks[k].lower for k in toks}
        return [] if sentence & SPEECH_VERBS else unique(out)

    def _anaphor(self, k: int, groups: list[list[str]], last: list[str]) -> list[str] | None:
        """ "those two cities" → the last group of two places; "there" → the last destination."""
        t = self.toks[k]
        if t.lower == "there":
            return last or None if self._motion(k - 1) else None
        if t.lower not in {"those", "these", "both", "the"}:
            return None
        nxt = self._next(k)
        count: int | None = None
        if nxt is not None and nxt.lower in SMALL_NUMBERS:
            count = SMALL_NUMBERS[nxt.lower]
            nxt = self._next(k, 1)
        elif t.lower == "both":
            count = 2
        if count is None or nxt is None or nxt.lower not in GROUP_NOUNS:
            return None
        return next((g for g in reversed(groups) if len(g) == count), None)

    def _the_city(self, k: int, names: dict[int, Name], cities: set[str]) -> list[str] | None:
        """ "the (heavily defended) city (centre)" → the city the text named last, in the two
        sentences before (not in its own, whose cities are its own ends; not "the city of
        X", which names it)."""
        noun = next(
            (s for s in range(3) if (t := self._next(k, s)) is not None and t.lower == "city"),
            None,
        )
        if self.toks[k].lower != "the" or noun is None:
            return None
        between = [self._next(k, s) for s in range(noun)]
        after = self._next(k, noun + 1)
        if any(t is None or t.is_namey for t in between) or (after and after.lower == "of"):
            return None
        sentence = self.toks[k].sentence
        for j in range(self.sentence_tokens[sentence].start - 1, -1, -1):
            if self.toks[j].sentence < sentence - PERSON_REACH:
                return None
            name = names.get(j)
            if name is not None and name.refs and name.refs[0] in cities:
                return list(name.refs)
        return None

    # -- roles

    def _roles(
        self, clause: list[int], names: dict[int, Name]
    ) -> tuple[list[tuple[str, list[str], int]], set[int]]:
        """``(role, refs, token)`` of each place the clause names, in text order, and the
        tokens of those that go on the end before them: the far end of a range ("all over
        Turkey, from A to B": one spread, whose end is a list of places). A list ("the towns
        of A and B") names places each reached: movements of their own, each a flow."""
        roles: list[tuple[str, list[str], int]] = []
        joined: set[int] = set()
        seen: set[int] = set()
        ranged = False
        for k in clause:
            name = names.get(k)
            if name is None or name.first in seen:
                continue
            seen.add(name.first)
            role = self._role(name, names, roles)
            if role is None and self._before_people(name):
                role = "origin"  # "Mariupol residents", "Buzi evacuees"
            if role is None and name.feature == "border_crossing" and self._passed(name):
                role = "via"  # "into Turkey at the Bab al-Hawa crossing"
            if role is None:
                continue
            if ranged and role == roles[-1][0] == "destination":
                joined.add(k)
            prev = self._prev_word(name.first)
            ranged = role == "destination" and prev is not None and prev.lower == "from"
            roles.append((role, list(name.refs), k))
        crossing = {k for _r, _refs, k in roles if names[k].feature == "border_crossing"}
        if any(r == "destination" and k not in crossing for r, _refs, k in roles):
            # "into Turkey at the Bab al-Hawa crossing": the crossing is on the way
            roles = [("via" if k in crossing and r == "destination" else r, refs, k)
                     for r, refs, k in roles]  # fmt: skip
        return roles, joined

    def _passed(self, name: Name) -> bool:
        """ "at (the) X", "through X": a place passed on the way."""
        prev = self._prev_word(name.first)
        if prev is not None and prev.lower == "the":
            prev = self._prev_word(name.first, 1)
        return prev is not None and prev.lower in {"at", "through", "via"}

    def _before_people(self, name: Name) -> bool:
        """ "Mariupol residents", "Buzi evacuees": the place people come from."""
        nxt = self._next(name.last)
        return (
            nxt is not None
            and nxt.lower in RESIDENT_NOUNS | {"evacuees", "displaced", "resident"}
            and self._gap(self.toks[name.last], nxt) == " "
        )

    def _role(
        self, name: Name, names: dict[int, Name], so_far: list[tuple[str, list[str], int]]
    ) -> str | None:
        """The role the words before ``name`` give it (see the module's docstring)."""
        if self._locates_next(name, names):
            return None
        toks, k = self.toks, name.first
        nxt = self._next(name.last)
        if nxt is not None and nxt.text.islower() and self._gap(toks[name.last], nxt) == "-":
            return None  # "Iran-aligned", "Russian-occupied": a modifier, not a place
        if self._border_of(name):
            return None  # "to the Israel border", "to the border with Jordan": not into it
        j, steps = k - 1, 0
        while j >= 0 and toks[j].sentence == toks[k].sentence and steps < REACH:
            if _BREAK.search(self._gap(toks[j], toks[j + 1])) or toks[j].quoted:
                return None
            other = names.get(j)
            if other is not None and other.first != name.first:
                between = self.text[toks[j].end : toks[k].start]
                if re.match(r"['’]s\b", between) or _CAPITAL_OF.fullmatch(between):
                    # Yemen's capital Sanaa, West Darfur capital El Geneina
                    j, steps = other.first - 1, steps + 1
                    continue
                if _LIST.fullmatch(between) and not _locator(name, other, between):
                    return next(
                        (r for r, _refs, kk in reversed(so_far) if names.get(kk) is other), None
                    )
                return None
            role = self._cue(j)
            if role == "":
                j, steps = j - 1, steps + 1
                continue
            return role
        return None

    def _border_of(self, name: Name) -> bool:
        """A country that only names a border people go to or come from: "the Israel
        border", "the border with Jordan", "from Egypt's border" (the frontier, not the
        country)."""
        if name.feature != "country":
            return False
        nxt, prev = self._next(name.last), self._prev_word(name.first)
        if nxt is not None and nxt.text in {"'s", "’s"}:
            nxt = self._next(name.last, 1)  # "from Egypt's border"
        if nxt is not None and nxt.lower in BORDER_WORDS:
            return True
        before = self._prev_word(name.first, 1)
        return (
            prev is not None and prev.lower == "with" and before is not None
            and before.lower in BORDER_WORDS
        )  # fmt: skip

    def _locates_next(self, name: Name, names: dict[int, Name]) -> bool:
        """``name`` only says where the next place is ("Syria's Idlib"), or is a state capital's."""
        nxt = self._next(name.last)
        if nxt is None:
            return False
        if nxt.text in {"'s", "’s"}:  # "Yemen's capital Sanaa", not "Mosul's Old City to X"
            for s in range(1, 6):
                t = self._next(name.last, s)
                if t is None or t.lower in _GOING or t.lower in END_STOPS:
                    return False
                if names.get(name.last + 1 + s) not in (None, name):
                    return True
            return False
        after = {t.lower for t in (self._next(name.last, s) for s in (0, 1, 2)) if t is not None}
        if "capital" not in after:
            return False
        if name.feature in {"admin1", "admin2", "country"}:
            return True
        between = self.text[self.toks[name.last].end : self.toks[name.last].end + 40]
        head = _CAPITAL_OF.match(between)  # "West Darfur capital El Geneina"
        return head is not None and names.get(name.last + len(head.group().split()) + 1) is not None

    def _cue(self, j: int) -> str | None:
        """The role word ``j`` gives a place after it: a role, None (stop), or "" (go on)."""
        low = self.toks[j].lower
        prev = self._prev_word(j)
        prev_low = prev.lower if prev is not None else ""
        if low == "from":
            if prev_low in DISTANCE_WORDS or prev_low in HOSTILE_WORDS:
                return None  # 30 miles from Beira, the rockets from Gaza
            return "destination" if self._in_range(j) else "origin"
        if low == "of":
            if prev_low == "out" or prev_low in EVACUATION_NOUNS or prev_low in RESIDENT_NOUNS:
                return "origin"
            before = self._prev_word(j, 1)
            if prev_low in DIRECTIONS | COMPASS and (before is None or before.lower != "the"):
                return None  # "a camp south of Mosul" says where the camp is
            return ""
        if low in {"in", "inside"}:
            if prev is not None and prev.is_namey:
                return ""  # "to the Astrodome in Houston": a site no gazetteer has, in X
            by, verb = self._prev_word(j, 1), self._prev_word(j, 2)
            if by is not None and by.lower == "by" and verb is not None:
                prev_low = verb.lower  # "arrived by train in Lviv"
            role = _in_role(prev_low)
            if role is None and self._governed(j, FLIGHT_VERBS):
                return "origin"  # "fled the shelling in X"
            return role
        if low in {"at", "near", "outside", "around"}:
            if prev_low in REFUGE_WORDS or prev_low.startswith("arriv"):
                return "destination"
            if prev_low in CROSSING_WORDS:
                return "via"
            if low != "at" and (prev_low in LOCATION_NOUNS or prev_low in PLACE_HEADS):
                return ""  # villages near Mosul, the camps around Goma
            if low == "at" and (prev_low in UNRESOLVED_HEADS or prev_low in IN_PHRASE_NOUNS):
                return ""  # "to the UN base at Potocari", "to shelters at a gym in X"
            if low == "at" and self._governed(j, FLIGHT_VERBS):
                return "origin"  # "to flee the siege at the enclave of X"
            return "" if low == "around" else None
        if low in {"to", "into", "towards", "toward", "onto"}:
            if prev_low in NOT_DESTINATION_TO or (low == "to" and self._infinitive(j)):
                return None
            return "onward" if prev_low in ONWARD_WORDS else "destination"
        if low == "for":  # "left X for Y", "flee the former republic of X for Y"
            words = {self.toks[x].lower for x in range(max(0, j - 5), j)}
            return "destination" if words & FOR_VERBS or self._governed(j, FOR_VERBS) else None
        if low == "via":
            return "via"
        if low in ORIGIN_VERBS or low.startswith("escap"):
            return "origin"
        if low in DEST_VERBS:
            return "destination"
        if low in END_STOPS:
            return None
        return ""

    def _governed(self, j: int, verbs: frozenset[str]) -> bool:
        """One of ``verbs`` governs the phrase that ``j`` ends: it comes at most
        :data:`GOVERN_REACH` words before, with no other place, end's preposition, clause
        word or stop between ("fled the cold and the siege at X", "flee X's republic for Y")."""
        for s in range(GOVERN_REACH):
            t = self._prev_word(j, s)
            if t is None or _BREAK.search(self._gap(t, self.toks[j - s])):
                return False
            if t.lower in verbs:
                return True
            if t.lower in END_STOPS or t.lower in _GOING:
                return False
        return False

    def _infinitive(self, j: int) -> bool:
        """ "to provide corridors in X", "to set up in X": "to" before a verb, no destination."""
        nxt = self._next(j)
        if nxt is None or not nxt.is_word or nxt.is_namey or nxt.lower in TO_PHRASE_WORDS:
            return False
        after = self._next(j, 1)
        if nxt.lower in ARTICLES and after is not None and after.is_namey:
            return False  # "to al-Mawasi": an article of the name
        low = nxt.lower
        heads = LOCATION_NOUNS | PLACE_HEADS | UNRESOLVED_HEADS | DIRECTIONS | COMPASS
        if low in heads or (low.endswith("s") and len(low) > 3) or low.endswith("ern"):
            return False
        for s in range(1, 3):  # "to relief camps in X", "to temporary evacuation centres"
            t = self._next(j, s)
            if t is None or t.is_namey or not t.is_word or t.lower in END_STOPS | _GOING:
                break
            if t.lower in LOCATION_NOUNS | PLACE_HEADS | UNRESOLVED_HEADS:
                return False
        return True

    def _in_range(self, j: int) -> bool:
        """ "all over Turkey, from Istanbul ... to Hakkari": a range of ends, not a journey."""
        before = [t for s in range(5) if (t := self._prev_word(j, s)) is not None]
        for t in before:  # "poured across the border from X": a crossing, not a range
            if t.lower in BORDER_WORDS:
                return False
            if t.lower in RANGE_WORDS:
                return True
        return False


def _a_city(top: Toponym) -> bool:
    """A toponym that "the city" may stand for: a town of 100,000 or a curated city."""
    c = top.place
    return (c.kind == "geonames" and c.population >= 100_000) or (
        c.kind == "curated" and c.feature == "city"
    )


def _in_role(prev_low: str) -> str | None:
    """The role "in" gives: arriving or refuge there, leaving there, or where people are."""
    if prev_low in REFUGE_WORDS or prev_low.startswith("arriv"):
        return "destination"
    if prev_low in EVACUATION_NOUNS or prev_low.startswith(("evacuat", "displac")):
        return "origin"
    if prev_low in RESIDENT_NOUNS:
        return "people_in"
    if prev_low in STAY_WORDS:
        return "stay"
    heads = LOCATION_NOUNS | PLACE_HEADS | UNRESOLVED_HEADS | IN_PHRASE_NOUNS
    return "" if prev_low in heads else None


def _locator(name: Name, other: Name, between: str) -> bool:
    """ "Cúcuta, Colombia", "Tapachula, Chiapas": a country or province that locates a town."""
    if between.strip() != "," or name.feature not in {"country", "admin1", "admin2"}:
        return False
    return name.country is not None and name.country == other.country


def _demonym_groups(
    toks: list[Token], toponyms: list[Toponym], typed: list[Toponym]
) -> dict[int, list[str]]:
    """Token → the country a plural demonym names ("Venezuelans"), when the story names it."""
    countries = {t.place.country: t.place.ref for t in toponyms if t.place.feature == "country"}
    out: dict[int, list[str]] = {}
    at = {t.start: k for k, t in enumerate(toks)}
    for t in typed:
        ref = countries.get(t.place.country)
        if t.type == "adjective" and t.text.endswith("s") and ref and t.start in at:
            out[at[t.start]] = [ref]
    return out
