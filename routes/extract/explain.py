"""Review: each proposal of a draft shown in the sentence it came from."""

from __future__ import annotations

import bisect
from collections import defaultdict
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from routes.extract.text import Sentence, sentences
from routes.scenario import Scenario

if TYPE_CHECKING:
    from rich.text import Text

__all__ = ["explain"]

_STYLES = {
    "place": "bold black on yellow",
    "origin": "bold white on red",
    "destination": "bold white on green",
    "figure": "bold black on cyan",
    "credit": "italic magenta",
}

Span = tuple[int, int, str]

#: A sentence longer than this is shown as the parts around what it highlights, characters:
#: a figure in a sentence of 30,000 characters shows a line, not the sentence again.
SHOWN_CHARS = 400
#: Characters shown either side of a highlight in a long sentence.
AROUND = 100


def explain(text: str, draft: Scenario | dict[str, Any]) -> Text:
    """Each proposed place, corridor, movement, incident and figure in its sentence, highlighted.

    ``draft`` is what :func:`draft_scenario` returned (or the YAML a person edited, as data);
    ``text`` the story it was drafted from. Print it with ``rich``; ``.plain`` is the
    same without colour.
    """
    data = draft.model_dump() if isinstance(draft, Scenario) else draft
    review = _Review(text, data)
    review.header()
    review.places()
    review.unmapped()
    for title, key in (
        ("Corridors", "corridors"),
        ("Movements with an end not stated", "movements"),
    ):
        review.movements(title, data.get(key) or [])
    review.incidents()
    review.notes()
    return review.out


class _Review:
    """The review text being written, and the story and draft it shows."""

    def __init__(self, text: str, draft: dict[str, Any]) -> None:
        from rich.text import Text

        self.text = text
        self.draft = draft
        self.sents = sentences(text)
        self.starts = [s.start for s in self.sents]
        self.out = Text()
        self.toponyms: list[dict[str, Any]] = draft.get("toponyms") or []
        self.by_place: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for t in self.toponyms:
            self.by_place[t.get("place") or ""].append(t)

    def sentence_of(self, start: int) -> Sentence | None:
        """The sentence holding character ``start`` (a binary search: one per span)."""
        at = bisect.bisect_right(self.starts, start) - 1
        s = self.sents[at] if at >= 0 else None
        return s if s is not None and s.start <= start < s.end else None

    def show(self, spans: list[Span], indent: str = "    ") -> None:
        """Print the sentences that hold these spans, with the spans highlighted."""
        by_sentence: dict[int, list[Span]] = defaultdict(list)
        for a, b, style in spans:
            s = self.sentence_of(a)
            if s is None or b > len(self.text):
                self.out.append(f"{indent}(chars {a}-{b} are not in this text)\n", style="red")
                continue
            by_sentence[s.index].append((a, b, style))
        for index in sorted(by_sentence):
            s = self.sents[index - 1]
            self.out.append(f"{indent}s{index} ", style="dim")
            self.out.append_text(_excerpt(self.text, s, by_sentence[index]))
            self.out.append("\n")

    def mentions_of(self, place_id: str, style: str) -> list[Span]:
        return [(t["start"], t["end"], style) for t in self.by_place.get(place_id, [])]

    def figures(self, items: list[dict[str, Any]]) -> None:
        for f in items:
            value = " ".join(filter(None, [f.get("qualifier"), f"{f['value']:,}", str(f["kind"])]))
            self.out.append("    figure ", style="dim")
            self.out.append(value, style=_STYLES["figure"])
            self.out.append(f", according to {f['according_to']}\n", style=_STYLES["credit"])
            ev = f.get("evidence")
            if ev:
                self.show([(ev["start"], ev["end"], _STYLES["figure"])], indent="      ")

    def header(self) -> None:
        story = self.draft.get("story", {})
        self.out.append(f"{story.get('title', 'Draft')}", style="bold")
        self.out.append(f" — {story.get('publisher', '?')}, {story.get('date') or 'undated'}\n")

    def places(self) -> None:
        out = self.out
        out.append("\nPlaces\n", style="bold underline")
        places = {p["id"]: p for p in self.draft.get("places", [])}
        for place_id, p in places.items():
            ts = self.by_place.get(place_id, [])
            conf = max((t["confidence"] for t in ts), default=None)
            out.append(f"  {place_id}", style="bold")
            out.append(
                f"  {p['name']} · {p['role']} · {p['lat']:.5f}, {p['lon']:.5f} · {p['source']}"
                + (f" ({p['detail']})" if p.get("detail") else "")
                + (f" · confidence {conf}" if conf is not None else "")
                + "\n"
            )
            self.show(self.mentions_of(place_id, _STYLES["place"]))

    def unmapped(self) -> None:
        unmapped = [t for t in self.toponyms if not t.get("place")]
        if unmapped:
            self.out.append("\nNamed, not mapped\n", style="bold underline")
            for t in unmapped:
                self.out.append(
                    f"  {t['text']} → {t['name']} ({t.get('country')}, {t['resolved']}), "
                    f"confidence {t['confidence']}\n"
                )

    def movements(self, title: str, items: list[dict[str, Any]]) -> None:
        """Corridors or open movements: ends, date, note, and the sentences that say so."""
        if not items:
            return
        out = self.out
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
            spans: list[Span] = [(e["start"], e["start"], "") for e in evidence]
            for o in origins:
                spans += _in_sentences(self.mentions_of(o, _STYLES["origin"]), evidence)
            for d in dests:
                spans += _in_sentences(self.mentions_of(d, _STYLES["destination"]), evidence)
            self.show(spans)
            self.figures(c.get("figures") or [])

    def incidents(self) -> None:
        incidents = self.draft.get("incidents") or []
        if incidents:
            out = self.out
            out.append("\nIncidents\n", style="bold underline")
            for inc in incidents:
                out.append(f"  {inc['id']}", style="bold")
                out.append(f"  {inc['name']} · {inc['date']} · at {inc['place']}")
                out.append(f" ({inc['location_note']})" if inc.get("location_note") else "")
                out.append("\n")
                self.show([(e["start"], e["start"], "") for e in inc.get("evidence") or []])
                self.figures(inc.get("figures") or [])

    def notes(self) -> None:
        review = self.draft.get("review") or []
        if review:
            self.out.append("\nTo check\n", style="bold underline")
            for note in review:
                self.out.append(f"  • {note}\n")


