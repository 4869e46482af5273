"""A clause's legs: its places by role (origin, destination, via …) joined into movements.

The movement grammar (:mod:`routes.extract.grammar`) gives each place of a clause a role;
:func:`clause_legs` pairs each destination with its origins, and :func:`fetched_from`
turns the place vehicles went into into the origin of the people they carried away.
"""

from __future__ import annotations

from routes.extract.findings import Claim
from routes.extract.text import unique

__all__ = ["Role", "clause_legs", "fetched_from"]

#: A place's role in its clause: ``(role, refs, token)``.
Role = tuple[str, list[str], int]


def fetched_from(roles: list[Role], carry: int | None) -> list[Role]:
    """ "Buses entered X to take fighters to Y": the people vehicles went in for leave
    where the vehicles went (X → Y), when the clause names no origin of its own and the
    verb that carries them (``carry``) comes between the two."""
    dests = [n for n, (role, _refs, _k) in enumerate(roles) if role == "destination"]
    if len(dests) < 2 or any(role == "origin" for role, _refs, _k in roles) or carry is None:
        return roles
    if not roles[dests[0]][2] < carry < roles[dests[1]][2]:
        return roles
    first = dests[0]
    return [("origin", refs, k) if n == first else (role, refs, k)
            for n, (role, refs, k) in enumerate(roles)]  # fmt: skip


def clause_legs(
    roles: list[Role],
    stand_ins: list[str],
    previous: Claim | None,
    joined: set[int] = frozenset(),  # type: ignore[assignment]
) -> list[tuple[list[str], list[str], list[str], bool]]:
    """``(origins, destinations, via)`` of a clause: each destination with its origins.

    A destination takes the origins stated since the previous destination, else those right
    after it ("taken to B from A"), else every origin in the clause. "Continue to B" goes
    from where the clause stays ("stay in A"), else its last destination. With no origin, the
    people's place ("rebels in A"), then where the clause before it ended ("..., and then
    into B"), then the clause's frame ("In A, ...") or its people's country ("Venezuelans")
    stand in; the last item says whether the origin was stated. A destination ``joined`` to
    the one before it (the far end of a range, "from A to B" after "all over") goes on that
    end: one movement whose end is a list of places, as the movements set's guidelines
    count it.
    """
    via = unique(r for role, refs, _k in roles if role == "via" for r in refs)
    stays = unique(r for role, refs, _k in roles if role == "stay" for r in refs)
    onward = [(refs, k) for role, refs, k in roles if role == "onward"]
    main = [r for r in roles if r[0] in {"origin", "destination"}]
    legs: list[tuple[list[str], list[str], list[str], bool]] = []
    stated = any(role == "origin" for role, _refs, _k in main)
    if not stated:
        stand_in = unique(r for role, refs, _k in roles if role == "people_in" for r in refs)
        stand_in = stand_in or (previous.destinations[-1:] if previous else []) or stand_ins
        main = [("origin", stand_in, -1), *main] if stand_in else main
    dest_at = [n for n, r in enumerate(main) if r[0] == "destination"]
    every = unique(x for role, refs, _k in main if role == "origin" for x in refs)
    for i, n in enumerate(dest_at):
        if i and dest_at[i - 1] == n - 1 and main[n][2] in joined:  # "from Istanbul to Hakkari"
            origins, dests, _via, was_stated = legs[-1]
            legs[-1] = (origins, unique([*dests, *main[n][1]]), via, was_stated)
            continue
        lo = dest_at[i - 1] + 1 if i else 0
        hi = dest_at[i + 1] if i + 1 < len(dest_at) else len(main)
        before = [x for role, refs, _k in main[lo:n] if role == "origin" for x in refs]
        after = [x for role, refs, _k in main[n + 1 : hi] if role == "origin" for x in refs]
        legs.append((unique(before or after or every), main[n][1], via, stated))
    if not dest_at and every:
        legs.append((every, [], via, stated))
    for refs, k in onward:
        last = [d for role, ds, kk in main if role == "destination" and kk < k for d in ds]
        legs.append((stays or last[-1:], refs, [], False))
    return legs
