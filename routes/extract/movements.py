"""Movements and incidents: origins and destinations by sentence, joined up; attacks."""

from __future__ import annotations

import re
from collections import Counter
from typing import TYPE_CHECKING

from routes.distance import great_circle_km
from routes.extract.findings import (
    Attribution,
    Candidate,
    DateMention,
    FigureMention,
    IncidentDraft,
    MovementDraft,
    Toponym,
)
from routes.extract.lexicon import (
    ARRIVE_VERBS,
    ATTACK_WORDS,
    CONVOY_WORDS,
    DEST_VERBS,
    EVACUATION_NOUNS,
    FOR_DEST_VERBS,
    GROUP_NOUNS,
    LOCATION_NOUNS,
    MOVE_PREFIXES,
    MOVE_WORDS,
    ORIGIN_VERBS,
    PEOPLE_NOUNS,
    PLACE_HEADS,
    RESIDENTS,
    SMALL_NUMBERS,
)
from routes.extract.text import Document, Token, unique

if TYPE_CHECKING:
    pass

__all__ = ["Movements"]


class Movements(Document):
    """Step 3: movements by sentence, joined into corridors; incidents with casualties."""

    # -- movements

    def _trigger(self, t: Token) -> bool:
        low = t.lower
        return low in MOVE_WORDS or low.startswith(MOVE_PREFIXES)

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
        per_sentence = self._per_sentence(figures, attributions, mention_tokens)
        main_origin = _main_origin(toponyms, per_sentence)
        corridors, open_moves, generic, origin_sentence = self._legs(
            per_sentence, main_origin, figures
        )
        # A sentence that states only an origin joins the first corridor from it.
        complete = list(corridors.values())
        remaining = self._join_open(open_moves, complete, places)
        primary = next((c for c in complete if c.origins == [main_origin]), None) or next(
            iter([*complete, *remaining]), None
        )
        self._attach_generic(generic, figures, primary)
        movements = [*complete, *remaining]
        for move in movements:
            move.sentences = sorted(set(move.sentences))
            self._finish(move, dates, origin_sentence, attributions)
        return movements, main_origin

    def _per_sentence(
        self,
        figures: list[FigureMention],
        attributions: dict[int, Attribution | None],
        mention_tokens: dict[int, Toponym],
    ) -> list[tuple[int, list[str], list[list[str]]]]:
        """Per movement sentence: its index, origins and destination groups, in pairs."""
        per_sentence: list[tuple[int, list[str], list[list[str]]]] = []
        groups: list[list[str]] = []  # coordinated place groups, for "those two towns"
        last_dests: list[str] = []  # for "there"
        for si in range(len(self.sents)):
            toks = [k for k, t in enumerate(self.toks) if t.sentence == si]
            if not any(self._trigger(self.toks[k]) and not self.toks[k].quoted for k in toks):
                continue
            roles = self._sentence_roles(
                toks, attributions.get(si), mention_tokens, groups, last_dests
            )
            origins = unique(r for role, refs, _k in roles if role == "origin" for r in refs)
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
        return per_sentence

    def _sentence_roles(
        self,
        toks: list[int],
        attribution: Attribution | None,
        mention_tokens: dict[int, Toponym],
        groups: list[list[str]],
        last_dests: list[str],
    ) -> list[tuple[str, list[str], int]]:
        """``(role, refs, token index)`` of each place and anaphor in one sentence, in order."""
        roles: list[tuple[str, list[str], int]] = []
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
        return roles

    def _legs(
        self,
        per_sentence: list[tuple[int, list[str], list[list[str]]]],
        main_origin: str | None,
        figures: list[FigureMention],
    ) -> tuple[
        dict[tuple[str, str], MovementDraft], list[MovementDraft], list[int], dict[str, int]
    ]:
        """Corridors by (origin, destination), open movements, placeless sentences, origins."""
        corridors: dict[tuple[str, str], MovementDraft] = {}
        open_moves: list[MovementDraft] = []
        generic: list[int] = []
        origin_sentence: dict[str, int] = {}
        for si, origins, dest_groups in per_sentence:
            for o in origins:
                origin_sentence.setdefault(o, si + 1)
            dests = unique(d for g in dest_groups for d in g)
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
        return corridors, open_moves, generic, origin_sentence

    def _join_open(
        self,
        open_moves: list[MovementDraft],
        complete: list[MovementDraft],
        places: dict[str, Candidate],
    ) -> list[MovementDraft]:
        """Open movements joined to a corridor (or an earlier one) from the same origins."""
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
        return remaining

    def _attach_generic(
        self, generic: list[int], figures: list[FigureMention], primary: MovementDraft | None
    ) -> None:
        """Figures of sentences that name no place go to the story's main movement."""
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

    @staticmethod
    def _near_origin(
        move: MovementDraft, corridors: list[MovementDraft], places: dict[str, Candidate]
    ) -> bool:
        """All of the movement's origins lie within 10 km of some corridor's origin."""
        starts = [places[c.origins[0]] for c in corridors]
        return bool(move.origins and starts) and all(
            any(great_circle_km(places[o].lat, places[o].lon, p.lat, p.lon) <= 10 for p in starts)
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
            for noun in PEOPLE_NOUNS:
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
                if prev_low == "out" or prev_low in EVACUATION_NOUNS or prev_low in RESIDENTS:
                    return "origin"
                if prev_low in LOCATION_NOUNS or prev_low in PLACE_HEADS:
                    j -= 2
                    steps += 2
                    continue
                return None
            if low == "in":
                if prev_low in EVACUATION_NOUNS or prev_low.startswith("evacuat"):
                    return "origin"
                if prev_low in ARRIVE_VERBS:
                    return "destination"
                if prev_low in LOCATION_NOUNS:
                    j -= 2
                    steps += 2
                    continue
                return None
            if low in {"to", "into", "towards", "toward"}:
                return "destination"
            if low == "for":
                before = {self.toks[x].lower for x in range(max(0, j - 6), j)}
                return "destination" if before & (FOR_DEST_VERBS | ORIGIN_VERBS) else None
            if low in ORIGIN_VERBS:
                return "origin"
            if low in DEST_VERBS:
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
        if nxt is not None and nxt.lower in SMALL_NUMBERS:
            count = SMALL_NUMBERS[nxt.lower]
            nxt = self._next(k, 1)
        elif t.lower == "both":
            count = 2
        if count is None or nxt is None or nxt.lower not in GROUP_NOUNS:
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
            attack = next((t for t in words if t.lower in ATTACK_WORDS), None)
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
                t.lower in CONVOY_WORDS
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


def _main_origin(
    toponyms: list[Toponym], per_sentence: list[tuple[int, list[str], list[list[str]]]]
) -> str | None:
    """The origin stated most often (then mentioned most, then first): the story's main one."""
    counts = Counter(t.place.ref for t in toponyms)
    stated = [r for _si, origins, _d in per_sentence for r in origins]
    return max(
        stated,
        key=lambda r: (stated.count(r), counts[r], -stated.index(r)),
        default=None,
    )


def _pairs(roles: list[tuple[str, list[str], int]]) -> list[tuple[list[str], list[str]]]:
    """Each destination with its origins: "from A to B, and from C to D" is A→B and C→D.

    A destination takes the origins stated since the previous destination, else those
    right after it ("taken to B from A"), else every origin in the sentence.
    """
    dest_at = [n for n, r in enumerate(roles) if r[0] == "destination"]
    every = unique(x for role, refs, _k in roles if role == "origin" for x in refs)
    out: list[tuple[list[str], list[str]]] = []
    for i, n in enumerate(dest_at):
        lo = dest_at[i - 1] + 1 if i else 0
        hi = dest_at[i + 1] if i + 1 < len(dest_at) else len(roles)
        before = [x for role, refs, _k in roles[lo:n] if role == "origin" for x in refs]
        after = [x for role, refs, _k in roles[n + 1 : hi] if role == "origin" for x in refs]
        out.append((unique(before or after or every), roles[n][1]))
    return out
