"""Phrases: what a noun phrase of a parsed sentence is, a place or who moves.

A phrase is a place (an :class:`End`) when its head is one of the story's toponyms, or a noun
of place whose own phrase names one ("the town of X", "shelters in X"), or a name no
gazetteer has in an end's place ("to the Khazer camp"), or a word that stands for a place
named before ("there", "the city", "those two cities"). A phrase of people, vehicles, aid or
armed forces is a :class:`Mover`, with its count, where its people are from ("residents of
X", "Venezuelans"), and whose they are ("his family"). The frames
(:mod:`routes.extract.frames`) ask these questions of their verbs' dependents.
"""

from __future__ import annotations

import bisect
import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from routes.extract.lexicon import MONTHS, WEEKDAYS
from routes.extract.senses import (
    AID_NOUNS,
    BORDER_NOUNS,
    CASUALTY_NOUNS,
    COLLECTIVE_NOUNS,
    CONTAINER_NOUNS,
    MILITARY_NOUNS,
    NON_MOVERS,
    PEOPLE_NOUNS,
    PLACE_NOUNS,
    QUANTITY_NOUNS,
    VEHICLE_NOUNS,
    lemma,
    sense,
    singular,
)

if TYPE_CHECKING:
    from spacy.tokens import Token as SpacyToken

    from routes.extract.parse import Parsed


def listed(word: str, table: frozenset[str]) -> bool:
    """A noun in a table, as written or as its singular (tables list irregular plurals whole:
    "buses")."""
    low = word.lower()
    return low in table or singular(low) in table


def _words(text: str) -> list[str]:
    """The words of a whitespace-separated list."""
    return text.split()


#: Prepositions of an origin, a destination and a path.
ORIGIN_CASES = frozenset(["from", "out of", "away from", "out", "off"])
DESTINATION_CASES = frozenset(
    ["to", "into", "towards", "toward", "onto", "back to", "inside", "unto", "as far as"]
)
PATH_CASES = frozenset(["via", "through", "across", "by way of", "past", "over"])
AT_CASES = frozenset(["in", "at", "on", "inside", "near", "outside", "around"])
#: Nouns of place whose "of" names the place itself, not its owner: "the Pacific island of
#: Ambae", "the border town of Nansan" (but "the Rakhine state of Myanmar")
NAMED_BY_OF = frozenset(["town", "city", "village", "island", "port", "hamlet", "settlement"])
#: Nouns of movement whose name is the way itself ("the Bab al-Hawa crossing").
NAMED_WAYS = frozenset(["crossing", "corridor", "passage"])
#: Prepositions of a place that a "from A to B" after it spans ("all over X, from A to B").
SPANNING = frozenset(["over", "across", "throughout"])
#: Verbs a noun of movement is the subject of that say where it runs ("a corridor opened").
OPENING = frozenset(["open", "run", "operate", "link", "connect", "stretch", "lead"])
#: Nouns of leaving: "in X" is where people leave ("evacuations in X").
LEAVING_NOUNS = frozenset(["evacuation", "exodus", "flight", "departure", "displacement"])
#: Prepositions inside a noun of place that locate it ("shelters in X", "the town of X").
LOCATING_CASES = frozenset(["of", "in", "at", "near", "outside", "around", "on", "inside", "along"])
#: Spans of time a phrase of place may hang on ("for the night in X"): where the verb happened.
TIMES = frozenset(
    _words(
        "night nights day days week weeks weekend month months hour hours morning afternoon evening"
    )
)
#: Possessives of people: "their country" is the country of the people who fled it.
OWNERS = frozenset(["their", "his", "her"])
#: Relations that open a clause of its own: a place under one is not the verb's above it.
CLAUSES = frozenset(["ccomp", "parataxis", "csubj", "acl", "conj", "list"])
#: Words that make a clause's movement not happen.
NEGATIONS = frozenset(["not", "n't", "never", "no", "nobody", "none"])
#: Auxiliaries of a future or a possibility: the movement is planned, not made.
MODALS = frozenset(["will", "'ll", "shall", "would", "could", "may", "might", "can", "should",
                    "must", "wo", "ca"])  # fmt: skip
