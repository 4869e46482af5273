"""Movers followed across sentences: each frame's group or person, its track, and the legs.

A story tells a journey over several sentences ("The family left Homs at dawn. By night
they had reached the border."). Each frame's mover is linked to an earlier mention of the
same group or person when the text refers back to it: a pronoun ("they", "she"), a definite
phrase ("the evacuees", "the family"), or the same name. Each group keeps its track: where
it was last said to be (left, reached, stranded in). A frame that states where people went
but not where from takes the group's last place, and the leg names the sentence it came
from; a frame with no earlier mention of its group stays open. A return is its own leg, in
its own direction. Nothing stands in for a whole story ("the main origin").
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from routes.extract.frames import End, Frame, Mover
from routes.extract.senses import singular


def _words(text: str) -> list[str]:
    """The words of a whitespace-separated list."""
    return text.split()


__all__ = ["Leg", "Party", "Tracker"]

#: How many sentences back a pronoun or a definite phrase looks for its group.
REACH = 3
#: Nouns that a definite phrase uses for any group moved before ("the evacuees").
GENERIC_MOVERS = frozenset(
    _words("""
    people civilian resident refugee evacuee family migrant survivor displaced passenger
    group crowd caravan convoy bus those others other majority most rest many some all both
    remainder
    """)
)
#: Words of a part of a group named before ("the majority", "most", "the rest").
QUANTITIES = frozenset(_words("majority most rest remainder other others many some several few"))
#: Pronouns of the first person: a speaker's own group.
FIRST_PERSON = frozenset(_words("i we me us"))
#: Verbs of arriving: "arrived from X" with no place of its own arrived where the group is.
ARRIVING = frozenset(_words("arrive come land reach"))
#: Verbs of leaving: with no place of their own, they leave where the story is leaving.
LEAVING = frozenset(
    _words(
        "flee leave escape evacuate displace abandon desert vacate exodus evacuation flight "
        "departure"
    )
)
#: Verbs that go on with a journey already told: their missing origin is the group's place.
CONTINUING = frozenset(
    _words("""
    arrive reach enter continue head go proceed travel move cross make walk trek march
    board fly sail drive ride land dock disembark transfer pour stream flood straggle trudge
    limp flock settle shelter camp cram crowd squeeze huddle house accommodate lodge seek find
    bring take transport bus ship airlift ferry truck relocate loop
    """)
)


#: Verbs of staying that say where people who left now live ("where he lives in X").
SETTLED = frozenset(["live", "stay"])
#: Nouns of people who were moved: where they stay is where they went ("refugees from X are
#: living in Y")
DISPLACED = frozenset(_words("refugee evacuee displaced idp deportee exile asylum-seeker"))


@dataclass
class Party:
    """A group or a person the story follows."""

    id: int
    lemma: str
    plural: bool
    sentence: int  # where it was last mentioned (0-based)
    #: Where it was last said to be, the sentence that says so, and how ("left", "at")
    place: str | None = None
    place_sentence: int = -1
    how: str = ""
    #: Where it first left: "home", for a return
    home: str | None = None
    #: Told in the first person ("we", "I"): a speaker's own, not the group told of
    first: bool = False


@dataclass
class Leg:
    """One frame's movement, its ends as refs (candidate refs or "unresolved:<key>")."""

    frame: Frame
    party: Party | None
    origins: list[str]
    destinations: list[str]
    via: list[str] = field(default_factory=list)
    #: Where a missing origin came from (a key of ``routes.extract.movements.ORIGIN_NOTES``:
    #: "track", "scene", "previous", "home"), and the sentence that gave it (0-based)
    origin_from: str = ""
    origin_sentence: int = -1


#: How many sentences back a return with no origin of its own looks for where people went.
REFUGE_WITHIN = 12
#: How many sentences on a group's origin may still be told (:meth:`Tracker._told_later`).
LATER_WITHIN = 2


#: Verbs that send people to their own country: where it goes unsaid, a people's name says it
SENT_HOME = frozenset(["deport", "repatriate"])


