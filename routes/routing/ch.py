"""Contraction hierarchies for large graphs: RoutingKit's CH through the ``ch-router`` wheel.

A :class:`Hierarchy` contracts a :class:`~routes.routing.backend.Router`'s CSR arrays for
one weight; a query then visits a few hundred nodes instead of Dijkstra's whole ball
(≈ 0.16 ms against ≈ 60 ms for a random pair at 10⁶ edges; docs/performance.md, "Large graphs").
RoutingKit takes integer weights: each weight is rounded to :data:`SCALES` units
(milliseconds, centimetres), and CH distances equal Dijkstra's on those integers
exactly. Contracting costs about :data:`CONTRACTION_QUERIES` unbounded Dijkstra
queries, so :func:`use_ch` contracts only where that pays back.

Why ``ch-router`` and not the customisable ``routingkit-cch`` or ``pandana``: measured
in docs/performance.md (query time, licence, maintainer, wheels).
"""

from __future__ import annotations

import hashlib
import logging
import struct
from collections.abc import Mapping
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
    "check_saved",
    "integer_weights",
    "join_native",
    "split_native",
    "use_ch",
]

#: What ``--router`` offers: decide by size and queries, or force either search.
SEARCHES = ("auto", "dijkstra", "ch")

#: Graphs with fewer directed pairs than this keep Dijkstra under ``auto``: a search
#: there is a few milliseconds at most.
CH_MIN_PAIRS = 200_000

#: A contraction costs about this many unbounded Dijkstra queries on the same graph
#: (72 s against 60 ms per query at 10⁶ edges, both linear in the size; docs/performance.md).
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
    """One weight of a CSR graph (``indptr``, ``indices``), contracted; queries by position.

    ``native``: the RoutingKit hierarchy of that graph and weight, read back from a saved
    copy (:func:`join_native`), instead of contracting again.
    """

    def __init__(
        self, indptr: NDArray[np.integer[Any]], indices: NDArray[np.integer[Any]],
        weights: NDArray[np.float64], name: str, native: Any = None,
    ) -> None:  # fmt: skip
        from routingkit_ch import CHQuery, ContractionHierarchy

        n = len(indptr) - 1
        self.weights = integer_weights(weights, name)
        if native is None:
            logging.getLogger("routes").info(
                "contraction hierarchy: contracting %d node pairs (%s)", len(indices), name
            )
            tail = np.repeat(np.arange(n, dtype=np.uint32), np.diff(indptr))
            native = ContractionHierarchy.build(
                n, tail, np.asarray(indices, dtype=np.uint32), self.weights
            )
        self.native = native
        self._query = CHQuery(native)

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


# --- saved hierarchies: RoutingKit's file as checked arrays -----------------------------------

#: RoutingKit's CH file: magic number, node count, forward and backward arc counts.
_MAGIC = 0x436F6E7448696572
_HEADER = 24  # the header struct, padded to 8 bytes
_SIDES = ("forward", "backward")
_INVALID = 2**32 - 1
#: The arrays of a saved hierarchy (:func:`split_native`).
_MEMBERS = ("rank", "weights_sha256", *(f"{side}/{name}" for side in _SIDES for name in
            ("first_out", "head", "weight", "original", "first_arc", "second_arc")))  # fmt: skip


def split_native(raw: bytes, weights: NDArray[np.uint32]) -> dict[str, NDArray[Any]]:
    """RoutingKit's hierarchy file (``save_file``) of a graph contracted on ``weights``
    (:attr:`Hierarchy.weights`) as named arrays: its vectors and a digest of the weights."""
    magic, n, arcs_f, arcs_b = struct.unpack_from("<QIII", raw)
    if magic != _MAGIC:
        raise ValueError("not a RoutingKit contraction hierarchy")
    at = _HEADER

    def take(count: int) -> NDArray[np.uint32]:
        nonlocal at
        out = np.frombuffer(raw, dtype="<u4", count=count, offset=at).copy()
        at += 4 * count
        return out

    out: dict[str, NDArray[Any]] = {"rank": take(int(n))}
    for side, arcs in zip(_SIDES, (int(arcs_f), int(arcs_b)), strict=True):
        out[f"{side}/first_out"], out[f"{side}/head"] = take(int(n) + 1), take(arcs)
        out[f"{side}/weight"] = take(arcs)
        size = (arcs + 511) // 512 * 64
        bits = np.frombuffer(raw, dtype=np.uint8, count=size, offset=at)
        out[f"{side}/original"] = np.unpackbits(bits, bitorder="little")[:arcs].astype(bool)
        at += size
        out[f"{side}/first_arc"], out[f"{side}/second_arc"] = take(arcs), take(arcs)
    if at != len(raw):
        raise ValueError("a RoutingKit contraction hierarchy of unexpected length")
    out["weights_sha256"] = _digest(weights)
    return out


