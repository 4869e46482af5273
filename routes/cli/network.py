"""The network commands: fetch and inspect the road network a scenario routes on."""

from __future__ import annotations

import typer

from routes import settings
from routes.cli.common import (
    JsonOption,
    NetworkOption,
    OfflineOption,
    OsmOption,
    ScenarioOption,
    _echo,
    _say,
    _user_errors,
    network_app,
)
from routes.options import NetworkChoice
from routes.text import terminal_json

__all__ = ["network_fetch", "network_info"]


@network_app.command("fetch")
def network_fetch(scenario: ScenarioOption = settings.default_scenario) -> None:
    """Download the scenario's region from Overpass as of the story's date; store it."""
    from routes import network as networks
    from routes import scenario as scenarios

    with _user_errors():
        story = scenarios.load(scenario)
        G = networks.fetch(story)
    _echo(str(networks.extract_path(story)))
    _say(
        f"{G.n_nodes:,} nodes, {G.n_edges:,} edges, "
        f"OpenStreetMap as of {story.story.date or 'today'}",
        typer.colors.GREEN,
    )


@network_app.command("info")
def network_info(
    scenario: ScenarioOption = settings.default_scenario,
    osm: OsmOption = None,
    network: NetworkOption = NetworkChoice.AUTO,
    offline: OfflineOption = False,
    as_json: JsonOption = False,
) -> None:
    """Which network a run would use: source, OSM date, node and edge counts, bounding box."""
    from routes import network as networks
    from routes import scenario as scenarios

    with _user_errors():
        story = scenarios.load(scenario)
        G = networks.choose(story, osm=osm, network=network, offline=offline)
        facts = networks.info(G)
    if as_json:
        typer.echo(terminal_json(facts))
        return
    for key, value in facts.items():
        _echo(f"{key:15} {value if value is not None else '—'}")
