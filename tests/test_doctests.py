"""The Examples in the docstrings run, and say what they print."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import routes.places

#: Packages whose modules' docstring Examples are checked, and single modules.
PACKAGES = [routes.places]
MODULES = ["routes.distance", "routes.extract.parse"]


def module_names() -> list[str]:
    names = list(MODULES)
    for package in PACKAGES:
        names.append(package.__name__)
        prefix = f"{package.__name__}."
        names += [m.name for m in pkgutil.iter_modules(package.__path__, prefix)]
    return sorted(names)


@pytest.mark.parametrize("name", module_names())
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    result = doctest.testmod(module, optionflags=flags, report=True)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