#: Objects of a verb of movement that are what people travel in or on, not who moves.
CONVEYANCE = VEHICLE_NOUNS | frozenset(_words("route road way path trip journey ride"))
#: Nouns of a way: a phrase of direction on one says where it goes ("the road to X").
PATH_NOUNS = frozenset(
    _words(
        "road route way path highway motorway corridor bridge street track railway line trail "
        "passage link access gate door"
    )
)
#: Words of the calendar, capitalised but never a place.
CALENDAR = frozenset([*WEEKDAYS, *MONTHS, "christmas", "easter", "ramadan", "eid"])
#: Verbs only people (or animals) do: an unknown noun as their mover is people.
ANIMATE = frozenset(
    _words(
        "flee escape evacuate displace seek find shelter resettle migrate trek trudge limp straggle"
    )
)
#: Dependents only a verb has.
VERBAL = frozenset(["nsubj", "nsubj:pass", "aux", "aux:pass", "obj", "xcomp", "ccomp"])
#: Prepositions of going along a way.
ALONG = frozenset(["along", "on", "down", "up", "via", "through", "onto", "by"])
#: Relative words that stand for the noun a relative clause describes.
RELATIVES = frozenset(["who", "that", "which", "whom", "whose"])
#: Pronouns that stand for people.
PEOPLE_PRONOUNS = frozenset(["they", "them", "he", "him", "she", "her", "we", "us", "i", "me",
                             "you", "themselves", "those", "these", "everyone", "everybody",
                             "anyone", "somebody", "someone", "nobody", "all"])  # fmt: skip


@dataclass(frozen=True)
class End:
    """A place a frame gives for one of its roles: a toponym, a name no gazetteer has, or a
    word that stands for a place named elsewhere ("there", "the city")."""

    start: int  # characters in the story
    end: int
    #: "toponym" (``start`` is a toponym's), "name" (unresolved), "anaphor", "capital"
    #: (a country's capital, its words naming the country: "the Thai capital")
    kind: str
    word: str = ""  # the anaphor's word ("there", "city") or the name
    #: Places listed with their own preposition ("to A or to B") are movements of their own:
    #: the count of such prepositions before this place in its list
    group: int = 0
    #: How many places an anaphor stands for ("those two cities": 2)
    many: int = 1
    #: A name the text marks as a place with a word of place ("the Tal Maltha camp")
    marked: bool = False
    #: Where unnamed places lie ("other towns in X"), not the place itself
    around: bool = False
    #: A verb's bare object ("fled the Taliban"), no preposition or word of place marking it
    bare: bool = False
    #: The country whose border it is ("crossed its border"): where a crossing goes
    border: bool = False
    #: A way passed over, not through ("across the river", "over the Blue Nile")
    passing: bool = False


@dataclass
class Mover:
    """Who or what a frame moves."""

    #: "people", "vehicles", "aid", "military" or "" (nothing that moves people)
    kind: str
    head: int  # token index in the sentence's tree
    text: str  # the phrase, as written
    lemma: str
    pronoun: bool = False
    definite: bool = False
    plural: bool = True
    #: Where the phrase's count is ("174" of "174 people"): the figure the clause states
    count: tuple[int, int] | None = None
    #: Places the phrase says the people are from ("residents of X", "X residents")
    home: list[End] = field(default_factory=list)
    #: Where a phrase of newcomers says they are ("new arrivals in Uganda"): where they went
    now: list[End] = field(default_factory=list)
    #: Vehicles the phrase says carry people ("buses carrying evacuees")
    carried: bool = False
    #: Vehicles the phrase says carry aid ("aid trucks", "a convoy carrying food")
    aid: bool = False
    #: The phrase's characters in the story (its figures lie inside)
    span: tuple[int, int] = (0, 0)
    #: The noun a later phrase may call the group by ("convoy" of "the convoy of buses")
    group: str = ""
    #: The possessive the phrase is someone's by ("his" of "his family"): that person's group
    owner: str = ""
    #: Where the counts of the phrase's other parts are ("and more than 40 wounded")
    others: list[tuple[int, int]] = field(default_factory=list)


#: Verbs of where people live: "Egyptians living in Libya", "born and raised in X".
LIVING = frozenset(["live", "work", "reside", "base", "stay", "bear", "raise", "grow"])
#: Newcomers: the place such a phrase puts them in ("arrivals in X") is where they went.
ARRIVALS = frozenset(["arrival", "newcomer"])


