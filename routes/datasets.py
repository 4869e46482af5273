"""The data `routes` ships: scenario files and the curated gazetteers (see geodata/README.md)."""

from __future__ import annotations

from pathlib import Path

from routes.errors import UsageError

__all__ = ["DATA_DIR", "GAZETTEERS", "available", "get_path"]

_PACKAGED = Path(__file__).parent / "geodata"  # inside an installed wheel
_SOURCE_TREE = Path(__file__).parent.parent / "geodata"  # in a checkout or editable install
DATA_DIR: Path = _PACKAGED if _PACKAGED.is_dir() else _SOURCE_TREE
#: The curated gazetteers beside the scenarios, read in this order after them.
GAZETTEERS = ("gazetteer", "sites")


def get_path(name: str) -> Path:
    """Path of a bundled dataset: a scenario id (``"aleppo-2016-12"``), ``"gazetteer"`` or
    ``"sites"`` (the displacement sites: camps, crossings, named areas)."""
    candidates = [DATA_DIR / "scenarios" / f"{name}.yaml", DATA_DIR / f"{name}.yaml"]
    for path in candidates:
        if path.is_file():
            return path
    raise UsageError(f"no bundled dataset named {name!r}; available: {', '.join(available())}")


def available() -> list[str]:
    """Names :func:`get_path` accepts."""
    scenarios = sorted(p.stem for p in (DATA_DIR / "scenarios").glob("*.yaml"))
    return [*scenarios, *GAZETTEERS]
