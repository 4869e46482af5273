"""Routing: the road network as arrays and its compiled search; corridors through their stops."""

from routes.routing.arrays import RoadArrays
from routes.routing.backend import Router
from routes.routing.corridors import alternative_routes, route_corridors, route_legs, snap_stops
from routes.routing.roads import RoadNetwork

__all__ = [
    "RoadArrays",
    "RoadNetwork",
    "Router",
    "alternative_routes",
    "route_corridors",
    "route_legs",
    "snap_stops",
]
