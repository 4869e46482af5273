"""Word lists of extraction: stopwords, titles, cue words, numbers, months and country aliases."""

from __future__ import annotations

import re

__all__ = [
    "ABBREVIATED_NAME",
    "ABBREVIATIONS",
    "ARTICLES",
    "ATTACK_WORDS",
    "BUILDINGS",
    "CASUALTY_VERBS",
    "CASUALTY_WORDS",
    "CONVOY_WORDS",
    "DEMONYMS",
    "DIRECTIONS",
    "ENGLISH_ARTICLES",
    "FUTURE",
    "GENERIC_WORDS",
    "KIND_NOUNS",
    "LOCATION_NOUNS",
    "LOCATIVE",
    "MONTHS",
    "MULTIPLIERS",
    "NAMED_HEADS",
    "NAME_JOINERS",
    "NAME_PREFIXES",
    "ORG_HEADS",
    "PARTY_LETTERS",
    "PERSON_TITLES",
    "PLACE_HEADS",
    "PRONOUNS",
    "QUALIFIERS",
    "ROLE_NOUNS",
    "SMALL_NUMBERS",
    "SPEECH_VERBS",
    "STATE_HEADS",
    "STOPWORDS",
    "STREET_ABBREVIATIONS",
    "STREET_WORDS",
    "TENS",
    "TITLES",
    "WATER_HEADS",
    "WEEKDAYS",
]


# --- Word lists --------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    """The words of a whitespace-separated list."""
    return text.split()


#: Capitalised only because they start a sentence or a title: never part of a place name.
STOPWORDS = frozenset(
    _words(
        """
        a about above across after afterwards again against all almost along also although amid
        among an and another any approximately are around as at back be because been before
        being below between beyond both but by can could despite did do does down during each
        earlier either even ever every few for from further had has have he her here hers him
        his how however i if in inside instead into is it its just last later least less like
        many may meanwhile might more most much must my near nearly neither never next no nor
        not now of off on once one only or other others our out outside over per perhaps please
        rather several she should since so some still such than that the their them then there
        these they this those though through throughout thus to today tomorrow tonight too
        toward towards twice under unless until up upon us very was we were what whatever when
        where whether which while who whom whose why will with within without would yes
        yesterday yet you your editor note update updated photo video watch read related
        breaking live monday tuesday wednesday thursday friday saturday sunday january february
        march april june july august september october november december jan feb mar apr jun jul
        aug sep sept oct nov dec mr mrs ms dr prof gen col sgt lt capt sen rep gov st zero two
        three four five six seven eight nine ten eleven twelve twenty thirty forty fifty sixty
        seventy eighty ninety hundred thousand million former acting interim
        """
    )
)

#: Person titles: a run that contains one names a person, not a place.
TITLES = frozenset(
    _words(
        """
        president prime minister secretary general gen col colonel dr doctor mr mrs ms king
        queen prince princess emir sheikh imam bishop patriarch mufti pope ambassador governor
        mayor senator judge chief commander spokesman spokeswoman
        """
    )
)

#: Heads of organisation and facility names ("Aleppo University", "al-Quds hospital").
ORG_HEADS = frozenset(
    _words(
        """
        university college school academy institute institution society association council
        committee commission agency office ministry department bank company corporation group
        party front movement army brigade brigades battalion forces force union league
        federation foundation fund center centre house hospital clinic museum church mosque
        cathedral court tribunal airport airline airways station stadium hotel prison radio tv
        television channel network news times post press herald journal media organisation
        organization programme program project crescent cross
        """
    )
)

#: Words that name a kind of place or thing, never a place on their own ("Central", "Valley").
GENERIC_WORDS = frozenset(
    _words(
        """
        central gulf valley hall area parkway commerce congress equality section metro
        christmas democrat republican lot plus main inc northwest northeast southwest southeast
        island islands
        """
    )
)

#: Generic place words that may follow a name ("Idlib province") or govern it ("city of").
PLACE_HEADS = frozenset(
    _words(
        """
        province governorate city town village district region county state municipality
        countryside suburb suburbs neighbourhood neighborhood quarter camp valley river
        mountains mountain border crossing prefecture island islands
        """
    )
)

#: Last words that make a capitalised run a street's name ("Main Street", "Wichita Drive");
#: the abbreviated ones count only with their period ("Main St.").
STREET_WORDS = frozenset(
    _words("street road avenue drive lane boulevard parkway highway pike trail")
)
STREET_ABBREVIATIONS = frozenset(_words("st rd ave blvd"))

