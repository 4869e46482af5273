"""The `routes` command line. Heavy libraries are imported inside the commands that need them."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from routes import __version__, settings

if TYPE_CHECKING:
    import geopandas as gpd

    from routes.scenario import Scenario

app = typer.Typer(
    help="Map forced displacement from the news: places, corridors and interactive maps.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
)

ScenarioOption = Annotated[
    str,
    typer.Option(
        "--scenario",
        "-s",
        metavar="FILE|ID",
        help="Scenario YAML file, or the id of a bundled scenario.",
    ),
]
OsmOption = Annotated[
    Path | None,
    typer.Option(
        "--osm",
        metavar="FILE",
        help="Route on this OpenStreetMap XML extract (.osm) instead of the offline proxy network.",
        dir_okay=False,
    ),
]


class UsageError(Exception):
    """Bad input: shown as one line, exit code 2."""


@contextmanager
def _user_errors() -> Iterator[None]:
    """Turn input problems into one red line and exit code 2."""
    from routes.geocode import UnknownPlaceError
    from routes.scenario import ScenarioError

    try:
        yield
    except (ScenarioError, UnknownPlaceError, UsageError, FileNotFoundError) as exc:
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise typer.Exit(2) from None


def _version(value: bool) -> None:
    if value:
        typer.echo(f"routes {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Map forced displacement from the news: places, corridors and interactive maps."""


@app.command("map")
def map_command(
    scenario: ScenarioOption = settings.default_scenario,
    output: Annotated[
        Path | None,
        typer.Option(
            "--output",
            "-o",
            dir_okay=False,
            metavar="FILE",
            help="HTML file to write [default: output/<scenario id>.html].",
        ),
    ] = None,
    osm: OsmOption = None,
) -> None:
    """Route the scenario's corridors and write an interactive HTML map; print its path."""
    from routes import render

    with _user_errors():
        story, routed = _route(scenario, osm)
        path = render.save(
            render.build_map(story, routed),
            output or settings.output_dir / f"{story.story.id}.html",
        )
    typer.echo(str(path))


@app.command()
def corridors(
    scenario: ScenarioOption = settings.default_scenario,
    osm: OsmOption = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Route every corridor and print its length, travel time and the places it passes."""
    with _user_errors():
        _story, routed = _route(scenario, osm)
    columns = [
        "corridor_id",
        "length_km",
        "travel_time_h",
        "passes",
        "network_source",
        "route_status",
    ]
    records = routed[columns].astype(object).where(routed[columns].notna(), None).to_dict("records")
    if as_json:
        typer.echo(json.dumps(records, ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("corridor", "km", "hours", "passes", "network_source", "route")
    for r in records:
        table.add_row(
            r["corridor_id"],
            _fmt(r["length_km"]),
            _fmt(r["travel_time_h"]),
            r["passes"],
            r["network_source"],
            r["route_status"],
        )
    Console().print(table)


@app.command()
def geocode(
    names: Annotated[
        list[str], typer.Argument(metavar="NAME", help="Place names, as a story writes them.")
    ],
    scenario: ScenarioOption = settings.default_scenario,
    offline: Annotated[bool, typer.Option("--offline", help="Never ask Nominatim.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Resolve names: the scenario's places, the curated gazetteer, GeoNames, then Nominatim."""
    from routes import scenario as scenario_module
    from routes.geocode import Geocoder

    with _user_errors():
        geocoder = Geocoder.for_scenario(scenario_module.load(scenario))
        matches = [geocoder.resolve(name, offline=offline) for name in names]
    if as_json:
        typer.echo(json.dumps([m.as_dict() for m in matches], ensure_ascii=False, indent=2))
        return
    from rich.console import Console
    from rich.table import Table

    table = Table("query", "matched", "lat", "lon", "source", "confidence")
    for m in matches:
        table.add_row(
            m.query, m.name, f"{m.lat:.5f}", f"{m.lon:.5f}", m.source, f"{m.confidence:.2f}"
        )
    Console().print(table)


def _route(scenario: str, osm: Path | None) -> tuple[Scenario, gpd.GeoDataFrame]:
    """Load the scenario, pick the network, route every corridor; warn about what was assumed."""
    from routes import corridors as corridors_module
    from routes import network
    from routes import scenario as scenario_module

    story = scenario_module.load(scenario)
    if osm is None:
        typer.secho(
            "Routing on the offline proxy network (straight links between real places, "
            "assumed speed). For real roads pass an OpenStreetMap extract: --osm FILE.osm",
            fg=typer.colors.YELLOW,
            err=True,
        )
    try:
        G = network.load(story, osm)
    except (ValueError, OSError, KeyError) as exc:
        if isinstance(exc, FileNotFoundError):
            raise
        raise UsageError(f"cannot read the OSM file {osm}: {exc}") from None
    routed = corridors_module.route_corridors(G, story)
    for row in routed.itertuples():
        if row.route_status != "ok":
            typer.secho(
                f"warning: corridor {row.corridor_id}: no route between its stops",
                fg=typer.colors.YELLOW,
                err=True,
            )
    return story, routed


def _fmt(value: float | None) -> str:
    return "—" if value is None else f"{value:.1f}"


if __name__ == "__main__":  # pragma: no cover
    sys.exit(app())
