"""The extractor: the story index of :mod:`routes.places.index`, and one extraction per text."""

from __future__ import annotations

import datetime as dt
from functools import cache
from typing import TYPE_CHECKING

from routes.places.curated import CuratedPlace
from routes.places.index import IndexCandidate as Candidate
from routes.places.index import NameIndex

if TYPE_CHECKING:
    from routes.extract.findings import Extraction

__all__ = ["Candidate", "CuratedPlace", "Extractor", "default_extractor", "extract"]


class Extractor(NameIndex):
    """The story index, and :meth:`extract` for each text.

    Build once (:func:`default_extractor`), then call :meth:`extract` for each text.
    """

    def extract(
        self,
        text: str,
        *,
        story_date: dt.date | None = None,
        publisher: str | None = None,
        date_from_text: bool = False,
    ) -> Extraction:
        """Toponyms, movements, figures and dates in ``text``.

        With ``date_from_text`` and no ``story_date``, the first full date in the text
        is the story's date (``Extraction.dated_by`` names it).
        """
        from routes.extract.run import Run

        return Run(self, text, story_date, publisher).extraction(date_from_text=date_from_text)


@cache
def default_extractor() -> Extractor:
    """The extractor over the bundled curated places, built once per process."""
    return Extractor()


def extract(
    text: str, *, story_date: dt.date | None = None, publisher: str | None = None
) -> Extraction:
    """Toponyms, figures, dates, movements and incidents in ``text`` (default extractor)."""
    return default_extractor().extract(text, story_date=story_date, publisher=publisher)
