"""Recognition: which runs of capitalised words may name places, looked up, accepted or rejected.

:class:`Mentions` finds the possible mentions of a story (runs of name-like words,
state abbreviations, streets, adjectives of nationality) and rejects those that are
not places here (people, organisations, speakers, common words);
:class:`~routes.extract.toponyms.Toponyms` resolves the rest in context.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from routes.extract.findings import Candidate, Rejection, Toponym
from routes.extract.lexicon import (
    ABBREVIATED_NAME,
    ARTICLES,
    DEMONYMS,
    DIRECTIONS,
    DWELLER_NOUNS,
    ENGLISH_ARTICLES,
    GENERIC_WORDS,
    LOCATION_NOUNS,
    LOCATIVE,
    NAME_JOINERS,
    NAME_PREFIXES,
    NAMED_HEADS,
    ORG_HEADS,
    PARTY_LETTERS,
    PERSON_TITLES,
    PLACE_HEADS,
    SPEECH_VERBS,
    STATE_HEADS,
    STOPWORDS,
    STREET_ABBREVIATIONS,
    STREET_WORDS,
    TITLES,
    WATER_HEADS,
)
from routes.extract.people import (
    common_words,
    first_names,
    person_tokens,
    plain_word,
    surnames,
)
from routes.extract.runs import longest_parts, outside, spelled_out
from routes.extract.text import Document, Token
from routes.places import normalize

__all__ = ["Mention", "Mentions"]


@dataclass
class Mention:
    """A stretch of text that may name a place, before it is accepted or rejected."""

    first: int  # token indices, inclusive
    last: int
    key: str
    start: int
    end: int
    qualified: bool = False  # "eastern Aleppo" as a curated sub-area
    candidates: list[Candidate] = field(default_factory=list)
    type: str = "literal"  # or "embedded" (inside a longer name), "adjective" (a demonym)
    certain: bool = False  # a place whatever the context ("W.Va.")


#: A town this large, called so by its own name, is a place even when a common English
#: word names it ("Reading", "Mobile"); a smaller one needs a word of place ("to Hope").
RENOWNED_COMMON_WORD = 100_000

#: A first-level region of this many GeoNames towns is named before a person of its name
#: ("Virginia said": the state; "Sofia said", whose province has fewer: a person).
LARGE_REGION = 50

#: A town this large owns the place after its "'s" ("Aleppo's al-Quds district"); a
#: smaller name before "'s" is a person's or a business's ("Knucklehead's Bar").
PLACE_OWNER_POPULATION = 50_000


class Mentions(Document):
    """Step 1: runs of name-like words, looked up, accepted or rejected."""

    typed: list[Toponym]  # adjectives, embedded places and streets, set by ``toponyms``
    unplaced: list[tuple[int, int]]  # runs no name of the index matches, set by ``_mentions``
    #: Those of them a word of place marks ("to the Ein Issa camp"), set by ``_accepted``:
    #: :class:`~routes.extract.toponyms.Toponyms` looks them up as other spellings.
    unknown: list[tuple[Mention, bool]]
    _looked_up: dict[str, list[Candidate]]  # the candidates of every run, set by ``_mentions``

    def _gap(self, a: Token, b: Token) -> str:
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
                if (
                    (gap in {" ", "-"} and (nxt.is_namey or self._is_article(j + 1)))
                    or (gap == " " and nxt.lower in NAME_JOINERS and self._joins(j + 2, j + 1))
                    or (gap == "-" and self._hyphen_joined(j + 1))
                    or self._prefix(j)
                ):
                    j += 1
                elif (
                    gap == " "
                    and nxt.lower == "of"
                    and toks[j].lower in ORG_HEADS | STATE_HEADS | WATER_HEADS
                    and self._joins(j + 2, j + 1)
                ):
                    j += 1  # University of Aleppo, Committee of the Red Cross
                    if toks[j + 1].lower == "the" and j + 2 < n:
                        j += 1
                else:
                    break
            yield i, j
            i = j + 1

    def _hyphen_joined(self, k: int) -> bool:
        """Token ``k`` is a small lower-case word inside a hyphened name, between two of its
        capitalised words ("Port-au-Prince", "Rostov-on-Don")."""
        toks = self.toks
        return (
            toks[k].text.islower()
            and len(toks[k].text) <= 4
            and k + 1 < len(toks)
            and toks[k + 1].sentence == toks[k].sentence
            and self._gap(toks[k], toks[k + 1]) == "-"
            and toks[k + 1].is_namey
        )

    def _prefix(self, k: int) -> bool:
        """Token ``k`` is "St." (or "Mt.", "Ft.") before a name: the name's first word."""
        toks = self.toks
        return (
            toks[k].text in NAME_PREFIXES
            and k + 1 < len(toks)
            and toks[k + 1].sentence == toks[k].sentence
            and self._gap(toks[k], toks[k + 1]) == ". "
            and toks[k + 1].is_namey
        )

    def _party(self, k: int) -> bool:
        """Token ``k`` is a party's letter before a place: "Sen. Robert Ford, D-Charleston"."""
        toks = self.toks
        return (
            toks[k].text in PARTY_LETTERS
            and k + 1 < len(toks)
            and self._gap(toks[k], toks[k + 1]) == "-"
            and toks[k + 1].is_namey
        )

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
        if t.lower not in ARTICLES or k + 1 >= len(self.toks):
            return False
        nxt = self.toks[k + 1]
        gaps = {"-"} if t.lower in ENGLISH_ARTICLES else {"-", " "}
        return nxt.sentence == t.sentence and self._gap(t, nxt) in gaps and nxt.is_namey

    def _starts_name(self, i: int) -> bool:
        t = self.toks[i]
        if not t.is_word:
            return False
        if t.is_namey:
            return True
        return self._is_article(i) and self._gap(t, self.toks[i + 1]) == "-"

    def _is_demonym(self, t: Token) -> bool:
        """A word of nationality: the lexicon's, or a capitalised demonym of a country
        ("Chadian", "Bahamians"; countryinfo's, through the index)."""
        if t.lower in DEMONYMS or t.lower.rstrip("s") in DEMONYMS:
            return True
        return t.text[:1].isupper() and normalize(t.text) in self.x.demonyms

    def _strip(self, i: int, j: int) -> tuple[int, int]:
        """Drop leading and trailing words that are not part of a name."""
        while i <= j:
            t = self.toks[i]
            low = t.lower
            if self._is_demonym(t):
                self._reject_demonym(t)
            elif self._prefix(i) or not (
                (low in STOPWORDS and not self.x.is_acronym_name(t.text))
                or self._party(i)
                or low in NAME_JOINERS
                or low == "of"
                or (
                    self._sentence_initial(i)
                    and low in self.lower_words
                    and not self.x.is_acronym_name(t.text)  # "US rhetoric", beside "us"
                )
            ):
                break
            i += 1
        while j >= i and (
            self._is_demonym(self.toks[j])
            or (self.toks[j].lower in STOPWORDS and not self.x.is_acronym_name(self.toks[j].text))
        ):
            if self._is_demonym(self.toks[j]):
                self._reject_demonym(self.toks[j])
            j -= 1
        return i, j

    def _reject_demonym(self, t: Token) -> None:
        self.rejected.append(Rejection(t.start, t.end, t.text, "adjective (nationality or group)"))

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

    def _mentions(self) -> list[Mention]:
        """Candidate place mentions, and rejections for names inside longer names."""
        plans: list[tuple[int, int, list[tuple[int, int, bool]]]] = []
        keys: set[str] = set()
        runs = list(self._runs())
        possessive_keys = {
            self._key(a, d)
            for (a, b), (c, d) in itertools.pairwise(runs)
            if b + 2 == c and self.toks[b + 1].text in {"'s", "’s"}
        }
        states = self._abbreviated_names()
        found = self.x.lookup(possessive_keys | {m.key for m in states})
        self._possessive_names = set(found) & possessive_keys
        for m in states:
            # Only a state's other name, as the gazetteer has the AP abbreviations.
            m.candidates = [
                c
                for c in found.get(m.key, [])
                if c.feature == "admin1" and c.country == "US" and not c.primary
            ]
        states = [m for m in states if m.candidates]
        covered = {k for m in states for k in range(m.first, m.last + 1)}
        self.streets: list[tuple[int, int, int, str]] = []
        national: list[tuple[int, int]] = []
        for a, b in outside(self._possessive_runs(), covered):
            if self._street(a, b):
                continue
            i, j = self._strip(a, b)
            lead = [k for k in range(a, min(i, j + 1)) if self._is_demonym(self.toks[k])]
            if lead and i <= j:
                national.append((lead[0], j))  # "Russian Federation", "Syrian Arab Republic"
                keys.add(self._key(lead[0], j))
            if i > j:
                continue
            options: list[tuple[int, int, bool]] = []
            prev = self.toks[i - 1] if i > 0 else None
            if (
                prev is not None
                and prev.lower in DIRECTIONS
                and prev.sentence == self.toks[i].sentence
                and self._gap(prev, self.toks[i]) == " "
            ):
                options.append((i - 1, j, True))  # eastern Aleppo
            for x in range(i, j + 1):
                for y in range(x, min(j, x + 6) + 1):
                    options.append((x, y, False))
            plans.append((i, j, options))
            keys.update(self._key(x, y) for x, y, _q in options)
        spelled = {k: spelled_out(k) for k in keys if spelled_out(k) != k}
        found = self.x.lookup(keys | set(spelled.values()))
        self._looked_up = found  # every run's candidates, for :meth:`_is_place_name`
        for key, full in spelled.items():
            if full in found:  # "St. Paris": GeoNames has "Saint Paris"
                # "St. Petersburg": Saint Petersburg's own name, not only another name of it
                merged = {c.ref: c for c in found.get(key, [])}
                for c in found[full]:
                    if c.ref not in merged or (c.primary and not merged[c.ref].primary):
                        merged[c.ref] = c
                found[key] = list(merged.values())
        mentions: list[Mention] = list(states)
        countries = {}
        for a, j in national:
            named = [
                c
                for c in found.get(self._key(a, j), [])
                if c.feature == "country" or (c.feature == "admin1" and c.primary)
            ]  # "Russian Federation", "British Columbia"
            if named:
                t0, t1 = self.toks[a], self.toks[j]
                countries[j] = Mention(a, j, self._key(a, j), t0.start, t1.end, candidates=named)
        self.unplaced = []
        for i, j, options in plans:
            chosen = [countries[j]] if j in countries else self._choose(i, j, options, found)
            if not chosen and self._key(i, j) not in found:
                self.unplaced.append((i, j))  # "Ein Issa": no place of that name, none in it
            mentions += chosen
        return mentions

    def _street(self, a: int, b: int) -> bool:
        """Run ``a..b`` names a street ("Wichita Drive", "Main St."): noted in ``streets``."""
        last = self.toks[b]
        end = last.end
        if last.lower in STREET_ABBREVIATIONS and self.text[end : end + 1] == ".":
            end += 1
        elif last.lower not in STREET_WORDS or b == a:
            return False
        i, j = self._strip(a, b - 1)
        if i > j:
            return False
        start = self.toks[i].start
        self.streets.append((start, end, last.sentence + 1, self.text[start:end]))
        return True

    def _abbreviated_names(self) -> list[Mention]:
        """Abbreviations with their period ("Charleston, W.Va.", "Ga."), to look up as states."""
        starts = [t.start for t in self.toks]
        found: list[Mention] = []
        for hit in ABBREVIATED_NAME.finditer(self.text):
            first = bisect.bisect_left(starts, hit.start())
            last = bisect.bisect_left(starts, hit.end()) - 1
            if first <= last and starts[first] == hit.start():
                key = normalize(hit.group())
                found.append(Mention(first, last, key, hit.start(), hit.end(), certain=True))
        return found

    def _choose(
        self,
        i: int,
        j: int,
        options: list[tuple[int, int, bool]],
        found: dict[str, list[Candidate]],
    ) -> list[Mention]:
        """Which parts of a run name places: the whole run, its parts, or none."""

        def mention(x: int, y: int, qualified: bool = False) -> Mention:
            key = self._key(x, y)
            return Mention(
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
        if self.toks[i].lower in DIRECTIONS and (i + 1, j) in usable:
            return [mention(i + 1, j)]  # Northern Syria: the place is Syria
        # "Idlib Province", "Province of Idlib": a place with its generic head.
        head_end = j
        while head_end > i and self.toks[head_end].lower in PLACE_HEADS:
            head_end -= 1
        if head_end < j and (i, head_end) in usable:
            m = mention(i, head_end)
            if self.toks[j].lower in NAMED_HEADS:  # "Mayo County": the head is in the name
                m.last, m.end = j, self.toks[j].end
            return [m]
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
            and self.toks[lead[0][1] + 1].lower in PERSON_TITLES
        ):
            x, y = lead[0]
            m = mention(x, y)
            if not any(c.strong for c in m.candidates):
                m.type = "embedded"  # "Dublin Mayor Marilee …": a town's mayor
            return [m]
        # A headline's capitalised words: "Thousands Flee Kirkuk", "Exodus From Yemen".
        if lead and self.headlines[self.toks[i].sentence]:
            covered = {k for x, y in lead for k in range(x, y + 1)}
            rest = [self.toks[k] for k in range(i, j + 1) if k not in covered]
            if all(not t.is_word or plain_word(t.lower, self.lower_words) for t in rest):
                return [mention(x, y) for x, y in lead]
        # A longer name that contains a place name: an organisation, a person, a building.
        return self._inside_name(i, j, usable, found)

    def _inside_name(
        self,
        i: int,
        j: int,
        usable: set[tuple[int, int]],
        found: dict[str, list[Candidate]],
    ) -> list[Mention]:
        """Places embedded in the longer name ``i..j``; the other parts are rejected."""
        whole = self.text[self.toks[i].start : self.toks[j].end]
        names = [k for k in range(i, j + 1) if self.toks[k].is_namey]
        org = any(self.toks[k].lower in ORG_HEADS | PLACE_HEADS for k in range(i, j + 1))
        last = self._key(names[-1], names[-1]) if names else ""
        big = any(c.strong or c.population >= 100_000 for c in found.get(last, []))
        if 2 <= len(names) <= 5 and not org and not big:  # not "Metropolitan Atlanta"
            self.persons.add(last)
        embedded: list[Mention] = []
        for x, y in self._longest(i, j, usable):
            key = self._key(x, y)
            if self._embeds(x, y, i, j, org, found[key]):
                start, end = self.toks[x].start, self.toks[y].end
                embedded.append(Mention(x, y, key, start, end, candidates=list(found[key])))
                embedded[-1].type = "embedded"
                continue
            if any(c.strong or c.population >= 1000 for c in found[key]):
                part = self.text[self.toks[x].start : self.toks[y].end]
                self.rejected.append(
                    Rejection(
                        self.toks[x].start,
                        self.toks[y].end,
                        part,
                        f"part of the name {whole!r} (organisation, person or building)",
                    )
                )
        return embedded

    def _embeds(
        self, x: int, y: int, i: int, j: int, org: bool, candidates: list[Candidate]
    ) -> bool:
        """A place inside the longer name ``i..j`` ("Ohio Supreme Court", "U.S. Army")."""
        strong = any(c.strong for c in candidates)
        if not (strong or (org and any(c.population >= 1000 for c in candidates))):
            return False
        namey = [k for k in range(i, j + 1) if self.toks[k].is_namey]
        # "George Washington", "Paris Hilton": a person whose first or last name is a place.
        return org or (x == i and len(namey) > 2) or (strong and x == i and y - x >= 1)

    def _usable(self, x: int, y: int, found: dict[str, list[Candidate]]) -> bool:
        key = self._key(x, y)
        return key in found and self._name_like(x, y, key)

    def _name_like(self, x: int, y: int, key: str) -> bool:
        """Tokens ``x..y`` may be a place's name: no acronym, no common or title word alone."""
        surface = self.text[self.toks[x].start : self.toks[y].end]
        letters = re.sub(r"[^A-Za-z]", "", surface)
        if letters.isupper() and len(letters) <= 5 and not self.x.is_acronym_name(surface):
            return False  # CNN, AMC, UN
        if (
            x == y
            and self.toks[x].lower
            in STOPWORDS | TITLES | ORG_HEADS | DEMONYMS | GENERIC_WORDS | DIRECTIONS
            and not self.x.is_acronym_name(surface)
        ):
            return False
        return not (x == y and len(key) < 3 and not self.x.is_acronym_name(surface))

    def _cover(self, i: int, j: int, usable: set[tuple[int, int]]) -> list[tuple[int, int]] | None:
        """Split tokens ``i..j`` into place names, longest first; None if some word is left."""
        parts, whole = longest_parts(i, j, usable)
        return parts if whole else None

    def _longest(self, i: int, j: int, usable: set[tuple[int, int]]) -> list[tuple[int, int]]:
        """The place names in tokens ``i..j``, longest first, skipping words that are none."""
        return longest_parts(i, j, usable)[0]

    def _locative_cue(self, m: Mention) -> bool:
        """A preposition of place before, or a generic place word after ("Idlib province")."""
        nxt = self._next(m.last)
        head = nxt is not None and (nxt.lower in PLACE_HEADS or nxt.lower[:-1] in PLACE_HEADS)
        if head or (m.first and self._party(m.first - 1)):  # "Idlib province", "X camps"
            return True
        for skip in range(4):
            prev = self._prev_word(m.first, skip)
            if prev is None or prev.is_namey:
                return False
            if prev.lower in LOCATIVE:
                return True
            if prev.lower == "of":
                before = self._prev_word(m.first, skip + 1)
                return before is not None and (
                    before.lower in LOCATION_NOUNS
                    or before.lower in PLACE_HEADS
                    or before.lower in DWELLER_NOUNS  # "residents of Kiryat Shmona"
                )
            if re.search(r"[,;:()\"“”]", self._gap(prev, self.toks[m.first - skip])):
                return False
        return False

    def _speaker(self, m: Mention) -> bool:
        """Right before or after "said", "reported" …: a person or an agency."""
        nxt = self._next(m.last)
        prev = self._prev_word(m.first)
        if (prev is not None and prev.lower in LOCATIVE) or (m.first and self._party(m.first - 1)):
            return False  # "analysts in London said", "Robert Ford, D-Charleston, said"
        if any(
            (c.primary and c.population >= 1_000_000) or c.feature == "country"
            for c in m.candidates
        ):
            return False  # "Kyiv said": a capital speaking for its government
        if nxt is not None and nxt.lower in SPEECH_VERBS:
            return True
        return (
            prev is not None
            and prev.lower in SPEECH_VERBS
            and self._gap(prev, self.toks[m.first]) == " "
        )

    def _adjectives(self, taken: list[Mention]) -> list[Mention]:
        """Nationality adjectives and demonyms ("Russian", "Sri Lankan"), each at its country."""
        used = {k for m in taken for k in range(m.first, m.last + 1)}
        found: list[Mention] = []
        k, n = 0, len(self.toks)
        while k < n:
            for size in (2, 1):
                last = k + size - 1
                if last >= n or any(
                    q in used or not self.toks[q].is_namey for q in range(k, last + 1)
                ):
                    continue
                if size == 2 and self._gap(self.toks[k], self.toks[last]) != " ":
                    continue
                iso = self.x.demonyms.get(self._key(k, last))
                country = self.x.country(iso) if iso else None
                if country is not None:
                    t0, t1 = self.toks[k], self.toks[last]
                    found.append(
                        Mention(
                            k,
                            last,
                            self._key(k, last),
                            t0.start,
                            t1.end,
                            candidates=[country],
                            type="adjective",
                        )
                    )
                    k = last
                    break
            k += 1
        return found

    def _accepted(self) -> list[tuple[Mention, bool]]:
        """The possible mentions that may be places, each with its locative cue."""
        mentions = self._mentions()
        mentions += self._adjectives(mentions)
        people, after_given = person_tokens(self)
        persons = self.persons | surnames(self, after_given)
        kept: list[tuple[Mention, bool]] = []
        for m in mentions:
            surface = self.text[m.start : m.end]
            cue = self._locative_cue(m)
            person = (
                self._person(m, people, persons)
                or self._establishment(m)
                or self._owner(m)
                or self._given_speaker(m)
            )
            if person:
                self.rejected.append(Rejection(m.start, m.end, surface, person))
                continue
            if self._sure(m):
                kept.append((m, cue))
                continue
            reason = self._not_a_place(m, persons)
            strong = [c for c in m.candidates if c.kind == "curated"]
            if reason and not (strong and reason.startswith("followed by")):
                self.rejected.append(Rejection(m.start, m.end, surface, reason))
                continue
            kept.append((m, cue))
        self.unknown = [
            (m, True)
            for m in self._unplaced_mentions()
            if self._locative_cue(m)
            and not self._modifier(m)
            and not self._person(m, people, persons)
            and not self._not_a_place(m, persons)
        ]
        return kept

    def _modifier(self, m: Mention) -> bool:
        """``m`` qualifies the noun after it: "Houthi-held", "the Hamad housing project"
        (not "the Ein Issa camp", whose noun is a place's)."""
        nxt, prev = self._next(m.last), self._prev_word(m.first)
        if nxt is None or not nxt.text.islower():
            return False
        if self._gap(self.toks[m.last], nxt) == "-":
            return True
        place = nxt.lower in PLACE_HEADS or nxt.lower[:-1] in PLACE_HEADS  # "the X camps"
        return prev is not None and prev.lower == "the" and not place

    def _unplaced_mentions(self) -> list[Mention]:
        """The runs no name of the index matches that may still be places' names."""
        out = []
        for i, j in self.unplaced:
            key = self._key(i, j)
            if key and self._name_like(i, j, key):
                out.append(Mention(i, j, key, self.toks[i].start, self.toks[j].end))
        return out

    def _person(self, m: Mention, people: set[int], persons: set[str]) -> str | None:
        """Why ``m`` is a person's name here, if it is (see :mod:`.people`)."""
        nxt = self._next(m.last)
        if (
            m.last == m.first + 1
            and self.toks[m.first].text in NAME_PREFIXES
            and self.toks[m.last].lower in first_names()
            and nxt is not None
            and nxt.text in {"'s", "’s"}
        ):
            return "a saint's name (St. Patrick's Day, St. John's church)"
        if m.type != "literal" or m.first != m.last or m.certain:
            return None
        if any(
            c.kind in {"country", "curated"}
            or (c.kind == "region" and c.primary and c.population >= 10)
            for c in m.candidates
        ):
            return None  # "Georgia", "Ohio": a state first, whatever the word before it
        if m.first in people:
            return "a person's name (after a title or a given name)"
        if normalize(self.toks[m.first].text) in persons:
            return "a person's name used elsewhere in the story"
        return None

    def _given_speaker(self, m: Mention) -> str | None:
        """ "Maria said", "said Houston": a given name beside a verb of speech is a person,
        whatever town or small region has the name (not a country or a large first-level
        region: "Georgia said", "Virginia said")."""
        if m.type != "literal" or m.first != m.last or m.certain:
            return None
        if self.toks[m.first].lower not in first_names(0.0) or any(
            c.primary
            and (c.feature == "country" or (c.feature == "admin1" and c.population >= LARGE_REGION))
            for c in m.candidates
        ):
            return None
        nxt, prev = self._next(m.last), self._prev_word(m.first)
        if (nxt is not None and nxt.lower in SPEECH_VERBS) or (
            prev is not None and prev.lower in SPEECH_VERBS
        ):
            return "a person's given name beside a verb of speech"
        return None

    @staticmethod
    def _sure(m: Mention) -> bool:
        """A place whatever the context: a demonym, a curated sub-area, a country or region."""
        return (
            m.type == "adjective"
            or m.certain
            or m.qualified
            or any(c.kind == "country" or (c.kind == "region" and c.primary) for c in m.candidates)
        )

    def _abbreviated(self, m: Mention) -> bool:
        """A short capitalised name right before a period: an abbreviation ("Conn.")."""
        word = self.text[m.start : m.end]
        return (
            m.first == m.last
            and self.text[m.end : m.end + 1] == "."
            and 2 <= len(word) <= 5
            and word.isalpha()
            and word.istitle()
        )

    def _part_of_next(self, m: Mention) -> bool:
        """A name of common words of place ("Old City", "Old Town") before "of" and a name:
        that place's part, not a namesake elsewhere."""
        words = {self.toks[k].lower for k in range(m.first, m.last + 1)}
        nxt, name = self._next(m.last), self._next(m.last, 1)
        return (
            words <= DIRECTIONS | LOCATION_NOUNS
            and nxt is not None
            and nxt.lower == "of"
            and name is not None
            and name.is_namey
        )

    def _establishment(self, m: Mention) -> str | None:
        """ "Knucklehead's Bar", "Cox's Mill": a name after a person's or a business's "'s"."""
        prev = self._prev_word(m.first)
        owner = self._prev_word(m.first, 1)
        if prev is None or prev.text not in {"'s", "’s"} or owner is None or not owner.is_namey:
            return None
        if m.type != "literal" or any(c.kind in {"country", "curated"} for c in m.candidates):
            return None
        if self._is_place_name(owner.text):
            return None  # "Ukraine's Mariupol", "Syria's Idlib"
        return f"named as part of {owner.text}'s: an establishment, not a place"

    def _owner(self, m: Mention) -> str | None:
        """ "Cox's Bazaar" as no gazetteer spells it: the "Cox" of a longer name, not the
        Cox of Spain (a country, region or large town before "'s" owns the next name)."""
        nxt, name = self._next(m.last), self._next(m.last, 1)
        if nxt is None or nxt.text not in {"'s", "’s"} or name is None or not name.is_namey:
            return None
        surface = self.text[m.start : m.end]
        if m.type != "literal" or any(c.kind in {"country", "curated"} for c in m.candidates):
            return None
        if self._is_place_name(surface):
            return None
        return f"part of the name {surface}'s {name.text}: not a place of its own"

    def _is_place_name(self, text: str) -> bool:
        """A country, curated place, region or large town has this name ("Ukraine's Mariupol")."""
        key = normalize(text)
        found = self._looked_up.get(key) if key in self._looked_up else None
        return any(
            c.kind in {"country", "curated", "region"} or c.population >= PLACE_OWNER_POPULATION
            for c in (found if found is not None else self.x.lookup([key]).get(key, []))
        )

    def _not_a_place(self, m: Mention, persons: set[str]) -> str | None:
        nxt = self._next(m.last)
        if self._speaker(m):
            return "a speaker (next to 'said', 'reported' …)"
        if self._part_of_next(m):
            return "a part of the place named after it ('the Old City of Homs')"
        last = normalize(self.toks[m.last].text)
        if (
            m.first == m.last
            and last in persons
            and not any(c.feature == "country" for c in m.candidates)
        ):
            return "a person's name used elsewhere in the story"
        if (
            nxt is not None
            and nxt.lower in ORG_HEADS
            and nxt.text != "airport"  # "flying from Kabul airport": the town's
            and self._gap(self.toks[m.last], nxt) == " "
        ):
            return f"followed by {nxt.text!r}: the name of an organisation or building"
        prev = self._prev_word(m.first)
        if (
            prev is not None
            and prev.text == "the"
            and m.first == m.last
            and all(c.kind == "geonames" for c in m.candidates)
            and (nxt is None or not nxt.is_word or nxt.lower in STOPWORDS - {"and", "or"})
            and not self._locative_cue(m)  # "in the Hague", "to the Bronx"
        ):
            # "the Webster was", "the Duma would", "the Act,": a thing named after a town
            return "after 'the' with no noun after it: a thing named after a town"
        if (
            m.first == m.last
            and self.toks[m.first].text.lower() in self.lower_words
            and not any(c.strong for c in m.candidates)
        ):
            return "a common word (also written in lower case in the story)"
        return self._common_word(m)

    def _common_word(self, m: Mention) -> str | None:
        """One of the most common English words (:func:`~.people.common_words`) is no place
        unless a word of place marks it ("to Hope", "Liberty County") or a country, a
        first-level region or a city of 100,000 is called so ("Turkey", "Reading")."""
        if (
            m.type != "literal"
            or m.first != m.last
            or self.toks[m.first].lower not in common_words()
            or self._locative_cue(m)
        ):
            return None
        if self.x.is_acronym_name(self.text[m.start : m.end]) or any(
            c.feature == "country"
            or (c.primary and (c.strong or c.population >= RENOWNED_COMMON_WORD))
            for c in m.candidates
        ):
            return None  # "US", "America", "Turkey", "Reading"
        return "a common English word, with no word of place around it"
