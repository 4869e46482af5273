"""Toponyms: which place each accepted mention names, in the context of the story's others.

Recognition (which words may name places) is :mod:`routes.extract.mentions`.
"""

from __future__ import annotations

import math
import re
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable
from functools import partial

from routes.distance import great_circle_km
from routes.extract.context import country_support, support
from routes.extract.findings import (
    Candidate,
    Rejection,
    Toponym,
)
from routes.extract.mentions import Mention, Mentions
from routes.extract.streets import place_streets
from routes.places import base_confidences
from routes.places.candidates import NAMESAKE_POPULATION, RUNNER_UP_KM
from routes.places.features import placed_subdivision
from routes.places.index import as_of
from routes.places.names import AREA_WORDS

__all__ = ["FOCUS_RADIUS_KM", "Toponyms"]


#: Places farther than this from the middle of the story's focus region are "elsewhere", km.
FOCUS_RADIUS_KM = 300.0
#: How much the story's other places weigh in choosing between homonyms (see
#: :mod:`routes.extract.context`); a full vote is worth as much as being in the focus country.
CONTEXT_WEIGHT = 8.0
#: How much the share of the story's other names in a candidate's country weighs.
COUNTRY_WEIGHT = 1.0
#: A country's lead over the towns of its name (:meth:`Toponyms._level`): more than a town
#: gains from being at the story's focus (0.5 + 0.5) and from a vote of its neighbours
#: (:data:`CONTEXT_NEAR` and more). LGL dev: acc@161 .859 at 0, .864 at 1.5 to 2.5, .861 at 3.5.
COUNTRY_LEVEL = 2.5
#: A city of a million or more leads the towns of its name ("Moscow", not Moscow, Idaho, in
#: a US story about flights to Russia) by this; LGL dev acc@161 .864 at 0, .873 at 1, .871 at 2.
CITY_LEVEL = 1.0
#: A city's lead grows with log10 of its population from 0 at 10^CITY_FROM (316,228) to
#: :data:`CITY_LEVEL` at a million ("Atlanta" in a story about Liberia is Georgia's, not
#: Atlanta, Indiana); LGL dev acc@161 .890 with the lead at a million only, .885 rising from
#: 10^5, .892 from 10^5.25, .892 from 10^5.5, .890 from 10^5.75.
CITY_FROM = 5.5
#: A first-level region of at least :data:`REGION_TOWNS` GeoNames cities1000 towns leads the
#: towns of its name by this ("Florida", "Oregon", "England" in a US story); LGL dev acc@161
#: .885 at 0, .887 at 1 to 2.5 (for 10 to 100 towns), .886 for 300 towns, .886 at 1000.
REGION_LEVEL = 1.0
#: How many towns a first-level region needs for :data:`REGION_LEVEL` (Berea, a district of
#: Lesotho with one, does not lead Berea, Kentucky).
REGION_TOWNS = 50
#: The focus counts by its share of the story's votes to this power (:meth:`Toponyms._focus`):
#: LGL dev acc@161 .892 at 0 (always fully), .892 at 1, .897 at 1.5 to 4, .895 at 6. Most of
#: the gain is one story (flights between New York and Moscow: Moscow, Russia, not Moscow,
#: Pennsylvania, ten times).
FOCUS_SHARE_POWER = 2.0
#: Per decade of population, what a country gains over another of its name (a tie-break).
COUNTRY_POPULATION = 0.001
#: What "Paris, Texas" gives the Paris in Texas (:meth:`Toponyms._qualifiers`): more than a
#: city's lead or the focus. LGL dev acc@161 .897 at 0, .898 at 1 to 6.
QUALIFIER_WEIGHT = 2.0

