"""Resolve place names: the best candidate (curated, regions, GeoNames), else Nominatim online.

Matching compares :func:`~routes.places.names.normalize`-d names, so case,
diacritics, apostrophe variants and Arabic articles (``al-``, ``el-``…) do not matter.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from routes import settings
from routes.distance import great_circle_km
from routes.errors import UnknownPlaceError
from routes.places.candidates import RUNNER_UP_FACTOR, Candidate, candidates, runner_up
from routes.places.curated import Curated, curated_gazetteer
from routes.places.geonames import Bounds, geonames_in
from routes.places.names import normalize
from routes.scenario import Place, Scenario

__all__ = ["NEAR_MARGIN_DEG", "Geocoder", "Match"]

log = logging.getLogger("routes")

#: How far around a scenario's places GeoNames candidates count as "in the region", degrees.
#: Wider than :data:`routes.network.REGION_MARGIN_DEG` (what the roads cover): a name's
#: candidates up to about 100 km beyond the places still belong to the story.
NEAR_MARGIN_DEG = 1.0


@dataclass(frozen=True)
class Match:
    """One resolved name: where it is, where that came from, and how sure we are (0–1)."""

    query: str
    name: str
    lat: float
    lon: float
    source: str
    confidence: float
    place_id: str | None = None
    country: str | None = None
    level: str | None = None  # see Candidate.level
    geonames_id: int | None = None
    #: Another place of the name, farther than 50 km, nearly as likely: name, country,
    #: level, lat, lon, km away, its confidence (:func:`~routes.places.candidates.runner_up`).
    runner_up: dict[str, object] | None = None

    @property
    def kind(self) -> str:
        """What kind of place: city, admin1, admin2, country, continent, sea or curated."""
        if self.place_id is not None:
            return "curated"
        return "city" if self.level == "town" else self.level or "place"

    def as_dict(self) -> dict[str, object]:
        return asdict(self)


class Geocoder:
    """Resolves names to the best of their :func:`~routes.places.candidates`, or Nominatim.

    Parameters
    ----------
    places
        Curated places searched first; ``None`` for the curated gazetteer
        (every bundled scenario's places and ``geodata/gazetteer.yaml``).
    region
        ``(west, south, east, north)``: GeoNames candidates inside it are preferred.

    Examples
    --------
    >>> geocoder = Geocoder()
    >>> match = geocoder.resolve("Kafriya, Idlib")
    >>> match.place_id, match.country, match.confidence
    ('kafriya', 'SY', 1.0)
    >>> geocoder.resolve("Foah").place_id
    'al-fuah'
    """

    def __init__(
        self, places: Iterable[Place] | None = None, *, region: Bounds | None = None
    ) -> None:
        self.curated = curated_gazetteer() if places is None else Curated(places)
        self.places = self.curated.places
        self.region = region

    @classmethod
    def for_scenario(cls, scenario: Scenario) -> Geocoder:
        """Scenario places, then the curated gazetteer; the region is the scenario's extent.

        A gazetteer place that shares a name with one of the scenario's is left out:
        the story's own record of a name wins.
        """
        west, south, east, north = scenario.bounds()
        m = NEAR_MARGIN_DEG
        own = {normalize(n) for p in scenario.places for n in [p.name, *p.aliases]}
        others = [
            p
            for p in curated_gazetteer().places
            if not own & {normalize(n) for n in [p.name, *p.aliases]}
        ]
        places = [*scenario.places, *others]
        return cls(places, region=(west - m, south - m, east + m, north + m))

    def candidates(self, query: str) -> list[Candidate]:
        """Every place ``query`` may refer to, best first (see :func:`candidates`)."""
        return candidates(query, self.region, curated=self.curated)

    def resolve(self, query: str, *, offline: bool = True) -> Match:
        """Best match for one name, or :class:`UnknownPlaceError` with suggestions."""
        found = self.candidates(query)
        if found:
            best, other = found[0], runner_up(found)
            confidence = best.confidence
            rival: dict[str, object] | None = None
            if other is not None:
                confidence = round(confidence * RUNNER_UP_FACTOR, 2)
                km = great_circle_km(best.lat, best.lon, other.lat, other.lon)
                rival = {
                    "name": other.name, "country": other.country, "level": other.level,
                    "lat": other.lat, "lon": other.lon, "km": round(km),
                    "confidence": other.confidence,
                }  # fmt: skip
            return Match(
                query,
                best.name,
                best.lat,
                best.lon,
                best.source,
                confidence,
                best.place_id,
                best.country,
                best.level,
                best.geonames_id,
                rival,
            )
        match = None if offline else _nominatim(query)
        if match is None:
            raise UnknownPlaceError(query, self.suggest(query))
        return match

    def suggest(self, query: str, limit: int = 3) -> list[str]:
        """The known names closest in spelling to ``query``."""
        from rapidfuzz import fuzz, process, utils

        names = self.curated.names()
        if self.region is not None:
            names.update(town.name for town in geonames_in(self.region))
        found = process.extract(
            query, sorted(names), scorer=fuzz.WRatio, processor=utils.default_process, limit=limit
        )
        return [name for name, _score, _index in found]


def _nominatim(query: str) -> Match | None:
    """Nominatim through osmnx: cached on disk, paced to 1 request a second, with our User-Agent."""
    failed = settings.failed_recently(_NOMINATIM)
    if failed is not None:  # unreachable today: not asked again (said once per run)
        _skipping_nominatim(failed[0].strftime("%H:%M UTC"))
        return None
    import osmnx as ox
    import requests

    settings.configure_osmnx()
    try:
        lat, lon = ox.geocode(query)
    except (ox._errors.InsufficientResponseError, requests.RequestException, OSError) as exc:
        if isinstance(exc, OSError | requests.ConnectionError | requests.Timeout):
            settings.remember_failure(_NOMINATIM, type(exc).__name__)
        log.warning("Nominatim: no answer for %r (%s)", query, type(exc).__name__)
        return None
    return Match(query, query, lat, lon, "Nominatim (OpenStreetMap contributors, ODbL)", 0.5)


#: What :func:`routes.settings.remember_failure` notes when Nominatim cannot be reached.
_NOMINATIM = "nominatim"


@functools.cache
def _skipping_nominatim(since: str) -> None:
    log.warning("Nominatim could not be reached at %s; it is not asked again for a day "
                "(names no gazetteer knows stay unknown until then)", since)  # fmt: skip
