"""What words mean for a movement: verbs and nouns of movement with the roles they give
their dependents, and the classes of nouns that move (people, vehicles, aid) or locate.

The frames (:mod:`routes.extract.frames`) read a parsed sentence through these tables; no
table here names a place or a crisis. A verb's entry says who moves (its subject, as in
"fled", or its object, as in "evacuated"), what a place as its direct object is (left X:
the origin; reached X: the destination; crossed X: a stop on the way), whether "in/at X"
after it is where people went ("arrived in", "sought refuge in") and whether "for X" is
("left for", "headed for").
"""

from __future__ import annotations

import functools
from collections.abc import Container
from dataclasses import dataclass


def _words(text: str) -> list[str]:
    """The words of a whitespace-separated list."""
    return text.split()


__all__ = [
    "AID_NOUNS",
    "ASPECT_WORDS",
    "CASUALTY_NOUNS",
    "CAUSES",
    "COLLECTIVE_NOUNS",
    "CONTAINER_NOUNS",
    "FAILURE_WORDS",
    "FLOW_NOUNS",
    "HARM_VERBS",
    "MILITARY_NOUNS",
    "MOVEMENT_NOUNS",
    "NON_MOVERS",
    "PASSENGER_VEHICLES",
    "PEOPLE_NOUNS",
    "PERCEPTION_WORDS",
    "PLACE_NOUNS",
    "PLAN_WORDS",
    "QUANTITY_NOUNS",
    "REFUGE_NOUNS",
    "VEHICLE_NOUNS",
    "Sense",
    "can_move",
    "lemma",
    "sense",
    "singular",
    "verb_forms",
]


_IRREGULAR_FORMS = {
    "begin": "began begun",
    "get": "got gotten",
    "see": "saw seen",
    "hear": "heard",
    "show": "shown",
    "spot": "spotted",
    "stop": "stopped",
    "fail": "failed",
    "forbid": "forbade forbidden",
    "set": "set",
    "seek": "sought",
    "tell": "told",
    "choose": "chose chosen",
    "plan": "planned planning",
    "ban": "banned",
    "bar": "barred",
    "hold": "held",
    "keep": "kept",
    "quit": "quit",
}


def verb_forms(*lemmas: str) -> frozenset[str]:
    """Every common form of the verbs ``lemmas`` ("begin" → begin, begins, began, begun,
    beginning): how a word list of verbs is matched without a lemmatizer."""
    out: set[str] = set()
    for v in lemmas:
        out |= {v, v + "s", v + "es", v + "ed", v + "d", v + "ing", v + v[-1] + "ing"}
        if v.endswith("e"):
            out |= {v[:-1] + "ing"}
        if v.endswith("y"):
            out |= {v[:-1] + "ies", v[:-1] + "ied"}
        out |= set(_IRREGULAR_FORMS.get(v, "").split())
    return frozenset(out)


@dataclass(frozen=True)
class Sense:
    """How a word of movement gives roles to its dependents.

    ``moves``: "subject" (flee, arrive: whatever its object is, the subject moves) or
    "object" (evacuate, bus, walk: an object that is people or vehicles moves; without
    one, the subject does). ``place_object``: what a place as the direct object is
    ("origin": left X; "destination": reached X; "via": crossed X). ``at``: "in/at/on X" is
    where they went; ``at_origin``: it is where they left ("displaced in X"). ``for_end``:
    "for X" is the destination. ``kind``: "move", "return" (its own movement, back), "stay"
    (where people are: no movement, but a place on their track), "receive" (its subject is
    the destination: "the camp received 500 people"), "noun" (a noun of movement).
    """

    moves: str = "subject"
    place_object: str = ""
    at: bool = False
    at_origin: bool = False
    for_end: bool = False
    kind: str = "move"
    #: The word needs one of these as its object to be a movement ("sought refuge in X")
    needs_object: frozenset[str] = frozenset()


def _senses(spec: str, s: Sense) -> dict[str, Sense]:
    return dict.fromkeys(spec.split(), s)


_FLIGHT = Sense(place_object="origin", for_end=True)
_TRANSPORT = Sense(moves="object", place_object="origin")
_GO = Sense(moves="object", for_end=True)
_ARRIVE = Sense(at=True)
_REFUGE = frozenset(_words("refuge shelter safety sanctuary asylum cover protection"))

