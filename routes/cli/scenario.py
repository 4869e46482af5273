"""The scenario commands: its schema, and every problem in a file at once."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from routes.cli.common import (
    _echo,
    _say_problems,
    scenario_app,
)

__all__ = ["scenario_check", "scenario_schema"]


@scenario_app.command("schema")
def scenario_schema() -> None:
    """Print the JSON Schema of a scenario file (fields, required ones, allowed values)."""
    from routes import scenario as scenarios

    typer.echo(json.dumps(scenarios.schema(), ensure_ascii=False, indent=2))


@scenario_app.command("check")
def scenario_check(
    path: Annotated[str, typer.Argument(metavar="FILE|ID", help="Scenario YAML, id, or -.")],
) -> None:
    """Report every problem in a scenario at once, one line each (file, record, field)."""
    from routes import scenario as scenarios
    from routes.errors import ScenarioError

    try:
        story = scenarios.load(path)
    except ScenarioError as exc:
        _say_problems(exc)
        raise typer.Exit(2) from None
    _echo(f"{path}: ok ({len(story.places)} places, {len(story.corridors)} corridors)")
    blocking = story.blocking()
    if blocking:
        _echo(f"{path}: a draft; {len(blocking)} item(s) keep it from being a final map:")
        for item in blocking:
            _echo(f"  {item}")
