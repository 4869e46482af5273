"""Names and gazetteers: normalisation, the curated places, the GeoNames index, the Geocoder."""

from routes.errors import UnknownPlaceError
from routes.places import regions
from routes.places.geocoder import (
    ALTERNATE_NAME_PENALTY,
    Geocoder,
    GeoName,
    Match,
    geonames_db,
    geonames_in,
    normalize,
)

__all__ = [
    "ALTERNATE_NAME_PENALTY",
    "GeoName",
    "Geocoder",
    "Match",
    "UnknownPlaceError",
    "geonames_db",
    "geonames_in",
    "normalize",
    "regions",
]
