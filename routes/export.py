"""Exports for GIS and flow-map tools: places, corridors (every attribute) and the network used.

GeoPackage holds the layers in one file; GeoJSON and KML write one file per
layer; GeoPackage and GeoJSON also get the ``claims`` table (every figure with
who said it and the report) and the ``story`` table (the story, its dates, and the
country and region it is about). CSV writes ``locations.csv`` and ``flows.csv`` in
the flowmap.blue layout (``id,name,lat,lon`` and ``origin,dest,count,time``,
count = people moved on the day ``time`` according to the corridor's chosen series,
its running total in ``cumulative``, with the qualifier and source of the claim behind
it); ``hxl=True`` adds the HXL hashtag row.
GDAL writes every format, through pyogrio.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from routes._io import atomic_path, inside, make_folder, write_atomically
from routes.errors import UsageError, WriteError
from routes.text import for_display, safe_cell

if TYPE_CHECKING:
    import geopandas as gpd

    from routes.routing.roads import RoadNetwork
    from routes.scenario import Scenario

__all__ = [
    "CLAIM_COLUMNS",
    "FLOW_COLUMNS",
    "FORMATS",
    "NETWORK_COLUMNS",
    "STORY_COLUMNS",
    "TABLES",
    "check_format",
    "layers",
    "write",
]

FORMATS = ("gpkg", "geojson", "kml", "csv")

#: The claims table: one row per figure.
CLAIM_COLUMNS = ["record_type", "record_id", "claim_id", "kind", "value", "qualifier", "tally",
                 "date", "according_to", "by", "source", "source_id", "publisher", "published",
                 "url", "paragraph", "detail", "line_width"]  # fmt: skip
#: ``flows.csv``: flowmap.blue's first four columns, then the claim behind each count.
FLOW_COLUMNS = ["origin", "dest", "count", "time", "cumulative", "qualifier", "tally",
                "according_to", "source", "url", "status", "corridor_id", "origin_name",
                "origin_lat", "origin_lon", "note"]  # fmt: skip
#: The story table: one row naming the story, its date and its focus.
STORY_COLUMNS = ["story_id", "title", "publisher", "published", "date", "focus_country",
                 "focus_region"]  # fmt: skip
#: Layers only some formats hold: tables without geometry.
TABLES = {"claims": ("gpkg", "geojson"), "story": ("gpkg", "geojson"), "flows": (),
          "avoided": ("gpkg", "geojson", "kml")}  # fmt: skip

#: Edge attributes kept in the network layer.
NETWORK_COLUMNS = ["u", "v", "key", "highway", "name", "ref", "length", "speed_kph",
                   "travel_time", "network_source", "osm_date", "geometry"]  # fmt: skip

#: The network layer holds the edges within this distance of a routed corridor, metres: the
#: roads used and those around them (a region's every road would be tens of megabytes).
NETWORK_NEAR_M = 250.0


def layers(
    scenario: Scenario,
    routed: gpd.GeoDataFrame,
    G: RoadNetwork,
    *,
    avoided: gpd.GeoDataFrame | None = None,
) -> dict[str, gpd.GeoDataFrame]:
    """The layers an export writes, keyed by layer name (``avoided``: the ``--avoid`` areas);
    the network layer is every edge of ``G``, read from its columns."""
    import geopandas as gpd
    import pandas as pd
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
    attributes = [c for c in NETWORK_COLUMNS
                  if c not in {"u", "v", "key", "network_source", "osm_date"}]  # fmt: skip
    edges = _near_routes(G, routed, attributes[:-1]).reset_index(drop=True)  # but the geometry
    edges["network_source"] = G.graph["network_source"]
    edges["osm_date"] = G.graph.get("osm_date") or ""
    network = edges[NETWORK_COLUMNS].copy()
    for column in ("highway", "name", "ref"):  # osmnx keeps lists where it merged ways
        network[column] = network[column].map(_flatten)
    from routes import claims

    routed = routed.copy()
    routed.attrs["description"] = network.attrs["description"] = _about(scenario, G)
    return {
        "places": places,
        "corridors": routed,
        "network": network,
        "claims": pd.DataFrame(claims.claim_rows(scenario), columns=CLAIM_COLUMNS),
        "story": _story(scenario),
        "flows": pd.DataFrame(claims.flow_rows(scenario), columns=FLOW_COLUMNS),
        **({} if avoided is None else {"avoided": _avoided(avoided)}),
    }


def _story(scenario: Scenario) -> Any:
    """The story table: what the story is, when, and the country and region it is about."""
    import pandas as pd

    story = scenario.story
    row = [story.id, story.title, story.publisher,
           story.published.isoformat() if story.published else "",
           story.date.isoformat() if story.date else "",
           story.focus_country or "", story.focus_region or ""]  # fmt: skip
    return pd.DataFrame([row], columns=STORY_COLUMNS)


def _near_routes(G: RoadNetwork, routed: gpd.GeoDataFrame, columns: list[str]) -> gpd.GeoDataFrame:
    """The edges of ``G`` (``columns`` and geometry) within :data:`NETWORK_NEAR_M` of a
    routed corridor, in the graph's order; only the edges near them are read."""
    import geopandas as gpd
    import shapely

    lines = routed.geometry[routed.geometry.notna() & ~routed.geometry.is_empty]
    if lines.empty:
        return G.edges(columns, within=(0.0, 0.0, 0.0, 0.0)).iloc[:0]
    metres = lines.estimate_utm_crs()
    reach = lines.to_crs(metres).buffer(NETWORK_NEAR_M).union_all()
    box = gpd.GeoSeries([reach], crs=metres).to_crs("EPSG:4326").total_bounds
    edges = G.edges(columns, within=(float(box[0]), float(box[1]), float(box[2]), float(box[3])))
    shapely.prepare(reach)  # tested against every edge in the box: prepared, first
    return edges[shapely.intersects(reach, edges.to_crs(metres).geometry.to_numpy())]


