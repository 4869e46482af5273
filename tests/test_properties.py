"""Property-based: whatever YAML or story text comes in, the public API gives a result or a
:class:`routes.errors.RoutesError`, never another exception (hypothesis, bounded runs)."""

from __future__ import annotations

import contextlib
import copy
import datetime as dt
import tempfile
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from routes import datasets, extract, scenario
from routes.errors import ExtractError, RoutesError

BOUNDED = settings(
    max_examples=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.dates(),
    st.sampled_from(["", "-", "aleppo", "country", "people", "../x", "1e400", "2016-02-30"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=20,
)
ALEPPO: dict[str, Any] = yaml.safe_load(
    datasets.get_path("aleppo-2016-12").read_text(encoding="utf-8")
)


def _load_text(text: str) -> None:
    """``scenario.load`` on ``text`` as a file: a Scenario, or a RoutesError."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "s.yaml"
        path.write_text(text, encoding="utf-8", errors="surrogatepass")
        with contextlib.suppress(RoutesError):
            assert isinstance(scenario.load(path), scenario.Scenario)


def _paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path inside ``data`` (dict keys and list indices)."""
    items = data.items() if isinstance(data, dict) else enumerate(data)
    found = []
    for key, value in items:
        found.append((*prefix, key))
        if isinstance(value, dict | list):
            found += _paths(value, (*prefix, key))
    return found


PATHS = _paths(ALEPPO)


@BOUNDED
@given(st.text(max_size=400))
def test_any_text_as_a_scenario_file(text: str) -> None:
    _load_text(text)


@BOUNDED
@given(VALUES)
def test_any_yaml_document_as_a_scenario(value: Any) -> None:
    _load_text(yaml.safe_dump(value, allow_unicode=True))


@BOUNDED
@given(st.lists(st.tuples(st.sampled_from(PATHS), st.none() | VALUES), min_size=1, max_size=4))
def test_the_bundled_scenario_with_random_edits(edits: list[tuple[tuple[Any, ...], Any]]) -> None:
    """Values replaced (or removed, for None) at random places of a valid scenario."""
    data = copy.deepcopy(ALEPPO)
    for path, value in edits:
        parent = data
        try:
            for key in path[:-1]:
                parent = parent[key]
            if value is None and isinstance(parent, dict):
                parent.pop(path[-1], None)
            else:
                parent[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue  # an earlier edit removed or replaced what this path went through
    _load_text(yaml.safe_dump(data, allow_unicode=True))


WORDS = st.sampled_from(
    ["Aleppo", "Idlib", "Turkey", "Homs", "Damascus", "Kafriya", "al-Rashideen", "Bab al-Hawa",
     "fled", "to", "from", "via", "evacuated", "buses", "ambulances", "people", "3,000",
     "Twenty-nine", "about", "more than", "said", "the ICRC", "on Thursday", "yesterday",
     "15 December 2016", "2016-12-15", "arrived", "in", "and", ".", ",", "\n\n", '"', "’",
     "{{ 7*7 }}", "<b>", "\u202e", "Paris", "Texas", "Georgia"]
)  # fmt: skip
STORIES = st.one_of(
    st.text(max_size=300),
    st.lists(st.one_of(WORDS, st.text(max_size=8)), max_size=80).map(" ".join),
)


@BOUNDED
@given(
    STORIES,
    st.none() | st.dates(dt.date(1900, 1, 1), dt.date(2100, 1, 1)),
    st.none() | st.text(max_size=20),
)
def test_any_story_text_extracts_or_says_why(
    text: str, day: dt.date | None, publisher: str | None
) -> None:
    """``extract`` always gives an extraction; ``draft_scenario`` a validated draft (with or
    without corridors) that reads back unchanged from its YAML, or an ExtractError."""
    found = extract.extract(text, story_date=day, publisher=publisher)
    assert isinstance(found, extract.Extraction)
    with contextlib.suppress(ExtractError):
        draft = extract.draft_scenario(text, story_date=day, publisher=publisher)
        assert scenario.validate(yaml.safe_load(scenario.dump(draft))) == draft