VERBS: dict[str, Sense] = {
    **_senses("flee escape leave abandon desert vacate quit exit depart", _FLIGHT),
    **_senses(
        "go come head travel walk trek march run migrate flock pour stream flood surge spill "
        "trickle straggle trudge limp sail ride swim hike journey wander proceed continue "
        "relocate move set make loop rush race dash hurry scramble emigrate",
        _GO,
    ),
    **_senses("cross pass transit traverse", Sense(place_object="via", for_end=True)),
    **_senses("arrive land dock disembark emerge converge", _ARRIVE),
    **_senses("reach enter", Sense(place_object="destination")),
    **_senses(
        "settle shelter camp cram crowd squeeze huddle resettle house accommodate lodge drop",
        Sense(moves="object", at=True),
    ),
    **_senses("seek", Sense(at=True, needs_object=_REFUGE)),
    **_senses("find", Sense(at=True, needs_object=_REFUGE)),
    **_senses("board", Sense(for_end=True, at_origin=True)),
    **_senses(
        "evacuate bus airlift ship ferry truck transfer transport bring carry take send deport "
        "expel drive push force rescue escort lead usher herd chase uproot extract shuttle fly "
        "repatriate round",
        _TRANSPORT,
    ),
    **_senses("displace", Sense(moves="object", place_object="origin", at_origin=True)),
    **_senses("return", Sense(moves="object", kind="return", at=True)),
    **_senses("receive welcome accept admit", Sense(moves="object", kind="receive")),
    **_senses("stay remain live wait strand trap", Sense(kind="stay", at=True)),
    **_senses("bound", Sense(for_end=True)),
    "get": Sense(),  # "got to X", "got out of X": only with a phrase of direction
}

#: Nouns of movement: "the evacuation of X", "the exodus from X", "the influx of refugees".
MOVEMENT_NOUNS: dict[str, Sense] = _senses(
    "evacuation exodus flight departure arrival journey trip trek march transfer relocation "
    "influx displacement deportation expulsion migration passage escape crossing "
    "resettlement repatriation airlift corridor move",
    Sense(kind="noun", for_end=True, at=False),
)
MOVEMENT_NOUNS["return"] = Sense(kind="return")
#: Nouns of a flow, movements only of people: "a flood of refugees into X", not "flood waters".
FLOW_NOUNS = frozenset(_words("flood wave stream flow outflow surge tide"))
MOVEMENT_NOUNS.update(dict.fromkeys(FLOW_NOUNS, MOVEMENT_NOUNS["influx"]))

