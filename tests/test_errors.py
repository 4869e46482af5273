"""The library's own arguments: a bad choice is a RoutesError that names the allowed ones."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from routes import datasets, export
from routes.errors import RoutesError
from routes.routing import ch


@pytest.mark.parametrize(
    ("call", "allowed"),
    [
        (lambda tmp: export.write({}, "shp", tmp, "out"), export.FORMATS),
        (lambda tmp: ch.use_ch("fast", 3, 1), ch.SEARCHES),
        (lambda tmp: datasets.get_path("atlantis"), datasets.available()),
    ],
    ids=["export format", "router search", "dataset"],
)
def test_a_bad_choice_names_the_allowed_values(
    call: Callable[[Path], object], allowed: tuple[str, ...] | list[str], tmp_path: Path
) -> None:
    with pytest.raises(RoutesError) as caught:
        call(tmp_path)
    message = str(caught.value)
    assert "\n" not in message
    assert all(name in message for name in allowed), message
    assert not list(tmp_path.iterdir()), "nothing written for a refused call"
