"""Routing: the compiled road graph (arrays) and its search; corridors through their stops."""

from routes.routing.backend import Router, for_graph
from routes.routing.corridors import alternative_routes, route_corridors, route_legs, snap_stops

__all__ = [
    "Router",
    "alternative_routes",
    "for_graph",
    "route_corridors",
    "route_legs",
    "snap_stops",
]
