"""The geocode command: names to places."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from routes.cli.common import (
    JsonOption,
    _one_line,
    _say,
    _table,
    _user_errors,
    app,
)
from routes.text import terminal_json

__all__ = ["geocode"]


@app.command()
def geocode(
    names: Annotated[
        list[str],
        typer.Argument(
            metavar="NAME",
            help='Place names, as a story writes them; "Aleppo, Syria" keeps to that country '
            "or first-level region.",
        ),
    ],
    scenario: Annotated[
        str | None,
        typer.Option(
            "--scenario",
            "-s",
            metavar="FILE|ID",
            help="Also search this scenario's places, and prefer towns in its region.",
        ),
    ] = None,
    offline: Annotated[bool, typer.Option("--offline", help="Never ask Nominatim.")] = False,
    as_json: JsonOption = False,
) -> None:
    """Resolve names: curated places, countries and regions, GeoNames, then Nominatim.

    Every name is tried; each unknown one is reported on its own line (exit 1).
    """
    from routes import scenario as scenarios
    from routes.errors import UnknownPlaceError
    from routes.places import Geocoder

    found: list[dict[str, Any]] = []
    with _user_errors():
        geocoder = Geocoder.for_scenario(scenarios.load(scenario)) if scenario else Geocoder()
        for name in names:
            try:
                match = geocoder.resolve(name, offline=offline)
                found.append({"status": "resolved", **match.as_dict(), "kind": match.kind})
            except UnknownPlaceError as exc:
                found.append({"status": "unknown", "query": name, "suggestions": exc.suggestions})
                _say(f"error: {_one_line(exc)}", typer.colors.RED)
    resolved = [row for row in found if row["status"] == "resolved"]
    if as_json:
        typer.echo(terminal_json(found))
    elif resolved:
        _table(
            ["query", "matched", "country", "kind", "lat", "lon", "source", "confidence"],
            [
                [r["query"], r["name"], r["country"] or "", r["kind"], f"{r['lat']:.5f}",
                 f"{r['lon']:.5f}", r["source"], f"{r['confidence']:.2f}" + _rival(r)]
                for r in resolved
            ],
        )  # fmt: skip
    if len(resolved) < len(found):
        raise typer.Exit(1)


def _rival(row: dict[str, Any]) -> str:
    """ ", or X (CC), N km away": the runner-up a geocoded name may as well mean."""
    other = row.get("runner_up")
    if not other:
        return ""
    return f", or {other['name']} ({other['country'] or other['level']}), {other['km']:,} km away"
