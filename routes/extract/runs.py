"""Helpers on token runs: splitting a run around taken tokens, its longest place names."""

from __future__ import annotations

from collections.abc import Iterator

from routes.extract.lexicon import NAME_PREFIXES

__all__ = ["longest_parts", "outside", "spelled_out"]


def spelled_out(key: str) -> str:
    """``"st petersburg"`` → ``"saint petersburg"``: the abbreviated first word in full."""
    first, _, rest = key.partition(" ")
    full = {k.lower(): v for k, v in NAME_PREFIXES.items()}.get(first)
    return f"{full} {rest}" if full and rest else key


def outside(runs: Iterator[tuple[int, int]], covered: set[int]) -> Iterator[tuple[int, int]]:
    """The runs with the tokens in ``covered`` taken out (a run may split in two)."""
    for a, b in runs:
        start = None
        for k in range(a, b + 1):
            if k in covered:
                if start is not None:
                    yield start, k - 1
                start = None
            elif start is None:
                start = k
        if start is not None:
            yield start, b


def longest_parts(
    i: int, j: int, usable: set[tuple[int, int]]
) -> tuple[list[tuple[int, int]], bool]:
    """Place names in tokens ``i..j`` (at most 7 words each), longest first; and whether
    they cover every word."""
    parts: list[tuple[int, int]] = []
    whole = True
    x = i
    while x <= j:
        for y in range(min(j, x + 6), x - 1, -1):
            if (x, y) in usable:
                parts.append((x, y))
                x = y + 1
                break
        else:
            whole = False
            x += 1
    return parts, whole
