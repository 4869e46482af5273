"""Load → network → route → draw: the one place that runs the stages in order.

The CLI, notebooks and scripts call :func:`route_scenario` and get a :class:`Run`
back, or :func:`map_page` and get the :class:`Page` it wrote; what a person should be
told comes back as data (``warnings``), never printed.

A map page is a pure function of its inputs (the scenario file, the options, the
network's source, this package's code and data, the installed libraries), so
:func:`map_page` remembers, per digest of those inputs, the digest of the page they
gave: when the file at the output path still has that digest, the page is up to date
and nothing is loaded, routed or drawn. The record holds digests and warnings only
(never the page), so a planted record can at most make a run skip writing a file that
is already, byte for byte, the page those inputs give.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from routes import columns, datasets, settings
from routes._io import (
    MAX_SCENARIO_BYTES,
    file_sha256,
    inside,
    read_entry,
    read_input,
    writable,
    write_atomically,
)
from routes.errors import RoutesError, ScenarioError, UsageError
from routes.options import NetworkChoice, Search, Weight

if TYPE_CHECKING:
    import geopandas as gpd

    from routes.routing.roads import RoadNetwork
    from routes.scenario import Scenario

__all__ = [
    "MAX_FLOWS_BYTES",
    "NO_CORRIDORS",
    "Page",
    "Run",
    "map_html",
    "map_page",
    "route_scenario",
    "snippet_path",
]

log = logging.getLogger("routes")

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
    avoid: str | Path | gpd.GeoDataFrame | None = None,
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
        GeoJSON polygons whose roads routes may not use (their file, or as read).
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
    corridors.check_alternatives(story, alternatives)
    G = networks.choose(story, osm=osm, network=network, offline=offline)
    areas = networks.avoid_areas(avoid) if isinstance(avoid, str | Path) else avoid
    roads = networks.avoiding(G, areas) if areas is not None else G
    if not max_snap_km > 0:
        raise UsageError(f"max_snap_km must be a positive distance, not {max_snap_km!r}")
    snap = max_snap_km * 1000
    corridors.choose_search(roads, _choice(Search, search, "search"), story, alternatives)
    routed = corridors.route_corridors(roads, story, weight=weight, max_snap_m=snap)
    extra = (
        corridors.alternative_routes(roads, story, alternatives, weight=weight, max_snap_m=snap)
        if alternatives
        else None
    )
    return Run(story, G, routed, extra, _warnings(routed), areas)


@dataclass(frozen=True)
class Page:
    """A map page :func:`map_page` wrote, or found up to date."""

    #: None when ``strict`` kept a map with unrouted corridors from being written.
    path: Path | None
    warnings: list[str]
    complete: bool
    #: The file at ``path`` was already the page these inputs give: nothing was redone.
    unchanged: bool = False
    #: The ``<iframe>`` snippet written beside an embeddable page (``embed``).
    snippet: Path | None = None


def map_page(
    scenario: str | Path,
    output: str | Path | None = None,
    *,
    draft: bool = False,
    cdn: bool = False,
    animate: bool = True,
    embed: bool = False,
    strict: bool = False,
    **routing: Any,
) -> Page:
    """Route a scenario (or a corpus's ``flows.parquet``) and write its HTML map.

    Parameters
    ----------
    scenario
        A scenario file, the id of a bundled one, ``"-"`` for stdin, or a ``routes
        corpus`` result's ``flows.parquet``.
    output
        The HTML file; by default ``<settings.output_dir>/<story id>.html``.
    draft
        Map a draft (undated, or with review items); refused otherwise.
    cdn, animate, embed
        See :func:`routes.render.save` and :func:`routes.render.build_map`; with ``embed``
        the ``<iframe>`` snippet is written beside the page (:func:`embed_snippet`).
    strict
        Write nothing when a corridor has no route.
    **routing
        The options of :func:`route_scenario`.
    """
    if output is not None:
        output = writable(output)  # a missing folder or a device, refused before any work
    name, data = _source_bytes(scenario)  # read once: what is hashed is what is mapped
    areas = _avoid_bytes(routing.get("avoid"))
    options = routing | {"draft": draft, "animate": animate, "cdn": cdn, "embed": embed}
    key = _inputs_key([data, areas], name, options)
    if key is not None and (page := _up_to_date(key, output)) is not None:
        snippet = snippet_path(page.path) if embed and page.path else None
        if snippet is None or snippet.is_file():
            return dataclasses.replace(page, snippet=snippet)
    if areas is not None:
        from routes import network as networks

        routing = routing | {"avoid": networks.avoid_areas(routing["avoid"], data=areas)}
    with _logged_warnings() as logged:
        drawn = _draftable(name, data, draft)
        text, warnings, complete = map_html(
            drawn, cdn=cdn, animate=animate, embed=embed, strict=strict, **routing
        )
        if text is None:
            return Page(None, warnings, complete=False)
        story = drawn.story.id
        html = text.encode("utf-8")
        if output is None:  # the default folder is the one folder made when missing
            settings.output_dir.mkdir(parents=True, exist_ok=True)
        path = write_atomically(output or inside(settings.output_dir, f"{story}.html"), html)
        snippet = None
        if embed:
            from routes import render

            text = render.snippet(drawn, path.name)
            snippet = write_atomically(snippet_path(path), text.encode("utf-8"))
    if key is not None:
        digest = hashlib.sha256(html).hexdigest()
        record = {"story": story, "page": digest, "logged": logged, "warnings": warnings,
                  "complete": complete}  # fmt: skip
        try:
            path_of = settings.cache_folder("pages") / f"{key}.json"
            write_atomically(path_of, json.dumps(record).encode("utf-8"), entry=True)
        except (OSError, RoutesError) as exc:  # the page is written; only the shortcut is lost
            log.info("cannot keep the record of %s in the cache (%s)", path, exc)
    return Page(path, warnings, complete, snippet=snippet)


def snippet_path(page: Path) -> Path:
    """Where ``routes map --embed`` writes the ``<iframe>`` snippet of ``page``: beside it,
    ``<name>.embed.html``."""
    return page.with_name(f"{page.stem}.embed.html")


def map_html(
    scenario: Scenario,
    *,
    cdn: bool = False,
    animate: bool = True,
    embed: bool = False,
    strict: bool = False,
    **routing: Any,
) -> tuple[str | None, list[str], bool]:
    """A scenario's map page as HTML (None when ``strict`` and a corridor has no route),
    the run's warnings, and whether every corridor has a route.

    A draft without corridors is drawn unrouted: its places, and its open movements as
    arrows at the end they have (no network is needed to draw them).
    """
    from routes import render

    if not scenario.corridors and scenario.is_draft:
        from routes.routing.corridors import unrouted

        m = render.build_map(scenario, unrouted(), animate=animate, embed=embed)
        return render.page(m, cdn=cdn), [], True
    run = route_scenario(scenario, **routing)
    if strict and not run.complete:
        return None, run.warnings, False
    m = render.build_map(
        run.scenario,
        run.corridors,
        alternatives=run.alternatives,
        network=run.network,
        avoided=run.avoided,
        animate=animate,
        embed=embed,
    )
    return render.page(m, cdn=cdn), run.warnings, run.complete


def _source_bytes(source: str | Path) -> tuple[str, bytes]:
    """The name and bytes of what ``routes map`` maps: stdin, a file, or a bundled scenario."""
    if str(source) == "-":
        return "<stdin>", read_input("-", limit=MAX_SCENARIO_BYTES, what="scenario")
    path = Path(source)
    if not os.path.lexists(path) and path.suffix not in {".yaml", ".yml", ".parquet"}:
        try:
            path = datasets.get_path(str(source))
        except ValueError as exc:
            raise ScenarioError(source, [str(exc)]) from None
    limit = MAX_FLOWS_BYTES if path.suffix.lower() == ".parquet" else MAX_SCENARIO_BYTES
    if not path.exists():
        raise ScenarioError(path, ["no such file; pass a scenario YAML file or a bundled id"])
    return str(path), read_input(path, limit=limit, what="scenario")


#: The largest ``flows.parquet`` read, bytes.
MAX_FLOWS_BYTES = 1 << 30


def _draftable(name: str, data: bytes, draft: bool) -> Scenario:
    """The scenario to map: a corpus's flows (drafts by nature) or a scenario, which
    must not be a draft unless ``draft``."""
    from routes import scenario as scenarios
    from routes.corpus import mapping

    if mapping.is_flows_file(name):
        return mapping.flows_scenario(name, data=data)
    story = scenarios.from_bytes(data, name=name)
    if story.is_draft and not draft:
        review = len(story.review)
        why = "has no date" if story.story.date is None else f"has {review} review items"
        raise UsageError(
            f"the scenario {story.story.id} is a draft: it {why}; pass --date to routes "
            "extract (or resolve the review items), or --draft to map it as a draft"
        )
    return story


@contextmanager
def _logged_warnings() -> Iterator[list[str]]:
    """The warnings the library logs inside the ``with``, as lines (to say again later),
    but those of a long step of this process (the ``routes.progress`` logger: "Indexing
    GeoNames cities500…"), which an up-to-date page does not take again."""
    said: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            if record.name != "routes.progress":
                said.append(record.getMessage())

    handler = Keep(logging.WARNING)
    log.addHandler(handler)
    try:
        yield said
    finally:
        log.removeHandler(handler)


def _avoid_bytes(avoid: str | Path | None) -> bytes | None:
    from routes.network import MAX_AVOID_BYTES

    return None if avoid is None else read_input(avoid, limit=MAX_AVOID_BYTES, what="areas")


def _inputs_key(read: list[bytes | None], name: str, options: dict[str, Any]) -> str | None:
    """A digest of everything a map page depends on (the scenario's and areas' bytes as they
    were read, so what is hashed is what is mapped); None when
    that includes the network (a download may happen) or stdin, never taken as unchanged."""
    network = NetworkChoice(options.get("network", NetworkChoice.AUTO))
    osm = options.get("osm")
    if name == "<stdin>" or (
        osm is None and network != NetworkChoice.PROXY and not options.get("offline")
    ):
        return None
    files = [Path(osm)] if osm is not None else []
    if not all(f.is_file() for f in files):
        return None
    # by their bytes: a file swapped for another of its size, its time kept, is another
    stored = sorted((p.name, file_sha256(p)) for p in settings.osm_dir.glob("*") if p.is_file())
    inputs = {
        "files": [
            *(hashlib.sha256(b).hexdigest() for b in read if b is not None),
            *(file_sha256(f) for f in files),
        ],
        "options": {k: str(v) for k, v in sorted(options.items())},
        "stored extracts": stored,
        "code": _code_digest(),
        "libraries": _installed(),
        "python": sys.version,
    }
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


#: The largest record of a page read back, bytes (a few warnings: a few kilobytes).
_RECORD_BYTES = 1 << 20


def _up_to_date(key: str, output: str | Path | None) -> Page | None:
    """The page these inputs gave last time, if the output file is still exactly it;
    the warnings its run gave are logged again. A record that is not what :func:`map_page`
    writes is ignored, said in a ``-v`` line."""
    record_path = settings.cache_dir / "pages" / f"{key}.json"
    try:
        data = read_entry(record_path, limit=_RECORD_BYTES)
        if data is None:
            return None
        record = json.loads(data)
        story, page, complete = record["story"], record["page"], record["complete"]
        logged, warnings = _lines(record["logged"]), _lines(record["warnings"])
        if not (isinstance(story, str) and isinstance(page, str)
                and re.fullmatch("[0-9a-f]{64}", page) and isinstance(complete, bool)):  # fmt: skip
            raise ValueError("not a record of a page")
        path = Path(output or inside(settings.output_dir, f"{story}.html"))
    except (OSError, ValueError, KeyError, TypeError, RoutesError) as exc:
        log.info("the record %s is unusable (%s); ignored", record_path, exc)
        return None
    if not path.is_file() or file_sha256(path) != page:
        return None
    log.info("%s is up to date (same scenario, options, network, code and libraries)", path)
    for line in logged:
        log.warning("%s", line)
    return Page(path, warnings, complete, unchanged=True)


def _lines(said: Any) -> list[str]:
    """Warnings read back from a record, printable characters only (no terminal controls);
    TypeError unless they are a list of text."""
    if not isinstance(said, list) or not all(isinstance(line, str) for line in said):
        raise TypeError("its warnings are not a list of text")
    return ["".join(c for c in line if c.isprintable()) for line in said]


def _code_digest() -> str:
    """This package's source and bundled data (stored OSM extracts aside: see the key)."""
    h = hashlib.sha256()
    roots = {Path(__file__).parent: "*.py", datasets.DATA_DIR: "*"}
    for root, pattern in roots.items():
        for path in sorted(root.rglob(pattern)):
            if path.is_file() and settings.osm_dir not in path.parents:
                h.update(f"{path.relative_to(root)}\0".encode())
                h.update(path.read_bytes())
    return h.hexdigest()


def _installed() -> list[str]:
    """Every installed distribution with its version (their ``.dist-info`` folder names)."""
    return sorted(
        entry.name
        for folder in sys.path
        if os.path.isdir(folder)
        for entry in os.scandir(folder)
        if entry.name.endswith((".dist-info", ".egg-info"))
    )


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
