"""Figures, dates and attributions: counts of people, the days they refer to, who says so."""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING

from routes.extract.findings import (
    Attribution,
    DateMention,
    FigureMention,
)
from routes.extract.lexicon import (
    ABBREVIATIONS,
    ARTICLES,
    CASUALTY_VERBS,
    CASUALTY_WORDS,
    FUTURE,
    KIND_NOUNS,
    MONTHS,
    MULTIPLIERS,
    NAME_JOINERS,
    PRONOUNS,
    QUALIFIERS,
    ROLE_NOUNS,
    SMALL_NUMBERS,
    SPEECH_VERBS,
    STOPWORDS,
    TENS,
    WEEKDAYS,
)
from routes.extract.text import Document, Sentence

if TYPE_CHECKING:
    pass

__all__ = ["Figures"]


class Figures(Document):
    """Step 4: dates, counts and whom each sentence credits."""

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
                month = MONTHS.get((m.group("m1") or m.group("m2")).lower())
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
                    future = bool(FUTURE.search(chunk[: m.start()][-40:]))
                    delta = (WEEKDAYS[word] - self.story_date.weekday()) % 7
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
            if nxt is not None and nxt.lower in MULTIPLIERS:
                return int(float(t.text) * MULTIPLIERS[nxt.lower]), k + 1
            return None
        elif low in SMALL_NUMBERS:
            value = SMALL_NUMBERS[low]
        elif low in TENS:
            value = TENS[low]
            nxt = self._next(k)
            if nxt is not None and nxt.lower in SMALL_NUMBERS and self._gap(t, nxt) == "-":
                value += SMALL_NUMBERS[nxt.lower]
                last = k + 1
        elif low == "a":
            nxt = self._next(k)
            if nxt is not None and nxt.lower in {"hundred", "thousand", "dozen"}:
                return (12 if nxt.lower == "dozen" else MULTIPLIERS[nxt.lower]), k + 1
            return None
        else:
            return None
        nxt = self._next(last)
        if nxt is not None and nxt.lower in MULTIPLIERS:
            value *= MULTIPLIERS[nxt.lower]
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
            number = self._number(k)
            if number is None:
                k += 1
                continue
            value, last = number
            found = self._kind_after(last)
            before = self._prev_word(k)
            if found is not None and before is not None and before.lower in CASUALTY_VERBS:
                found = (CASUALTY_VERBS[before.lower], found[1])  # killed 12 people
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
        if low[0] in CASUALTY_WORDS:
            return CASUALTY_WORDS[low[0]], last + 1  # 40 wounded
        if low[0] in KIND_NOUNS or low[0] in {"others", "other", "more"}:
            # one person was killed; four others injured
            for s in (1, 2, 3):
                if low[s] in CASUALTY_WORDS and all(
                    w in {"was", "were", "are", "is", "have", "has", "had", "been", "being"}
                    for w in low[1:s]
                ):
                    return CASUALTY_WORDS[low[s]], last + 1 + s
            if low[0] in KIND_NOUNS:
                return KIND_NOUNS[low[0]], last + 1
            return None
        if (
            low[1] in KIND_NOUNS
            and low[1] not in CASUALTY_WORDS
            and low[0].isalpha()
            and low[0] not in {"of", "and", "or", "to", "in", "the"}
        ):
            return KIND_NOUNS[low[1]], last + 2  # 3,000 displaced people
        return None

    def _qualifier(self, k: int) -> tuple[str | None, int]:
        for words, qualifier in QUALIFIERS:
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
            if found is not None and found.who.lower() not in PRONOUNS:
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
        toks = self.sentence_tokens[s.index - 1]
        for k in toks:
            t = self.toks[k]
            if t.lower not in SPEECH_VERBS or t.quoted:
                continue
            left = self._name_before(k)
            if left is not None:
                a, b = left
                who = self.text[self.toks[a].start : self.toks[b].end]
                if who.lower() in PRONOUNS:
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
        if prev.lower in PRONOUNS:
            return k - 1, k - 1
        if not (prev.is_namey or prev.lower in ARTICLES):
            return None
        a = k - 1
        while a - 1 >= 0 and self.toks[a - 1].sentence == self.toks[k].sentence:
            p = self.toks[a - 1]
            gap = self._gap(p, self.toks[a])
            if gap in {" ", "-"} and (
                p.is_namey or p.lower in ARTICLES or p.lower in NAME_JOINERS or p.lower == "of"
            ):
                a -= 1
            elif gap == ". " and p.lower in ABBREVIATIONS:
                a -= 1  # Dr. Hamza
            else:
                break
        while a < k - 1 and (self.toks[a].lower in STOPWORDS and not self.toks[a].is_namey):
            a += 1
        if self._sentence_initial(a) and self.toks[a].lower in STOPWORDS:
            a += 1
        return (a, k - 1) if a <= k - 1 else None

    def _appositive_before(self, a: int) -> tuple[str, int] | None:
        """ ", the head of the ICRC in Syria, Marianne Gasser": the description before a name."""
        sent = self.sents[self.toks[a].sentence]
        before = self.text[sent.start : self.toks[a].start]
        m = re.search(r",\s*((?:the|a|an)\s[^,]+),\s*$", before)
        if m and any(w in ROLE_NOUNS for w in m.group(1).lower().split()):
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
        if ap and any(w in ROLE_NOUNS for w in ap.group(1).lower().split()):
            end = end + ap.end(1)
        return start, end
