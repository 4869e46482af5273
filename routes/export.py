"""Exports for GIS and flow-map tools: places, corridors (every attribute) and the network used.

GeoPackage holds the three layers in one file; GeoJSON and KML write one file
per layer; CSV writes ``locations.csv`` and ``flows.csv`` in the flowmap.blue
layout (``id,name,lat,lon`` and ``origin,dest,count``, count = people moved).
GDAL writes every format, through pyogrio.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from routes._io import atomic_path, inside, write_atomically
from routes.text import safe_cell

if TYPE_CHECKING:
    import geopandas as gpd
    import networkx as nx

    from routes.scenario import Scenario

FORMATS = ("gpkg", "geojson", "kml", "csv")

#: Edge attributes kept in the network layer.
NETWORK_COLUMNS = ["u", "v", "key", "highway", "name", "ref", "length", "speed_kph",
                   "travel_time", "network_source", "geometry"]  # fmt: skip


def layers(
    scenario: Scenario, routed: gpd.GeoDataFrame, G: nx.MultiDiGraph
) -> dict[str, gpd.GeoDataFrame]:
    """The three layers an export writes, keyed by layer name."""
    import geopandas as gpd
    import osmnx as ox
    from shapely.geometry import Point

    places = gpd.GeoDataFrame(
        [
            {
                "place_id": p.id,
                "name": p.name,
                "role": p.role,
                "aliases": "; ".join(p.aliases),
                "lat": p.lat,
                "lon": p.lon,
                "source": scenario.source(p.source).title,
                "source_detail": p.detail or "",
                "geometry": Point(p.lon, p.lat),
            }
            for p in scenario.places
        ],
        geometry="geometry",
        crs="EPSG:4326",
    )
    edges = ox.graph_to_gdfs(G, nodes=False).reset_index()
    edges["network_source"] = G.graph["network_source"]
    for column in NETWORK_COLUMNS:
        if column not in edges:
            edges[column] = None
    network = edges[NETWORK_COLUMNS].copy()
    for column in ("highway", "name", "ref"):  # osmnx keeps lists where it merged ways
        network[column] = network[column].map(_flatten)
    return {"places": places, "corridors": routed, "network": network}


def write(
    layers: dict[str, gpd.GeoDataFrame], fmt: str, folder: str | Path, stem: str
) -> list[Path]:
    """Write ``layers`` in ``fmt`` under ``folder`` (files named ``stem``…); return the paths."""
    import pyogrio

    if fmt not in FORMATS:
        raise ValueError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    if fmt == "csv":
        return _write_flowmap_csv(layers, folder, stem)
    if fmt == "gpkg":
        path = inside(folder, f"{stem}.gpkg")
        with atomic_path(path) as tmp:  # the old file stays until the new one is complete
            for name, gdf in layers.items():
                pyogrio.write_dataframe(gdf, tmp, layer=name, driver="GPKG")
        return [path]
    suffix, driver = {"geojson": (".geojson", "GeoJSON"), "kml": (".kml", "LIBKML")}[fmt]
    paths = []
    for name, gdf in layers.items():
        path = inside(folder, f"{stem}-{name}{suffix}")
        with atomic_path(path) as tmp:
            pyogrio.write_dataframe(gdf, tmp, layer=name, driver=driver)
        paths.append(path)
    return paths


def _write_flowmap_csv(layers: dict[str, gpd.GeoDataFrame], folder: Path, stem: str) -> list[Path]:
    places = layers["places"]
    corridors = layers["corridors"]
    locations = places[["place_id", "name", "lat", "lon"]].rename(columns={"place_id": "id"})
    flows = corridors[["origin_id", "destination_id", "people", "corridor_id", "date"]]
    flows = flows.set_axis(["origin", "dest", "count", "corridor_id", "date"], axis=1)
    paths = [inside(folder, f"{stem}-locations.csv"), inside(folder, f"{stem}-flows.csv")]
    for path, frame in zip(paths, (locations, flows), strict=True):
        frame = frame.map(safe_cell)  # a spreadsheet never runs a cell as a formula
        write_atomically(path, frame.to_csv(index=False).encode("utf-8"))
    return paths


def _flatten(value: object) -> object:
    return "; ".join(map(str, value)) if isinstance(value, list) else value