#: Nouns of people: a clause moving one of them moves people.
PEOPLE_NOUNS = frozenset(
    _words("""
    people person persons civilian civilians resident residents inhabitant inhabitants family
    families household households refugee refugees evacuee evacuees migrant migrants displaced
    idp idps villager villagers tourist tourists student students child children kid kids
    woman women man men elderly patient patients wounded injured sick survivor survivors victim
    victims fighter fighters rebel rebels passenger passengers pilgrim pilgrims population crowd
    crowds caravan citizen citizens national nationals foreigner foreigners relative relatives
    mother mothers father fathers wife wives husband husbands daughter daughters son sons
    sister sisters brother brothers baby babies infant infants orphan orphans returnee
    returnees asylum-seeker asylum-seekers seeker seekers worker workers employee employees
    volunteer volunteers doctor doctors nurse nurses teacher teachers farmer farmers herder
    herders fisherman fishermen miner miners trader traders merchant merchants shopper shoppers
    traveller travellers traveler travelers expatriate expatriates expat expats diplomat
    diplomats staff member members neighbour neighbours neighbor neighbors friend friends
    couple couples group groups community communities tribe tribes clan clans minority
    minorities detainee detainees prisoner prisoners hostage hostages deportee deportees
    exile exiles émigré émigrés emigrant emigrants immigrant immigrants settler settlers
    nomad nomads individual individuals adult adults youth youths teenager teenagers girl
    girls boy boys grandmother grandfather grandparents parent parents pensioner pensioners
    retiree retirees disabled citizenry populace inmate inmates mourner mourners
    """)
)
#: Counting nouns: "thousands fled", "dozens of families".
QUANTITY_NOUNS = frozenset(
    _words(
        "thousands hundreds dozens tens millions scores many most some others rest majority few "
        "several all both those these"
    )
)
#: Nouns that hold a count or a load of what their "of" phrase names ("a total of 174
#: people", "a convoy of 1,000 people", "a group of 300 others").
CONTAINER_NOUNS = frozenset(
    _words(
        "total number group batch wave convoy busload busloads boatload column line stream "
        "flood handful crowd influx percent cent % proportion share half third quarter fraction"
    )
)
#: Nouns of a whole group: "the population of X", "its residents".
COLLECTIVE_NOUNS = frozenset(
    _words("population community populace citizenry family household group crowd caravan")
)
#: Armed forces: they move in clauses of flight or transport only ("soldiers fled",
#: "fighters were bused"), never by advancing ("troops entered X").
MILITARY_NOUNS = frozenset(
    _words("""
    troop troops force forces army armies soldier soldiers police policeman policemen officer
    officers militant militants insurgent insurgents gunman gunmen militia militias
    jihadist jihadists marine marines paratrooper paratroopers
    """)
)
#: Vehicles: moving, they carry people only when a clause says so, or when they leave a
#: place (buses leaving X); sent toward a place, they go in empty.
VEHICLE_NOUNS = frozenset(
    _words("""
    bus buses busses coach coaches minibus minibuses truck trucks lorry lorries convoy convoys
    ambulance ambulances vehicle vehicles car cars boat boats ferry ferries ship ships plane
    planes aircraft flight flights helicopter helicopters train trains busload busloads
    carload vessel vessels
    """)
)
#: Vehicles that carry people (not goods): leaving a place, they moved people.
PASSENGER_VEHICLES = frozenset(
    _words("""
    bus buses busses coach coaches minibus minibuses ambulance ambulances boat boats ferry
    ferries plane planes flight flights helicopter helicopters train trains busload busloads
    """)
)
#: Goods: a clause moving them moves no one.
AID_NOUNS = frozenset(
    _words("""
    aid assistance supplies supply food medicine medicines relief delivery deliveries cargo
    goods shipment shipments water fuel tent tents equipment weapons arms ammunition munitions
    """)
)
#: What moves without being people: storms, fire, water, fighting, ideas.
NON_MOVERS = frozenset(
    _words("""
    storm storms hurricane hurricanes cyclone cyclones typhoon typhoons tornado fire fires
    wildfire wildfires blaze flames smoke ash lava water waters floodwater floodwaters flood
    floods rain wind winds quake earthquake tsunami wave waves fighting violence war conflict
    clashes shelling front frontline attack attacks offensive disease virus outbreak epidemic
    crisis money prices talks negotiations river rivers mud mudslide landslide debris it this
    that which what
    """)
)
#: What drives people out, and where it happens is where they left: "fled to Y after fighting
#: in X", "violence in X forced thousands into Y".
CAUSES = frozenset(
    _words("""
    fighting violence war conflict clash clashes shelling attack offensive strike airstrike
    bombing bombardment insecurity unrest crackdown repression persecution massacre killings
    fire wildfire blaze flood flooding eruption storm hurricane cyclone earthquake drought
    """)
)
#: Verbs of harm: their subjects are casualties, never the movers of a clause beside them.
HARM_VERBS = frozenset(_words("kill injure wound die drown massacre"))
#: Casualties: counted, never moved.
CASUALTY_NOUNS = frozenset(_words("dead death deaths body bodies casualty casualties killed"))
#: Nouns that are places without a name: their name is in their phrase ("the town of X",
#: "shelters in X"), or the noun stands for a place named before ("the city").
PLACE_NOUNS = frozenset(
    _words("""
    city cities town towns village villages area areas region regions province provinces
    district districts country countries capital state states territory territories enclave
    enclaves neighbourhood neighbourhoods neighborhood neighborhoods suburb suburbs outskirts
    countryside part parts side camp camps shelter shelters school schools home homes house
    houses hotel hotels hostel hostels stadium stadiums base bases airport airports port ports
    harbour harbor border borders frontier crossing crossings checkpoint centre centres center
    centers facility facilities building buildings site sites settlement settlements zone
    zones pocket stronghold strongholds island islands coast mountain mountains valley hospital
    hospitals church churches mosque mosques gym arena fairground fairgrounds park premises
    dormitory dormitories tent city-centre quarter district-centre governorate municipality
    county oblast prefecture commune township hamlet farm farms land lands soil territory
    """)
)
#: Place nouns that name a frontier: "to the border with Jordan" is no end.
BORDER_NOUNS = frozenset(_words("border borders frontier frontiers boundary"))
#: Nouns that say where people found refuge: "sought refuge in X".
REFUGE_NOUNS = _REFUGE
#: Governing words that say a movement did not happen ("unable to leave").
FAILURE_WORDS = verb_forms(
    *_words("fail prevent stop block bar ban forbid deny refuse"), "unable", "cannot", "impossible"
)
#: Governing words that say a movement is planned or weighed, not yet made.
PLAN_WORDS = verb_forms(
    *_words(
        """
        plan intend prepare expect hope want wish aim decide agree schedule set consider weigh
        threaten order urge advise ask tell call allow permit choose offer propose arrange
        try attempt seek struggle wait
        """
    ),
    "due",
    "ready",
    "able",
    "about",
)
#: Verbs of a movement's course: a noun of movement as their subject takes their phrases
#: ("evacuations began for thousands from X").
ASPECT_WORDS = verb_forms(*_words("begin start continue resume get end stop halt complete finish"))
#: Verbs of seeing and reporting: what they govern happened, whatever their own mood.
PERCEPTION_WORDS = verb_forms(*_words("see watch hear show film photograph spot witness"))

