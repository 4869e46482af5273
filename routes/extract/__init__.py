"""Draft a scenario from a story's text: place mentions, movements, figures and their sources.

The stages a story flows through, one module each (``docs/extraction.md`` says how each works
and what it can't read yet):

1. **Sentences** (:mod:`~routes.extract.text`) and **toponyms**
   (:mod:`~routes.extract.mentions`, :mod:`~routes.extract.toponyms`): runs of capitalised
   words looked up in the curated places, GeoNames, Natural Earth and the other sources of
   :mod:`routes.places`; the story's own countries, a locator after a comma and a "province"
   word choose among namesakes; organisations, people and common words are rejected.
2. **Parse** (:mod:`~routes.extract.parse`): the sentences that can hold a movement, through
   the project's own dependency parser (``scripts/train_parser.py``).
3. **Frames** (:mod:`~routes.extract.frames`, :mod:`~routes.extract.senses`,
   :mod:`~routes.extract.phrases`): each verb or noun of movement with the roles it takes from
   its own dependents (who moves, origin, destination, path) and its status (made, planned,
   not made).
4. **Movers across sentences** (:mod:`~routes.extract.movers`): each mover linked to its
   earlier mention; an end a sentence leaves out comes from that group's track, the place the
   story tells people leaving, or where its sentence says what drove them out, and the draft
   names the sentence it came from.
5. **Figures** (:mod:`~routes.extract.figures`) belong to the movement they are stated for;
   killed and injured are incidents (:mod:`~routes.extract.incidents`), never people moved.
6. **Draft** (:mod:`~routes.extract.draft`): :func:`draft_scenario` returns a
   :class:`routes.scenario.Scenario` that passed :func:`routes.scenario.validate`;
   :func:`explain` shows every proposal in the sentence it came from.
"""

from __future__ import annotations

from routes.extract.draft import MAX_STORY_CHARS, draft_scenario
from routes.extract.explain import explain
from routes.extract.findings import (
    Extraction,
    FigureMention,
    MovementDraft,
    Rejection,
    Toponym,
)
from routes.extract.gazetteer import Extractor, default_extractor, extract
from routes.extract.text import sentences
from routes.extract.toponyms import FOCUS_RADIUS_KM

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
    "sentences",
]

#: Places farther than this from the middle of the story's focus region are "elsewhere", km.

__all__ += ["FOCUS_RADIUS_KM", "MAX_STORY_CHARS"]