def _in_sentences(spans: list[Span], evidence: list[dict[str, int]]) -> list[Span]:
    """The spans that start inside one of the ``evidence`` ranges (a binary search each)."""
    inside = sorted((e["start"], e["end"]) for e in evidence)
    starts = [a for a, _ in inside]
    reach = list(accumulate((b for _a, b in inside), max))  # the furthest end so far
    out = []
    for sp in spans:
        at = bisect.bisect_right(starts, sp[0]) - 1
        if at >= 0 and sp[0] < reach[at]:
            out.append(sp)
    return out


def _excerpt(text: str, s: Sentence, spans: list[Span]) -> Text:
    """Sentence ``s`` with ``spans`` highlighted; past :data:`SHOWN_CHARS`, only the parts
    within :data:`AROUND` characters of a span, joined by "…", so that what is shown grows
    with the spans, never as their number times the sentence."""
    from rich.text import Text

    spans = sorted((max(a, s.start), min(max(a, b), s.end), style) for a, b, style in spans)
    parts = [(s.start, s.end)]
    if s.end - s.start > SHOWN_CHARS:
        parts = []
        for a, b, _style in spans:  # each span lies inside the part made around it
            a, b = max(s.start, a - AROUND), min(s.end, b + AROUND)
            if parts and a <= parts[-1][1]:
                parts[-1] = (parts[-1][0], max(parts[-1][1], b))
            else:
                parts.append((a, b))
    line, at = Text(), []  # at: where each part starts in the line
    for a, b in parts:
        line.append("…" if a > s.start else "")
        at.append(len(line.plain))
        line.append(text[a:b])
    line.append("…" if parts[-1][1] < s.end else "")
    firsts = [a for a, _b in parts]
    for a, b, style in spans:
        k = bisect.bisect_right(firsts, a) - 1
        if style and k >= 0:
            line.stylize(style, at[k] + a - parts[k][0], at[k] + b - parts[k][0])
    return line
