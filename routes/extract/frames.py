"""Frames: each word of movement in a parsed sentence, with the roles its dependents give.

A verb of movement (:data:`routes.extract.senses.VERBS`) or a noun of one ("the exodus
from X") takes its roles from its own dependents, never from words that are merely near:

- **who moves**: the subject ("residents fled"), the object of a verb that moves its object
  ("troops evacuated residents"), the subject of a passive ("residents were evacuated");
  with none of its own, the word it depends on lends one ("forced thousands to flee",
  "people fleeing X", "families who fled", "fled X and reached Y");
- **origin**: "from X", "out of X", the object of "flee", "leave", "escape";
- **destination**: "to X", "into X", "towards X", the object of "reach", "enter", "for X"
  after "flee", "leave", "head", "in/at X" after "arrive", "shelter", "seek refuge";
- **path**: "via X", "through X", "across X", the object of "cross".

A phrase is a place when its head is one of the story's toponyms, or a noun of place whose
own phrase names one ("the town of X", "shelters in X"), or a name no gazetteer has in an
end's place ("to the Khazer camp"). "The road to X" gives no end: the preposition belongs
to the noun, not the verb. Negation and the words a verb depends on set its status
("did not leave", "unable to cross": not made; "will be taken", "plan to leave",
"whether to cross": planned).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from routes.extract.lexicon import SPEECH_VERBS
from routes.extract.phrases import (
    ALONG,
    ANIMATE,
    AT_CASES,
    CALENDAR,
    CLAUSES,
    CONVEYANCE,
    DESTINATION_CASES,
    LEAVING_NOUNS,
    LOCATING_CASES,
    MODALS,
    NAMED_WAYS,
    NEGATIONS,
    OPENING,
    ORIGIN_CASES,
    PATH_CASES,
    RELATIVES,
    TIMES,
    VERBAL,
    End,
    Mover,
    Phrases,
    listed,
)
from routes.extract.senses import (
    ASPECT_WORDS,
    BORDER_NOUNS,
    CAUSES,
    FAILURE_WORDS,
    FLOW_NOUNS,
    HARM_VERBS,
    PERCEPTION_WORDS,
    PLAN_WORDS,
    REFUGE_NOUNS,
    VERBS,
    Sense,
    can_move,
    lemma,
    sense,
)

if TYPE_CHECKING:
    from spacy.tokens import Token as SpacyToken

    from routes.extract.parse import Parsed


#: Prepositions of people who go too: their home is the group's ("along with the people of X").
COMPANIONS = frozenset(["along with", "together with"])
#: A decision told as taken: "they decided to move to X" moved (not "plan to", "decide to").
DECIDED = frozenset(["decided", "chose", "chosen"])
#: What follows a dateline's place ("Manila: Residents fled"): no subject of the verb.
DATELINE_MARKS = frozenset([":", "—", "–", "-", "("])


@dataclass
class Frame:
    """One word of movement and its roles."""

    sentence: int  # 0-based
    trigger: int  # token index
    start: int  # the trigger's characters in the story
    end: int
    lemma: str
    sense: Sense
    mover: Mover | None
    origins: list[End] = field(default_factory=list)
    destinations: list[End] = field(default_factory=list)
    via: list[End] = field(default_factory=list)
    #: Where the movers are in the clause, when that is all it says ("stranded in X")
    located: list[End] = field(default_factory=list)
    #: "made", "planned" or "not made"
    status: str = "made"
    #: "for X" purpose of vehicles sent in: the people they fetch ("to collect civilians")
    fetches: Mover | None = None
    passive: bool = False
    #: A noun of movement that refers back ("the move", "the evacuation")
    definite: bool = False
    #: The year the clause puts it in ("fled to Syria in 2006"), when it says
    year: int | None = None
    #: It goes to a place it names only by a noun ("to camps"): an "in X" locates it
    unnamed_end: bool = False
    #: It goes on from where the story's last leg ended ("travel on to X")
    onward: bool = False
    #: The phrase of what carried them ("with a convoy of 20 buses"): its figures are this
    #: movement's vehicles
    means: tuple[int, int] | None = None
    #: Where what drove them out happened ("after fighting in X"), for an origin it leaves out
    causes: list[End] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return self.sense.kind


def frames(parsed: Parsed, toponyms: dict[int, int]) -> list[Frame]:
    """The frames of one parsed sentence; ``toponyms`` maps a toponym's start (story
    offset) to its end."""
    reader = _Reader(parsed, toponyms)
    found: dict[int, Frame] = {}
    for tok in parsed.doc:
        frame = reader.frame(tok)
        if frame is not None:
            found[tok.i] = frame
    for i, f in list(found.items()):
        for gap in reader.gapped(parsed.doc[i], f):
            found.setdefault(gap.trigger, gap)
    reader.strays(found)
    _share(list(found.values()))
    for f in found.values():  # "refugees leaving X arrived in Y": one movement, X to Y
        tok = parsed.doc[f.trigger]
        if tok.dep_ not in {"acl", "acl:relcl"}:
            continue
        for g in found.values():
            if g is not f and g.mover is not None and g.mover.head == tok.head.i:
                g.origins = g.origins or list(f.origins)
                g.destinations = g.destinations or list(f.destinations)
    for f in found.values():  # vehicles sent to fetch people: the people leave where they went
        tok = parsed.doc[f.trigger]
        sent = found.get(tok.head.i)
        if sent is None or sent is f or tok.dep_ not in {"xcomp", "advcl"}:
            continue
        if sent.mover is None or sent.mover.kind != "vehicles":
            continue
        if (
            f.mover is not None
            and f.mover.kind == "people"
            and any(c.dep_ == "mark" and c.lower_ == "to" for c in tok.children)
        ):
            sent.fetches = f.mover
            f.origins = f.origins or list(sent.destinations)
            f.destinations = f.destinations or list(sent.origins)  # back where they came from
    return list(found.values())


_RANK = {"people": 3, "military": 2, "vehicles": 1}
#: Verbs of movement only with one of their words: "set off", "set out", "set sail";
#: "dropped off in X"
WITH_PARTICLE = {
    "set": frozenset(["off", "out", "forth", "sail"]),
    "drop": frozenset(["off"]),
}


def _share(found: list[Frame]) -> None:
    """Frames of one mover in a sentence are one journey: "fled X to seek refuge in Y",
    "reached Y after escaping X", "left X and went to Y" give X to Y. They share the kind
    of their mover (only people flee, so what flees and then goes is people too)."""
    by_mover: dict[int, list[Frame]] = {}
    for f in found:
        if f.mover is not None and f.status != "not made":
            by_mover.setdefault(f.mover.head, []).append(f)
    for group in by_mover.values():
        kind = max((f.mover.kind for f in group if f.mover), key=lambda k: _RANK.get(k, 0))
        for f in group:
            if f.mover is not None and _RANK.get(f.mover.kind, 0) < _RANK.get(kind, 0):
                f.mover.kind = kind
        left = [f for f in group if f.origins and not f.destinations and f.kind != "return"]
        went = [f for f in group if f.destinations and not f.origins and f.kind != "return"]
        if len(left) == 1 and went:
            for f in went:
                f.origins = list(left[0].origins)
        stays = [f for f in group if f.kind == "stay" and f.located]
        for f in went:  # "They can stay in X or continue to Y": on from X
            if stays and f.lemma == "continue" and not f.origins:
                f.origins = list(stays[0].located)
    # a movement with no one of its own goes on from the one sentence's people leaving
    # ("Sudanese fleeing north face a crossing into Egypt")
    left = [f for f in found if not f.destinations and f.kind != "return"
            and f.mover is not None and f.mover.kind == "people" and f.status != "not made"
            and (f.origins or f.mover.home)]  # fmt: skip
    if len({id(f.mover) for f in left}) == 1:
        for f in found:
            if (
                f.destinations
                and not f.origins
                and f.kind != "return"
                and (f.mover is None or not f.mover.kind)
            ):
                f.origins, f.mover = list(left[0].origins), left[0].mover


class _Reader(Phrases):
    def strays(self, found: dict[int, Frame]) -> None:
        """Ends the parse hung away from their verb: a place under a frame's word, reached
        through nominal words only (no other word of movement, clause or way between),
        whose preposition (on it or on a word between) gives its role, fills an end the
        frame lacks ("crossed a river into Sudan", with Sudan hung on the river)."""
        used = {(e.start, e.end) for f in found.values()
                for e in [*f.origins, *f.destinations, *f.via, *f.located]}  # fmt: skip
        for i, (a, b) in self.names.items():
            tok = self.doc[i]
            if (a, b) in used or self.names.get(tok.head.i) == (a, b):
                continue  # a name's other words, or a place framed already
            case: str | None = None
            node, hopped = tok, False
            while node.head.i != node.i and node.i not in found:
                had, case = case, case or self._case(node)
                if (
                    node.dep_.split(":")[0] in CLAUSES
                    or (had and node.tag_.startswith("VB"))  # "as compared to X": its own
                    or self._path(node)
                    or node.lower_ in BORDER_NOUNS  # "to the border with Jordan"
                    or any(c.dep_.startswith("nsubj") for c in node.children)
                ):
                    break  # a clause of its own ("as shells hit the road to X"), or a way
                node = node.head
                noun = next((c for c in node.children if c.dep_ == "obj" and c.i in found
                             and found[c.i].kind == "noun"), None)  # fmt: skip
                if node.i not in found and noun is not None:
                    node = noun  # "stem a flood of refugees into X", "organised the evacuation"
                    break
                made = next((c for c in node.children if c.dep_ == "xcomp" and c.i in found), None)
                if node.i not in found and made is not None:
                    node, hopped = made, True  # "prompted 250,000 to flee into A and 50,000
                    break  # more into B"
            f = found.get(node.i)
            if f is None or case is None:
                continue
            own = self._case(tok) in DESTINATION_CASES  # not a case of a phrase it is part of
            if case in DESTINATION_CASES and f.destinations and (hopped or own):
                first = max(e.group for e in f.destinations) + 1  # a claim of its own
                f.destinations += [dataclasses.replace(e, group=first) for e in self._ends(tok)]
                used.add((a, b))
                continue
            if case in ORIGIN_CASES and self._range(tok):
                last = self._span_end(tok)
                f.destinations += [End(a, b, "toponym"), *last]
                used.update((e.start, e.end) for e in last)  # "from A to B": one range
            elif case in ORIGIN_CASES and not f.origins:
                f.origins.append(End(a, b, "toponym"))
            elif case in DESTINATION_CASES and not f.destinations:
                f.destinations.append(End(a, b, "toponym"))
            elif case in AT_CASES and f.sense.at and f.kind == "move" and not f.destinations:
                f.destinations.append(End(a, b, "toponym"))  # "sought refuge in X" hung on refuge
            used.add((a, b))

    def gapped(self, tok: SpacyToken, f: Frame) -> list[Frame]:
        """Clauses that leave the verb out ("Others went from A to B, and a few from C to
        D"): a conjunct without a verb of its own, with phrases of direction, moves its own
        people the same way."""
        out = []
        for c in tok.children:
            if c.dep_ != "conj" or c.tag_.startswith("VB") or c.i in self.names:
                continue
            gap = Frame(self.p.sentence, c.i, self.p.start(c.i), self.p.end(c.i), f.lemma,
                        f.sense, self._describe(c), status=f.status)  # fmt: skip
            for g in c.children:
                case = self._case(g)
                if g.dep_ in {"nmod", "obl", "orphan"} and case is not None:
                    self._place_role(gap, f.sense, case, g)
            if any(e.kind != "anaphor" for e in [*gap.origins, *gap.destinations]):
                out.append(gap)
        return out

    def frame(self, tok: SpacyToken) -> Frame | None:
        found = self._sense(tok)
        if found is None:
            return None
        base, s = found
        if s.moves == "object" and any(
            c.dep_ == "obj" and lemma(c.text) in REFUGE_NOUNS for c in tok.children
        ):
            base, s = "seek", VERBS["seek"]  # "took refuge in X": went to X
        if base == "take" and self._taken_in(tok):
            base, s = "receive", VERBS["receive"]  # "Turkey has taken in 3.7 million Syrians"
        back = any(c.lower_ == "back" for c in tok.children)
        if s.kind == "move" and back and self._child(tok, "obj") is None:  # not "sent money back"
            s = dataclasses.replace(s, kind="return")  # "crossed back into X": a return
        if base in WITH_PARTICLE and not {c.lower_ for c in tok.children} & WITH_PARTICLE[base]:
            return None  # "set off for X", not "set up reception centres in X"
        if base in ASPECT_WORDS and any(
            c.dep_ == "xcomp" and self._sense(c) is not None for c in tok.children
        ):
            return None  # "continue to flee": the fleeing is the movement
        if base == "continue" and any(
            c.dep_ == "obj" and lemma(c.text) != "way" and sense(c.text, noun=True) is None
            and not self._ends(c)
            for c in tok.children
        ):  # fmt: skip
            return None  # "continued harassment", not "continued their journey to X"
        if s.needs_object and not any(
            lemma(c.text) in s.needs_object
            for c in tok.children
            if c.dep_ in {"obj", "obl", "xcomp"}  # "sought refuge", refuge parsed as xcomp
        ):
            return None
        f = Frame(
            self.p.sentence, tok.i, self.p.start(tok.i), self.p.end(tok.i), base, s, None,
            passive=any(c.dep_ in {"aux:pass", "nsubj:pass"} for c in tok.children),
        )  # fmt: skip
        self._roles(tok, f)
        head = tok.head
        if s.kind == "noun" and tok.dep_ == "obj" and head.lower_ in ASPECT_WORDS:
            carrier = self._child(head, "nsubj")
            if carrier is not None and self._vehicular(carrier):  # "29 buses started evacuations"
                sub = list(carrier.subtree)
                f.means = (self.p.start(sub[0].i), self.p.end(sub[-1].i))
        if s.kind == "noun" and base in LEAVING_NOUNS and f.located and not f.origins:
            f.origins, f.located = f.located, []  # "evacuations in X" are out of X
        f.definite = s.kind in {"noun", "return"} and self._definite(tok)
        f.onward = base == "continue" or any(
            c.lower_ in {"on", "onward", "onwards"} and c.dep_ in {"compound:prt", "advmod"}
            for c in tok.children
        )
        f.mover = self._mover(tok, f)
        if f.mover is not None and not f.mover.home:  # "fled, along with the people of X"
            f.mover.home = [e for c in tok.children if c.dep_ == "obl"
                            and " ".join(k.lower_ for k in c.children
                                         if k.dep_ in {"case", "fixed"}) in COMPANIONS
                            for e in self._home(c)]  # fmt: skip
        if (
            f.mover is not None
            and not f.mover.kind
            and base in ANIMATE
            and not self._nonmover(f.mover)
        ):
            f.mover.kind = "people"  # only people flee: "the Yazidi community fled"
        if self._moves_nothing(f):
            return None
        f.status = self._status(tok)
        if s.kind == "move" and not f.origins and (f.destinations or s.place_object == "origin"):
            f.causes = self._causes(f)
        if s.place_object == "origin" and (f.origins or f.causes) and not f.destinations:
            f.destinations = self._fronted(tok)  # "At X, refugees said they had fled Y"
        f.year = next(
            (int(c.text) for c in tok.children
             if c.dep_ in {"obl", "obl:tmod", "nmod"} and c.text.isdigit() and len(c.text) == 4
             and 1800 <= int(c.text) <= 2100),
            None,
        )  # fmt: skip
        if not (f.origins or f.destinations or f.via or f.located or f.means) and f.mover is None:
            return None  # (one with vehicles of its own is a movement told again)
        return f

    def _moves_nothing(self, f: Frame) -> bool:
        """ "Flood waters poured into X", "Hurricane Georges moved into Haiti": no one."""
        if f.lemma in FLOW_NOUNS and (f.mover is None or f.mover.kind != "people"):
            return True
        return f.mover is not None and self._hazard(self.doc[f.mover.head])

    def _fronted(self, tok: SpacyToken) -> list[End]:
        """The place a sentence opens on ("At the Kurmuk border point, refugees said they
        had fled Y"), for a flight told in its main clause or in what its people said:
        where they are now."""
        root = tok
        while root.dep_ in {"ccomp", "conj"} and root.head.i != root.i:
            root = root.head
        if root.dep_ != "ROOT":
            return []
        for c in (c for c in root.children if c.dep_ == "obl"):
            sub = [t for t in c.subtree if t.dep_ != "punct"]
            comma = sub[-1].i + 1
            if (
                sub[0].i == 0
                and self._case(c) in {"in", "at"}
                and comma < len(self.doc)
                and self.doc[comma].text == ","
            ):  # its own place, else the first it names ("at the Kurmuk border point")
                return self._ends(c) or next((self._end(t) for t in sub if t.i in self.names), [])
        return []

    def _causes(self, f: Frame) -> list[End]:
        """Where the sentence says what drove people out happened: "fled to Y following
        fighting in X", "a spike of violence in X forced thousands to Y", "X violence"."""
        ends = {e.start for e in f.destinations}
        for c in self.doc:
            if not listed(c.text, CAUSES) or c.tag_ not in {"NN", "NNS", "VBG"}:
                continue
            roots = [c, c.head] if c.dep_ in {"nmod", "acl"} and c.head.tag_ == "NN" else [c]
            phrases = [d for r in roots for d in r.subtree]  # "a spike of violence in X"
            if c.dep_ == "nsubj":  # "as fighting raged in X"
                phrases += [d for d in c.head.children if d.dep_ == "obl"]
            for d in phrases:
                local = self._case(d) in AT_CASES | {"across", "throughout"}
                if (d.dep_ in {"nmod", "obl"} and local) or (d.dep_ == "compound" and d.head == c):
                    found = [e for e in self._ends(d) or self._located_in(d)
                             if e.kind != "anaphor" and e.start not in ends]  # fmt: skip
                    if found:
                        return found[:1]
        return []

    def _sense(self, tok: SpacyToken) -> tuple[str, Sense] | None:
        """A verb of movement (by its tag, or by verbs' dependents where the tagger slipped:
        "were flown" as an adjective), or a noun of one."""
        if not can_move(tok.text):
            return None
        tag = tok.tag_
        verbal = tag.startswith("VB") or any(c.dep_ in VERBAL for c in tok.children)
        if tag in {"NN", "NNS"} and not verbal:
            found = sense(tok.text, noun=True)
            if found is not None or any(c.dep_ == "det" for c in tok.children):
                return found
            # a headline's verb read as a noun: "Civilians flee from X", "Refugees Flee Burundi"
            verbal = self._directed(tok) or self._misread_object(tok) is not None
        if tag == "JJ" and tok.dep_ == "acl":  # "people headed for X", tagged an adjective
            verbal = self._directed(tok)
        if not (verbal or tok.lower_ == "bound"):
            return None
        found = sense(tok.text, noun=False)
        if found is None and tag in {"NN", "NNS"}:  # a noun with a copula's subject is still
            found = sense(tok.text, noun=True)  # one: "the weekend was an exodus of residents"
        return found

    def _directed(self, tok: SpacyToken) -> bool:
        """A word with a phrase of direction of its own ("from X", "to Y", "for Y")."""
        return any(self._case(c) in {*ORIGIN_CASES, *DESTINATION_CASES, "for"}
                   for c in tok.children)  # fmt: skip

    def _misread_object(self, tok: SpacyToken) -> SpacyToken | None:
        """The place right after a verb the tagger read as a noun, in a headline or a
        sentence like one ("Refugees Flee Burundi"): parsed as the verb's head (the verb a
        compound of it) or as its apposition, it is the verb's object."""
        if tok.i + 1 >= len(self.doc) or tok.i + 1 not in self.names:
            return None
        after = self.doc[tok.i + 1]
        if (tok.head == after and tok.dep_ in {"compound", "nmod:desc"}) or (
            after.head == tok and after.dep_ == "appos"
        ):
            return after
        return None

    def _dependents(self, tok: SpacyToken, s: Sense) -> list[SpacyToken]:
        """A word's dependents; a noun of movement that is the subject of a verb of aspect
        ("evacuations began for thousands from X") takes that verb's phrases too, and a verb
        the phrases the parse hung on its particle ("sent them back to their country")."""
        out = list(tok.children)
        out += [g for c in tok.children if c.dep_ in {"advmod", "compound:prt"}
                and c.lower_ in {"back", "away", "out", "off", "over"}
                for g in c.children if g.dep_ in {"obl", "nmod"}]  # fmt: skip
        argument = s.kind in {"noun", "return"} and tok.dep_ in {"nsubj", "nsubj:pass", "obj"}
        head = tok.head
        if argument and (head.lower_ in ASPECT_WORDS or lemma(head.text) in OPENING):
            # "buses started evacuations in X", "a corridor would open from X to Y"
            out += [c for c in tok.head.children if c.dep_ in {"obl", "advmod"}]
        return out

    def _roles(self, tok: SpacyToken, f: Frame) -> None:
        s = f.sense
        if s.kind != "noun" and (misread := self._misread_object(tok)) is not None:
            self._object(f, s, misread)  # "Refugees Flee Burundi"
        for child in self._dependents(tok, s):
            dep = child.dep_
            if dep in {"obl", "nmod", "advmod", "obl:npmod", "advcl", "xcomp"} or (
                dep == "obj" and s.kind == "noun"
            ):
                case = self._case(child)
                if (
                    case is None
                    and dep in {"advmod", "obl", "obl:npmod"}
                    and child.lower_ == "home"
                ):
                    f.destinations.append(
                        End(self.p.start(child.i), self.p.end(child.i), "anaphor", "home")
                    )
                    continue  # "returned home": where they came from
                if case is None and dep in {"advmod"} and child.lower_ in {"there", "here"}:
                    self._place_role(f, s, "at" if s.at else "", child)
                    continue
                if case is None:
                    if child.i in self.names and dep != "obj":
                        self._object(f, s, child)  # "fled Malakal", Malakal parsed xcomp
                    continue
                if case in {"with", "by", "in", "aboard", "on"} and self._vehicular(child):
                    sub = list(child.subtree)
                    f.means = (self.p.start(sub[0].i), self.p.end(sub[-1].i))
                self._place_role(f, s, case, child)
            elif dep == "obj":
                self._object(f, s, child)
            elif dep == "compound" and s.kind in {"noun", "return"} and f.lemma not in NAMED_WAYS:
                # "the Aleppo evacuation": the place it is of ("the Bab al-Hawa crossing" is
                # the crossing's own name)
                f.origins += self._ends(child)
        for arg in self._dependents(tok, s):  # by the relation's family: "by boat from X"
            if arg.dep_.split(":")[0] in {"obj", "obl", "nsubj"} or (
                s.kind == "noun" and arg.dep_ == "nmod" and self._case(arg) == "of"
            ):
                self._raise(f, s, arg)
        if s.place_object == "origin" and f.located and not f.origins:
            f.origins, f.located = f.located, []  # "fled their homes in and around X"
        if f.unnamed_end and f.located and not f.destinations:
            f.destinations, f.located = f.located, []  # "in X" locates the place they went to
        inward = next((c for c in tok.children if c.lower_ == "in"
                       and c.dep_ in {"advmod", "compound:prt"}), None)  # fmt: skip
        if s.kind == "move" and inward is not None and f.origins and not f.destinations:
            at = (self.p.start(inward.i), self.p.end(inward.i))
            f.destinations.append(End(*at, "anaphor", "inward"))  # "streaming in from X": here
        # "fled the shelling in X", "left their homes in X", "displaced by floods in X": the
        # place of what they left or what drove them out
        if s.place_object == "origin" and not f.origins:
            for child in tok.children:
                if child.dep_ == "obl:agent" or (child.dep_ == "obj" and not self._ends(child)):
                    for c in [child, *self._conjuncts(child)]:  # "fled hunger and war in X"
                        f.origins += self._located_in(c)
                        f.origins += [  # "fled the war that has engulfed X"
                            e for r in c.children if r.dep_ == "acl:relcl"
                            for g in r.children if g.i in self.names
                            and g.dep_ in {"obj", "xcomp", "obl"} for e in self._end(g)
                        ]  # fmt: skip

    def _taken_in(self, tok: SpacyToken) -> bool:
        """ "Took in" people: its particle, or the "in" right after it that the parse gave
        the people as their preposition ("has taken in 3.7 million Syrians")."""
        after = tok.i + 1 < len(tok.doc) and tok.doc[tok.i + 1].lower_ == "in"
        return lemma(tok.text) == "take" and (
            any(c.dep_ == "compound:prt" and c.lower_ == "in" for c in tok.children) or after
        )

    def _object(self, f: Frame, s: Sense, child: SpacyToken) -> None:
        """A place the verb takes with no preposition: the role its sense gives its object
        ("fled X": the origin; "reached X": the destination; "crossed X": the way)."""
        if child.lower_ == "home" and not any(c.dep_ == "nmod:poss" for c in child.children):
            at = (self.p.start(child.i), self.p.end(child.i))
            f.destinations.append(End(*at, "anaphor", "home"))  # "fled home": went home
            return
        place = (  # "reach Tumbes City", "fled Las Anod, a town in Somaliland"
            child.i in self.names or self._place_noun(child) or self._called_a_place(child)
        )
        moved = None if place else self._describe(child)
        if moved is not None and moved.kind == "people":
            return  # "carrying 1,024 people headed for X": who, not where (their home is theirs)
        ends = [dataclasses.replace(e, bare=True) for e in self._ends(child)]
        role = s.place_object
        if role == "via" and ends and all(e.border for e in ends):
            role = "destination"  # "crossed its border", "Egypt's border"
        if role == "origin":
            f.origins += ends
        elif role == "destination":
            f.destinations += ends
        elif role == "via":
            f.via += ends

    def _raise(self, f: Frame, s: Sense, arg: SpacyToken) -> None:
        """A phrase of direction the parser hung on an argument belongs to the verb ("took
        fighters and their families to X", "boarded buses for X"), but not on a way ("the
        road to X" says where the road goes) unless people go along it ("trudging along a
        highway toward X")."""
        crossed = s.place_object == "via" and arg.dep_ == "obj"  # "crossed a river into X"
        if self._path(arg) and self._case(arg) not in ALONG and not crossed:
            return
        # "for X" on vehicles ("buses for Cairo"), or on a place left ("fled Mosul for X")
        takes_for = listed(arg.text, CONVEYANCE) or (s.for_end and bool(self._ends(arg)))
        for c in [arg, *self._conjuncts(arg)]:
            self._raise_from(f, s, c, takes_for, depth=2)

    def _raise_from(self, f: Frame, s: Sense, c: SpacyToken, vehicle: bool, depth: int) -> None:
        """The phrases of direction under ``c``, and under the place phrases in it ("from
        areas in the city to the camp"); "for X" only on a vehicle ("buses for Cairo")."""
        for g in [k for t in [c, *self._conjuncts(c)] for k in t.children]:
            if g.dep_ != "nmod":
                continue
            case = self._case(g)
            if case in AT_CASES and c.lower_ in TIMES | CALENDAR:
                self._place_role(f, s, case, g)  # "sought refuge for the night in X"
            elif case in LOCATING_CASES and depth > 1:
                self._raise_from(f, s, g, vehicle, depth - 1)
            elif case is not None and case not in LOCATING_CASES and (case != "for" or vehicle):
                self._place_role(f, s, case, g)

    def _place_role(self, f: Frame, s: Sense, case: str, child: SpacyToken) -> None:
        ends = self._ends(child)
        if not ends:
            if case in DESTINATION_CASES and self._place_noun(child):
                f.unnamed_end = True  # "taken to rebel-held areas in the province of X"
            return
        if case in ORIGIN_CASES and self._range(child):
            f.destinations += [*ends, *self._span_end(child)]  # "all over X, from A to B"
        elif case in ORIGIN_CASES:
            f.origins += ends
        elif case in DESTINATION_CASES or (case == "for" and s.for_end):
            # a phrase of its own is a claim of its own ("fled to A and another 50,000 to B")
            first = max((e.group + 1 for e in f.destinations), default=0)
            f.destinations += [dataclasses.replace(e, group=first + e.group) for e in ends]
        elif case in PATH_CASES:
            passing = case in {"across", "over", "past"}
            f.via += [dataclasses.replace(e, passing=passing) for e in ends]
        elif case in AT_CASES or case == "at":
            if s.place_object == "via" and case == "at":
                f.via += ends  # "crossed into Turkey at Reyhanli"
            elif s.at_origin:
                f.origins += ends
            elif (s.at and s.kind != "stay") or s.place_object == "destination":
                # "reached safety at the X camp"
                f.destinations += ends
            else:
                f.located += ends

    def _mover(self, tok: SpacyToken, f: Frame) -> Mover | None:
        s = f.sense
        subjects = [c for c in tok.children if c.dep_ in {"nsubj", "nsubj:pass"}]
        subject = next(  # two parsed ("Buses carrying 1,500 people were evacuated"): the people
            (c for c in subjects if self._kind(c) == "people"), subjects[0] if subjects else None
        )
        obj = self._child(tok, "obj")
        if s.kind == "noun":
            of = next((c for c in tok.children if c.dep_ == "nmod" and self._case(c) == "of"), None)
            poss = self._child(tok, "nmod:poss")
            beneficiary = next(
                (c for c in self._dependents(tok, s)
                 if c.dep_ in {"nmod", "obl"} and self._case(c) == "for"
                 and self._kind(c) == "people"),
                None,
            )  # fmt: skip
            if beneficiary is not None:  # "evacuations for thousands of civilians from X"
                self._raise(f, s, beneficiary)
            candidate = of if of is not None else poss if poss is not None else beneficiary
            people = of is not None and (m := self._describe(of)) is not None and m.kind == "people"
            if of is not None and not people and self._ends(of):
                f.origins += self._ends(of)  # "the evacuation of Aleppo", not "of 2,000 Syrians"
                return None
            mover = self._describe(candidate) if candidate is not None else None
            return mover if mover is not None and mover.kind else None
        if s.kind == "receive":
            if subject is not None:
                f.destinations += self._ends(subject)
            if obj is None and self._taken_in(tok):  # "in" read as the people's preposition
                obj = next((c for c in tok.children if c.dep_ == "obl" and self._case(c) == "in"),
                           None)  # fmt: skip
            return self._describe(obj) if obj is not None else None
        if obj is not None and s.moves == "object":
            moved = self._moved(obj)
            if moved is not None and moved.kind and lemma(obj.text) not in CONVEYANCE:
                if subject is None and tok.dep_ == "xcomp":  # "X continues to deport them"
                    subject = self._child(tok.head, "nsubj")
                if (
                    subject is not None
                    and subject.i in self.names
                    and not any(e.kind == "toponym" for e in f.origins)
                ):
                    f.origins += self._ends(subject)  # "Turkey deported Syrians": from Turkey
                return moved
        if subject is not None:
            if subject.lower_ in RELATIVES and tok.dep_ == "acl:relcl":
                return self._describe(tok.head)
            town = (
                subject.i in self.names
                and s.kind == "move"
                and (s.moves == "subject" or (f.passive and s.place_object == "origin"))
            )  # "El Fasher fled", "Chaitén was evacuated": the town's people left it
            after = tok.doc[subject.i + 1] if subject.i + 1 < tok.i else None
            if town and not (after is not None and after.text in DATELINE_MARKS):
                f.origins += self._ends(subject)  # "El Fasher fled": the town's people
                return self._lent(tok)
            return self._describe(subject)
        dated = next(
            (g for c in tok.children if c.dep_ == "obl" and c.i < tok.i and c.lower_ in CALENDAR
             for g in c.children if g.tag_ == "CD" and g.i > c.i),
            None,
        )  # fmt: skip
        if dated is not None:  # "On Thursday 800 of them returned": the count hung on the day
            return self._describe(dated)
        counted = next(
            (c for c in tok.children if c.dep_ == "obl" and c.i < tok.i
             and any(g.dep_ == "nummod" for g in c.children) and self._kind(c) == "people"),
            None,
        )  # fmt: skip
        if counted is not None:  # "Up to 45,000 migrants cross", the count read as a phrase
            return self._describe(counted)
        named = next((c for c in tok.children if c.dep_ == "compound" and c.i < tok.i), None)
        if named is not None and tok.tag_.startswith("NN"):
            return self._describe(named)  # the headline's "Civilians flee ..."
        return self._lent(tok)

    def _moved(self, obj: SpacyToken) -> Mover | None:
        """Who an object is, as a mover: people even with a place named in them ("deported
        thousands of Haitians"), else only what names no place ("ordered the town to")."""
        moved = self._describe(obj)
        if moved is not None and moved.kind != "people" and self._ends(obj):
            return None
        return moved

    def _lent(self, tok: SpacyToken) -> Mover | None:
        """A mover from the word this one depends on: "forced thousands to flee",
        "people fleeing X", "fled X and reached Y", "began evacuating"."""
        head, dep = tok.head, tok.dep_
        if head.i == tok.i:
            return None
        if dep == "advcl" and head.lower_ in SPEECH_VERBS and head.dep_ in {"advcl", "parataxis"}:
            head = head.head  # "reached X after escaping Y, officials said": not the officials
        if dep in {"acl", "acl:relcl"}:
            described = self._describe(head)
            verb = head.head
            if (
                dep == "acl"
                and (described is None or not described.kind)
                and any(c.dep_ == "mark" and c.lower_ == "to" for c in tok.children)
                and head.dep_ in {"obj", "obl"}
                and verb.tag_.startswith("VB")
            ):  # "crossed a river to reach X": the ones who crossed, not the river
                subject = self._child(verb, "nsubj", "nsubj:pass")
                return self._describe(subject) if subject is not None else self._lent(verb)
            return described
        if dep == "xcomp":
            obj = self._child(head, "obj")
            moved = self._moved(obj) if obj is not None else None
            if moved is not None and (moved.kind or self._sense(head) is None):
                return moved  # "forced thousands to flee", not "fleeing war crossed"
        if dep in {"xcomp", "conj", "advcl", "ccomp"}:
            if lemma(head.text, HARM_VERBS) in HARM_VERBS:
                return None  # "500 were killed and thousands fled": the dead did not flee
            subject = self._child(head, "nsubj", "nsubj:pass")
            if subject is not None:
                if subject.lower_ in RELATIVES and head.dep_ == "acl:relcl":
                    return self._describe(head.head)
                return self._describe(subject)
            return self._lent(head) if dep != "ccomp" else None
        return None

    def _status(self, tok: SpacyToken) -> str:
        status = "made"
        t: SpacyToken | None = tok
        for _ in range(4):
            if t is None or (t is not tok and t.lower_ in PERCEPTION_WORDS):
                break  # "could be seen emerging": the seeing is modal, not the emerging
            for c in t.children:
                low = c.lower_
                if c.dep_ in {"advmod", "neg", "det"} and low in NEGATIONS:
                    return "not made"
                if c.dep_ in {"aux", "aux:pass"} and low in MODALS:
                    status = "planned"
                if c.dep_ == "mark" and low in {"whether", "if"}:
                    status = "planned"
                if (
                    c.dep_ == "advcl"
                    and any(m.dep_ == "mark" and m.lower_ in {"if", "unless"} for m in c.children)
                    and t is tok
                    and tok.tag_ != "VBD"
                ):  # "to evacuate residents if necessary"
                    status = "planned"
            low = t.lower_
            if t is not tok and low in FAILURE_WORDS:
                return "not made"
            if t is not tok and low in PLAN_WORDS and low not in DECIDED:
                status = "planned"
                held = t.head if t.dep_ == "obj" else None  # "do not have any plans to return"
                if held is not None and any(
                    c.dep_ in {"advmod", "neg"} and c.lower_ in NEGATIONS for c in held.children
                ):
                    return "not made"
            if t.dep_ == "ccomp":
                break  # "an official told AFP that people have crossed": reported, not planned
            if t.dep_ in {"xcomp", "advcl"} or (t is tok and t.dep_ == "acl"):
                t = t.head if t.head.i != t.i else None
            else:
                break
        return status


__all__ = ["Frame", "frames"]
