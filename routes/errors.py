"""Every error a user can see: :class:`RoutesError` and its subclasses.

The CLI turns any :class:`RoutesError` into one line and exit code 2; the library
raises nothing else on purpose for bad input.
"""

from __future__ import annotations

from pathlib import Path

__all__ = [
    "AssetError",
    "DownloadError",
    "EditError",
    "ExtractError",
    "NetworkError",
    "RoutesError",
    "ScenarioError",
    "UnknownPlaceError",
    "UsageError",
    "WriteError",
]


class RoutesError(Exception):
    """Base of every error meant for a user: its message is one line saying what to do."""


class UsageError(RoutesError, ValueError):
    """A bad option value or argument (to a command or a library function)."""


class ScenarioError(RoutesError, ValueError):
    """A scenario file that cannot be used; the message names file, record and field.

    Every problem is in the message (``; ``-separated, one line) and in :attr:`problems`.
    """

    def __init__(self, path: str | Path, problems: list[str]) -> None:
        self.path = str(path)
        self.problems = problems
        count = f"{len(problems)} problems: " if len(problems) > 1 else ""
        super().__init__(f"{self.path}: {count}{'; '.join(problems)}")


class EditError(RoutesError, ValueError):
    """An edit ``routes review``'s page sent that the draft cannot take."""


class ExtractError(RoutesError, ValueError):
    """A story that cannot be drafted: too long, or no place in it can be mapped."""


class UnknownPlaceError(RoutesError, LookupError):
    """No source knows the name; carries the closest known names."""

    def __init__(self, query: str, suggestions: list[str]) -> None:
        self.query = query
        self.suggestions = suggestions
        hint = f" Closest known names: {', '.join(suggestions)}." if suggestions else ""
        super().__init__(f"unknown place {query!r}.{hint}")


class NetworkError(RoutesError, RuntimeError):
    """No usable network: an unreadable file, or OSM required but not to be had."""


class DownloadError(NetworkError):
    """The Overpass download failed (no network, server error, timeout)."""


class AssetError(RoutesError, RuntimeError):
    """A map asset could not be had from the installed package that ships it."""


class WriteError(RoutesError, RuntimeError):
    """A file could not be written whole (a full disk, a short write); the old one is kept."""
