"""Commands that route a scenario: map, corridors, export."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Annotated, Any

import typer

from routes import settings
from routes.cli.common import (
    CdnOption,
    DraftOption,
    JsonOption,
    PngOption,
    PngSizeOption,
    ScenarioOption,
    StaticOption,
    _echo,
    _fmt,
    _output,
    _pipeline_options,
    _records,
    _report,
    _route,
    _Routing,
    _routing_options,
    _table,
    _user_errors,
    app,
)
from routes.errors import UsageError
from routes.options import ExportFormat
from routes.text import terminal_json

__all__ = ["corridors", "export", "map_command"]


@app.command("map")
@_routing_options()
def map_command(
    scenario: ScenarioOption = settings.default_scenario,
    output: Annotated[
        Path | None, _output("HTML file to write [default: output/<scenario id>.html].")
    ] = None,
    routing: _Routing = _Routing(),
    cdn: CdnOption = False,
    static: StaticOption = False,
    png: PngOption = None,
    png_size: PngSizeOption = "1600x1000",
    draft: DraftOption = False,
    embed: Annotated[
        bool,
        typer.Option(
            "--embed",
            help="A page for an article's <iframe> (no scroll trap, folded key, height sent "
            "to the host); print the snippet to paste and write it beside the page "
            "(NAME.embed.html).",
        ),
    ] = False,
) -> None:
    """Route the scenario's corridors (or a corpus's flows.parquet) and write an HTML map.

    A page whose inputs (scenario, options, network source, code, libraries) have not
    changed since the run that wrote it is left as it is.
    """
    from routes import _io, pipeline

    with _user_errors():
        size, png = _size(png_size), None if png is None else _io.writable(png)  # before work
        page = pipeline.map_page(
            scenario,
            output,
            draft=draft,
            cdn=cdn,
            animate=not static,
            embed=embed,
            strict=routing.strict,
            **_pipeline_options(routing),
        )
        _report(page.warnings, complete=page.complete, strict=routing.strict)
        assert page.path is not None  # written, or --strict stopped above
        if png is not None:
            from routes import render

            render.save_png(page.path, png, size=size)
    if page.snippet is not None:
        for line in page.snippet.read_text(encoding="utf-8").splitlines():
            _echo(line)
    _echo(str(page.path))
    if page.snippet is not None:
        _echo(str(page.snippet))
    if png is not None:
        _echo(str(png))


@app.command()
@_routing_options()
def corridors(
    scenario: ScenarioOption = settings.default_scenario,
    routing: _Routing = _Routing(),
    as_json: JsonOption = False,
) -> None:
    """Route every corridor; print length, travel time, road mix and the places it passes."""
    with _user_errors():
        run = _route(scenario, routing)
    from routes.columns import SUMMARY

    records = _records(run.corridors[list(SUMMARY)])
    if run.alternatives is not None:
        alts = _records(run.alternatives.drop(columns="geometry"))
        for record in records:
            record["alternatives"] = [a for a in alts if a["corridor_id"] == record["corridor_id"]]
    if as_json:
        typer.echo(terminal_json(records))
        return
    _table(
        ["corridor", "km", "hours", "road mix", "passes", "network_source", "route"],
        [
            [
                r["corridor_id"],
                _fmt(r["length_km"]),
                _fmt(r["travel_time_h"]),
                r["highway_share"],
                r["passes"],
                r["network_source"],
                r["route_status"],
            ]
            for r in records
        ],
    )
    for r in records:
        for a in r.get("alternatives", []):
            _echo(
                f"  {r['corridor_id']} alternative {a['rank']}: {a['length_km']:.1f} km, "
                f"{_fmt(a['travel_time_h'])} h (+{a['extra_cost_pct']:.0f}%), "
                f"{a['differs_share']:.0%} different"
            )
    for line in _roads_notes(records, run.scenario.story.date):
        _echo(line)


def _roads_notes(records: list[dict[str, Any]], story: dt.date | None) -> list[str]:
    """What the table's routes stand on, under it: the roads' date against the story's,
    how hours were modelled, and the stops that join the roads further off."""
    from routes.columns import roads_note

    osm = [r for r in records if r["network_source"] == "osm"]
    if not osm:
        return []
    lines = [f"{roads_note(osm[0]['osm_date'] or '', story)} (© OpenStreetMap contributors, ODbL)."]
    models = {r["travel_time_model"] for r in osm if r["travel_time_model"]}
    lines += [f"Hours: {model}." for model in sorted(models)]
    lines += [f"Stops off the road in {r['corridor_id']}: {r['stops_off_road']}." for r in osm
              if r["stops_off_road"]]  # fmt: skip
    return lines


@app.command()
@_routing_options(alternatives=False)
def export(
    fmt: Annotated[ExportFormat, typer.Option("--format", "-f", help="File format.")] = (
        ExportFormat.GPKG
    ),
    scenario: ScenarioOption = settings.default_scenario,
    output: Annotated[Path, _output("Folder to write into.", folder=True)] = settings.output_dir,
    routing: _Routing = _Routing(),
    hxl: Annotated[
        bool,
        typer.Option("--hxl", help="CSV only: add the HXL hashtag row (#loc+name, #date…)."),
    ] = False,
) -> None:
    """Write places, corridors, claims and the network used; print the file paths."""
    from routes import _io
    from routes import export as exports

    with _user_errors():
        exports.check_format(fmt.value, hxl=hxl)  # before the routing, as -o is
        _io.make_folder(output)  # a mistyped -o is refused before the routing, not after it
        run = _route(scenario, routing)
        layers = exports.layers(run.scenario, run.corridors, run.network, avoided=run.avoided)
        paths = exports.write(layers, fmt.value, output, run.scenario.story.id, hxl=hxl)
    for path in paths:
        _echo(str(path))


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise UsageError(f"--png-size must look like 1600x1000, not {text!r}") from None
    if not (100 <= width <= 8000 and 100 <= height <= 8000):
        raise UsageError(f"--png-size {text}: each side must be 100 to 8000 pixels")
    return width, height
