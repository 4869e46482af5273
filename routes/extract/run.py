"""One extraction over one text: the steps in order."""

from __future__ import annotations

from collections.abc import Iterable

from routes.extract.figures import Figures
from routes.extract.findings import (
    Extraction,
    Rejection,
    named_places,
)
from routes.extract.incidents import Incidents
from routes.extract.movements import Movements
from routes.extract.toponyms import Toponyms

__all__ = ["Run"]


class Run(Toponyms, Figures, Incidents, Movements):
    """One extraction over one text (the steps share the document's state)."""

    # -- all together

    def extraction(self, *, date_from_text: bool = False) -> Extraction:
        dated_by = None
        if self.story_date is None and date_from_text:
            explicit = self.dates()  # undated, only full dates ("15 December 2016")
            if explicit:
                dated_by = explicit[0]
                self.story_date = dated_by.date
        toponyms, focus, centre = self.toponyms()
        dates = self.dates()
        attributions = self.attributions()
        figures = self.figures(attributions)
        # People move between places on land: a sea is kept for review, never an end.
        on_land = [t for t in toponyms if t.place.feature != "sea"]
        mention_tokens = self._mention_tokens(on_land)
        incidents = self._incidents(figures, mention_tokens, attributions, dates)
        movements, main_origin, vehicles, unresolved = self.movements(
            on_land, figures, dates, attributions, focus, self.typed
        )
        # a people's name that gave a movement its origin ("Venezuelans crossed") names
        # that country for the draft
        used = set(named_places(movements, vehicles))
        named = {t.place.ref for t in toponyms}
        toponyms = sorted(
            [
                *toponyms,
                *(
                    t
                    for t in [*self.typed, *self.buildings, *self.capitals]
                    if t.place.ref in used - named
                ),
            ],
            key=lambda t: t.start,
        )
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
            self.typed,
            dated_by,
            vehicles,
            unresolved,
        )


def _unique_rejections(items: Iterable[Rejection]) -> list[Rejection]:
    seen: dict[tuple[int, int], Rejection] = {}
    for r in items:
        seen.setdefault((r.start, r.end), r)
    return list(seen.values())
