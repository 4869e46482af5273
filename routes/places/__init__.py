"""Names and gazetteers: every name lookup in `routes` happens here.

- :mod:`~routes.places.names`: comparison keys (:func:`normalize`, :func:`skeleton`);
- :mod:`~routes.places.curated`: the curated gazetteer (sourced points in ``geodata/``);
- :mod:`~routes.places.regions`: continents, seas, countries, first- and second-level regions;
- :mod:`~routes.places.geonames`: the GeoNames cities500 index;
- :mod:`~routes.places.candidates`: every place a name may refer to, on one confidence scale;
- :mod:`~routes.places.geocoder`: the :class:`Geocoder` (best candidate, or Nominatim online);
- :mod:`~routes.places.index`: the :class:`NameIndex` the extractor asks for a story's names,
  and :func:`contains` (whether one resolved place lies in another);
- :mod:`~routes.places.features`: airports, islands and landforms, ISO 3166-2 names;
- :mod:`~routes.places.former`: former names by date (Leningrad, Zaire).
"""

from routes.errors import UnknownPlaceError
from routes.places import areas, features, former, geonames, regions
from routes.places.candidates import (
    ALTERNATE_NAME_PENALTY,
    CONFIDENCE,
    SIMILAR_SPELLING_FACTOR,
    Candidate,
    candidates,
)
from routes.places.curated import Curated, curated_gazetteer
from routes.places.geocoder import NEAR_MARGIN_DEG, Geocoder, Match
from routes.places.geonames import GeoName, geonames_db, geonames_in
from routes.places.index import NameIndex, base_confidences, contains
from routes.places.names import normalize, skeleton

__all__ = [
    "ALTERNATE_NAME_PENALTY",
    "CONFIDENCE",
    "NEAR_MARGIN_DEG",
    "SIMILAR_SPELLING_FACTOR",
    "Candidate",
    "Curated",
    "GeoName",
    "Geocoder",
    "Match",
    "NameIndex",
    "UnknownPlaceError",
    "areas",
    "base_confidences",
    "candidates",
    "contains",
    "curated_gazetteer",
    "features",
    "former",
    "geonames",
    "geonames_db",
    "geonames_in",
    "normalize",
    "regions",
    "skeleton",
]
