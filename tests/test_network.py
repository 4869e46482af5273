"""The offline proxy network and corridors routed on it."""

from __future__ import annotations

import json
import logging
import struct
import zipfile
from itertools import pairwise
from pathlib import Path
from typing import Any

import networkx as nx
import numpy as np
import osmnx as ox
import pytest
from osmnx.distance import great_circle

from routes import network, scenario, settings
from routes.cli import app
from routes.routing import RoadNetwork, corridors


@pytest.fixture(scope="module")
def roads(aleppo: scenario.Scenario) -> RoadNetwork:
    return network.proxy_network(aleppo)


@pytest.fixture(scope="module")
def proxy(roads: RoadNetwork) -> nx.MultiDiGraph:
    return roads.to_networkx()


def test_proxy_is_connected_and_labelled(proxy: nx.MultiDiGraph) -> None:
    assert nx.is_strongly_connected(proxy)
    assert proxy.graph["network_source"] == "proxy" and proxy.graph["crs"] == "EPSG:4326"
    assert proxy.graph["circuity"] == network.CIRCUITY
    assert len(proxy) > 50, "expected GeoNames towns around the scenario's places"


def test_proxy_nodes_are_real_places(proxy: nx.MultiDiGraph, aleppo: scenario.Scenario) -> None:
    place_ids = {d["place_id"] for _, d in proxy.nodes(data=True) if "place_id" in d}
    assert place_ids == {p.id for p in aleppo.places if p.role != "country"}
    others = [d for _, d in proxy.nodes(data=True) if "place_id" not in d]
    assert others and all(d["source"].startswith("GeoNames ") for d in others)


def test_proxy_edges_in_osmnx_schema(proxy: nx.MultiDiGraph) -> None:
    speed_ms = network.PROXY_SPEED_KPH / 3.6
    for u, v, d in proxy.edges(data=True):
        gc = great_circle(
            proxy.nodes[u]["y"], proxy.nodes[u]["x"], proxy.nodes[v]["y"], proxy.nodes[v]["x"]
        )
        assert d["length"] >= gc
        assert d["length"] == pytest.approx(gc * network.CIRCUITY, abs=0.1)
        assert d["travel_time"] == pytest.approx(d["length"] / speed_ms, abs=0.1)
        assert d["highway"] == "proxy"
    nodes, edges = ox.graph_to_gdfs(proxy)
    assert len(nodes) == len(proxy) and len(edges) == proxy.number_of_edges()


def test_long_links_only_where_needed(proxy: nx.MultiDiGraph) -> None:
    longest = max(d["length"] for *_, d in proxy.edges(data=True)) / network.CIRCUITY
    short = nx.MultiDiGraph(proxy)
    short.remove_edges_from(
        [
            (u, v, k)
            for u, v, k, d in proxy.edges(keys=True, data=True)
            if d["length"] / network.CIRCUITY > network.PROXY_MAX_LINK_KM * 1000
        ]
    )
    if longest > network.PROXY_MAX_LINK_KM * 1000:
        assert not nx.is_strongly_connected(short), "a long link was kept that is not needed"


def _contents(roads: RoadNetwork) -> tuple[Any, ...]:
    G = roads.to_networkx()
    return G.graph, list(G.nodes(data=True)), list(G.edges(keys=True, data=True))


