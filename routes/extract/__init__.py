"""Draft a scenario from a story's text: place mentions, movements, figures and their sources.

Rules over a gazetteer, no statistical model (docs/extraction.md says why):

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

:func:`draft_scenario` returns a :class:`routes.scenario.Scenario` that passed
:func:`routes.scenario.validate` (write it with :func:`routes.scenario.dump`);
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