def join_native(saved: Mapping[str, NDArray[Any]], n: int, weights: NDArray[np.uint32]) -> bytes:
    """The RoutingKit file :func:`split_native` split (padding bits zero), after
    :func:`check_saved`: ValueError if ``saved`` is not a hierarchy of this graph."""
    check_saved(saved, n, weights)
    arcs = [len(saved[f"{side}/head"]) for side in _SIDES]
    parts = [struct.pack("<QIIIxxxx", _MAGIC, n, *arcs), _u4(saved["rank"])]
    for side, count in zip(_SIDES, arcs, strict=True):
        parts += [_u4(saved[f"{side}/{name}"]) for name in ("first_out", "head", "weight")]
        bits = np.packbits(np.asarray(saved[f"{side}/original"], dtype=bool), bitorder="little")
        parts.append(bits.tobytes().ljust((count + 511) // 512 * 64, b"\0"))
        parts += [_u4(saved[f"{side}/{name}"]) for name in ("first_arc", "second_arc")]
    return b"".join(parts)


def _u4(array: NDArray[Any]) -> bytes:
    return np.ascontiguousarray(array, dtype="<u4").tobytes()


def _digest(weights: NDArray[Any]) -> NDArray[np.uint8]:
    return np.frombuffer(hashlib.sha256(np.ascontiguousarray(weights).tobytes()).digest(), np.uint8)


def check_saved(saved: Mapping[str, NDArray[Any]], n: int, weights: NDArray[np.uint32]) -> None:
    """ValueError unless ``saved`` is a hierarchy of ``n`` nodes contracted on ``weights``
    that RoutingKit may load: every check of its ``check_contraction_hierarchy_for_errors``
    (permutation, CSR bounds, upward arcs, shortcut arcs and their weights)."""
    try:
        for name in _MEMBERS:  # each a vector of its type, before any value is read
            array, kinds = saved[name], "b" if name.endswith("original") else "iu"
            vector = isinstance(array, np.ndarray) and array.ndim == 1
            if not vector or array.dtype.kind not in kinds:
                raise ValueError(f"{name} is not a vector of its type")
        if not np.array_equal(saved["weights_sha256"], _digest(weights)):
            raise ValueError("contracted on other weights")
        rank = np.asarray(saved["rank"])
        if len(rank) != n or not np.array_equal(np.sort(rank), np.arange(n)):
            raise ValueError("rank is not a permutation of the nodes")
        sides = {side: _checked_side(saved, side, n) for side in _SIDES}
    except KeyError as exc:
        raise ValueError(f"a saved hierarchy without {exc}") from None
    (f_first, f_second, f_w, f_short), (b_first, b_second, b_w, b_short) = sides.values()
    arcs_f, arcs_b = len(f_w), len(b_w)
    for first, second, w, short, forward in (
        (f_first, f_second, f_w, f_short, True),
        (b_first, b_second, b_w, b_short, False),
    ):
        arc = np.flatnonzero(short)
        a, b = first[arc].astype(np.int64), second[arc].astype(np.int64)
        if (a >= arcs_b).any() or (b >= arcs_f).any():
            raise ValueError("a shortcut names an arc that does not exist")
        if ((b if forward else a) >= arc).any():
            raise ValueError("a shortcut names a later arc")
        if not np.array_equal(w[arc].astype(np.int64), b_w[a].astype(np.int64) + f_w[b]):
            raise ValueError("a shortcut's weight is not the sum of its arcs'")
        if (first[~short] == _INVALID).any() or (second[~short] >= n).any():
            raise ValueError("an original arc without its source")


def _checked_side(
    saved: Mapping[str, NDArray[Any]], side: str, n: int
) -> tuple[NDArray[np.uint32], NDArray[np.uint32], NDArray[np.uint32], NDArray[np.bool_]]:
    """One search graph's CSR checked: bounds, and every arc leading up in rank."""
    first_out = np.asarray(saved[f"{side}/first_out"], dtype=np.int64)
    head = np.asarray(saved[f"{side}/head"], dtype=np.int64)
    arcs = len(head)
    columns = [np.asarray(saved[f"{side}/{k}"]) for k in ("first_arc", "second_arc", "weight")]
    original = np.asarray(saved[f"{side}/original"], dtype=bool)
    if len(first_out) != n + 1 or first_out[0] != 0 or first_out[-1] != arcs:
        raise ValueError(f"{side} graph's offsets do not fit its arcs")
    counts = np.diff(first_out)
    if (counts < 0).any() or (head >= n).any():
        raise ValueError(f"{side} graph out of bounds")
    if any(len(c) != arcs for c in columns) or len(original) != arcs:
        raise ValueError(f"{side} graph's columns differ in length")
    tail = np.repeat(np.arange(n, dtype=np.int64), counts)
    if (head <= tail).any():
        raise ValueError(f"{side} graph has an arc that does not lead up")
    return columns[0], columns[1], columns[2], ~original