#: Between a country (or its people's adjective) and a name it places: "the Mozambican town
#: of Palma", "Mozambique's busy port city of Beira".
_COUNTRY_OF = re.compile(
    r"(?:'s|’s)?\s+(?:[a-z-]+\s+){0,2}(?:town|city|village|port|capital|district|province|"
    r"region|island|camp|municipality|county|state|enclave)\s+of\s+"
)
#: What a place in a country the story names by name or by its people ("Costa Rica",
#: "Venezuelans") gains over its namesakes elsewhere: more than a city of a million's lead
#: and the focus together ("San Jose" in a story about Costa Rica is San José), unless a
#: namesake elsewhere is a national capital ("London", "Brussels" beside "the US").
NAMED_COUNTRY_WEIGHT = 1.5
#: A city this large (its own name) leaves out its country's towns of its name a hundred times
#: smaller (:func:`_beside_cities`).
NAMESAKE_CITY = 100_000
#: A context vote this high puts a candidate in the story's region, as the focus country does.
CONTEXT_NEAR = 0.1
#: What a word of place around a name ("in Idlib", "Idlib province") adds to its confidence.
CUE_EVIDENCE = 0.1
#: A best candidate ranked ahead of the next by less than this is less sure (``_confidence``).
DECISIVE_MARGIN = 0.2
#: A town this populous, called so by its own name, names its country for the story
#: (:meth:`Toponyms._countries`).
RENOWNED_TOWN = 100_000
#: A town so large (or a capital) that a story may name it far from its own countries
#: ("refugees flew on to Berlin"); a smaller far namesake is no movement's end (issue 26).
RENOWNED_FAR = 1_000_000


#: The levels of a division a word of area may mark.
_DIVISIONS = frozenset({"admin1", "admin2"})


def _runner_up(scored: list[Candidate], score: Callable[[Candidate], float]) -> Candidate | None:
    """Another place the name may as well mean: the next candidate, ranked within
    :data:`DECISIVE_MARGIN` of the best (its confidence shrank for it) and more than
    :data:`~routes.places.candidates.RUNNER_UP_KM` from it."""
    if len(scored) < 2:
        return None
    best, other = scored[0], scored[1]
    close = score(best) - score(other) < DECISIVE_MARGIN
    far = great_circle_km(best.lat, best.lon, other.lat, other.lon) > RUNNER_UP_KM
    return other if close and far else None


def _beside_cities(candidates: list[Candidate]) -> list[Candidate]:
    """The candidates less the hamlets named like a city of their own country: a city of
    :data:`NAMESAKE_CITY` people or more is the place a story means, not a village a hundred
    times smaller 50 km from its other places ("Zaporizhzhia", not Zaporizhzhya, pop. 1,073)."""
    cities = {
        c.country: c.population
        for c in candidates
        if c.kind == "geonames" and c.primary and c.population >= NAMESAKE_CITY
    }
    return [
        c
        for c in candidates
        if not (c.kind == "geonames" and c.population * 100 < cities.get(c.country, 0))
    ] or candidates


def _inside(c: Candidate, areas: set[tuple[str, str]] | tuple[()]) -> float:
    """1 when ``c`` lies in one of ``areas`` (``(country, region)``, region "" for all)."""
    return float(
        c.country is not None
        and c.feature not in {"country", "admin1"}
        and ((c.country, "") in areas or (c.country, c.admin1 or "") in areas)
    )


def _named_for(m: Mention, stated: set[str]) -> set[str]:
    """The countries whose places lead ``m``'s namesakes (:data:`NAMED_COUNTRY_WEIGHT`):
    those the story names, unless a namesake elsewhere is a national capital ("Brussels"
    in a story that names the US) or a city of :data:`NAMESAKE_CITY` people while those in
    the named countries are not ("Herat" in a story that names Iran, where its people fled
    to, is Afghanistan's city, not the Iranian village; "San Jose" beside Costa Rica is
    still its capital)."""

    def renowned(c: Candidate) -> bool:
        return c.feature != "country" and bool(
            c.capital or (c.primary and c.population >= NAMESAKE_CITY)
        )

    if any(c.capital and c.country not in stated for c in m.candidates):
        return set()
    elsewhere = any(renowned(c) and c.country not in stated for c in m.candidates)
    if elsewhere and not any(renowned(c) and c.country in stated for c in m.candidates):
        return set()
    return stated


