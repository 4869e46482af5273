"""Map forced displacement from the news: places, corridors, interactive maps."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("routes")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0"

__all__ = ["__version__"]
