"""Load → network → route: the one place that runs the stages in order.

The CLI, notebooks and scripts call :func:`route_scenario` and get a :class:`Run`
back; what a person should be told comes back as data (``Run.warnings``), never printed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from routes import columns
from routes.errors import ScenarioError, UsageError
from routes.options import NetworkChoice, Search, Weight

if TYPE_CHECKING:
    import geopandas as gpd

    from routes.routing.roads import RoadNetwork
    from routes.scenario import Scenario

__all__ = ["NO_CORRIDORS", "Run", "route_scenario"]

#: Why a scenario without corridors (a draft, see ARCHITECTURE.md) cannot be routed.
NO_CORRIDORS = (
    "corridors: none; add at least one corridor (origin, destination, date, route_sources) "
    "to route and map"
)

_Choice = TypeVar("_Choice", Weight, NetworkChoice, Search)


@dataclass
class Run:
    """A scenario routed on a network: what every command that routes starts from."""

    scenario: Scenario
    network: RoadNetwork
    corridors: gpd.GeoDataFrame
    alternatives: gpd.GeoDataFrame | None = None
    warnings: list[str] = field(default_factory=list)
    avoided: gpd.GeoDataFrame | None = None

    @property
    def complete(self) -> bool:
        """Whether every corridor has a route."""
        return bool((self.corridors[columns.ROUTE_STATUS] == "ok").all())


def route_scenario(
    scenario: str | Path | Scenario,
    *,
    osm: str | Path | None = None,
    network: NetworkChoice | str = NetworkChoice.AUTO,
    offline: bool = False,
    weight: Weight | str = Weight.TRAVEL_TIME,
    alternatives: int = 0,
    avoid: str | Path | None = None,
    max_snap_km: float = 5.0,
    search: Search | str = Search.AUTO,
) -> Run:
    """Load the scenario, choose its network, route every corridor (and alternatives).

    Parameters
    ----------
    scenario
        A scenario file, the id of a bundled one, or a loaded :class:`Scenario`.
    osm, network, offline
        Where the roads come from; see :func:`routes.network.choose`.
    weight
        What routes minimise: ``travel_time`` or ``length``.
    alternatives
        Up to this many alternative routes per corridor.
    avoid
        GeoJSON polygons whose roads routes may not use.
    max_snap_km
        A corridor with a stop further than this from the network gets no route.
    search
        Dijkstra or a contraction hierarchy (``auto``: by graph size and queries).
    """
    from routes import network as networks
    from routes import scenario as scenarios
    from routes.routing import corridors

    weight = _choice(Weight, weight, "weight")
    network = _choice(NetworkChoice, network, "network")
    story = scenario if isinstance(scenario, scenarios.Scenario) else scenarios.load(scenario)
    if not story.corridors:  # a draft may have none; routing needs one
        raise ScenarioError(story.story.id, [NO_CORRIDORS])
    G = networks.choose(story, osm=osm, network=network, offline=offline)
    areas = networks.avoid_areas(avoid) if avoid is not None else None
    roads = networks.avoiding(G, areas) if areas is not None else None
    if not max_snap_km > 0:
        raise UsageError(f"max_snap_km must be a positive distance, not {max_snap_km!r}")
    snap = max_snap_km * 1000
    corridors.choose_search(G, roads, _choice(Search, search, "search"), story, alternatives)
    routed = corridors.route_corridors(G, story, weight=weight, roads=roads, max_snap_m=snap)
    extra = (
        corridors.alternative_routes(
            G, story, alternatives, weight=weight, roads=roads, max_snap_m=snap
        )
        if alternatives
        else None
    )
    return Run(story, G, routed, extra, _warnings(routed), areas)


def _warnings(routed: gpd.GeoDataFrame) -> list[str]:
    from routes.routing.corridors import SNAP_WARNING_M

    said = []
    for row in routed.to_dict("records"):
        corridor = row[columns.CORRIDOR_ID]
        if row[columns.ROUTE_STATUS] != "ok":
            said.append(f"corridor {corridor}: no route ({row[columns.NO_ROUTE_REASON]})")
        elif row[columns.MAX_SNAP_M] > SNAP_WARNING_M:
            said.append(
                f"corridor {corridor}: a stop is {row[columns.MAX_SNAP_M] / 1000:.1f} km "
                "from the nearest road node; the network may not cover it"
            )
    return said


def _choice(kind: type[_Choice], value: str, name: str) -> _Choice:
    """``value`` as a member of ``kind``, or a :class:`UsageError` naming the allowed values."""
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(member.value for member in kind)
        raise UsageError(f"{name} must be one of {allowed}, not {value!r}") from None