#: Place heads that are part of the name they follow ("Mayo County", "Neches River"), unlike
#: "Idlib province" or "Kansas City"'s "city" (as LGL annotates them: 208 "X County" spans
#: with the head, 1 without).
NAMED_HEADS = frozenset(_words("county river valley mountains"))

#: US party letters written before a politician's home ("D-Charleston", "R-Ohio").
PARTY_LETTERS = frozenset(["D", "R", "I"])

#: Words of a state's formal name that "of" may follow ("Democratic Republic of the Congo",
#: "Kingdom of Saudi Arabia"): the run goes on past "of", as after an organisation's head.
STATE_HEADS = frozenset(_words("republic kingdom emirate sultanate principality commonwealth"))

#: Heads of a sea's name that "of" may follow ("Gulf of Mexico", "Sea of Japan", "Strait of
#: Gibraltar"): the run goes on past "of", so the name is the sea's, not the country's.
WATER_HEADS = frozenset(_words("gulf sea bay strait straits"))

#: Direction words that qualify a place ("eastern Aleppo").
DIRECTIONS = frozenset(
    _words(
        """
        east eastern west western north northern south southern central northeast northwest
        southeast southwest northeastern northwestern southeastern southwestern greater upper
        lower old
        """
    )
)

#: Arabic articles that join a name ("al-Foua", "Deir ez-Zor", "Dayr az Zawr").
ARTICLES = frozenset(
    _words(
        """
    al el ad an ar as ash at az adh ath dh ed en er es et ez ul ud
    """
    )
)
#: Those that are also English words join a name only with a hyphen ("as-Sukkari", not "as X").
ENGLISH_ARTICLES = frozenset(["ad", "an", "as", "at", "ed", "en", "er", "es", "et"])

#: Lower-case words that may join two parts of one name ("Abu Dhabi bin Zayed", "Bab de ...").
NAME_JOINERS = frozenset(
    _words(
        """
    bin ibn bint de du des del della da di van von y
    """
    )
)

#: Adjectives of nationality, religion or ethnicity that are not themselves places.
DEMONYMS = frozenset(
    _words(
        """
        afghan african american arab arabian asian assyrian australian austrian belgian british
        canadian chinese christian circassian czech danish druze dutch egyptian emirati english
        eritrean ethiopian european french georgian german greek hungarian indian iranian iraqi
        irish islamic israeli italian japanese jewish jordanian kurdish kurd kurds kuwaiti
        lebanese libyan moroccan muslim norwegian pakistani palestinian persian polish qatari
        romanian russian saudi scottish shia shiite shi'ite somali soviet spanish sudanese sunni
        swedish swiss syriac syrian tunisian turkish turkmen turkoman ukrainian welsh yazidi
        yemeni alawite armenian bosnian serbian croatian albanian algerian bangladeshi chechen
        uzbek tajik uighur uyghur yemenite bedouin yugoslav
        """
    )
)

#: Words after which a place is where someone is, goes or comes from.
LOCATIVE = frozenset(
    _words(
        """
        in into to from near at across towards toward through via outside inside around within
        throughout reached reach entered enter left fled flee leaving leave
        """
    )
)
SPEECH_VERBS = frozenset(
    _words(
        """
        said says say told tells added reported reports stated announced explained warned wrote
        tweeted noted insisted claimed confirmed
        """
    )
)
PRONOUNS = frozenset(["he", "she", "they", "it", "we", "i"])
#: Role nouns that mark an appositive as a description of a speaker.
ROLE_NOUNS = frozenset(
    _words(
        """
        head chief director manager spokesman spokeswoman spokesperson president minister
        adviser advisor official envoy leader commander secretary coordinator representative
        ambassador member founder doctor researcher analyst correspondent columnist activist
        governor mayor officer resident volunteer worker
        """
    )
)

#: Titles and roles written before a person's name ("Mrs. Parsons", "Deputy Wayne Fuqua").
PERSON_TITLES = (
    TITLES
    | ROLE_NOUNS
    | frozenset(
        _words(
            """
            mr mrs ms miss dr prof sen sens rep reps gov lt sgt capt col gen rev det cpl pvt
            supt insp deputy sheriff sergeant lieutenant captain detective officer trooper
            councilman councilwoman councillor councilor commissioner superintendent
            treasurer clerk attorney speaker chairman chairwoman coach pastor reverend father
            brother sister uncle aunt wife husband son daughter
            """
        )
    )
)

#: Generic location nouns that "in"/"of" pass through ("area in the province of Idlib").
LOCATION_NOUNS = frozenset(
    _words(
        """
        area areas province provinces region regions city cities town towns village villages
        district districts part parts countryside outskirts suburbs suburb territory territories
        camp camps enclave enclaves neighbourhood neighborhood governorate north south east west
        centre center heart zone zones pocket
        """
    )
)

