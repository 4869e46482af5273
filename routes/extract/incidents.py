"""Incidents: attacks with killed or injured counts, where the story says, on whose word."""

from __future__ import annotations

import re

from routes.extract.findings import (
    Attribution,
    DateMention,
    FigureMention,
    IncidentDraft,
    Toponym,
)
from routes.extract.lexicon import ATTACK_WORDS, CONVOY_WORDS
from routes.extract.text import Document, by_sentence

__all__ = ["Incidents"]


class Incidents(Document):
    """Step 4: incidents with casualties, and the token each place mention covers."""

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

    def _incidents(
        self,
        figures: list[FigureMention],
        mention_tokens: dict[int, Toponym],
        attributions: dict[int, Attribution | None],
        dates: list[DateMention],
    ) -> list[IncidentDraft]:
        """Attacks with killed or injured counts; where, if the story says, and on whose word."""
        out: list[IncidentDraft] = []
        casualties = by_sentence(f for f in figures if f.kind in {"killed", "injured"})
        for si in range(len(self.sents)):
            figs = casualties.get(si + 1, [])
            if not figs:
                continue
            words = [self.toks[k] for k in self.sentence_tokens[si] if not self.toks[k].quoted]
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
            for k in (k for n in sentences for k in self.sentence_tokens[n - 1]):
                top = mention_tokens.get(k)
                if top is None:
                    continue
                if any(a.start <= top.start < a.end for a in excluded):
                    continue
                prev = self._prev_word(k)
                if prev is not None and prev.lower in {"in", "at", "near", "outside", "inside"}:
                    place = top.place.ref
                    break
            convoy = any(
                self.toks[k].lower in CONVOY_WORDS and not self.toks[k].quoted
                for n in sentences
                for k in self.sentence_tokens[n - 1]
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