# --- Inflection: surface forms to the lemma of the tables ---------------------------------

_IRREGULAR = {
    "fled": "flee",
    "left": "leave",
    "went": "go",
    "gone": "go",
    "came": "come",
    "ran": "run",
    "rode": "ride",
    "ridden": "ride",
    "swam": "swim",
    "swum": "swim",
    "took": "take",
    "taken": "take",
    "brought": "bring",
    "sent": "send",
    "drove": "drive",
    "driven": "drive",
    "flew": "fly",
    "flown": "fly",
    "sought": "seek",
    "found": "find",
    "led": "lead",
    "made": "make",
    "fought": "fight",
    "bussed": "bus",
    "bussing": "bus",
    "busing": "bus",
    "bused": "bus",
    "set": "set",
    "setting": "set",
    "ferried": "ferry",
    "carried": "carry",
    "lay": "lie",
    "hid": "hide",
    "kept": "keep",
    "stood": "stand",
    "crammed": "cram",
    "stranded": "strand",
    "trapped": "trap",
    "trucked": "truck",
    "born": "bear",
    "grew": "grow",
    "grown": "grow",
}


def singular(word: str) -> str:
    """A plural noun's singular, by rule ("municipalities" → "municipality"); good enough
    to look a noun up in the tables, which list the irregular ones whole."""
    w = word.lower()
    for suffix, repl in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("s", "")):
        if w.endswith(suffix) and len(w) > len(suffix) + 2 and not w.endswith("ss"):
            return w[: -len(suffix)] + repl
    return w


def lemma(word: str, table: Container[str] | None = None) -> str:
    """The dictionary form of an English verb or noun of the tables ("fled" → "flee"),
    or the word itself, lowercased; with ``table``, the form that table has."""
    if table is None:
        return _lemma(word)
    return _lemma_in(word.lower(), [table])


@functools.lru_cache(maxsize=1 << 16)
def _lemma(word: str) -> str:
    """:func:`lemma` in the tables of movement, asked of most words of every story."""
    return _lemma_in(word.lower(), [VERBS, MOVEMENT_NOUNS])


def _lemma_in(w: str, tables: list[Container[str]]) -> str:
    if w in _IRREGULAR:
        return _IRREGULAR[w]
    if any(w in t for t in tables):
        return w
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("ing", ""), ("ed", ""), ("es", ""),
                         ("s", ""), ("ing", "e"), ("ed", "e"), ("d", "")):  # fmt: skip
        if w.endswith(suffix) and len(w) > len(suffix) + 1:
            stem = w[: -len(suffix)] + repl
            if any(stem in t for t in tables):
                return stem
            if len(stem) > 2 and stem[-1] == stem[-2] and any(stem[:-1] in t for t in tables):
                return stem[:-1]  # "ferrying", "shipped" → "ship"
    return w


@functools.lru_cache(maxsize=1 << 16)
def sense(word: str, *, noun: bool) -> tuple[str, Sense] | None:
    """The lemma and sense of a word of movement; ``noun`` looks it up among the nouns."""
    table = MOVEMENT_NOUNS if noun else VERBS
    base = lemma(word, table)
    found = table.get(base)
    return (base, found) if found is not None else None


@functools.lru_cache(maxsize=1 << 16)
def can_move(word: str) -> bool:
    """Whether ``word`` is a verb or a noun of movement in some form: the frames ask
    nothing more of the other words of a sentence."""
    return sense(word, noun=False) is not None or sense(word, noun=True) is not None
