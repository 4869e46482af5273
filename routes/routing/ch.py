"""Contraction hierarchies for large graphs: RoutingKit's CH through the ``ch-router`` wheel.

A :class:`Hierarchy` contracts a :class:`~routes.routing.backend.Router`'s CSR arrays for
one weight; a query then visits a few hundred nodes instead of Dijkstra's whole ball
(≈ 0.16 ms against ≈ 60 ms for a random pair at 10⁶ edges; README, "Large graphs").
RoutingKit takes integer weights: each weight is rounded to :data:`SCALES` units
(milliseconds, centimetres), and CH distances equal Dijkstra's on those integers
exactly. Contracting costs about :data:`CONTRACTION_QUERIES` unbounded Dijkstra
queries, so :func:`use_ch` contracts only where that pays back.

Why ``ch-router`` and not the customisable ``routingkit-cch`` or ``pandana``: measured
in the README (query time, licence, maintainer, wheels).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from routes.errors import UsageError

if TYPE_CHECKING:
    from numpy.typing import NDArray

__all__ = [
    "CH_MIN_PAIRS",
    "CONTRACTION_QUERIES",
    "INF_WEIGHT",
    "SCALES",
    "SEARCHES",
    "Hierarchy",
    "integer_weights",
    "use_ch",
]

#: What ``--router`` offers: decide by size and queries, or force either search.
SEARCHES = ("auto", "dijkstra", "ch")

#: Graphs with fewer directed pairs than this keep Dijkstra under ``auto``: a search
#: there is a few milliseconds at most.
CH_MIN_PAIRS = 200_000

#: A contraction costs about this many unbounded Dijkstra queries on the same graph
#: (72 s against 60 ms per query at 10⁶ edges, both linear in the size; README).
CONTRACTION_QUERIES = 1000

#: Units per weight unit in the integer weights RoutingKit needs: milliseconds for
#: ``travel_time`` (seconds), centimetres for ``length`` (metres); others as travel time.
SCALES = {"travel_time": 1000.0, "length": 100.0}

#: RoutingKit's "no path" distance (2³¹ − 1); no route may cost this much.
INF_WEIGHT = 2**31 - 1


def use_ch(search: str, pairs: int, queries: int) -> bool:
    """Whether ``search`` (one of :data:`SEARCHES`) means the CH for a graph of ``pairs``
    directed node pairs that will answer ``queries`` path queries."""
    if search not in SEARCHES:
        raise UsageError(f"search must be one of {', '.join(SEARCHES)}, not {search!r}")
    if search != "auto":
        return search == "ch"
    return pairs >= CH_MIN_PAIRS and queries >= CONTRACTION_QUERIES


def integer_weights(weights: NDArray[np.float64], name: str) -> NDArray[np.uint32]:
    """``weights`` rounded to :data:`SCALES` units; ValueError if an edge would not fit."""
    scaled = np.rint(np.asarray(weights, dtype=np.float64) * SCALES.get(name, 1000.0))
    if len(scaled) and scaled.max() >= INF_WEIGHT:
        raise ValueError(f"weight {name!r} too large for a contraction hierarchy")
    return scaled.astype(np.uint32)


class Hierarchy:
    """One weight of a CSR graph (``indptr``, ``indices``), contracted; queries by position."""

    def __init__(
        self, indptr: NDArray[np.integer[Any]], indices: NDArray[np.integer[Any]],
        weights: NDArray[np.float64], name: str,
    ) -> None:  # fmt: skip
        from routingkit_ch import CHQuery, ContractionHierarchy

        n = len(indptr) - 1
        tail = np.repeat(np.arange(n, dtype=np.uint32), np.diff(indptr))
        self.weights = integer_weights(weights, name)
        self._ch = ContractionHierarchy.build(
            n, tail, np.asarray(indices, dtype=np.uint32), self.weights
        )
        self._query = CHQuery(self._ch)

    def path(self, src: int, dst: int) -> tuple[list[int] | None, int | None]:
        """Node positions of a least-cost path ``src → dst`` and its integer cost, or
        ``(None, None)`` when there is none."""
        query = self._query.reset().add_source(src).add_target(dst).run()
        cost = int(query.get_distance())
        if cost >= INF_WEIGHT:
            return None, None
        return list(query.get_node_path()), cost

    def distance(self, src: int, dst: int) -> int | None:
        """The integer cost of a least-cost path ``src → dst`` (None when there is none)."""
        query = self._query.reset().add_source(src).add_target(dst).run()
        cost = int(query.get_distance())
        return None if cost >= INF_WEIGHT else cost