class Toponyms(Mentions):
    """Step 2: the accepted mentions resolved in the story's context."""

    #: How much the story's focus counts (:meth:`_focus`), 0..1; 1 until it is known.
    focus_weight = 1.0
    #: Names the text puts in a country (:meth:`_owned`), by their start; set by ``toponyms``.
    owned: dict[int, set[tuple[str, str]]]

    def toponyms(self) -> tuple[list[Toponym], str | None, tuple[float, float] | None]:
        """Accept or reject each possible mention, then resolve the accepted ones in context."""
        self.typed = []
        kept = self._accepted()
        self._as_read(kept)
        focus, centre, near, national = self._context(kept)
        respelled = self._respelled(kept, focus, centre, near)
        if respelled != kept:  # names the story's countries have after all: its context anew
            kept = respelled
            focus, centre, near, national = self._context(kept)
        self.owned = self._owned(kept)
        within = self._qualifiers(kept)
        self.countries = self._naming(kept)
        stated = self._stated_countries(kept)

        # Pass 2: resolve in context; weak GeoNames matches need a cue or the focus region.
        toponyms: list[Toponym] = []
        for m, cue in kept:
            named = _named_for(m, stated)

            def score(
                c: Candidate, key: str = m.key, m: Mention = m, named: set[str] = named
            ) -> float:
                return (
                    self._score(c, focus, centre)
                    + self._level(m, c)
                    + CONTEXT_WEIGHT * near.get((key, c.ref), 0.0)
                    + COUNTRY_WEIGHT * national.get((key, c.ref), 0.0)
                    + QUALIFIER_WEIGHT * _inside(c, within.get(m.start, ()))
                    + NAMED_COUNTRY_WEIGHT * (c.feature != "country" and c.country in named)
                )

            def local(c: Candidate, key: str = m.key, start: int = m.start) -> bool:
                """In the story's region: its focus, close to its other places, or in the
                region named right after it ("Paris, Texas")."""
                return (
                    self._in_focus(c, focus, centre)
                    or near.get((key, c.ref), 0.0) >= CONTEXT_NEAR
                    or bool(_inside(c, within.get(start, ())))
                )

            scored = sorted(_beside_cities(self._in_owner(m)), key=score, reverse=True)
            best = scored[0]
            if not best.primary and best.feature == "admin1" and self._abbreviated(m):
                m.end += 1  # "Kan.", "Fla.": the period belongs to the abbreviation (not
                # "Congo.", nor a town's other name at a sentence's end: "Dohuk.")
            surface = self.text[m.start : m.end]
            in_focus = local(best)
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
            (toponyms if m.type == "literal" else self.typed).append(
                Toponym(
                    m.start,
                    m.end,
                    surface,
                    best,
                    self._confidence(best, scored, cue, score, local),
                    self.toks[m.first].sentence + 1,
                    self._why(best, cue, in_focus, len(scored), m.qualified),
                    m.type,
                    _runner_up(scored, score),
                )
            )
        streets, rejected = place_streets(self.streets, toponyms)
        self.typed += streets
        self.rejected += rejected
        self.typed.sort(key=lambda t: t.start)
        return toponyms, focus, centre

    def _as_read(self, kept: list[tuple[Mention, bool]]) -> None:
        """Each mention's candidates as of the story's date ("Leningrad" in a story of 1985:
        Saint Petersburg, then) and as the text marks it (a region, or its city)."""
        for m, _cue in kept:
            m.candidates = as_of(m.candidates, self.story_date)
        countries = self._countries(kept)
        for m, _cue in kept:
            m.candidates = self._area_or_city(m, countries)

    def _area_or_city(self, m: Mention, countries: set[str]) -> list[Candidate]:
        """``m``'s candidates as the text marks it: a region of the story's ``countries``
        when it says so ("Hama province", "the countryside of Hama", "Idlib and Hama
        provinces"), else never the region a city of its name lies in ("in Hama": the city,
        issue 26) nor a division only ISO names beside a town of its country called so
        (:meth:`_towns_of_divisions`). "The Charlotte region" of a story about North
        Carolina is no parish of Saint Vincent."""
        regions = [
            c
            for c in m.candidates
            if c.kind == "region" and c.feature in _DIVISIONS and c.country in countries
        ]
        if regions and self._marked_area(m):
            return regions
        cities = {
            (c.country, c.admin1)
            for c in m.candidates
            if c.kind == "geonames" and c.primary and c.population >= NAMESAKE_POPULATION
        }
        found = [
            c
            for c in m.candidates
            if not (
                c.kind == "region"
                and c.feature in _DIVISIONS
                and not c.primary
                and (c.country, c.admin1) in cities
            )
        ]
        return self._towns_of_divisions(m, found)

    def _towns_of_divisions(self, m: Mention, found: list[Candidate]) -> list[Candidate]:
        """``found`` less each division known by its ISO name alone
        (:func:`~routes.places.features.placed_subdivision`) that a town of its country is
        called by (or by another spelling: the index marks those it found so) or, else,
        with the towns of its country the name spells another way in its place
        (:meth:`~routes.places.NameIndex.variants`: "Qalqilya", Qalqīlyah). A bare name
        that is a town's and a division's is the town ("toward Deir Al-Balah": Dayr al
        Balaḩ, not PS-DEB), as it is beside a GeoNames region; the caller asks only where
        the text does not mark the division ("the Deir al-Balah governorate")."""
        towns = {c.country for c in found if c.kind == "geonames" and c.primary}
        refs = {c.ref for c in found}
        out: list[Candidate] = []
        for c in found:
            if c.kind == "region" and c.country and placed_subdivision(c.source):
                if c.country in towns:
                    continue
                spelled = [t for t in self.x.variants(m.key, [c.country]) if t.ref not in refs]
                if spelled:
                    refs.update(t.ref for t in spelled)
                    out += spelled
                    continue
            out.append(c)
        return out

    def _marked_area(self, m: Mention) -> bool:
        """A word of division marks ``m`` as the region's name: right after it ("Hama
        province", "Hama countryside"), before it with "of" ("the countryside of Hama"), or
        after or before the list it is in ("Idlib and Hama provinces", "the provinces of
        Idlib and Hama")."""
        toks = self.toks
        nxt, prev = self._next(m.last), self._prev_word(m.first)
        before = self._prev_word(m.first, 1)
        if nxt is not None and nxt.lower in AREA_WORDS:
            word_after = self._next(m.last, 1)  # not "Ramsey District Court": a court's name
            return word_after is None or not word_after.is_namey
        if prev is not None and prev.lower == "of" and before is not None:
            return before.lower in AREA_WORDS
        after = self._past_list(m.last, 1)  # "Idlib, Hama and Latakia provinces"
        if after is not None and after > m.last + 1 and toks[after].lower in AREA_WORDS:
            return toks[after].lower.endswith("s")
        before_list = self._past_list(m.first, -1)  # "the provinces of Idlib and Hama"
        return (
            before_list is not None
            and before_list > 0
            and toks[before_list].lower == "of"
            and toks[before_list - 1].lower in AREA_WORDS
            and toks[before_list - 1].lower.endswith("s")
        )

    def _past_list(self, k: int, step: int) -> int | None:
        """The first token from ``k`` on (``step`` 1) or back (-1) past the names and "and",
        "or" of a list, in ``k``'s sentence; None at the sentence's end."""
        sentence, k = self.toks[k].sentence, k + step
        while 0 <= k < len(self.toks) and self.toks[k].sentence == sentence:
            if not (self.toks[k].is_namey or self.toks[k].lower in {"and", "or"}):
                return k
            k += step
        return None

    def _respelled(
        self,
        kept: list[tuple[Mention, bool]],
        focus: str | None,
        centre: tuple[float, float] | None,
        near: dict[tuple[str, str], float],
    ) -> list[tuple[Mention, bool]]:
        """The mentions, with names that only far namesakes have read as other spellings.

        A name whose every candidate is a town outside the countries the story names, far
        from its places and not renowned (a capital, a city of 100,000), and a name no
        place is called at all that a word of place marks ("to the Ein Issa camp"), are
        looked up as another spelling of a town of those countries
        (:meth:`routes.places.NameIndex.variants`: one of its other names, or a
        transliteration of its own). Found, that town is what the name means ("Al-Hool":
        Al Ḩawl in Syria, not Hool in Mexico). Not found, a far-only name stays a toponym
        (the story may mean it) but is no movement's end: :attr:`far_only` says why, and
        the movements keep it unresolved, never sent to the far namesake (issue 26).
        """
        countries = self._countries(kept) or ({focus} if focus else set())
        if not countries:
            return kept
        located = partial(self._located, {m.start: m for m, _cue in [*kept, *self.unknown]})
        named = {m.key: self._named_countries(m) for m, _cue in kept}
        votes = Counter(c for found in named.values() for c in found)
        out: list[tuple[Mention, bool]] = []
        for m, cue in kept:
            own = named[m.key]  # Palma de Mallorca names Spain only for itself
            others = {c for c, n in votes.items() if n > (c in own)}
            far = (
                m.type == "literal"
                and bool(others)
                and all(
                    c.kind == "geonames"
                    and c.country not in others
                    and not (c.primary and (c.population >= RENOWNED_FAR or c.capital))
                    and not self._in_focus(c, focus, centre)
                    and near.get((m.key, c.ref), 0.0) < CONTEXT_NEAR
                    for c in m.candidates
                )
            )
            if far and cue and (found := self.x.variants(m.key, located(m) or others)):
                m.candidates = found
            elif far and cue:
                self.far_only[m.start] = self._far_only(m, others, centre)
            out.append((m, cue))
        for m, cue in self.unknown:  # no place has the name: the focus's towns, then others'
            island = self._island(m)  # "the island of Pentecost": Pentecost Island
            if island and (found := self.x.lookup([island]).get(island, [])):
                m.candidates = found
                out.append((m, cue))
                continue
            at = located(m)  # "Kokang in Burma": Burma's towns only
            if focus in countries and (
                found := self.x.variants(m.key, sorted(at))
                if at
                else self.x.variants(m.key, [focus])
                or self.x.variants(m.key, sorted(countries - {focus}))
            ):
                m.candidates = found
                out.append((m, cue))
                self.rejected = [  # "Ein", "Issa" were parts of no place's name after all
                    r for r in self.rejected if not m.start <= r.start < r.end <= m.end
                ]
        return out

    def _island(self, m: Mention) -> str | None:
        """The name an island goes by in full ("Pentecost Island"), for a name the text calls
        an island ("the island of Pentecost", "Pentecost island") that no place has alone."""
        before = re.search(r"\bisland of\s+$", self.text[max(0, m.start - 14) : m.start], re.I)
        after = re.match(r"\s+island\b", self.text[m.end : m.end + 8], re.I)
        return f"{m.key} island" if before or after else None

    def _located(self, starts: dict[int, Mention], m: Mention) -> set[str]:
        """The country named right after ``m``, past a comma or "in" ("Kokang in Burma",
        "Bodo, Cameroon"): where another spelling of its name is looked for."""
        gap = re.match(r",\s*|\s+in\s+", self.text[m.end : m.end + 6])
        after = starts.get(m.end + gap.end()) if gap else None
        if after is None:
            return set()
        return {c.country for c in after.candidates if c.feature == "country" and c.primary
                and c.country}  # fmt: skip

    def _countries(self, kept: list[tuple[Mention, bool]]) -> set[str]:
        """The countries the story names, itself, by its people ("Georgian") or by a place
        no namesake makes doubtful: the country, first-level region, curated place or city
        of 100,000 each name most likely means before the story's context (a village of
        the name does not count: the Hool of Mexico makes no story about Al-Hool camp one
        about Mexico)."""
        return {c for m, _cue in kept for c in self._named_countries(m)}

    def _naming(self, kept: list[tuple[Mention, bool]]) -> dict[str, set[str]]:
        """The countries the story names (:meth:`_countries`) → the names that name each."""
        found: dict[str, set[str]] = {}
        for m, _cue in kept:
            for c in self._named_countries(m):
                found.setdefault(c, set()).add(m.key)
        return found

    def _named_countries(self, m: Mention) -> set[str]:
        """The countries one mention names (see :meth:`_countries`)."""
        if m.type == "adjective":  # "Georgian", "Syrians"
            return {c.country for c in m.candidates if c.country}
        if m.type != "literal" or not m.candidates:
            return set()
        best = max(m.candidates, key=partial(self._prior, m))
        sure = best.strong and (best.primary or best.kind == "curated")
        if best.country and (sure or best.population >= RENOWNED_TOWN):
            return {best.country}
        return set()

    @staticmethod
    def _stated_countries(kept: list[tuple[Mention, bool]]) -> set[str]:
        """The countries the story names by name or by their people ("Costa Rica",
        "Venezuelans"): those whose places lead their namesakes (:data:`NAMED_COUNTRY_WEIGHT`)."""
        found: set[str] = set()
        for m, _cue in kept:
            if m.type == "adjective":
                found.update(c.country for c in m.candidates if c.country)
                continue
            named = [c.country for c in m.candidates if c.feature == "country" and c.primary]
            state = any(c.feature == "admin1" and c.primary for c in m.candidates)
            if m.type == "literal" and len(named) == 1 and named[0] and not state:
                found.add(named[0])  # not "Georgia", which a US state shares
        return found

    def _far_only(self, m: Mention, countries: set[str], centre: tuple[float, float] | None) -> str:
        """Why a name only far namesakes have is no movement's end (for the review)."""
        best = max(m.candidates, key=lambda c: c.population)
        away = (
            f", {great_circle_km(best.lat, best.lon, *centre):,.0f} km from the story's places"
            if centre is not None
            else ""
        )
        return (
            f"only places outside the story's countries ({', '.join(sorted(countries))}) have "
            f"the name, such as {best.name} ({best.country}){away}"
        )

    def _qualifiers(self, kept: list[tuple[Mention, bool]]) -> dict[int, set[tuple[str, str]]]:
        """Start of each name → the regions the name right after it, past a comma, may be.

        "Paris, Texas", "Richmond, Ky.", "Lagos, Nigeria", and "X in Y province", "X in
        the Y region" (a word of division marks Y): ``(country, first-level region)``
        for a region, ``(country, "")`` for a country; and the names :meth:`_owned` puts in
        a country.
        """
        found: dict[int, set[tuple[str, str]]] = dict(self.owned)
        starts = {m.start: m for m, _cue in kept}
        for m, _cue in kept:
            gap = re.match(r",\s*|\s+in\s+(?:the\s+)?", self.text[m.end : m.end + 12])
            after = starts.get(m.end + gap.end()) if gap else None
            if after is None or after is m:
                continue
            if gap is not None and "," not in gap.group() and not self._marked_area(after):
                continue  # "X in Y province", "X in the Y region": not "X in Y"
            areas = {
                (c.country, (c.admin1 or "") if c.feature == "admin1" else "")
                for c in after.candidates
                if c.country and (c.feature == "country" or (c.feature == "admin1" and c.admin1))
            }
            if areas:
                found[m.start] = areas
        return found

    def _in_owner(self, m: Mention) -> list[Candidate]:
        """``m``'s candidates in the country the text puts it in ("the Mozambican town of
        X"): its own, else its other spellings there; none known there, it stays a name that
        is no movement's end (:attr:`far_only`), never a namesake elsewhere."""
        owners = sorted(c for c, _ in self.owned.get(m.start, ()))
        there = [c for c in m.candidates if c.country in owners]
        if not owners or there:
            return there or m.candidates
        if found := self.x.variants(m.key, owners):
            m.candidates = found
        else:
            self.far_only[m.start] = (
                f"the text puts it in {', '.join(owners)}, where no place of the name is known"
            )
        return m.candidates

    def _owned(self, kept: list[tuple[Mention, bool]]) -> dict[int, set[tuple[str, str]]]:
        """Start of each name the text puts in a country → that country: "the Mozambican
        town of Palma", "Mozambique's port city of Beira", "Bodo, Cameroon" (a town's name
        and its country after a comma, not a list of places: only a town there may be it)."""
        ends = {m.end: m for m, _cue in kept}
        starts = {m.start: m for m, _cue in kept}
        found: dict[int, set[tuple[str, str]]] = {}
        for m, _cue in kept:
            for owner_end in range(max(0, m.start - 48), m.start):
                owner = ends.get(owner_end)
                if owner is None or not _COUNTRY_OF.fullmatch(self.text, owner_end, m.start):
                    continue
                countries = {
                    (c.country, "") for c in owner.candidates
                    if c.country and (owner.type == "adjective" or c.feature == "country")
                }  # fmt: skip
                if countries:
                    found[m.start] = countries
            comma = re.match(r"\s?,\s*", self.text[m.end : m.end + 4])
            after = starts.get(m.end + comma.end()) if comma else None
            if after is None or any(c.feature == "country" for c in m.candidates):
                continue
            named = [c.country for c in after.candidates if c.feature == "country" and c.primary]
            if len(named) == 1 and named[0] and not self._listed_after(after, starts):
                found[m.start] = {(named[0], "")}
        by_key = {m.key: found[m.start] for m, _cue in kept if m.start in found}
        return {m.start: by_key[m.key] for m, _cue in kept if m.key in by_key}  # the story's one X

    def _listed_after(self, m: Mention, starts: dict[int, Mention]) -> bool:
        """Whether another place follows ``m`` in a list ("Chad, Cameroon and Niger")."""
        gap = re.match(r",\s*(?:(?:and|or)\s+)?|\s+(?:and|or)\s+", self.text[m.end : m.end + 8])
        return gap is not None and m.end + gap.end() in starts

    def _focus(
        self,
        kept: list[tuple[Mention, bool]],
        score: Callable[[Mention, Candidate], float] | None = None,
    ) -> tuple[str | None, tuple[float, float] | None]:
        """The story's country (most votes) and the median point of its places there.

        Each name votes with its best candidate by ``score`` (the prior alone by default).
        The focus counts as much as the story is about it: :attr:`focus_weight` is its share
        of the votes to the power :data:`FOCUS_SHARE_POWER` (1 for a story about one
        country; about 0.1 for a story whose names vote a third for the US and the rest for
        three countries of West Africa).
        """
        votes: dict[str, float] = defaultdict(float)
        points: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for m, cue in kept:
            best = max(
                m.candidates,
                key=lambda c: self._score(c, None, None) if score is None else score(m, c),
            )
            if m.type == "adjective" and best.country:
                votes[best.country] += 0.5
            elif (best.strong or cue or best.population >= 100_000) and best.country:
                votes[best.country] += 1
                if best.feature != "country":
                    points[best.country].append((best.lat, best.lon))
        focus = max(votes, key=lambda iso: votes[iso]) if votes else None
        if focus is not None:
            self.focus_weight = (votes[focus] / sum(votes.values())) ** FOCUS_SHARE_POWER
        centre: tuple[float, float] | None = None
        if focus is not None:
            pts = points.get(focus) or (
                [self.x.country_points[focus]] if focus in self.x.country_points else []
            )
            if pts:
                centre = (
                    statistics.median(p[0] for p in pts),
                    statistics.median(p[1] for p in pts),
                )
        return focus, centre

    @staticmethod
    def _in_focus(c: Candidate, focus: str | None, centre: tuple[float, float] | None) -> bool:
        if focus is None:
            return False
        if c.country == focus:
            return True
        return centre is not None and great_circle_km(c.lat, c.lon, *centre) <= FOCUS_RADIUS_KM

    def _context(
        self, kept: list[tuple[Mention, bool]]
    ) -> tuple[
        str | None,
        tuple[float, float] | None,
        dict[tuple[str, str], float],
        dict[tuple[str, str], float],
    ]:
        """The story's focus and centre, and each candidate's support by the other names:
        by places nearby (:func:`.context.support`) and by country (``country_support``)."""
        # Pass 1: the story's focus, from the mentions that need no context.
        level = {(m.key, c.ref): self._level(m, c) for m, _cue in kept for c in m.candidates}
        focus, centre = self._focus(kept, lambda m, c: self._prior(m, c))
        names = [(m.key, m.candidates) for m, _cue in kept]

        def prior(key: str, c: Candidate) -> float:
            return self._score(c, focus, centre) + level.get((key, c.ref), 0.0)

        near = support(names, prior)
        # The countries of the story's other names ("Georgia" beside "Tbilisi").
        national = country_support(names, prior)
        # Pass 1b: the focus again, from each name's place in the context of the others
        # ("Paris" beside "Henry County" and "Murray" is Paris, Tennessee).
        focus, centre = self._focus(
            kept,
            lambda m, c: (
                self._prior(m, c)
                + CONTEXT_WEIGHT * near.get((m.key, c.ref), 0)
                + COUNTRY_WEIGHT * national.get((m.key, c.ref), 0)
            ),
        )
        near = support(names, prior)
        return focus, centre, near, national

    def _prior(self, m: Mention, c: Candidate) -> float:
        """``c``'s score for ``m`` before the story's focus is known."""
        return self._score(c, None, None) + self._level(m, c)

    @staticmethod
    def _level(m: Mention, c: Candidate) -> float:
        """A country's lead over the towns of its name ("Egypt", not Egypt, Texas, in a US
        story about Cairo): :data:`COUNTRY_LEVEL`, unless a first-level region of another
        country has that name too ("Georgia"; the State of Mexico does not cancel Mexico's
        lead), which only the story's other places tell apart, when it has
        :data:`REGION_TOWNS` towns or more (Niger State does not cancel Niger's). A city's
        (its main name): :data:`CITY_LEVEL` at a million people or more, less down to none at
        10^:data:`CITY_FROM`. A first-level region's own name, with :data:`REGION_TOWNS`
        towns or more and no country of that name: :data:`REGION_LEVEL` ("Florida" the
        state, not Florida, New York). A sea's own name: :data:`COUNTRY_LEVEL` ("Red Sea", not
        Egypt's governorate named after it)."""
        if c.kind == "geonames" and c.primary:
            # log10(population): 0 at CITY_FROM or fewer, 1 at a million or more.
            rise = (math.log10(c.population + 1) - CITY_FROM) / (6 - CITY_FROM)
            return CITY_LEVEL * min(1.0, max(0.0, rise))
        if c.kind == "region" and c.feature == "sea" and c.primary:
            return COUNTRY_LEVEL
        if c.kind == "region" and c.feature == "admin1" and c.primary:
            big = c.population >= REGION_TOWNS
            return REGION_LEVEL if big and all(r.feature != "country" for r in m.candidates) else 0
        if c.feature != "country":
            return 0.0
        rival = any(  # a large one: Niger State (39 towns) leaves the country Niger its lead
            r.kind == "region" and r.feature == "admin1" and r.primary and r.country != c.country
            and r.population >= REGION_TOWNS
            for r in m.candidates
        )  # fmt: skip
        return 0.0 if rival else COUNTRY_LEVEL

    def _score(self, c: Candidate, focus: str | None, centre: tuple[float, float] | None) -> float:
        """How likely this candidate is what the story means: prior, then closeness to focus
        (weighed by :attr:`focus_weight`)."""
        if c.kind == "curated" and c.feature != "country":
            score = 0.6 if c.primary else 0.55
        elif c.kind in {"country", "curated"}:
            score = 0.8 if c.primary else 0.75
            # Of two countries called so ("Congo"), the more populous, other things equal.
            score += COUNTRY_POPULATION * math.log10(c.population + 1)
        elif c.kind == "region":
            score = {"continent": 0.8, "sea": 0.95, "admin1": 0.95}.get(c.feature, 0.5)
            score -= 0 if c.primary else (0.35 if c.feature == "admin1" else 0.1)
        else:
            score = (0.3 if c.primary else 0.0) + 0.1 * math.log10(c.population + 10)
        if focus is not None and c.country == focus:
            score += 0.5 * self.focus_weight
        if centre is not None:
            near = math.exp(-great_circle_km(c.lat, c.lon, *centre) / 250)
            score += 0.5 * self.focus_weight * near
        return score

    @staticmethod
    def _confidence(
        best: Candidate,
        scored: list[Candidate],
        cue: bool,
        score: Callable[[Candidate], float],
        local: Callable[[Candidate], bool],
    ) -> float:
        """How likely ``best`` is what the story means, on the places scale (0–1).

        The one place extraction sets a toponym's confidence. The base is what
        :mod:`routes.places` rates ``best`` among the name's candidates
        (:func:`routes.places.base_confidences`: the rules the Geocoder and ``routes
        geocode`` use; the story's region, ``local``, is the region the name is read in).
        The story's evidence goes on top: :data:`CUE_EVIDENCE` for a word of place around
        the name; then, when the story ranks another candidate close behind (by less than
        :data:`DECISIVE_MARGIN` in ``score``), the confidence shrinks towards half.
        Candidates are ranked by ``score`` (:meth:`_score` and context), not by this.
        """
        base = base_confidences(scored, local)[best.ref]
        evidence = CUE_EVIDENCE if cue else 0.0
        resolved = 1.0
        if len(scored) > 1:
            margin = score(best) - score(scored[1])
            resolved = 0.5 + 0.5 * min(1.0, margin / DECISIVE_MARGIN)
        return round(max(0.05, min(1.0, base + evidence) * resolved), 2)

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
            + (" (another spelling of its name)" if c.variant else "")
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