class Tracker:
    """Links frames' movers into parties and turns frames into legs, in text order."""

    def __init__(
        self,
        refs: Callable[[End, Frame], list[str]],
        nested: Callable[[str, str], bool],
        towns: Callable[[int], list[str]] = lambda sentence: [],
    ) -> None:
        #: End → its refs (toponym refs, unresolved names; anaphors resolved), or []
        self.refs = refs
        #: Whether one place holds the other (a country and a town in it)
        self.nested = nested
        #: Sentence → the towns it names that can be ends
        self.towns = towns
        self.parties: list[Party] = []
        self._by_head: dict[tuple[int, int], Party] = {}
        self._scenes: list[tuple[str, int]] = []  # every place told left, and its sentence
        #: every place told reached, its sentence, and whether told in the first person
        self._refuges: list[tuple[str, int, bool]] = []
        self._last_end: tuple[str, int] | None = None  # where the last leg ended, and when
        self._frames: list[Frame] = []
        self._framed: dict[int, set[str]] = {}  # sentence → the places its frames name

    @property
    def scene(self) -> tuple[str, int] | None:
        """The place the story last told people leaving, and its sentence."""
        return self._scenes[-1] if self._scenes else None

    def legs(self, frames: list[Frame]) -> list[Leg]:
        self._frames = frames
        out: list[Leg] = []
        for f in sorted(frames, key=lambda f: f.start):
            party = self._party(f)
            leg = self._leg(f, party)
            if leg is not None:
                out += self._split(leg, f)
        self._told_later(out)
        return out

    def _told_later(self, legs: list[Leg]) -> None:
        """An origin a group's later leg names, told soon after: more finely ("set out from
        southern Mexico ... had departed from Tapachula") or at all ("she came to Saitama ...
        she had fled Iwaki")."""

        def fits(leg: Leg, left: str) -> bool:
            if leg.origins:
                return left not in leg.origins and all(self.nested(o, left) for o in leg.origins)
            return bool(leg.destinations) and bool(self._apart([left], leg.destinations))

        for k, leg in enumerate(legs):
            for later in (legs[j] for j in range(k + 1, len(legs))):  # stops in a few legs
                if later.frame.sentence - leg.frame.sentence > LATER_WITHIN:
                    break
                if (
                    leg.party is not None
                    and not leg.origin_from  # as stated, or not at all
                    and later.party is leg.party
                    and later.origins
                    and not later.origin_from
                    and not (leg.origins and later.destinations)
                    and fits(leg, later.origins[0])
                ):
                    self._from(leg, later.origins[0], "track", later.frame.sentence)
                    break

    def _split(self, leg: Leg, f: Frame) -> list[Leg]:
        """A leg per destination stated with its own preposition ("to A or to B")."""
        groups = sorted({e.group for e in f.destinations})
        if len(groups) < 2:
            return [leg]
        out = []
        for g in groups:
            ends = self._refs([e for e in f.destinations if e.group == g], f)
            if ends:
                out.append(dataclasses.replace(leg, destinations=ends))
        return out or [leg]

    # -- who: the group a mover refers to

    def _party(self, f: Frame) -> Party | None:
        m = f.mover
        if m is None and f.kind == "noun" and f.definite:
            # "the move westward to X", "the evacuation": the movement told just before
            recent = [p for p in reversed(self.parties) if f.sentence - p.sentence <= REACH]
            placed = (p for p in recent if p.place is not None)
            return next(placed, recent[0] if recent else None)
        if m is None or m.kind not in {"people", "vehicles", "military"}:
            return None
        key = (f.sentence, m.head)
        if key in self._by_head:  # "fled X and reached Y": one subject, one group
            return self._by_head[key]
        earlier = self._refers_to(m, f.sentence)
        if earlier is not None:
            earlier.sentence = f.sentence
            self._by_head[key] = earlier
            return earlier
        party = Party(len(self.parties), m.group, m.plural, f.sentence)
        party.first = m.text.lower() in FIRST_PERSON
        self.parties.append(party)
        self._by_head[key] = party
        return party

    def _refers_to(self, m: Mover, sentence: int) -> Party | None:
        recent = [p for p in reversed(self.parties) if sentence - p.sentence <= REACH]
        if m.owner and m.kind == "people":  # "his family", "their children": with them
            return next((p for p in recent if p.plural == (m.owner == "their")), None)
        if m.pronoun:
            first = m.text.lower() in FIRST_PERSON  # a speaker's "we" is not "they" told of
            return next((p for p in recent if p.plural == m.plural and p.first == first), None)
        if m.definite or m.group in QUANTITIES:
            same = next((p for p in recent if p.lemma == m.group), None)
            head = m.text.split()[-1]
            people = m.definite and head.istitle() and m.kind == "people"  # "the Congolese"
            if same is not None or (m.group not in GENERIC_MOVERS and not people):
                return same
            placed = next((p for p in recent if p.place is not None), None)
            return placed or (recent[0] if recent else None)
        if m.group and m.text[:1].isupper() and not m.plural:
            return next((p for p in recent if p.lemma == m.group), None)  # a person named again
        if m.plural and m.count is None and m.kind == "people":  # "rebels ... the rebels"
            return next((p for p in recent if p.lemma == m.group), None)
        return None

    # -- where: the frame's ends, filled in from the group's track

    def _leg(self, f: Frame, party: Party | None) -> Leg | None:
        """The frame's movement, its ends filled in from where the story has its people."""
        anaphors = [e for e in f.destinations if e.kind == "anaphor" and e.word == "home"]
        destinations = self._refs([e for e in f.destinations if e not in anaphors], f)
        if anaphors and not destinations:
            destinations = self._refs(anaphors, f)  # "Mozambicans went home": Mozambique
        if anaphors and not destinations and party is not None and party.home is not None:
            destinations = [party.home]  # "returned home"
        origins = self._refs(f.origins, f)
        if f.lemma in SENT_HOME and not destinations and f.mover is not None:
            home = End(*f.mover.span, "anaphor", "home")  # "deported Haitians": to Haiti
            destinations = [r for r in self._refs([home], f) if r not in origins]
        if (
            destinations
            and all(e.around for e in f.destinations)
            and origins
            and all(self.nested(d, o) for d in destinations for o in origins)
        ):
            destinations = []  # "to other towns in X", X holding the town they left
        leg = Leg(f, party, origins, destinations, self._refs(f.via, f))
        through = leg.origins and leg.via and not leg.destinations and f.kind == "move"
        passing = any(e.passing for e in f.via)  # "over the Blue Nile" is no stop
        if through and not passing and f.sense.place_object != "via":  # "fled X through Y"
            leg.destinations, leg.via = leg.via[-1:], leg.via[:-1]
        self._origin(leg, party)
        self._arrival(leg, party)
        self._remember(leg)
        located = self._refs(f.located, f)
        settled = self._settled(f, party, located, origins)
        leg = settled or leg
        if party is not None and f.status != "not made":
            self._move(party, leg, located, f.sentence)
        if not (leg.origins or leg.destinations):
            self._left_here(f)
        if (f.kind == "stay" and settled is None) or not (leg.origins or leg.destinations):
            return None
        return leg

    def _origin(self, leg: Leg, party: Party | None) -> None:
        """An origin a sentence names more coarsely than the story knows, or leaves out."""
        f, stated = leg.frame, list(leg.origins)
        if (
            stated
            and party is not None
            and party.place is not None
            and party.how == "left"
            and all(self.nested(o, party.place) for o in stated)
        ):  # "departed from X ... set out from southern Mexico": X, the part it left
            self._from(leg, party.place, "track", party.place_sentence)
        last = self._last_end
        if not stated and leg.destinations and f.onward and last and f.sentence - last[1] <= 1:
            self._from(leg, last[0], "previous", last[1])  # "travel on to X"
        homes = self._refs(f.mover.home, f) if f.mover is not None else []
        if stated and homes and all(self.nested(o, homes[0]) for o in stated):
            leg.origins = homes[:1]  # "In Israel, residents of Kiryat Shmona fled": the town
        if not leg.origins and homes and f.kind != "return":
            apart = self._apart(homes, leg.destinations)  # "residents of A and B": both
            if apart:
                leg.origins, leg.origin_from, leg.origin_sentence = apart, "home", f.sentence
        if (
            not leg.origins
            and leg.destinations
            and party is not None
            and party.place is not None
            and self._apart([party.place], leg.destinations)
            and (
                f.lemma in CONTINUING | LEAVING  # "fled X ... many later left for Y"
                or f.kind == "return"
                or (f.kind == "noun" and f.definite)
            )
            and not (f.kind == "return" and party.how == "left")  # back to, not from, X
        ):
            self._from(leg, party.place, "track", party.place_sentence)
        if (
            not leg.origins
            and leg.destinations
            and party is not None
            and party.place is not None
            and party.home is not None
            and f.lemma in CONTINUING
            and all(self.nested(party.place, d) for d in leg.destinations)
            and self._apart([party.home], leg.destinations)
        ):  # "arrived in Armenia from X ... are housed in Goris": from X to Goris
            self._from(leg, party.home, "track", party.place_sentence)
        if not leg.origins and leg.destinations and f.kind == "return" and party is not None:
            refuge = next(
                (
                    r
                    for r in reversed(self._refuges)
                    if f.sentence - r[1] <= REFUGE_WITHIN
                    and r[2] == party.first
                    and self._apart([r[0]], leg.destinations)
                ),
                None,
            )
            if refuge is not None:  # "fled to Y ... crossed back into X": from Y
                self._from(leg, refuge[0], "refuge", refuge[1])
        causes = self._refs(f.causes, f)
        if not leg.origins and causes and self._apart(causes, leg.destinations):
            self._from(leg, causes[0], "cause", f.sentence)  # "fled to Y after fighting in X"
        scene = self.scene
        home = any(e.kind == "anaphor" and e.word == "home" for e in f.destinations)
        if scene is None or leg.origins or home:  # going home: not from where the story is
            return
        if leg.destinations and f.kind == "move" and self._apart([scene[0]], leg.destinations):
            self._from(leg, scene[0], "scene", scene[1])  # "thousands left their homes"
        elif not leg.destinations and f.kind == "noun" and f.definite:
            self._from(leg, scene[0], "scene", scene[1])  # "The evacuations began with ..."

    def _left_here(self, f: Frame) -> None:
        """People leaving with no place of their own in a sentence that names one town, and
        as no frame's end ("X was a ghost town after the eruption forced 4,500 people to
        flee"): X is the place the story tells them leaving."""
        if (
            f.lemma in LEAVING
            and f.kind == "move"
            and f.status == "made"
            and f.mover is not None
            and f.mover.kind == "people"
            and not f.mover.span[0] <= f.start < f.mover.span[1]  # "refugees fleeing X": who
            and f.mover.text.lower() not in FIRST_PERSON  # a reporter's or a speaker's own
        ):
            here = [p for p in self.towns(f.sentence) if p not in self._framed_in(f.sentence)]
            if len(here) == 1:
                self._scenes.append((here[0], f.sentence))

    def _framed_in(self, sentence: int) -> set[str]:
        """The places the frames of a sentence name (read when first asked)."""
        if sentence not in self._framed:
            self._framed[sentence] = {
                r
                for f in self._frames
                if f.sentence == sentence
                for e in [*f.origins, *f.destinations, *f.via, *f.located]
                if e.kind in {"toponym", "anaphor"}  # those with no side effects
                for r in self.refs(e, f)
            }
        return self._framed[sentence]

    @staticmethod
    def _from(leg: Leg, place: str, how: str, sentence: int) -> None:
        leg.origins, leg.origin_from, leg.origin_sentence = [place], how, sentence

    def _arrival(self, leg: Leg, party: Party | None) -> None:
        """ "Many have arrived from X" in a story of the group reaching Y: at Y; "new
        arrivals in Y are fleeing X": to Y."""
        now = self._refs(leg.frame.mover.now, leg.frame) if leg.frame.mover is not None else []
        if leg.origins and not leg.destinations and self._apart(leg.origins, now):
            leg.destinations = now
        if (
            leg.origins
            and not leg.destinations
            and leg.frame.lemma in ARRIVING
            and party is not None
            and party.place is not None
            and party.how in {"reached", "at"}
            and self._apart(leg.origins, [party.place])
        ):
            leg.destinations = [party.place]

    def _remember(self, leg: Leg) -> None:
        """Where the story's last leg ended, and the place it tells people leaving."""
        f = leg.frame
        crossed = leg.via[-1:] if f.sense.place_object == "via" else []  # "crossed at Medyka"
        if f.status == "made" and (crossed or leg.destinations):
            self._last_end = ((crossed or leg.destinations)[0], f.sentence)
            if f.kind != "return":
                first = leg.party is not None and leg.party.first
                self._refuges.append(((leg.destinations or crossed)[0], f.sentence, first))
        if (
            leg.origins
            and leg.origin_from != "scene"
            and f.status == "made"  # "told to leave": not yet left
            and f.lemma in LEAVING
            and f.kind != "return"
        ):
            told = (leg.origins[0], f.sentence)  # "the evacuation of Aleppo" after "eastern
            told = next(  # Aleppo": the part told before
                (p for p in reversed(self._scenes[-8:]) if self.nested(told[0], p[0])), told
            )
            self._scenes.append(told)

    def _settled(
        self, f: Frame, party: Party | None, located: list[str], origins: list[str]
    ) -> Leg | None:
        """People who left X and now live or stay in Y ("a boy displaced from X ... where
        he lives in Y") moved from X to Y."""
        if (
            f.kind == "stay"
            and f.status == "made"
            and f.lemma in SETTLED
            and located
            and party is not None
            and party.how == "left"
            and party.place is not None
            and f.sentence - party.place_sentence <= 1
            and self._apart([party.place], located[:1])
        ):
            return Leg(f, party, [party.place], located[:1], [], "track", party.place_sentence)
        if (
            f.kind == "stay"
            and f.status == "made"
            and located
            and origins
            and f.mover is not None
            and DISPLACED & {f.mover.group, singular(f.mover.lemma)}
            and self._apart(origins[:1], located[:1])
        ):
            return Leg(f, party, origins[:1], located[:1])
        return None

    def _move(self, party: Party, leg: Leg, located: list[str], sentence: int) -> None:
        """Where the group is after the leg: where it went, else where it left or stays."""
        if leg.origins and party.home is None and leg.frame.kind != "return":
            party.home = leg.origins[0]
        if leg.destinations and leg.frame.status == "made":
            party.place, party.how = leg.destinations[0], "reached"
        elif party.how == "reached" and party.place_sentence == sentence:
            return  # "crossed into Y, taking ... who have left X": still in Y
        elif leg.origins and (
            leg.origin_from != "home"
            or party.place is None
            or self.nested(party.place, leg.origins[0])
        ):
            party.place, party.how = leg.origins[0], "left"  # not "Palestinians" over X
        elif located:
            party.place, party.how = located[0], "at"
        else:
            return
        party.place_sentence = sentence

    def _apart(self, origins: list[str], destinations: list[str]) -> list[str]:
        """The origins a movement to ``destinations`` may be said to start from when the
        sentence does not say: none that holds, or lies in, or is, a destination ("Yemenis"
        going to Sanaa did not come from Yemen)."""
        return [
            o for o in origins
            if all(o != d and not self.nested(o, d) and not self.nested(d, o) for d in destinations)
        ]  # fmt: skip

    def _refs(self, ends: list[End], f: Frame) -> list[str]:
        out: list[str] = []
        for e in ends:
            for r in self.refs(e, f):
                if r not in out:
                    out.append(r)
        return out