def _about(scenario: Scenario, G: RoadNetwork) -> str:
    """What the roads of the corridors and network layers are: their date against the
    story's, their licence and how routes and times were made (a layer's description)."""
    from routes.columns import roads_note

    if G.graph.get("network_source") != "osm":
        return str(G.graph.get("source") or "proxy network")
    model = G.graph.get("travel_time_model")
    return (
        f"{roads_note(str(G.graph.get('osm_date') or ''), scenario.story.date)}. Roads "
        "© OpenStreetMap contributors, ODbL 1.0. Routes are the quickest through the "
        "documented stops, not tracked paths" + (f"; times: {model}." if model else ".")
    )


def _avoided(areas: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """The areas routes were kept out of, each with a name (as the map names them)."""
    names = areas["name"] if "name" in areas else [None] * len(areas)
    named = [str(n) if isinstance(n, str) and n else f"Area avoided {i}" for i, n in
             enumerate(names, start=1)]  # fmt: skip
    return areas[["geometry"]].assign(name=named)[["name", "geometry"]].reset_index(drop=True)


#: The GeoPackage's last-change stamp: fixed, so that exports are reproducible.
GPKG_TIMESTAMP = "1970-01-01T00:00:00.000Z"


def write(
    layers: dict[str, gpd.GeoDataFrame],
    fmt: str,
    folder: str | Path,
    stem: str,
    *,
    hxl: bool = False,
) -> list[Path]:
    """Write ``layers`` in ``fmt`` under ``folder`` (files named ``stem``…); return the paths."""
    import pyogrio

    check_format(fmt, hxl=hxl)
    folder = make_folder(folder)
    if fmt == "csv":
        return _write_flowmap_csv(layers, folder, stem, hxl=hxl)
    layers = {k: _displayable(v) for k, v in layers.items() if fmt in TABLES.get(k, FORMATS)}
    if fmt == "gpkg":
        path = inside(folder, f"{stem}.gpkg")
        # GDAL stamps gpkg_contents.last_change with the clock unless OGR_CURRENT_DATE is set;
        # a fixed stamp keeps the same inputs giving the same file (the field is informative).
        before = pyogrio.get_gdal_config_option("OGR_CURRENT_DATE")
        pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": GPKG_TIMESTAMP})
        try:
            with atomic_path(path, verify=_holds(path, layers)) as tmp:
                for name, gdf in layers.items():
                    pyogrio.write_dataframe(
                        gdf, tmp, layer=name, driver="GPKG", layer_options=_described(gdf)
                    )
        finally:
            pyogrio.set_gdal_config_options({"OGR_CURRENT_DATE": before})
        return [path]
    suffix, driver = {"geojson": (".geojson", "GeoJSON"), "kml": (".kml", "LIBKML")}[fmt]
    paths = []
    for name, gdf in layers.items():
        path = inside(folder, f"{stem}-{name}{suffix}")
        with atomic_path(path, verify=_holds(path, {name: gdf})) as tmp:
            options = {**_TEXT_AS_TEXT[fmt], **_described(gdf)}
            pyogrio.write_dataframe(gdf, tmp, layer=name, driver=driver, layer_options=options)
        paths.append(path)
    return paths


#: GDAL's GeoJSON driver writes text that looks like a JSON list or object (a name
#: ``["a", "b"]``) as that list; text from a story or a file stays text.
_TEXT_AS_TEXT: dict[str, dict[str, str]] = {
    "geojson": {"AUTODETECT_JSON_STRINGS": "NO"},
    "kml": {},
}


def _described(layer: gpd.GeoDataFrame) -> dict[str, str]:
    """The layer's description as GDAL's DESCRIPTION option (GeoPackage, GeoJSON, KML)."""
    description = layer.attrs.get("description")
    return {"DESCRIPTION": for_display(description)} if description else {}


def _holds(target: Path, layers: dict[str, gpd.GeoDataFrame]) -> Callable[[Path], None]:
    """A check that the file GDAL wrote for ``target`` reads back with every layer's
    features: GDAL's KML
    and GeoJSON drivers do not report a failed write (a full disk), so a cut file is
    caught here, before it replaces the old one."""

    def verify(path: Path) -> None:
        import pyogrio

        for name, gdf in layers.items():
            try:
                features = pyogrio.read_info(path, layer=name)["features"]
            except Exception as exc:  # pyogrio's DataSourceError, DataLayerError…
                features, why = None, f"it does not read back ({type(exc).__name__})"
            else:
                why = f"{features:,} of {len(gdf):,} features in layer {name} read back"
            if features != len(gdf):
                raise WriteError(f"cannot write {target}: {why} (is the disk full?); the old "
                                 "file is kept")  # fmt: skip

    return verify


def check_format(fmt: str, *, hxl: bool = False) -> None:
    """UsageError unless ``fmt`` is one of :data:`FORMATS` and ``hxl`` (HXL's hashtag row
    under the header) asks it of CSV: the other formats have no such row."""
    if fmt not in FORMATS:
        raise UsageError(f"format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if hxl and fmt != "csv":
        raise UsageError(f"--hxl adds HXL's hashtag row to CSV files only, not {fmt}: "
                         "use -f csv, or leave --hxl out")  # fmt: skip


def _write_flowmap_csv(
    layers: dict[str, gpd.GeoDataFrame], folder: Path, stem: str, *, hxl: bool
) -> list[Path]:
    import pandas as pd

    from routes.claims import HXL_TAGS

    places = layers["places"]
    locations = places[["place_id", "name", "lat", "lon"]].rename(columns={"place_id": "id"})
    flows = layers["flows"].astype({"count": "Int64", "cumulative": "Int64"})
    if hxl:  # the hashtag row HXL tools read under the header
        tags = {column: HXL_TAGS.get(column, "") for column in flows.columns}
        flows = pd.concat([pd.DataFrame([tags]), flows.astype(object)], ignore_index=True)
    paths = [inside(folder, f"{stem}-locations.csv"), inside(folder, f"{stem}-flows.csv")]
    for path, frame in zip(paths, (locations, flows), strict=True):
        frame = frame.map(safe_cell)  # a spreadsheet never runs a cell as a formula
        write_atomically(path, frame.to_csv(index=False).encode("utf-8"))
    return paths


def _displayable(frame: gpd.GeoDataFrame) -> gpd.GeoDataFrame:
    """``frame`` with bidi controls dropped from its text cells (a GIS tool shows them)."""
    from pandas.api.types import is_object_dtype, is_string_dtype

    frame = frame.copy()
    for column in frame.columns:
        if is_object_dtype(frame[column]) or is_string_dtype(frame[column]):
            frame[column] = frame[column].map(lambda v: for_display(v) if isinstance(v, str) else v)
    return frame


def _flatten(value: object) -> object:
    return "; ".join(map(str, value)) if isinstance(value, list) else value