# Figures
SMALL_NUMBERS = {
    w: i
    for i, w in enumerate(
        _words(
            """
            zero one two three four five six seven eight nine ten eleven twelve thirteen
            fourteen fifteen sixteen seventeen eighteen nineteen
            """
        )
    )
}
TENS = {
    w: 10 * i
    for i, w in enumerate(
        _words(
            """
        _ _ twenty thirty forty fifty sixty seventy eighty ninety
        """
        )
    )
    if w != "_"
}
MULTIPLIERS = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
KIND_NOUNS = {
    **dict.fromkeys(
        _words(
            """
            people persons person civilians civilian residents evacuees refugees individuals
            inhabitants
            """
        ),
        "people",
    ),
    "wounded": "wounded",
    "injured": "injured",
    "killed": "killed",
    "dead": "killed",
    **dict.fromkeys(["bus", "buses", "busses", "coaches"], "buses"),
    **dict.fromkeys(["ambulance", "ambulances"], "ambulances"),
}
CASUALTY_WORDS = {"killed": "killed", "dead": "killed", "injured": "injured", "wounded": "wounded"}
CASUALTY_VERBS = {
    "killed": "killed",
    "killing": "killed",
    "injured": "injured",
    "injuring": "injured",
    "wounded": "wounded",
    "wounding": "wounded",
}
QUALIFIERS: list[tuple[tuple[str, ...], str]] = [
    (("an", "estimated"), "about"),
    (("close", "to"), "about"),
    (("more", "than"), "more than"),
    (("upwards", "of"), "more than"),
    (("at", "least"), "at least"),
    (("at", "most"), "at most"),
    (("no", "more", "than"), "at most"),
    (("fewer", "than"), "at most"),
    (("less", "than"), "at most"),
    (("up", "to"), "up to"),
    (("approximately",), "about"),
    (("about",), "about"),
    (("around",), "about"),
    (("some",), "about"),
    (("roughly",), "about"),
    (("nearly",), "about"),
    (("almost",), "about"),
    (("estimated",), "about"),
    (("over",), "more than"),
]
ATTACK_WORDS = frozenset(
    _words(
        """
        shot shooting shelled shelling fire fired attack attacked attacks bombed bombing
        airstrike airstrikes struck ambushed ambush sniper snipers explosion blast
        """
    )
)
CONVOY_WORDS = frozenset(
    _words(
        """
        convoy convoys ambulance ambulances bus buses evacuation evacuations route path
        """
    )
)

# Dates
WEEKDAYS = {
    d: i
    for i, d in enumerate(
        _words(
            """
        monday tuesday wednesday thursday friday saturday sunday
        """
        )
    )
}
MONTHS = {
    m: i + 1
    for i, m in enumerate(
        _words(
            """
            january february march april may june july august september october november
            december
            """
        )
    )
}
MONTHS.update({m[:3]: n for m, n in list(MONTHS.items())} | {"sept": 9})
FUTURE = re.compile(
    r"\b(will|expected to|going to|next|until|into|planned|scheduled)\b", re.IGNORECASE
)

ABBREVIATIONS = frozenset(
    _words(
        """
        mr mrs ms dr prof gen col sgt lt capt sen rep gov st jr sr no vs etc fig jan feb mar apr
        jun jul aug sep sept oct nov dec inc co corp ltd mt ft sto sta
        """
    )
)

#: Abbreviated first words of place names ("St. Petersburg", "Mt. Pleasant", "Ft. Worth"),
#: with the word GeoNames may spell out instead.
NAME_PREFIXES = {"St": "saint", "Sto": "santo", "Sta": "santa", "Mt": "mount", "Ft": "fort"}


#: An abbreviated name, period included: "W.Va.", "W. Va.", "S.C.", "N.Y", "Ga.", "Calif.";
#: the gazetteer says which are US states (their AP abbreviations, from the ``us`` package).
ABBREVIATED_NAME = re.compile(r"(?<![\w.])(?:[A-Z]\.\s?[A-Z][a-z]?\.?|[A-Z][a-z]{1,5}\.)(?![a-z])")


# --- Places and people ------------------------------------------------------------------------

#: The last words of a building's name: a town in the name is where the building is.
BUILDINGS = frozenset(
    _words(
        """
        centre center stadium arena airport hospital school college university church mosque
        cathedral station hotel gymnasium gym hall coliseum fairgrounds compound base
        """
    )
)
#: Nouns of the people of a place: "residents of X" says X is a place.
DWELLER_NOUNS = frozenset(
    _words("residents resident inhabitants inhabitant population villagers evacuation")
)
