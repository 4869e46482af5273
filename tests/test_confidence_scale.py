"""One confidence scale: a draft's toponyms speak the scale ``routes geocode`` speaks.

Extraction starts each toponym's confidence from what :mod:`routes.places` rates the
place (the Geocoder's rules) and adds only the story's evidence: a word of place
(at most 0.1) and a close runner-up (which lowers it).
"""

from __future__ import annotations

import pytest

from routes import extract
from routes.places import Geocoder, NameIndex, base_confidences, candidates, normalize

#: Written for this test (no story text is copied into the repository).
STORY = (
    "Buses took families from eastern Aleppo to Idlib on Thursday. "
    "Diplomats in London and Brussels called for a ceasefire."
)


@pytest.fixture(scope="module")
def toponyms() -> dict[str, extract.Toponym]:
    return {t.text: t for t in extract.extract(STORY).toponyms}


def test_a_curated_place_is_as_sure_as_the_geocoder_says(
    toponyms: dict[str, extract.Toponym],
) -> None:
    geocoder = Geocoder()
    assert toponyms["Idlib"].confidence == geocoder.resolve("Idlib").confidence == 1.0


@pytest.mark.parametrize("name", ["London", "Brussels"])
def test_a_town_far_from_the_story_is_no_surer_than_the_geocoder_says(
    toponyms: dict[str, extract.Toponym], name: str
) -> None:
    """London among its homonyms is 0.3 to the Geocoder; the story may add a word of place."""
    said = Geocoder().resolve(name).confidence
    assert toponyms[name].confidence <= said + 0.1 + 1e-9


def test_the_index_rates_names_as_candidates_does() -> None:
    """``base_confidences`` over the story index gives the one-name lookup's confidences."""
    index = NameIndex()
    for name in ["Idlib", "London", "Syria", "Brussels"]:
        found = index.lookup([normalize(name)])[normalize(name)]
        rated = base_confidences(found)
        by_geonames = {c.geonames_id: c.confidence for c in candidates(name, similar=False)}
        for c in found:
            if c.geonames_id in by_geonames and c.kind != "curated":
                assert rated[c.ref] == by_geonames[c.geonames_id], (name, c)
        assert max(rated.values()) == candidates(name)[0].confidence, name