def test_warm_proxy_is_read_from_the_cache_not_rebuilt(
    aleppo: scenario.Scenario,
    roads: RoadNetwork,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    for entry in settings.cache_dir.glob("geonames-*.sqlite"):  # the shared GeoNames index
        (tmp_path / entry.name).symlink_to(entry)
    monkeypatch.setattr(settings, "cache_dir", tmp_path)
    built = network.proxy_network(aleppo)
    (entry,) = tmp_path.glob("graphs/proxy-*.npz")
    assert _contents(built) == _contents(roads)
    with np.load(entry, allow_pickle=False) as data:  # data only: loads without pickles
        assert "nodes/id" in data.files and "router/indptr" in data.files

    def no_triangulation(*args: object, **kwargs: object) -> None:
        raise AssertionError("a warm run triangulated the proxy network again")

    with monkeypatch.context() as patched:
        patched.setattr("scipy.spatial.Delaunay", no_triangulation)
        assert _contents(network.proxy_network(aleppo)) == _contents(built)
    with zipfile.ZipFile(entry) as z:
        member = z.getinfo("edges/float:length.npy")
    raw = bytearray(entry.read_bytes())
    names, extra = struct.unpack_from("<2H", raw, member.header_offset + 26)  # local header
    data_end = member.header_offset + 30 + names + extra + member.file_size
    raw[data_end - 1] ^= 0xFF  # one flipped bit in an edge length: its checksum fails
    entry.write_bytes(bytes(raw))
    with caplog.at_level(logging.WARNING, logger="routes"):
        rebuilt = network.proxy_network(aleppo)
    assert "unusable" in caplog.text and _contents(rebuilt) == _contents(built)
    assert [entry] == list(tmp_path.glob("graphs/proxy-*.npz"))


@pytest.fixture(scope="module")
def routed(roads: RoadNetwork, aleppo: scenario.Scenario) -> Any:
    return corridors.route_corridors(roads, aleppo)


def test_each_corridor_passes_its_waypoints_in_order(
    routed: Any, aleppo: scenario.Scenario
) -> None:
    assert list(routed["corridor_id"]) == [c.id for c in aleppo.corridors]
    for corridor, row in zip(aleppo.corridors, routed.itertuples(), strict=True):
        assert row.route_status == "ok" and row.network_source == "proxy"
        coords = list(row.geometry.coords)
        stops = [aleppo.place(s) for s in corridor.stops]
        positions = [coords.index((p.lon, p.lat)) for p in stops]
        assert positions == sorted(positions), f"{corridor.id} visits its stops out of order"
        assert positions[0] == 0 and positions[-1] == len(coords) - 1


def test_corridor_lengths_and_times(routed: Any, aleppo: scenario.Scenario) -> None:
    for corridor, row in zip(aleppo.corridors, routed.itertuples(), strict=True):
        stops = [aleppo.place(s) for s in corridor.stops]
        crow = sum(great_circle(a.lat, a.lon, b.lat, b.lon) for a, b in pairwise(stops))
        assert row.length_km * 1000 >= crow * network.CIRCUITY - 10
        assert row.travel_time_h is None  # the proxy's speed is assumed: no time is known
        assert "assumed speed" in row.no_travel_time_reason
    people = routed.set_index("corridor_id")["people"]
    assert people["eastern-aleppo-to-idlib"] == 35000  # the claim named by line_width
    assert people["foua-kafriya-to-jibreen"] == 1200  # the final claim (second audit)
    assert people.isna()["eastern-aleppo-to-turkey"]  # sized by wounded: no head count


def test_cli_corridors(runner: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(settings, "osm_dir", tmp_path)  # no stored roads: the proxy network
    result = runner.invoke(app, ["corridors", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.stdout)
    assert {r["network_source"] for r in rows} == {"proxy"}
    assert all(r["length_km"] > 10 and r["travel_time_h"] is None for r in rows)
    assert "Khan al-Asal" in rows[0]["passes"]
    assert "proxy network" in result.stderr and "--osm" in result.stderr
    table = runner.invoke(app, ["corridors"], env={"COLUMNS": "250"})
    assert table.exit_code == 0 and "eastern-aleppo-to-idlib" in table.stdout
    assert "proxy" in table.stdout


def test_legs_add_up_to_the_corridor(
    routed: Any, roads: RoadNetwork, aleppo: scenario.Scenario
) -> None:
    for corridor, row in zip(aleppo.corridors, routed.itertuples(), strict=True):
        legs = corridors.route_legs(roads, aleppo, corridor.id)
        assert list(legs["from"]) == [aleppo.place(s).name for s in corridor.stops[:-1]]
        assert list(legs["to"]) == [aleppo.place(s).name for s in corridor.stops[1:]]
        assert (legs["route_status"] == "ok").all()
        assert legs["length_km"].sum() == pytest.approx(row.length_km, abs=0.02)
        assert legs["travel_time_h"].isna().all() and row.travel_time_h is None  # proxy