class Phrases:
    """The places and movers of one parsed sentence's phrases."""

    def __init__(self, parsed: Parsed, toponyms: dict[int, int]) -> None:
        self.p = parsed
        self.doc = parsed.doc
        #: Each token inside a toponym → the toponym's (start, end) in the story
        self.names = self._covered(toponyms)

    def _covered(self, spans: dict[int, int]) -> dict[int, tuple[int, int]]:
        ordered = sorted(spans.items())
        out: dict[int, tuple[int, int]] = {}
        for tok in self.doc:
            at = self.p.start(tok.i)
            k = bisect.bisect_right(ordered, (at, float("inf"))) - 1
            if k >= 0 and ordered[k][0] <= at < ordered[k][1]:
                out[tok.i] = ordered[k]
        return out

    def _case(self, tok: SpacyToken) -> str | None:
        """The preposition of a nominal ("out of", "back to"), or None without one."""
        first = next((c for c in tok.children if c.dep_ in {"case", "mark"} and c.i < tok.i), None)
        if first is None:
            first = self._stray_case(tok)
        if first is None:
            return None  # "in and around X" is "in"; "out of X" is "out" with "of" fixed
        case = " ".join([first.lower_, *(f.lower_ for f in first.children if f.dep_ == "fixed")])
        head = tok.head
        if any(p.dep_ == "compound:prt" and p.lower_ == "back" for p in head.children):
            case = "back to" if case == "to" else case
        return case

    def _range(self, tok: SpacyToken) -> bool:
        """A "from A to B" that spans a place just named ("all over Turkey, from A to B")."""
        case = next((c for c in tok.children if c.dep_ == "case"), None)
        if case is None or case.i < 2 or self.doc[case.i - 1].text != ",":
            return False
        before = self.doc[case.i - 2]
        return any(c.dep_ == "case" and c.lower_ in SPANNING for c in before.children)

    def _span_end(self, tok: SpacyToken) -> list[End]:
        """The "to B" the parse hung on A of a span "from A to B"."""
        return [e for c in tok.children if self._case(c) in DESTINATION_CASES
                for e in self._ends(c)]  # fmt: skip

    def _stray_case(self, tok: SpacyToken) -> SpacyToken | None:
        """The preposition just before a nominal's phrase that the parse hung on a word inside
        it ("to war-torn Syria" with "to" under "war")."""
        left = tok.left_edge
        if left.i == 0 or left.dep_ == "case":
            return left if left.dep_ == "case" and left.head.i < tok.i else None
        before = self.doc[left.i - 1]
        if before.dep_ == "case" and before.head.i != tok.i and before.head in tok.subtree:
            return before
        return None

    def _ends(self, tok: SpacyToken) -> list[End]:
        """The places a phrase names: its head, or the names in a noun of place's phrase,
        and the places listed with it ("A and B")."""
        out: list[End] = []
        group = 0
        for t in [tok, *self._conjuncts(tok)]:
            if t is not tok and self._case(t) is not None:
                group += 1  # "to Sanaa or to Aden": two movements
            out += [dataclasses.replace(e, group=group) for e in self._end(t) if e not in out]
        return out

    def _end(self, tok: SpacyToken) -> list[End]:
        start = self.p.start(tok.i)
        if tok.i in self.names:
            a, b = self.names[tok.i]
            return [End(a, b, "toponym")]
        low = tok.lower_
        if low in {"there", "here", "where"} or (low == "which" and self._case(tok)):
            word = "where" if low == "which" else low  # "the area to which they were taken"
            return [End(start, self.p.end(tok.i), "anaphor", word)]
        place_noun = self._place_noun(tok)
        if place_noun and low in BORDER_NOUNS:  # "crossed its border", "Egypt's border"
            owner = next((c for c in tok.children if c.dep_ == "nmod:poss"), None)
            if owner is not None and owner.i in self.names:
                return [dataclasses.replace(e, border=True) for e in self._end(owner)]
            if owner is not None and owner.lower_ == "its":
                at = (self.p.start(owner.i), self.p.end(owner.i))
                return [End(*at, "anaphor", "country", border=True)]
            return []
        if not place_noun and tok.i not in self.names:  # "to relief camps in X" misparsed
            noun = next((c for c in tok.children if c.dep_ == "obj" and self._place_noun(c)), None)
            if noun is not None:
                return self._end(noun) or self._located_in(tok)
        if low == "capital" and (national := self._capital(tok)):
            return national
        inner = self._located_in(tok)  # "the town of X", "ISIS rule in X", "X camp"
        if inner and place_noun and low != singular(low):  # "other towns in X": in X
            return [dataclasses.replace(e, around=True) for e in inner]
        if inner or not place_noun:
            return inner or self._name(tok)
        named = [c for c in tok.children if c.dep_ in {"compound", "flat"} and c.tag_ == "NNP"]
        if named:  # "the Khazer camp": a name no gazetteer has, with its word of place
            words = [t for c in named for t in c.subtree if t.tag_ == "NNP"]
            first, last = min(words, key=lambda t: t.i), max(words, key=lambda t: t.i)
            start, end = self.p.start(first.i), self.p.end(last.i)
            return [End(start, end, "name", self._text(first, last), marked=True)]
        if low in {"centre", "center", "outskirts"}:  # "the city centre": the city
            low = next((c.lower_ for c in tok.children if c.lower_ in {"city", "town"}), low)
        det = next((c.lower_ for c in tok.children if c.dep_ in {"det", "nmod:poss"}), "")
        if det in OWNERS and low in {"country", "homeland"}:  # "fled their country"
            return [End(start, self.p.end(tok.i), "anaphor", "own country")]
        if det in {"the", "this", "that", "these", "those"} or (
            not det and low in {"town", "city"}
        ):
            many = 1
            if singular(low) != low:  # "those two cities": the last two named
                number = next((c.lower_ for c in tok.children if c.dep_ == "nummod"), "two")
                many = {"two": 2, "three": 3, "four": 4, "both": 2}.get(number, 2)
            return [End(start, self.p.end(tok.i), "anaphor", singular(low), many=many)]
        return []

    def _name(self, tok: SpacyToken) -> list[End]:
        """A proper name in an end's place that no gazetteer has: kept named ("Potocari"),
        unless it is an acronym ("ISIS", "SDF") or a day."""
        low = tok.lower_
        if not (tok.tag_.startswith("NNP") and tok.text[:1].isupper()) or low in CALENDAR:
            return []
        if tok.text.isupper() and len(tok.text) <= 6:
            return []
        span = [
            tok,
            *(c for c in tok.children if c.dep_ in {"compound", "flat"} and c.tag_ == "NNP"),
        ]
        first, last = self._hyphened(min(span, key=lambda t: t.i), max(span, key=lambda t: t.i))
        at = (self.p.start(first.i), self.p.end(last.i))
        return [End(*at, "name", self._text(first, last), marked=self._called_a_place(tok))]

    def _called_a_place(self, tok: SpacyToken) -> bool:
        """A name the text calls a place in apposition: "Las Anod, a town in Somaliland"."""
        return any(c.dep_ == "appos" and self._place_noun(c) for c in tok.children)

    def _hyphened(self, first: SpacyToken, last: SpacyToken) -> tuple[SpacyToken, SpacyToken]:
        """A name's tokens widened over hyphens ("Nagorno-Karabakh", "Port-au-Prince")."""
        doc = self.doc
        while first.i >= 2 and doc[first.i - 1].text == "-" and not doc[first.i - 2].whitespace_:
            first = doc[first.i - 2]
        while last.i + 2 < len(doc) and doc[last.i + 1].text == "-" and not last.whitespace_:
            last = doc[last.i + 2]
        return first, last

    def _text(self, first: SpacyToken, last: SpacyToken) -> str:
        return self.p.words(first.i, last.i)

    def _located_in(self, tok: SpacyToken) -> list[End]:
        """The named places inside a phrase: "the town of X", "homes in X", "X camp", "Yemen's
        capital Sanaa", "neighbouring X", "areas including X", "towns such as X"."""
        if tok.lower_ == "capital" and (name := self._named_after(tok)) is not None:
            return self._end(name)  # "West Darfur capital El Geneina", "the capital, X"
        named: list[End] = []
        owner: list[End] = []
        out: list[End] = []
        # "the Pacific island of X": X when it is a known place ("the Rakhine state of Y":
        # Rakhine; an X no gazetteer has: the place named before it, which locates it)
        own: list[End] = []
        after = [c for c in tok.children if c.dep_ in {"flat", "appos"} and c.i > tok.i
                 and c.i in self.names]  # fmt: skip
        for c in tok.children:
            if after and c.dep_ in {"compound", "amod"} and c.i < tok.i:
                continue  # "North Darfur capital El Fasher": the capital is El Fasher
            if c.dep_ == "nmod:poss" and c.i in self.names:
                owner += self._ends(c)  # "Yemen's capital", but "Lawrence's house in X": X
            elif c.dep_ in {"compound", "flat", "appos", "amod"}:
                if c.i in self.names and self.names[c.i] != self.names.get(tok.i):
                    named += self._ends(c)  # "two enclaves, A and B"
            elif c.dep_ == "nmod" and (
                (self._case(c) or "of") in LOCATING_CASES
                or (self._case(c) in {"including", "such as"} and self._place_noun(tok))
            ):
                out += self._ends(c)
                if self._case(c) == "of" and tok.lower_ in NAMED_BY_OF:
                    own += [e for e in self._ends(c) if e.kind == "toponym"]
            elif c.dep_ == "acl":  # "the countryside surrounding X", "areas held by X"
                out += [e for g in c.children if g.dep_ in {"obj", "obl"} for e in self._ends(g)]
        # "the X province in northwest Y": the phrase's own name, which "in Y" only locates
        return [e for e in own or named or out or owner if e.kind != "anaphor"]

    def _named_after(self, tok: SpacyToken) -> SpacyToken | None:
        """The place named right after a word, past a comma ("the capital, Kigali")."""
        k = tok.i + 1 + (tok.i + 2 < len(tok.doc) and tok.doc[tok.i + 1].text == ",")
        return tok.doc[k] if k < len(tok.doc) and k in self.names else None

    def _capital(self, tok: SpacyToken) -> list[End]:
        """ "Thailand's capital", "the Thai capital", "the Chadian capital", "the capital of
        Chad" with no name of its own after it: the words that say whose capital it is (the
        reader places it at that country's capital, or at the place named if no country)."""
        if self._named_after(tok) is not None:
            return []  # "the capital, X", "West Darfur capital El Geneina": X itself
        whose = [c for c in tok.children
                 if (c.dep_ in {"nmod:poss", "amod", "compound"} and c.i < tok.i)
                 or (c.dep_ == "nmod" and self._case(c) == "of")]  # fmt: skip
        if not whose:
            return []
        words = [t for c in whose for t in c.subtree] + [tok]
        first, last = min(words, key=lambda t: t.i), max(words, key=lambda t: t.i)
        return [End(self.p.start(first.i), self.p.end(last.i), "capital", self._text(first, last))]

    def _vehicular(self, tok: SpacyToken) -> bool:
        """A phrase of vehicles: "buses", "a convoy of 20 buses"."""
        inner = self._of_noun(tok)
        return any(listed(t.text, VEHICLE_NOUNS) for t in [tok, *([inner] if inner else [])])

    @staticmethod
    def _place_noun(tok: SpacyToken) -> bool:
        return listed(tok.text, PLACE_NOUNS)

    @staticmethod
    def _path(tok: SpacyToken) -> bool:
        """A road or route: "to X" on it says where the road goes, not where people did."""
        return listed(tok.text, PATH_NOUNS)

    def _conjuncts(self, tok: SpacyToken) -> list[SpacyToken]:
        out = []
        for c in tok.children:
            if c.dep_ == "conj":
                out += [c, *self._conjuncts(c)]
        return out

    def _describe(self, tok: SpacyToken | None) -> Mover | None:
        """What a noun phrase is as a mover: people, vehicles, aid, armed forces or nothing."""
        if tok is None:
            return None
        low, base = tok.lower_, lemma(tok.text)
        if low in {"more", "fewer", "less"}:  # "More than 170 civilians" parsed under "More"
            than = next((c for c in tok.children if self._case(c) == "than"), None)
            if than is not None:
                return self._describe(than)
        pronoun = tok.tag_ in {"PRP", "PRP$"} or low in PEOPLE_PRONOUNS
        count = self._count(tok)
        if low in QUANTITY_NOUNS or listed(low, CONTAINER_NOUNS) or tok.tag_ == "CD":
            inner = self._of_noun(tok)  # "thousands of residents", "a convoy of 1,000 people"
            described = self._describe(inner) if inner is not None else None
            if described is not None and described.kind:
                described.count = described.count or count
                described.carried = described.carried or low in VEHICLE_NOUNS
                described.span = (self.p.start(tok.i), described.span[1])
                described.definite = described.definite or self._definite(tok)
                described.aid = described.aid or any(
                    t.lower_ in {"humanitarian", "relief"} or lemma(t.text) in AID_NOUNS
                    for t in tok.children
                )  # "a humanitarian convoy of 20 trucks"
                described.group = low
                described.plural = described.plural or low != "one"  # "thousands of Luos"
                return described
        kind = self._kind(tok)
        span = [t for t in tok.subtree if not (t.dep_ == "case" and t.head.i == tok.i)]
        text = self.p.words(span[0].i, span[-1].i) if len(span) < 12 else self.p.words(tok.i, tok.i)
        mover = Mover(
            kind, tok.i, text, base, pronoun=pronoun,
            definite=self._definite(tok),
            plural=tok.tag_ in {"NNS", "NNPS"} or low in {"they", "them", "we", "us"}
            or listed(low, COLLECTIVE_NOUNS),  # "the family ... they"
            count=count,
        )  # fmt: skip
        mover.span = (self.p.start(span[0].i), self.p.end(span[-1].i))
        mover.others = [n for c in self._conjuncts(tok) if (n := self._count(c)) is not None]
        mover.group = singular(low) if not pronoun else low
        mover.home = self._home(tok)
        if base in ARRIVALS:  # "new arrivals in Uganda are fleeing X": X to Uganda
            mover.now = [e for c in tok.children if c.dep_ == "nmod" and self._case(c) == "in"
                         for e in self._ends(c)]  # fmt: skip
        mover.owner = next(
            (c.lower_ for c in tok.children
             if c.dep_ == "nmod:poss" and c.lower_ in {"his", "her", "their"}),
            "",
        )  # fmt: skip
        mover.carried = kind == "vehicles" and self._carries(tok)
        convoy = tok.head if tok.dep_ == "nmod" and tok.head.i < tok.i else None  # "a convoy of"
        mover.aid = kind == "vehicles" and any(
            lemma(t.text) in AID_NOUNS or t.lower_ in {"humanitarian", "relief"}
            for t in [*tok.subtree, *(convoy.children if convoy is not None else [])]
            if t.i != tok.i
        )
        return mover

    def _count(self, tok: SpacyToken) -> tuple[int, int] | None:
        """Where a phrase's number is: its numeral ("174 people"), or itself ("2,000 fled")."""
        if tok.tag_ == "CD":
            return self.p.start(tok.i), self.p.end(tok.i)
        numerals = [  # the one next to the noun, not a date's day ("On 3 March 500 people")
            c for c in tok.children
            if c.dep_ == "nummod" and not any(g.lower_ in CALENDAR for g in c.children)
        ]  # fmt: skip
        if not numerals:
            return None
        numeral = numerals[-1]
        first = min([numeral, *(g for g in numeral.children if g.dep_ in {"compound", "nummod"})],
                    key=lambda t: t.i)  # fmt: skip
        return self.p.start(first.i), self.p.end(numeral.i)

    @staticmethod
    def _definite(tok: SpacyToken) -> bool:
        """A phrase that refers back: "the evacuees", "these families", "their convoy"."""
        return any(
            c.lower_ in {"the", "these", "those", "this", "that", "their", "its"}
            for c in tok.children
            if c.dep_ in {"det", "nmod:poss"}
        )

    def _carries(self, tok: SpacyToken) -> bool:
        """Vehicles the phrase says carry people: "buses carrying evacuees", "boats full of
        families", "a convoy with 500 civilians"."""
        for c in tok.children:
            if c.dep_ in {"acl", "acl:relcl", "amod"}:
                if any(self._kind(o) == "people" for o in c.children if o.dep_ in {"obj", "obl"}):
                    return True
            elif c.dep_ == "nmod" and self._case(c) in {"of", "with"} and self._kind(c) == "people":
                return True
        return False

    def _nonmover(self, m: Mover) -> bool:
        tok = self.doc[m.head]
        return (
            tok.i in self.names
            or self._hazard(tok)
            or lemma(tok.text) in CASUALTY_NOUNS
            or tok.lower_ in CASUALTY_NOUNS
        )

    @staticmethod
    def _hazard(tok: SpacyToken) -> bool:
        """A storm, a fire, water, fighting: what moves or drives people, never people
        ("the flames", "Hurricane Georges", "Typhoon Haiyan"; "flood victims" are people)."""
        return tok.lower_ in NON_MOVERS or (
            tok.tag_ in {"NNP", "NNPS"}
            and any(
                c.dep_ in {"compound", "flat"} and c.lower_ in NON_MOVERS and c.i < tok.i
                for c in tok.children
            )
        )

    def _kind(self, tok: SpacyToken) -> str:
        low, base = tok.lower_, lemma(tok.text)
        if tok.i in self.names:
            return ""
        if low in CASUALTY_NOUNS or base in CASUALTY_NOUNS or self._hazard(tok):
            return ""
        if sense(tok.text, noun=True) is not None:
            return ""  # "evacuations began": a movement, not who moves
        if low in VEHICLE_NOUNS:
            return "vehicles"
        if low in AID_NOUNS or base in AID_NOUNS:
            return "aid"
        if low in MILITARY_NOUNS:
            return "military"
        if (
            tok.tag_ in {"PRP", "PRP$"}
            or low in PEOPLE_PRONOUNS
            or low in PEOPLE_NOUNS
            or base in PEOPLE_NOUNS
            or low in QUANTITY_NOUNS
            or tok.tag_ == "CD"  # "2,000 crossed"
        ):
            return "people"
        if tok.tag_ in {"NNP", "NNPS"}:
            return "people"  # a person named, or "Syrians", "Rohingya"
        if tok.tag_ == "NNS" and tok.text[:1].isupper() and tok.i > 0:
            return "people"  # a people's name the tagger took for a common noun ("Rohingyas")
        return ""

    def _of_noun(self, tok: SpacyToken) -> SpacyToken | None:
        """The noun a count is of: "thousands of residents" → residents."""
        return next((c for c in tok.children if c.dep_ == "nmod" and self._case(c) == "of"), None)

    def _home(self, tok: SpacyToken) -> list[End]:
        """Where a phrase says its people are from: "residents of X", "X residents", "people
        from X", "evacuees from X"."""
        out: list[End] = []
        lives = [g for c in tok.children if c.dep_ in {"acl", "acl:relcl"}
                 for v in [c, *self._conjuncts(c)] if lemma(v.text, LIVING) in LIVING
                 for g in v.children if g.dep_ == "obl"]  # fmt: skip
        if lives:  # "Egyptian nationals living in Libya", "raised in X" are from there
            return [e for g in lives for e in self._ends(g)]
        for c in [k for t in [tok, *self._conjuncts(tok)] for k in t.children]:
            case = self._case(c)
            if (c.dep_ == "nmod" and case in {"of", "from", "in"}) or (
                c.dep_ in {"compound", "amod"} and c.i in self.names
            ):
                out += self._ends(c)
            elif c.dep_ == "nmod:poss" and c.lower_ in {"town", "city", "village"}:
                out += self._end(c)  # "the town's residents": the town told of
            elif c.dep_ in {"acl", "acl:relcl"} and lemma(c.text) in {"flee", "leave", "escape"}:
                pass  # their own frame says it
            elif c.dep_ == "appos" and c.i not in self.names:  # "Abdullah, a resident of X"
                out += self._home(c)
        return out

    def _child(self, tok: SpacyToken, *deps: str) -> SpacyToken | None:
        return next((c for c in tok.children if c.dep_ in deps), None)


__all__ = [
    "ALONG",
    "AT_CASES",
    "CALENDAR",
    "CONVEYANCE",
    "DESTINATION_CASES",
    "LOCATING_CASES",
    "ORIGIN_CASES",
    "PATH_CASES",
    "End",
    "Mover",
    "Phrases",
    "listed",
]  # fmt: skip
